import type {
  InvitationInfo,
  InviteMemberInput,
  Member,
  MembersResponse,
  UpdateMemberInput,
} from '@pulsecheck/shared/team/schemas';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiDelete, apiGet, apiPatch, apiPost, apiPut } from '@/lib/api-client';

const enc = encodeURIComponent;

const teamQuery = (workspaceId: string) =>
  queryOptions({
    queryKey: ['team', workspaceId],
    queryFn: ({ signal }) => apiGet<MembersResponse>(`/workspaces/${enc(workspaceId)}/members`, signal),
  });

const departmentsQuery = (workspaceId: string) =>
  queryOptions({
    queryKey: ['team', workspaceId, 'departments'],
    queryFn: ({ signal }) =>
      apiGet<{ departments: string[] }>(`/workspaces/${enc(workspaceId)}/departments`, signal),
  });

export function useTeam(workspaceId: string | null) {
  return useQuery({ ...teamQuery(workspaceId ?? ''), enabled: Boolean(workspaceId) });
}

export function useDepartments(workspaceId: string, enabled: boolean) {
  return useQuery({ ...departmentsQuery(workspaceId), enabled });
}

function useTeamMutation<TVariables, TResult>(
  workspaceId: string,
  run: (variables: TVariables) => Promise<TResult>,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['team', workspaceId] }),
  });
}

export const useInvite = (workspaceId: string) =>
  useTeamMutation(workspaceId, (body: InviteMemberInput) =>
    apiPost<{ member: Member }>(`/workspaces/${enc(workspaceId)}/invitations`, body),
  );

export const useResend = (workspaceId: string) =>
  useTeamMutation(workspaceId, (memberId: string) =>
    apiPost<{ member: Member }>(`/workspaces/${enc(workspaceId)}/invitations/${enc(memberId)}/resend`),
  );

export const useRevoke = (workspaceId: string) =>
  useTeamMutation(workspaceId, (memberId: string) =>
    apiDelete(`/workspaces/${enc(workspaceId)}/invitations/${enc(memberId)}`),
  );

export const useUpdateMember = (workspaceId: string) =>
  useTeamMutation(workspaceId, ({ memberId, ...body }: UpdateMemberInput & { memberId: string }) =>
    apiPatch<{ member: Member }>(`/workspaces/${enc(workspaceId)}/members/${enc(memberId)}`, body),
  );

export const useSetOrganizationAdmin = (workspaceId: string) =>
  useTeamMutation(
    workspaceId,
    ({ memberId, organizationAdmin }: { memberId: string; organizationAdmin: boolean }) =>
      apiPut<{ member: Member }>(
        `/workspaces/${enc(workspaceId)}/members/${enc(memberId)}/organization-admin`,
        { organizationAdmin },
      ),
  );

export const useRemoveMember = (workspaceId: string) =>
  useTeamMutation(workspaceId, (memberId: string) =>
    apiDelete(`/workspaces/${enc(workspaceId)}/members/${enc(memberId)}`),
  );

export const invitationQuery = (token: string) =>
  queryOptions({
    queryKey: ['invitation', token],
    queryFn: ({ signal }) => apiGet<InvitationInfo>(`/invitations/${enc(token)}`, signal),
    retry: false,
  });

export const acceptInvitation = (token: string) =>
  apiPost<{ workspaceId: string; redirectTo: string }>(`/invitations/${enc(token)}/accept`);
export const acceptWithSignup = (token: string, body: unknown) =>
  apiPost<{ workspaceId: string; redirectTo: string }>(`/invitations/${enc(token)}/accept-signup`, body);
