import type {
  CreateActionItemInput,
  UpdateActionItemInput,
  WorkspacePerson,
} from '@pulsecheck/shared/action-items/schemas';
import type { ActionItem, ResultsResponse } from '@pulsecheck/shared/results/schemas';
import { queryOptions } from '@tanstack/react-query';
import { apiGet, apiPatch, apiPost } from '@/lib/api-client';

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
