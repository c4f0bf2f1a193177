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
import { requireUser, signedSessionToken } from '../../auth/session';
import { routes } from '../../lib/openapi';
import * as service from './service';

export const participationRoutes = routes('participation')
  .handle(
    'get /join/{healthCheckId}',
    'Title of the health check behind a join link (public: the link is what is shared)',
    { public: true, ok: [200, joinInfoSchema, 'The health check'], errors: [400] },
    async (c) => c.json(await service.getJoinInfo(c.get('deps').db, c.req.valid('param').healthCheckId), 200),
  )
  .call(
    'post /health-checks/{healthCheckId}/join',
    'Register the signed-in user as a participant (once; repeats answer the same)',
    { ok: [200, joinResponseSchema, 'Registered'], errors: [400, 409] },
    service.joinHealthCheck,
  )
  .call(
    'get /health-checks/{healthCheckId}/participation',
    "The participation screen's data: check, components, own interim responses, team progress",
    {
      query: z.object({ preview: z.enum(['0', '1']).optional() }),
      ok: [200, participationSchema, 'The participation'],
      errors: [403],
    },
    ({ db }, { preview, ...input }, _user, locale) =>
      service.getParticipation(db, { ...input, preview: preview === '1', locale }),
  )
  .call(
    'get /health-checks/{healthCheckId}/progress',
    'Phase and team progress (completed of total), for polling',
    { ok: [200, progressSchema, 'Progress'], errors: [400, 403] },
    ({ db }, input) => service.getProgress(db, input),
  )
  .handle(
    'put /health-checks/{healthCheckId}/responses',
    "Autosave the caller's interim responses (idempotent)",
    { body: responsesSchema, ok: [200, saveResponsesResultSchema, 'Saved'], errors: [401, 403, 409] },
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
  .call(
    'post /health-checks/{healthCheckId}/submit',
    'Submit every rating and comment (once)',
    { body: responsesSchema, ok: [200, submitResultSchema, 'Submitted'], errors: [403, 409] },
    (deps, { userId, healthCheckId, by: _by, ...responses }) =>
      service.submitResponses(deps, { userId, healthCheckId, responses }),
  )
  .call(
    'get /my/health-checks',
    'The health checks the signed-in user takes part in, with status',
    { ok: [200, myHealthChecksSchema, 'My health checks'] },
    async ({ db }, { userId }) => ({ healthChecks: await service.listMyHealthChecks(db, userId) }),
  ).router;
