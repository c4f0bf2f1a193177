import { createRoute } from '@hono/zod-openapi';
import { errorBodySchema } from '@pulsecheck/shared/api/errors';
import { healthResponseSchema } from '@pulsecheck/shared/system/contract';
import { createRouter } from '../../lib/router';
import { checkHealth } from './service';

const health = createRoute({
  method: 'get',
  path: '/health',
  tags: ['system'],
  summary: 'Liveness and database round trip',
  responses: {
    200: {
      description: 'The server and its database answer',
      content: { 'application/json': { schema: healthResponseSchema } },
    },
    503: {
      description: 'The database does not answer',
      content: { 'application/json': { schema: errorBodySchema } },
    },
  },
});

export const systemRoutes = createRouter().openapi(health, async (c) => {
  const { db, logger } = c.get('deps');
  if (await checkHealth(db, logger)) return c.json({ status: 'ok' as const }, 200);
  return c.json({ error: { code: 'unavailable' as const, message: 'The database is not reachable' } }, 503);
});
