import type { LaunchLoop, LoopTemplate } from '@pulsecheck/shared/loops/schemas';
import type { MembersResponse } from '@pulsecheck/shared/team/schemas';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiPost } from '@/lib/api-client';

const enc = encodeURIComponent;

// PROVISIONAL until the loops contract lands (packages/shared/src/loops/contract.ts).
export function useLoopTemplate(templateId: string | null) {
  return useQuery({
    queryKey: ['loop-template', templateId],
    queryFn: ({ signal }) =>
      apiGet<{ template: LoopTemplate }>(`/loop-templates/${enc(templateId ?? '')}`, signal),
    select: (data) => data.template,
    enabled: templateId !== null,
    retry: false,
  });
}

export function useLaunchLoop() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: LaunchLoop) => apiPost<{ loop: { id: string } }>('/loops', input),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['dashboard'] }),
  });
}

/** The workspace's members, for choosing an audience. */
export function useWorkspaceMembers(workspaceId: string) {
  return useQuery({
    queryKey: ['team', workspaceId],
    queryFn: ({ signal }) => apiGet<MembersResponse>(`/workspaces/${enc(workspaceId)}/members`, signal),
    select: (data) => data.members,
  });
}
