import { z } from '@hono/zod-openapi';
import {
  templateDetailResponseSchema,
  templatesQuerySchema,
  templatesResponseSchema,
} from '@pulsecheck/shared/templates/schemas';
import { requireUser } from '../../auth/session';
import { routesOf } from '../../lib/openapi';
import { idParam } from '../../lib/params';
import { createRouter } from '../../lib/router';
import * as service from './service';

const route = routesOf('templates');

export const templateRoutes = createRouter()
  .openapi(
    route('get /templates', 'Global templates and those of the active (or given) workspace', {
      query: templatesQuerySchema,
      ok: [200, templatesResponseSchema, 'Templates'],
      errors: [400, 401, 404],
    }),
    async (c) => {
      const user = await requireUser(c);
      const query = c.req.valid('query');
      const templates = await service.listTemplates(c.get('deps'), { userId: user.id, ...query });
      return c.json({ templates }, 200);
    },
  )
  .openapi(
    route('get /templates/{id}', "A template with its components ('new' is the global catalogue)", {
      params: z.object({ id: idParam('Template not found', 'new') }),
      ok: [200, templateDetailResponseSchema, 'The template'],
      errors: [400, 401, 404],
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
