import { z } from '@hono/zod-openapi';
import { dashboardResponseSchema } from '@pulsecheck/shared/dashboard/schemas';
import { requireUser } from '../../auth/session';
import { routesOf } from '../../lib/openapi';
import { createRouter } from '../../lib/router';
import { getDashboard } from './service';

const route = routesOf('dashboard');

export const dashboardRoutes = createRouter().openapi(
  route('get /dashboard', 'Figures, items and global templates of the active (or given) workspace', {
    query: z.object({ workspaceId: z.uuid().optional() }),
    ok: [200, dashboardResponseSchema, 'The dashboard'],
    errors: [400, 401, 404],
  }),
  async (c) => {
    const user = await requireUser(c);
    return c.json(await getDashboard(c.get('deps'), { userId: user.id, ...c.req.valid('query') }), 200);
  },
);
