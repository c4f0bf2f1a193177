import { createRoute, z } from '@hono/zod-openapi';
import { dashboardResponseSchema } from '@pulsecheck/shared/dashboard/schemas';
import { requireUser } from '../../auth/session';
import { errorResponses, jsonResponse } from '../../lib/openapi';
import { createRouter } from '../../lib/router';
import { getDashboard } from './service';

export const dashboardRoutes = createRouter().openapi(
  createRoute({
    method: 'get',
    path: '/dashboard',
    tags: ['dashboard'],
    summary: 'Figures, items and global templates of the active (or given) workspace',
    request: { query: z.object({ workspaceId: z.uuid().optional() }) },
    responses: {
      200: jsonResponse(dashboardResponseSchema, 'The dashboard'),
      ...errorResponses(400, 401, 404),
    },
  }),
  async (c) => {
    const user = await requireUser(c);
    return c.json(await getDashboard(c.get('deps'), { userId: user.id, ...c.req.valid('query') }), 200);
  },
);
