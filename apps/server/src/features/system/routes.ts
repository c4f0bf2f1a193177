import { errorBodySchema } from '@pulsecheck/shared/api/errors';
import { healthResponseSchema, readyResponseSchema } from '@pulsecheck/shared/system/contract';
import { routes } from '../../lib/openapi';
import { readiness } from './service';

export const systemRoutes = routes('system')
  .handle(
    'get /health',
    'Liveness: the process runs and answers (whatever the state of its database; /ready says that)',
    { public: true, ok: [200, healthResponseSchema, 'The process answers'] },
    (c) => c.json({ status: 'ok' as const }, 200),
  )
  .handle(
    'get /ready',
    'Readiness: migrations have run, the database answers within a second and its disk has room (503 otherwise)',
    {
      public: true,
      ok: [
        [200, readyResponseSchema, 'Ready for traffic'],
        [
          503,
          errorBodySchema,
          'Starting (migrations running), the database does not answer, or its disk is full',
        ],
      ],
    },
    async (c) => {
      const notReady = await readiness(c.get('deps').health);
      if (!notReady) return c.json({ status: 'ready' as const }, 200);
      c.header('Retry-After', '5');
      return c.json({ error: notReady }, 503);
    },
  ).router;
