import { errorBodySchema } from '@pulsecheck/shared/api/errors';
import {
  healthResponseSchema,
  readyResponseSchema,
  SYSTEM_MESSAGES,
} from '@pulsecheck/shared/system/contract';
import { routes } from '../../lib/openapi';
import { checkHealth } from './service';

const unavailable = (message: string) => ({ error: { code: 'unavailable' as const, message } });

export const systemRoutes = routes('system')
  .handle(
    'get /health',
    'Liveness: the process answers and its database makes a round trip',
    {
      ok: [
        [200, healthResponseSchema, 'The server and its database answer'],
        [503, errorBodySchema, 'The database does not answer'],
      ],
    },
    async (c) => {
      const { db, logger } = c.get('deps');
      if (await checkHealth(db, logger)) return c.json({ status: 'ok' as const }, 200);
      return c.json(unavailable(SYSTEM_MESSAGES.databaseUnreachable), 503);
    },
  )
  .handle(
    'get /ready',
    'Readiness: migrations have run and the database answers (503 while starting or when it does not)',
    {
      ok: [
        [200, readyResponseSchema, 'Ready for traffic'],
        [503, errorBodySchema, 'Starting (migrations running), or the database does not answer'],
      ],
    },
    async (c) => {
      const { db, logger } = c.get('deps');
      if (await checkHealth(db, logger)) return c.json({ status: 'ready' as const }, 200);
      return c.json(unavailable(SYSTEM_MESSAGES.databaseUnreachable), 503);
    },
  ).router;
