import type { Workspace, WorkspacesResponse } from '@pulsecheck/shared/workspaces/schemas';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiPatch, apiPost, apiPut } from '@/lib/api-client';
import { sessionQueryKey } from '@/lib/session';
import { workspacesQuery } from '@/lib/workspaces';

const workspacesQueryKey = workspacesQuery.queryKey;

export function useWorkspaces() {
  return useQuery(workspacesQuery);
}

/** Anything that shows workspace data refetches after a workspace change. */
function useRefreshAfterWorkspaceChange() {
  const queryClient = useQueryClient();
  return async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: workspacesQueryKey }),
      queryClient.invalidateQueries({ queryKey: sessionQueryKey }),
      queryClient.invalidateQueries({ queryKey: ['dashboard'] }),
      queryClient.invalidateQueries({ queryKey: ['templates'] }),
    ]);
  };
}

export function useCreateWorkspace() {
  const refresh = useRefreshAfterWorkspaceChange();
  return useMutation({
    mutationFn: (name: string) => apiPost<{ workspace: Workspace }>('/workspaces', { name }),
    onSuccess: refresh,
  });
}

export function useRenameWorkspace() {
  const refresh = useRefreshAfterWorkspaceChange();
  return useMutation({
    mutationFn: ({ id, name }: { id: string; name: string }) =>
      apiPatch<{ workspace: Workspace }>(`/workspaces/${id}`, { name }),
    onSuccess: refresh,
  });
}

export function useSwitchWorkspace() {
  const refresh = useRefreshAfterWorkspaceChange();
  return useMutation({
    mutationFn: (workspaceId: string) => apiPut<WorkspacesResponse>('/workspaces/active', { workspaceId }),
    onSuccess: refresh,
  });
}
