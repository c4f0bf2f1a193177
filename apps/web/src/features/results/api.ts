import type {
  CreateActionItemInput,
  UpdateActionItemInput,
  WorkspacePerson,
} from '@pulsecheck/shared/action-items/schemas';
import type { ActionItem, ResultsResponse } from '@pulsecheck/shared/results/schemas';
import type { TrackerKind } from '@pulsecheck/shared/trackers/rules';
import { queryOptions } from '@tanstack/react-query';
import { apiDelete, apiGet, apiPatch, apiPost } from '@/lib/api-client';

const enc = encodeURIComponent;

export const resultsKeys = {
  results: (id: string) => ['results', id] as const,
  members: (id: string) => ['results', id, 'members'] as const,
};

export const resultsQuery = (id: string) =>
  queryOptions({
    queryKey: resultsKeys.results(id),
    queryFn: ({ signal }) => apiGet<ResultsResponse>(`/health-checks/${enc(id)}/results`, signal),
  });

export const membersQuery = (id: string) =>
  queryOptions({
    queryKey: resultsKeys.members(id),
    queryFn: ({ signal }) =>
      apiGet<{ members: WorkspacePerson[] }>(`/health-checks/${enc(id)}/members`, signal).then(
        (r) => r.members,
      ),
    staleTime: 60_000,
  });

export const csvUrl = (id: string) => `/api/health-checks/${enc(id)}/results/csv`;

export const planActions = (id: string) => apiPost<{ phase: 'plan' }>(`/health-checks/${enc(id)}/plan`);

export const scheduleFollowUp = (id: string, date: string) =>
  apiPost<{ date: string; icsUrl: string }>(`/health-checks/${enc(id)}/follow-up`, { date });

export const calendarUrl = (id: string, date: string) =>
  `/api/health-checks/${enc(id)}/follow-up/calendar?date=${enc(date)}`;

export const createActionItem = (id: string, input: CreateActionItemInput) =>
  apiPost<ActionItem>(`/health-checks/${enc(id)}/action-items`, input);

export const updateActionItem = (itemId: string, input: UpdateActionItemInput) =>
  apiPatch<ActionItem>(`/action-items/${enc(itemId)}`, input);

/** The tracker the check's action items can go to (issue 36), or null: then no tracker control shows. */
export const checkTrackerQuery = (id: string) =>
  queryOptions({
    queryKey: [...resultsKeys.results(id), 'tracker'] as const,
    queryFn: ({ signal }) =>
      apiGet<{ tracker: { kind: TrackerKind; label: string } | null }>(
        `/health-checks/${enc(id)}/tracker`,
        signal,
      ),
    staleTime: 60_000,
  });

export const trackerRepositoriesQuery = (itemId: string) =>
  queryOptions({
    queryKey: ['tracker-repositories', itemId] as const,
    queryFn: ({ signal }) =>
      apiGet<{ repositories: { id: string; name: string }[] }>(
        `/action-items/${enc(itemId)}/tracker-repositories`,
        signal,
      ).then((r) => r.repositories),
    staleTime: 60_000,
    retry: false,
  });

export const createTrackerIssue = (itemId: string, input: { repository: string; assignOwner: boolean }) =>
  apiPost<ActionItem>(`/action-items/${enc(itemId)}/tracker-issue`, input);
export const linkTrackerIssue = (itemId: string, url: string) =>
  apiPost<ActionItem>(`/action-items/${enc(itemId)}/tracker-link`, { url });
export const unlinkTrackerIssue = (itemId: string) =>
  apiDelete<ActionItem>(`/action-items/${enc(itemId)}/tracker-issue`);
