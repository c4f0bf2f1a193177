import { z } from '@hono/zod-openapi';
import {
  joinInfoSchema,
  joinResponseSchema,
  myHealthChecksSchema,
  participationSchema,
  progressSchema,
  responsesSchema,
  saveResponsesResultSchema,
  submitResultSchema,
} from '@pulsecheck/shared/participation/contract';
import { PARTICIPATION_MESSAGES } from '@pulsecheck/shared/participation/rules';
import { requireUser, signedSessionToken } from '../../auth/session';
import { routesOf } from '../../lib/openapi';
import { idParam } from '../../lib/params';
import { createRouter } from '../../lib/router';
import * as service from './service';

const route = routesOf('participation');
const params = z.object({ healthCheckId: idParam(PARTICIPATION_MESSAGES.notFound) });

export const participationRoutes = createRouter()
  .openapi(
    route(
      'get /join/{healthCheckId}',
      'Title of the health check behind a join link (public: the link is what is shared)',
      { params, ok: [200, joinInfoSchema, 'The health check'], errors: [400, 404] },
    ),
    async (c) => {
      const { healthCheckId } = c.req.valid('param');
      return c.json(await service.getJoinInfo(c.get('deps').db, healthCheckId), 200);
    },
  )
  .openapi(
    route(
      'post /health-checks/{healthCheckId}/join',
      'Register the signed-in user as a participant (once; repeats answer the same)',
      { params, ok: [200, joinResponseSchema, 'Registered'], errors: [400, 401, 404, 409] },
    ),
    async (c) => {
      const user = await requireUser(c);
      const { healthCheckId } = c.req.valid('param');
      return c.json(await service.joinHealthCheck(c.get('deps'), { userId: user.id, healthCheckId }), 200);
    },
  )
  .openapi(
    route(
      'get /health-checks/{healthCheckId}/participation',
      "The participation screen's data: check, components, own interim responses, team progress",
      {
        params,
        query: z.object({ preview: z.enum(['0', '1']).optional() }),
        ok: [200, participationSchema, 'The participation'],
        errors: [400, 401, 403, 404],
      },
    ),
    async (c) => {
      const user = await requireUser(c);
      const { healthCheckId } = c.req.valid('param');
      const preview = c.req.valid('query').preview === '1';
      return c.json(
        await service.getParticipation(c.get('deps').db, { userId: user.id, healthCheckId, preview }),
        200,
      );
    },
  )
  .openapi(
    route(
      'get /health-checks/{healthCheckId}/progress',
      'Phase and team progress (completed of total), for polling',
      { params, ok: [200, progressSchema, 'Progress'], errors: [400, 401, 403, 404] },
    ),
    async (c) => {
      const user = await requireUser(c);
      const { healthCheckId } = c.req.valid('param');
      return c.json(await service.getProgress(c.get('deps').db, { userId: user.id, healthCheckId }), 200);
    },
  )
  .openapi(
    route(
      'put /health-checks/{healthCheckId}/responses',
      "Autosave the caller's interim responses (idempotent)",
      {
        params,
        body: responsesSchema,
        ok: [200, saveResponsesResultSchema, 'Saved'],
        errors: [400, 401, 403, 404, 409],
      },
    ),
    async (c) => {
      const saved = await service.autosave(
        c.get('deps').database,
        {
          sessionToken: signedSessionToken(c) ?? '',
          healthCheckId: c.req.valid('param').healthCheckId,
          responses: c.req.valid('json'),
        },
        () => requireUser(c),
      );
      return c.json(saved, 200);
    },
  )
  .openapi(
    route('post /health-checks/{healthCheckId}/submit', 'Submit every rating and comment (once)', {
      params,
      body: responsesSchema,
      ok: [200, submitResultSchema, 'Submitted'],
      errors: [400, 401, 403, 404, 409],
    }),
    async (c) => {
      const user = await requireUser(c);
      const { healthCheckId } = c.req.valid('param');
      const result = await service.submitResponses(c.get('deps'), {
        userId: user.id,
        healthCheckId,
        responses: c.req.valid('json'),
      });
      return c.json(result, 200);
    },
  )
  .openapi(
    route('get /my/health-checks', 'The health checks the signed-in user takes part in, with status', {
      ok: [200, myHealthChecksSchema, 'My health checks'],
      errors: [401],
    }),
    async (c) => {
      const user = await requireUser(c);
      return c.json({ healthChecks: await service.listMyHealthChecks(c.get('deps').db, user.id) }, 200);
    },
  );
