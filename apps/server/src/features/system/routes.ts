import { errorBodySchema } from '@pulsecheck/shared/api/errors';
import { healthResponseSchema } from '@pulsecheck/shared/system/contract';
import { routes } from '../../lib/openapi';
import { checkHealth } from './service';

export const systemRoutes = routes('system').handle(
  'get /health',
  'Liveness and database round trip',
  {
    ok: [
      [200, healthResponseSchema, 'The server and its database answer'],
      [503, errorBodySchema, 'The database does not answer'],
    ],
  },
  async (c) => {
    const { db, logger } = c.get('deps');
    if (await checkHealth(db, logger)) return c.json({ status: 'ok' as const }, 200);
    return c.json({ error: { code: 'unavailable' as const, message: 'The database is not reachable' } }, 503);
  },
).router;
