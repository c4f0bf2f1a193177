import { createRoute, z } from '@hono/zod-openapi';
import {
  changePhaseSchema,
  healthCheckDetailResponseSchema,
  launchResponseSchema,
  launchSchema,
  participantsResponseSchema,
  settingsResponseSchema,
  settingsSchema,
} from '@pulsecheck/shared/health-checks/schemas';
import { requireUser } from '../../auth/session';
import { errorResponses, jsonBody, jsonResponse } from '../../lib/openapi';
import { idParam } from '../../lib/params';
import { createRouter } from '../../lib/router';
import * as service from './service';

const tags = ['health-checks'];
const idParams = z.object({ id: idParam('Health check not found') });

export const healthCheckRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'post',
      path: '/health-checks',
      tags,
      summary: 'Launch a health check from a template (idempotent per launchKey)',
      request: jsonBody(launchSchema),
      responses: {
        201: jsonResponse(launchResponseSchema, 'Launched (or the earlier launch with this key)'),
        ...errorResponses(400, 401, 404, 429),
      },
    }),
    async (c) => {
      const user = await requireUser(c);
      const result = await service.launchHealthCheck(c.get('deps'), {
        userId: user.id,
        input: c.req.valid('json'),
      });
      return c.json(result, 201);
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/health-checks/{id}',
      tags,
      summary: 'A health check for its manage screen (workspace admins and members)',
      request: { params: idParams },
      responses: {
        200: jsonResponse(healthCheckDetailResponseSchema, 'The health check'),
        ...errorResponses(401, 404),
      },
    }),
    async (c) => {
      const user = await requireUser(c);
      const healthCheck = await service.getHealthCheck(c.get('deps'), {
        userId: user.id,
        healthCheckId: c.req.valid('param').id,
      });
      return c.json({ healthCheck }, 200);
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/health-checks/{id}/participants',
      tags,
      summary: 'Participants with status, progress and last activity',
      request: { params: idParams },
      responses: {
        200: jsonResponse(participantsResponseSchema, 'Participants'),
        ...errorResponses(401, 404),
      },
    }),
    async (c) => {
      const user = await requireUser(c);
      const participants = await service.listParticipants(c.get('deps'), {
        userId: user.id,
        healthCheckId: c.req.valid('param').id,
      });
      return c.json({ participants }, 200);
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/health-checks/{id}/phase',
      tags,
      summary: 'Move to the next phase (collect → vote → summarize → plan)',
      request: { params: idParams, ...jsonBody(changePhaseSchema) },
      responses: {
        200: jsonResponse(z.object({ phase: z.string(), status: z.string() }), 'Moved'),
        ...errorResponses(400, 401, 403, 404, 409),
      },
    }),
    async (c) => {
      const user = await requireUser(c);
      const result = await service.changePhase(c.get('deps'), {
        userId: user.id,
        healthCheckId: c.req.valid('param').id,
        to: c.req.valid('json').to,
      });
      return c.json(result, 200);
    },
  )
  .openapi(
    createRoute({
      method: 'put',
      path: '/health-checks/{id}/settings',
      tags,
      summary: 'Change the settings while the check collects responses',
      request: { params: idParams, ...jsonBody(settingsSchema) },
      responses: {
        200: jsonResponse(settingsResponseSchema, 'Saved'),
        ...errorResponses(400, 401, 403, 404, 409),
      },
    }),
    async (c) => {
      const user = await requireUser(c);
      const settings = await service.changeSettings(c.get('deps'), {
        userId: user.id,
        healthCheckId: c.req.valid('param').id,
        settings: c.req.valid('json'),
      });
      return c.json({ settings }, 200);
    },
  );
