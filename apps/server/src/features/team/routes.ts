import { okSchema } from '@pulsecheck/shared/auth/schemas';
import {
  acceptResponseSchema,
  acceptSignupSchema,
  departmentsResponseSchema,
  invitationInfoSchema,
  inviteMemberSchema,
  memberResponseSchema,
  membersResponseSchema,
  organizationAdminSchema,
  updateMemberSchema,
} from '@pulsecheck/shared/team/schemas';
import { setCookies } from '../../auth/session';
import { authHeaders } from '../../lib/client-ip';
import { routes } from '../../lib/openapi';
import { enforceLimit, LIMITS } from '../../lib/rate-limit';
import * as acceptance from './invitation-acceptance';
import * as service from './service';

export const teamRoutes = routes('team')
  .call(
    'get /workspaces/{workspaceId}/members',
    'Admins, members and pending invitations of a workspace (admins and members may look)',
    { scope: 'members:read', ok: [200, membersResponseSchema, 'The team'] },
    service.listTeam,
  )
  .call(
    'get /workspaces/{workspaceId}/departments',
    'Department names used in the workspace',
    { scope: 'members:read', ok: [200, departmentsResponseSchema, 'Departments'] },
    async (deps, input) => ({ departments: await service.listDepartments(deps, input) }),
  )
  .call(
    'post /workspaces/{workspaceId}/invitations',
    'Invite someone by e-mail (admins); the member stays pending until they accept',
    { body: inviteMemberSchema, ok: [201, memberResponseSchema, 'Invitation sent'], errors: [403, 409, 429] },
    async (deps, input) => ({ member: await service.inviteMember(deps, input) }),
  )
  .call(
    'post /workspaces/{workspaceId}/invitations/{memberId}/resend',
    'Send a pending invitation again with a new link (admins)',
    { ok: [200, memberResponseSchema, 'Sent again'], errors: [403, 429] },
    async (deps, input) => ({ member: await service.resendInvitation(deps, input) }),
  )
  .call(
    'delete /workspaces/{workspaceId}/invitations/{memberId}',
    'Revoke a pending invitation (admins)',
    { ok: [200, okSchema, 'Revoked'], errors: [403] },
    service.revokeInvitation,
  )
  .call(
    'patch /workspaces/{workspaceId}/members/{memberId}',
    "Change a member's role label, access or department (admins; the last admin stays admin)",
    { body: updateMemberSchema, ok: [200, memberResponseSchema, 'Updated'], errors: [403, 409] },
    async (deps, input) => ({ member: await service.updateMember(deps, input) }),
  )
  .call(
    'put /workspaces/{workspaceId}/members/{memberId}/organization-admin',
    "Appoint or remove an organisation admin (the organisation's owner only; 404 for anyone else)",
    { body: organizationAdminSchema, ok: [200, memberResponseSchema, 'Saved'], errors: [409] },
    async (deps, input) => ({ member: await service.setOrganizationAdmin(deps, input) }),
  )
  .call(
    'delete /workspaces/{workspaceId}/members/{memberId}',
    'Remove a member from the workspace (admins; never the last admin)',
    { ok: [200, okSchema, 'Removed'], errors: [403, 409] },
    service.removeMember,
  )
  .handle(
    'get /invitations/{token}',
    'What an invitation link is for (public; the token is the secret)',
    { public: true, ok: [200, invitationInfoSchema, 'The invitation'] },
    async (c) => c.json(await acceptance.getInvitation(c.get('deps'), c.req.valid('param').token), 200),
  )
  .call(
    'post /invitations/{token}/accept',
    'Accept as the signed-in user with the invited address; makes the workspace active',
    { ok: [200, acceptResponseSchema, 'Accepted'], errors: [403, 409] },
    (deps, { token }, user) => acceptance.acceptInvitation(deps, { token, user }),
  )
  .handle(
    'post /invitations/{token}/accept-signup',
    'Accept as a new person: creates the account for the invited address and signs it in',
    {
      public: true,
      body: acceptSignupSchema,
      ok: [200, acceptResponseSchema, 'Accepted and signed in'],
      errors: [403, 409, 429],
    },
    async (c) => {
      await enforceLimit(c, LIMITS.signup);
      const { cookies, ...accepted } = await acceptance.acceptWithSignup(c.get('deps'), {
        ...c.req.valid('json'),
        ...c.req.valid('param'),
        headers: authHeaders(c),
      });
      setCookies(c, cookies);
      return c.json(accepted, 200);
    },
  ).router;
