import { topics } from '@pulsecheck/shared/realtime/topics';
import type {
  HealthCheckDetail,
  HealthCheckSettings,
  LaunchInput,
  LaunchResponse,
  ParticipantRow,
  SlackShare,
} from '@pulsecheck/shared/health-checks/schemas';
import type { Phase } from '@pulsecheck/shared/health-checks/rules';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { apiGet, apiPost, apiPut } from '@/lib/api-client';
import { useLiveEvents } from '@/lib/live-events';
import { templateQuery } from '@/lib/templates';

const healthCheckKey = (id: string) => ['health-check', id] as const;
const participantsKey = (id: string) => ['health-check', id, 'participants'] as const;

export const useTemplate = (templateId: string) => useQuery(templateQuery(templateId));

export function useLaunch() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: LaunchInput) => apiPost<LaunchResponse>('/health-checks', input),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['dashboard'] });
      void queryClient.invalidateQueries({ queryKey: ['templates'] });
    },
  });
}

export function useHealthCheck(id: string) {
  return useQuery({
    queryKey: healthCheckKey(id),
    queryFn: ({ signal }) => apiGet<{ healthCheck: HealthCheckDetail }>(`/health-checks/${id}`, signal),
    select: (data) => data.healthCheck,
  });
}

export function useParticipants(id: string) {
  return useQuery({
    queryKey: participantsKey(id),
    queryFn: ({ signal }) =>
      apiGet<{ participants: ParticipantRow[] }>(`/health-checks/${id}/participants`, signal),
    select: (data) => data.participants,
  });
}

/** Refetches the check and its participants when anything about it changes (join, submit, phase). */
export function useLiveHealthCheck(id: string) {
  const queryClient = useQueryClient();
  const refetch = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: healthCheckKey(id) });
  }, [queryClient, id]);
  useLiveEvents([topics.healthCheck(id)], refetch);
}

export function useChangePhase(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (to: Phase) =>
      apiPost<{ phase: Phase; status: string }>(`/health-checks/${id}/phase`, { to }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: healthCheckKey(id) }),
  });
}

export function useSaveSettings(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: HealthCheckSettings) =>
      apiPut<{ settings: HealthCheckSettings }>(`/health-checks/${id}/settings`, settings),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: healthCheckKey(id) }),
  });
}

/** Whether the Share dialog's 'Slack' posts to the caller's channel (read while the dialog is open). */
export function useSlackShare(id: string, enabled: boolean) {
  return useQuery({
    queryKey: ['health-check', id, 'slack-share'] as const,
    queryFn: ({ signal }) => apiGet<SlackShare>(`/health-checks/${id}/share/slack`, signal),
    enabled,
  });
}

export function usePostToSlack(id: string) {
  return useMutation({ mutationFn: () => apiPost<SlackShare>(`/health-checks/${id}/share/slack`) });
}
