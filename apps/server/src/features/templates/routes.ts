import { createRoute, z } from '@hono/zod-openapi';
import {
  templateDetailResponseSchema,
  templatesQuerySchema,
  templatesResponseSchema,
} from '@pulsecheck/shared/templates/schemas';
import { requireUser } from '../../auth/session';
import { errorResponses, jsonResponse } from '../../lib/openapi';
import { idParam } from '../../lib/params';
import { createRouter } from '../../lib/router';
import * as service from './service';

const tags = ['templates'];

export const templateRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/templates',
      tags,
      summary: 'Global templates and those of the active (or given) workspace',
      request: { query: templatesQuerySchema },
      responses: {
        200: jsonResponse(templatesResponseSchema, 'Templates'),
        ...errorResponses(400, 401, 404),
      },
    }),
    async (c) => {
      const user = await requireUser(c);
      const query = c.req.valid('query');
      const templates = await service.listTemplates(c.get('deps'), { userId: user.id, ...query });
      return c.json({ templates }, 200);
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/templates/{id}',
      tags,
      summary: "A template with its components ('new' is the global catalogue)",
      request: { params: z.object({ id: idParam('Template not found', 'new') }) },
      responses: {
        200: jsonResponse(templateDetailResponseSchema, 'The template'),
        ...errorResponses(400, 401, 404),
      },
    }),
    async (c) => {
      const user = await requireUser(c);
      const template = await service.getTemplate(c.get('deps'), {
        userId: user.id,
        templateId: c.req.valid('param').id,
      });
      return c.json({ template }, 200);
    },
  );
