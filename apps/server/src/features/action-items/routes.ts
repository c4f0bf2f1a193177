import { createRoute, z } from '@hono/zod-openapi';
import {
  createActionItemSchema,
  membersResponseSchema,
  updateActionItemSchema,
} from '@pulsecheck/shared/action-items/schemas';
import { actionItemSchema, isUuid } from '@pulsecheck/shared/results/schemas';
import { requireUser } from '../../auth/session';
import { notFound } from '../../lib/app-error';
import { errorResponses, jsonBody, jsonResponse } from '../../lib/openapi';
import { createRouter } from '../../lib/router';
import * as service from './service';

const tags = ['action-items'];
const checkParams = z.object({ healthCheckId: z.string() });

const uuidOr404 = (id: string, what: string) => {
  if (!isUuid(id)) throw notFound(what);
  return id;
};

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
      const healthCheckId = uuidOr404(c.req.valid('param').healthCheckId, 'Health check not found');
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
      const healthCheckId = uuidOr404(c.req.valid('param').healthCheckId, 'Health check not found');
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
      request: { params: z.object({ actionItemId: z.string() }), ...jsonBody(updateActionItemSchema) },
      responses: { 200: jsonResponse(actionItemSchema, 'Updated'), ...errorResponses(400, 401, 404) },
    }),
    async (c) => {
      const user = await requireUser(c);
      const actionItemId = uuidOr404(c.req.valid('param').actionItemId, 'Action item not found');
      const item = await service.updateActionItem(c.get('deps'), {
        actor: { id: user.id, name: user.name },
        actionItemId,
        input: c.req.valid('json'),
      });
      return c.json(item, 200);
    },
  );
