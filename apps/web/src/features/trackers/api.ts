import type { TrackerConnection, TrackerKind } from '@pulsecheck/shared/trackers/rules';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiDelete, apiGet, apiPatch, apiPut } from '@/lib/api-client';

const path = (workspaceId: string) => `/workspaces/${encodeURIComponent(workspaceId)}/tracker-connection`;
const key = (workspaceId: string) => ['tracker-connection', workspaceId] as const;

export const useTrackerConnection = (workspaceId: string) =>
  useQuery({
    queryKey: key(workspaceId),
    queryFn: ({ signal }) => apiGet<{ connection: TrackerConnection | null }>(path(workspaceId), signal),
  });

export function useConnectTracker(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { kind: TrackerKind; baseUrl: string; token: string; closeMarksDone: boolean }) =>
      apiPut<{ connection: TrackerConnection; webhookSecret: string | null; message: string }>(
        path(workspaceId),
        input,
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: key(workspaceId) }),
  });
}

export function useTrackerSettings(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { closeMarksDone?: boolean; webhookSecret?: string }) =>
      apiPatch<{ connection: TrackerConnection }>(path(workspaceId), input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: key(workspaceId) }),
  });
}

export function useDisconnectTracker(workspaceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiDelete(path(workspaceId)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: key(workspaceId) }),
  });
}
