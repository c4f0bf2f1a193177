import type { WorkspacesResponse } from '@pulsecheck/shared/workspaces/schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from './api-client';

/** The user's workspaces and the active one (GET /workspaces), read by the layout and the configure screens. */
export const workspacesQuery = queryOptions({
  queryKey: ['workspaces'] as const,
  queryFn: ({ signal }) => apiGet<WorkspacesResponse>('/workspaces', signal),
});

/** The active workspace, or null when the user has none. */
export function useActiveWorkspace() {
  return useQuery({
    ...workspacesQuery,
    select: (data) => data.workspaces.find((w) => w.id === data.activeWorkspaceId) ?? null,
  });
}
