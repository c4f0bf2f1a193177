import { createRoute, z } from '@hono/zod-openapi';
import {
  createActionItemSchema,
  membersResponseSchema,
  updateActionItemSchema,
} from '@pulsecheck/shared/action-items/schemas';
import { actionItemSchema } from '@pulsecheck/shared/results/schemas';
import { requireUser } from '../../auth/session';
import { errorResponses, jsonBody, jsonResponse } from '../../lib/openapi';
import { idParam } from '../../lib/params';
import { createRouter } from '../../lib/router';
import * as service from './service';

const tags = ['action-items'];
const checkParams = z.object({ healthCheckId: idParam('Health check not found') });

export const actionItemRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/health-checks/{healthCheckId}/members',
      tags,
      summary: "People of the check's workspace (owners and @mention suggestions), by name or e-mail",
      request: { params: checkParams, query: z.object({ q: z.string().max(100).optional() }) },
      responses: { 200: jsonResponse(membersResponseSchema, 'Members'), ...errorResponses(401, 404) },
    }),
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
    createRoute({
      method: 'post',
      path: '/health-checks/{healthCheckId}/action-items',
      tags,
      summary: 'Add an action item; the owner and the mentioned are notified',
      request: { params: checkParams, ...jsonBody(createActionItemSchema) },
      responses: { 201: jsonResponse(actionItemSchema, 'Created'), ...errorResponses(400, 401, 404) },
    }),
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
    createRoute({
      method: 'patch',
      path: '/action-items/{actionItemId}',
      tags,
      summary: 'Edit an action item (description, owner, due date, status, mentions)',
      request: {
        params: z.object({ actionItemId: idParam('Action item not found') }),
        ...jsonBody(updateActionItemSchema),
      },
      responses: { 200: jsonResponse(actionItemSchema, 'Updated'), ...errorResponses(400, 401, 404) },
    }),
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
