import { z } from '@hono/zod-openapi';
import {
  createActionItemSchema,
  membersResponseSchema,
  updateActionItemSchema,
} from '@pulsecheck/shared/action-items/schemas';
import { actionItemSchema } from '@pulsecheck/shared/results/schemas';
import { requireUser } from '../../auth/session';
import { routesOf } from '../../lib/openapi';
import { idParam } from '../../lib/params';
import { createRouter } from '../../lib/router';
import * as service from './service';

const route = routesOf('action-items');
const checkParams = z.object({ healthCheckId: idParam('Health check not found') });

export const actionItemRoutes = createRouter()
  .openapi(
    route(
      'get /health-checks/{healthCheckId}/members',
      "People of the check's workspace (owners and @mention suggestions), by name or e-mail",
      {
        params: checkParams,
        query: z.object({ q: z.string().max(100).optional() }),
        ok: [200, membersResponseSchema, 'Members'],
        errors: [401, 404],
      },
    ),
    async (c) => {
      const user = await requireUser(c);
      const healthCheckId = c.req.valid('param').healthCheckId;
      const members = await service.listMembers(c.get('deps').db, {
        userId: user.id,
        healthCheckId,
        query: c.req.valid('query').q,
      });
      return c.json({ members }, 200);
    },
  )
  .openapi(
    route(
      'post /health-checks/{healthCheckId}/action-items',
      'Add an action item; the owner and the mentioned are notified',
      {
        params: checkParams,
        body: createActionItemSchema,
        ok: [201, actionItemSchema, 'Created'],
        errors: [400, 401, 404],
      },
    ),
    async (c) => {
      const user = await requireUser(c);
      const healthCheckId = c.req.valid('param').healthCheckId;
      const item = await service.createActionItem(c.get('deps'), {
        actor: { id: user.id, name: user.name },
        healthCheckId,
        input: c.req.valid('json'),
      });
      return c.json(item, 201);
    },
  )
  .openapi(
    route(
      'patch /action-items/{actionItemId}',
      'Edit an action item (description, owner, due date, status, mentions)',
      {
        params: z.object({ actionItemId: idParam('Action item not found') }),
        body: updateActionItemSchema,
        ok: [200, actionItemSchema, 'Updated'],
        errors: [400, 401, 404],
      },
    ),
    async (c) => {
      const user = await requireUser(c);
      const actionItemId = c.req.valid('param').actionItemId;
      const item = await service.updateActionItem(c.get('deps'), {
        actor: { id: user.id, name: user.name },
        actionItemId,
        input: c.req.valid('json'),
      });
      return c.json(item, 200);
    },
  );
