import type {
  JoinInfo,
  JoinResponse,
  MyHealthCheck,
  Participation,
  ProgressResponse,
  Responses,
  SaveResponsesResult,
  SubmitResult,
} from '@pulsecheck/shared/participation/contract';
import type { ParticipantSignupInput } from '@pulsecheck/shared/auth/schemas';
import type { Mailed } from '@pulsecheck/shared/mail/delivery';
import { queryOptions } from '@tanstack/react-query';
import { apiGet, apiPost, apiPut } from '@/lib/api-client';

const enc = encodeURIComponent;

export const participationKeys = {
  all: ['participation'] as const,
  check: (id: string, preview: boolean) => ['participation', id, preview ? 'preview' : 'own'] as const,
  progress: (id: string) => ['participation', id, 'progress'] as const,
  joinInfo: (id: string) => ['participation', id, 'join-info'] as const,
  mine: ['participation', 'mine'] as const,
};

export const participationQuery = (id: string, preview: boolean) =>
  queryOptions({
    queryKey: participationKeys.check(id, preview),
    queryFn: async ({ signal, client }) => {
      const data = await apiGet<Participation>(
        `/health-checks/${enc(id)}/participation${preview ? '?preview=1' : ''}`,
        signal,
      );
      // The read carries the phase and team progress too: they seed the progress poll, whose first request then
      // waits for its interval instead of repeating this one (and re-rendering the screen as it loads).
      client.setQueryData<ProgressResponse>(participationKeys.progress(id), {
        phase: data.healthCheck.phase,
        teamProgress: data.teamProgress,
      });
      return data;
    },
    // Fresh on every visit; the 2 s only let the screen use the answer its route loader has just fetched.
    staleTime: 2_000,
    refetchOnWindowFocus: false,
  });

/** Team progress and phase, polled every 10 s (spec section 7) and refreshed by live events. */
export const progressQuery = (id: string) =>
  queryOptions({
    queryKey: participationKeys.progress(id),
    queryFn: ({ signal }) => apiGet<ProgressResponse>(`/health-checks/${enc(id)}/progress`, signal),
    refetchInterval: 10_000,
  });

export const joinInfoQuery = (id: string) =>
  queryOptions({
    queryKey: participationKeys.joinInfo(id),
    queryFn: ({ signal }) => apiGet<JoinInfo>(`/join/${enc(id)}`, signal),
    retry: false,
  });

export const myHealthChecksQuery = () =>
  queryOptions({
    queryKey: participationKeys.mine,
    queryFn: ({ signal }) => apiGet<{ healthChecks: MyHealthCheck[] }>('/my/health-checks', signal),
  });

export const joinHealthCheck = (id: string) => apiPost<JoinResponse>(`/health-checks/${enc(id)}/join`);
export const saveResponses = (id: string, responses: Responses) =>
  apiPut<SaveResponsesResult>(`/health-checks/${enc(id)}/responses`, responses);
export const submitResponses = (id: string, responses: Responses) =>
  apiPost<SubmitResult>(`/health-checks/${enc(id)}/submit`, responses);
export const signUpParticipant = (body: ParticipantSignupInput) =>
  apiPost<Mailed>('/signup/participant', body);
