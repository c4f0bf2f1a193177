import { z } from '@hono/zod-openapi';
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
import { routesOf } from '../../lib/openapi';
import { idParam } from '../../lib/params';
import { createRouter } from '../../lib/router';
import * as service from './service';

const route = routesOf('health-checks');
const idParams = z.object({ id: idParam('Health check not found') });

export const healthCheckRoutes = createRouter()
  .openapi(
    route('post /health-checks', 'Launch a health check from a template (idempotent per launchKey)', {
      body: launchSchema,
      ok: [201, launchResponseSchema, 'Launched (or the earlier launch with this key)'],
      errors: [400, 401, 404, 429],
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
    route('get /health-checks/{id}', 'A health check for its manage screen (workspace admins and members)', {
      params: idParams,
      ok: [200, healthCheckDetailResponseSchema, 'The health check'],
      errors: [401, 404],
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
    route('get /health-checks/{id}/participants', 'Participants with status, progress and last activity', {
      params: idParams,
      ok: [200, participantsResponseSchema, 'Participants'],
      errors: [401, 404],
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
    route('post /health-checks/{id}/phase', 'Move to the next phase (collect → vote → summarize → plan)', {
      params: idParams,
      body: changePhaseSchema,
      ok: [200, z.object({ phase: z.string(), status: z.string() }), 'Moved'],
      errors: [400, 401, 403, 404, 409],
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
    route('put /health-checks/{id}/settings', 'Change the settings while the check collects responses', {
      params: idParams,
      body: settingsSchema,
      ok: [200, settingsResponseSchema, 'Saved'],
      errors: [400, 401, 403, 404, 409],
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
