import { topics } from '@pulsecheck/shared/realtime/topics';
import type { DashboardResponse } from '@pulsecheck/shared/dashboard/schemas';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { apiGet } from '@/lib/api-client';
import { useLiveEvents } from '@/lib/live-events';

const dashboardQueryKey = ['dashboard'] as const;

/** The dashboard's data; the route's loader starts it while the screen's code loads. */
export const dashboardQuery = queryOptions({
  queryKey: dashboardQueryKey,
  queryFn: ({ signal }) => apiGet<DashboardResponse>('/dashboard', signal),
});

export function useDashboard() {
  return useQuery(dashboardQuery);
}

/** Refetches the dashboard whenever a health check of the workspace changes (launch, join, submit, phase). */
export function useLiveDashboard(workspaceId: string | undefined) {
  const queryClient = useQueryClient();
  const refetch = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: dashboardQueryKey });
  }, [queryClient]);
  useLiveEvents(workspaceId ? [topics.workspace(workspaceId)] : [], refetch, Boolean(workspaceId));
}
