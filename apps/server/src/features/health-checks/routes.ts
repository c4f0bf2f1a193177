import { z } from '@hono/zod-openapi';
import { HEALTH_CHECK_NOT_FOUND } from '@pulsecheck/shared/health-checks/rules';
import {
  changePhaseSchema,
  healthCheckDetailResponseSchema,
  launchResponseSchema,
  launchSchema,
  participantsResponseSchema,
  settingsResponseSchema,
  settingsSchema,
} from '@pulsecheck/shared/health-checks/schemas';
import { routes } from '../../lib/openapi';
import { idParam } from '../../lib/params';
import * as service from './service';

const idParams = z.object({ id: idParam(HEALTH_CHECK_NOT_FOUND) });

export const healthCheckRoutes = routes('health-checks')
  .call(
    'post /health-checks',
    'Launch a health check from a template (idempotent per launchKey)',
    {
      body: launchSchema,
      ok: [201, launchResponseSchema, 'Launched (or the earlier launch with this key)'],
      errors: [400, 401, 404, 429],
    },
    (deps, { userId, ...input }) => service.launchHealthCheck(deps, { userId, input }),
  )
  .call(
    'get /health-checks/{id}',
    'A health check for its manage screen (workspace admins and members)',
    { params: idParams, ok: [200, healthCheckDetailResponseSchema, 'The health check'], errors: [401, 404] },
    async (deps, { userId, id }) => ({
      healthCheck: await service.getHealthCheck(deps, { userId, healthCheckId: id }),
    }),
  )
  .call(
    'get /health-checks/{id}/participants',
    'Participants with status, progress and last activity',
    { params: idParams, ok: [200, participantsResponseSchema, 'Participants'], errors: [401, 404] },
    async (deps, { userId, id }) => ({
      participants: await service.listParticipants(deps, { userId, healthCheckId: id }),
    }),
  )
  .call(
    'post /health-checks/{id}/phase',
    'Move to the next phase (collect → vote → summarize → plan)',
    {
      params: idParams,
      body: changePhaseSchema,
      ok: [200, z.object({ phase: z.string(), status: z.string() }), 'Moved'],
      errors: [400, 401, 403, 404, 409],
    },
    (deps, { userId, id, to }) => service.changePhase(deps, { userId, healthCheckId: id, to }),
  )
  .call(
    'put /health-checks/{id}/settings',
    'Change the settings while the check collects responses',
    {
      params: idParams,
      body: settingsSchema,
      ok: [200, settingsResponseSchema, 'Saved'],
      errors: [400, 401, 403, 404, 409],
    },
    async (deps, { userId, id, ...settings }) => ({
      settings: await service.changeSettings(deps, { userId, healthCheckId: id, settings }),
    }),
  ).router;
