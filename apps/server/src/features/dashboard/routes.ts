import { z } from '@hono/zod-openapi';
import { dashboardResponseSchema } from '@pulsecheck/shared/dashboard/schemas';
import { routes } from '../../lib/openapi';
import { getDashboard } from './service';

export const dashboardRoutes = routes('dashboard').call(
  'get /dashboard',
  'Figures, items and global templates of the active (or given) workspace',
  {
    scope: 'health-checks:read',
    query: z.object({ workspaceId: z.uuid().optional() }),
    ok: [200, dashboardResponseSchema, 'The dashboard'],
    errors: [404],
  },
  getDashboard,
).router;
