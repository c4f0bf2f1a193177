import { LIVE_EVENT, topics } from '@pulsecheck/shared/realtime/topics';
import type { DashboardResponse } from '@pulsecheck/shared/dashboard/schemas';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
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

/**
 * Refetches the dashboard whenever a health check of the workspace changes (launch, join, submit, phase), and when
 * the stream reconnects (what changed meanwhile was missed). The stream's first `ready` is the screen opening it
 * right after reading the dashboard: like a screen mounting, it refetches only data older than the client's
 * `staleTime`, so the dashboard is read once on load, not twice.
 */
export function useLiveDashboard(workspaceId: string | undefined) {
  const queryClient = useQueryClient();
  const opened = useRef(false);
  useEffect(() => {
    opened.current = false;
  }, [workspaceId]);
  const refetch = useCallback(
    (event: { type: string }) => {
      const first = event.type === LIVE_EVENT.ready && !opened.current;
      if (event.type === LIVE_EVENT.ready) opened.current = true;
      void (first
        ? queryClient.refetchQueries({ queryKey: dashboardQueryKey, stale: true })
        : queryClient.invalidateQueries({ queryKey: dashboardQueryKey }));
    },
    [queryClient],
  );
  useLiveEvents(workspaceId ? [topics.workspace(workspaceId)] : [], refetch, Boolean(workspaceId));
}
