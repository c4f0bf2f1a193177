import { z } from '@hono/zod-openapi';
import {
  followUpCandidatesResponseSchema,
  createActionItemSchema,
  membersResponseSchema,
  updateActionItemSchema,
} from '@pulsecheck/shared/action-items/schemas';
import { actionItemSchema } from '@pulsecheck/shared/results/schemas';
import { routes } from '../../lib/openapi';
import * as followUps from '../follow-ups/service';
import * as service from './service';

const actorOf = (user: { id: string; name: string }) => ({ id: user.id, name: user.name });

export const actionItemRoutes = routes('action-items')
  .call(
    'get /health-checks/{healthCheckId}/members',
    "People of the check's workspace (owners and @mention suggestions), by name or e-mail",
    {
      query: z.object({ q: z.string().max(100).optional() }),
      ok: [200, membersResponseSchema, 'Members'],
      scope: 'members:read',
    },
    async ({ db }, { q, ...input }) => ({ members: await service.listMembers(db, { ...input, query: q }) }),
  )
  .call(
    'get /health-checks/{healthCheckId}/action-items',
    "The check's action items (those who oversee the check)",
    {
      ok: [200, z.object({ actionItems: z.array(actionItemSchema) }), 'Action items'],
      scope: 'action-items:read',
    },
    ({ db }, input) => service.listCheckActionItems(db, input),
  )
  .call(
    'post /health-checks/{healthCheckId}/action-items',
    'Add an action item; the owner and the mentioned are notified',
    { body: createActionItemSchema, ok: [201, actionItemSchema, 'Created'], scope: 'action-items:write' },
    (deps, { healthCheckId, userId: _, by: _by, ...input }, user) =>
      service.createActionItem(deps, { actor: actorOf(user), healthCheckId, input }),
  )
  .call(
    'patch /action-items/{actionItemId}',
    'Edit an action item (description, owner, due date, status, mentions)',
    { body: updateActionItemSchema, ok: [200, actionItemSchema, 'Updated'], scope: 'action-items:write' },
    (deps, { actionItemId, userId: _, by: _by, ...input }, user) =>
      service.updateActionItem(deps, { actor: actorOf(user), actionItemId, input }),
  )
  .call(
    'get /workspaces/{workspaceId}/follow-up-actions',
    'Done action items of the workspace a new check may ask about (workspace admins and members)',
    {
      scope: 'action-items:read',
      ok: [200, followUpCandidatesResponseSchema, 'Done action items not yet asked about'],
    },
    async ({ db }, input) => ({ actions: await followUps.listCandidates(db, input) }),
  ).router;
