import { createRoute, z } from '@hono/zod-openapi';
import { okSchema } from '@pulsecheck/shared/auth/schemas';
import {
  acceptResponseSchema,
  acceptSignupSchema,
  departmentsResponseSchema,
  invitationInfoSchema,
  inviteMemberSchema,
  memberResponseSchema,
  membersResponseSchema,
  updateMemberSchema,
} from '@pulsecheck/shared/team/schemas';
import { requireUser } from '../../auth/session';
import { authHeaders } from '../../lib/client-ip';
import { errorResponses, jsonBody, jsonResponse } from '../../lib/openapi';
import { enforceLimit, LIMITS } from '../../lib/rate-limit';
import { idParam } from '../../lib/params';
import { createRouter } from '../../lib/router';
import * as acceptance from './invitation-acceptance';
import * as service from './service';

const tags = ['team'];
const workspaceParams = z.object({ workspaceId: idParam('Workspace not found') });
const memberParams = workspaceParams.extend({ memberId: idParam('Member not found') });
const tokenParams = z.object({ token: z.string().min(10).max(200) });

export const teamRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/workspaces/{workspaceId}/members',
      tags,
      summary: 'Admins, members and pending invitations of a workspace (admins and members may look)',
      request: { params: workspaceParams },
      responses: { 200: jsonResponse(membersResponseSchema, 'The team'), ...errorResponses(401, 404) },
    }),
    async (c) => {
      const user = await requireUser(c);
      const { workspaceId } = c.req.valid('param');
      return c.json(await service.listTeam(c.get('deps'), { userId: user.id, workspaceId }), 200);
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/workspaces/{workspaceId}/departments',
      tags,
      summary: 'Department names used in the workspace',
      request: { params: workspaceParams },
      responses: { 200: jsonResponse(departmentsResponseSchema, 'Departments'), ...errorResponses(401, 404) },
    }),
    async (c) => {
      const user = await requireUser(c);
      const { workspaceId } = c.req.valid('param');
      const departments = await service.listDepartments(c.get('deps'), { userId: user.id, workspaceId });
      return c.json({ departments }, 200);
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/workspaces/{workspaceId}/invitations',
      tags,
      summary: 'Invite someone by e-mail (admins); the member stays pending until they accept',
      request: { params: workspaceParams, ...jsonBody(inviteMemberSchema) },
      responses: {
        201: jsonResponse(memberResponseSchema, 'Invitation sent'),
        ...errorResponses(400, 401, 403, 404, 409, 429),
      },
    }),
    async (c) => {
      const user = await requireUser(c);
      const { workspaceId } = c.req.valid('param');
      const member = await service.inviteMember(c.get('deps'), {
        userId: user.id,
        workspaceId,
        ...c.req.valid('json'),
      });
      return c.json({ member }, 201);
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/workspaces/{workspaceId}/invitations/{memberId}/resend',
      tags,
      summary: 'Send a pending invitation again with a new link (admins)',
      request: { params: memberParams },
      responses: {
        200: jsonResponse(memberResponseSchema, 'Sent again'),
        ...errorResponses(401, 403, 404, 429),
      },
    }),
    async (c) => {
      const user = await requireUser(c);
      const member = await service.resendInvitation(c.get('deps'), {
        userId: user.id,
        ...c.req.valid('param'),
      });
      return c.json({ member }, 200);
    },
  )
  .openapi(
    createRoute({
      method: 'delete',
      path: '/workspaces/{workspaceId}/invitations/{memberId}',
      tags,
      summary: 'Revoke a pending invitation (admins)',
      request: { params: memberParams },
      responses: { 200: jsonResponse(okSchema, 'Revoked'), ...errorResponses(401, 403, 404) },
    }),
    async (c) => {
      const user = await requireUser(c);
      await service.revokeInvitation(c.get('deps'), { userId: user.id, ...c.req.valid('param') });
      return c.json({ ok: true as const }, 200);
    },
  )
  .openapi(
    createRoute({
      method: 'patch',
      path: '/workspaces/{workspaceId}/members/{memberId}',
      tags,
      summary: "Change a member's role label, access or department (admins; the last admin stays admin)",
      request: { params: memberParams, ...jsonBody(updateMemberSchema) },
      responses: {
        200: jsonResponse(memberResponseSchema, 'Updated'),
        ...errorResponses(400, 401, 403, 404, 409),
      },
    }),
    async (c) => {
      const user = await requireUser(c);
      const member = await service.updateMember(c.get('deps'), {
        userId: user.id,
        ...c.req.valid('param'),
        ...c.req.valid('json'),
      });
      return c.json({ member }, 200);
    },
  )
  .openapi(
    createRoute({
      method: 'delete',
      path: '/workspaces/{workspaceId}/members/{memberId}',
      tags,
      summary: 'Remove a member from the workspace (admins; never the last admin)',
      request: { params: memberParams },
      responses: { 200: jsonResponse(okSchema, 'Removed'), ...errorResponses(401, 403, 404, 409) },
    }),
    async (c) => {
      const user = await requireUser(c);
      await service.removeMember(c.get('deps'), { userId: user.id, ...c.req.valid('param') });
      return c.json({ ok: true as const }, 200);
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/invitations/{token}',
      tags,
      summary: 'What an invitation link is for (public; the token is the secret)',
      request: { params: tokenParams },
      responses: { 200: jsonResponse(invitationInfoSchema, 'The invitation'), ...errorResponses(404) },
    }),
    async (c) => c.json(await acceptance.getInvitation(c.get('deps'), c.req.valid('param').token), 200),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/invitations/{token}/accept',
      tags,
      summary: 'Accept as the signed-in user with the invited address; makes the workspace active',
      request: { params: tokenParams },
      responses: {
        200: jsonResponse(acceptResponseSchema, 'Accepted'),
        ...errorResponses(401, 403, 404, 409),
      },
    }),
    async (c) => {
      const user = await requireUser(c);
      return c.json(
        await acceptance.acceptInvitation(c.get('deps'), { token: c.req.valid('param').token, user }),
        200,
      );
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/invitations/{token}/accept-signup',
      tags,
      summary: 'Accept as a new person: creates the account for the invited address and signs it in',
      request: { params: tokenParams, ...jsonBody(acceptSignupSchema) },
      responses: {
        200: jsonResponse(acceptResponseSchema, 'Accepted and signed in'),
        ...errorResponses(400, 404, 409, 429),
      },
    }),
    async (c) => {
      await enforceLimit(c, LIMITS.signup);
      const { fullName, password } = c.req.valid('json');
      const result = await acceptance.acceptWithSignup(c.get('deps'), {
        token: c.req.valid('param').token,
        fullName,
        password,
        headers: authHeaders(c),
      });
      for (const cookie of result.cookies) c.header('Set-Cookie', cookie, { append: true });
      return c.json({ workspaceId: result.workspaceId, redirectTo: result.redirectTo }, 200);
    },
  );
