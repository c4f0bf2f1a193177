import { createRoute, z } from '@hono/zod-openapi';
import {
  joinInfoSchema,
  joinResponseSchema,
  PARTICIPATION_MESSAGES,
  myHealthChecksSchema,
  participationSchema,
  progressSchema,
  responsesSchema,
  saveResponsesResultSchema,
  submitResultSchema,
} from '@pulsecheck/shared/participation/contract';
import { requireUser, signedSessionToken } from '../../auth/session';
import { errorResponses, jsonBody, jsonResponse } from '../../lib/openapi';
import { idParam } from '../../lib/params';
import { createRouter } from '../../lib/router';
import * as service from './service';

const tags = ['participation'];
const params = z.object({ healthCheckId: idParam(PARTICIPATION_MESSAGES.notFound) });

export const participationRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/join/{healthCheckId}',
      tags,
      summary: 'Title of the health check behind a join link (public: the link is what is shared)',
      request: { params },
      responses: { 200: jsonResponse(joinInfoSchema, 'The health check'), ...errorResponses(400, 404) },
    }),
    async (c) => {
      const { healthCheckId } = c.req.valid('param');
      return c.json(await service.getJoinInfo(c.get('deps').db, healthCheckId), 200);
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/health-checks/{healthCheckId}/join',
      tags,
      summary: 'Register the signed-in user as a participant (once; repeats answer the same)',
      request: { params },
      responses: {
        200: jsonResponse(joinResponseSchema, 'Registered'),
        ...errorResponses(400, 401, 404, 409),
      },
    }),
    async (c) => {
      const user = await requireUser(c);
      const { healthCheckId } = c.req.valid('param');
      return c.json(await service.joinHealthCheck(c.get('deps'), { userId: user.id, healthCheckId }), 200);
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/health-checks/{healthCheckId}/participation',
      tags,
      summary: "The participation screen's data: check, components, own interim responses, team progress",
      request: { params, query: z.object({ preview: z.enum(['0', '1']).optional() }) },
      responses: {
        200: jsonResponse(participationSchema, 'The participation'),
        ...errorResponses(400, 401, 403, 404),
      },
    }),
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
    createRoute({
      method: 'get',
      path: '/health-checks/{healthCheckId}/progress',
      tags,
      summary: 'Phase and team progress (completed of total), for polling',
      request: { params },
      responses: { 200: jsonResponse(progressSchema, 'Progress'), ...errorResponses(400, 401, 403, 404) },
    }),
    async (c) => {
      const user = await requireUser(c);
      const { healthCheckId } = c.req.valid('param');
      return c.json(await service.getProgress(c.get('deps').db, { userId: user.id, healthCheckId }), 200);
    },
  )
  .openapi(
    createRoute({
      method: 'put',
      path: '/health-checks/{healthCheckId}/responses',
      tags,
      summary: "Autosave the caller's interim responses (idempotent)",
      request: { params, ...jsonBody(responsesSchema) },
      responses: {
        200: jsonResponse(saveResponsesResultSchema, 'Saved'),
        ...errorResponses(400, 401, 403, 404, 409),
      },
    }),
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
    createRoute({
      method: 'post',
      path: '/health-checks/{healthCheckId}/submit',
      tags,
      summary: 'Submit every rating and comment (once)',
      request: { params, ...jsonBody(responsesSchema) },
      responses: {
        200: jsonResponse(submitResultSchema, 'Submitted'),
        ...errorResponses(400, 401, 403, 404, 409),
      },
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
    createRoute({
      method: 'get',
      path: '/my/health-checks',
      tags,
      summary: 'The health checks the signed-in user takes part in, with status',
      responses: { 200: jsonResponse(myHealthChecksSchema, 'My health checks'), ...errorResponses(401) },
    }),
    async (c) => {
      const user = await requireUser(c);
      return c.json({ healthChecks: await service.listMyHealthChecks(c.get('deps').db, user.id) }, 200);
    },
  );
