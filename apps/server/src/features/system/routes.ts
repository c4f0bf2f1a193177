import { errorBodySchema } from '@pulsecheck/shared/api/errors';
import { healthResponseSchema } from '@pulsecheck/shared/system/contract';
import { routesOf } from '../../lib/openapi';
import { createRouter } from '../../lib/router';
import { checkHealth } from './service';

const route = routesOf('system');

const health = route('get /health', 'Liveness and database round trip', {
  ok: [
    [200, healthResponseSchema, 'The server and its database answer'],
    [503, errorBodySchema, 'The database does not answer'],
  ],
});

export const systemRoutes = createRouter().openapi(health, async (c) => {
  const { db, logger } = c.get('deps');
  if (await checkHealth(db, logger)) return c.json({ status: 'ok' as const }, 200);
  return c.json({ error: { code: 'unavailable' as const, message: 'The database is not reachable' } }, 503);
});
