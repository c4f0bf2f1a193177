import { z } from '@hono/zod-openapi';
import {
  changePhaseSchema,
  healthCheckDetailResponseSchema,
  launchResponseSchema,
  launchSchema,
  participantsResponseSchema,
  settingsResponseSchema,
  settingsSchema,
  slackShareSchema,
} from '@pulsecheck/shared/health-checks/schemas';
import { routes } from '../../lib/openapi';
import * as service from './service';

export const healthCheckRoutes = routes('health-checks')
  .call(
    'post /health-checks',
    'Launch a health check from a template (idempotent per launchKey)',
    {
      scope: 'health-checks:write',
      body: launchSchema,
      ok: [201, launchResponseSchema, 'Launched (or the earlier launch with this key)'],
      errors: [404, 429],
    },
    (deps, { userId, by, ...input }) => service.launchHealthCheck(deps, { userId, by, input }),
  )
  .call(
    'get /health-checks/{healthCheckId}',
    'A health check for its manage screen (workspace admins and members)',
    { scope: 'health-checks:read', ok: [200, healthCheckDetailResponseSchema, 'The health check'] },
    async (deps, input) => ({ healthCheck: await service.getHealthCheck(deps, input) }),
  )
  .call(
    'get /health-checks/{healthCheckId}/share/slack',
    "Whether the Share dialog's 'Slack' can post to the caller's Slack channel (their notification settings)",
    { ok: [200, slackShareSchema, 'Slack'] },
    service.slackShareState,
  )
  .call(
    'post /health-checks/{healthCheckId}/share/slack',
    "'Slack' in the Share dialog: post the join link to the caller's Slack channel",
    { ok: [200, slackShareSchema, 'Posted'], errors: [409, 503] },
    service.shareToSlack,
  )
  .call(
    'get /health-checks/{healthCheckId}/participants',
    'Participants with status, progress and last activity',
    { scope: 'health-checks:read', ok: [200, participantsResponseSchema, 'Participants'] },
    async (deps, input) => ({ participants: await service.listParticipants(deps, input) }),
  )
  .call(
    'post /health-checks/{healthCheckId}/phase',
    'Move to the next phase (collect → vote → summarize → plan)',
    {
      scope: 'health-checks:write',
      body: changePhaseSchema,
      ok: [200, z.object({ phase: z.string(), status: z.string() }), 'Moved'],
      errors: [403, 409],
    },
    service.changePhase,
  )
  .call(
    'put /health-checks/{healthCheckId}/settings',
    'Change the settings while the check collects responses',
    {
      scope: 'health-checks:write',
      body: settingsSchema,
      ok: [200, settingsResponseSchema, 'Saved'],
      errors: [403, 409],
    },
    async (deps, { userId, healthCheckId, by, ...settings }) => ({
      settings: await service.changeSettings(deps, { userId, healthCheckId, by, settings }),
    }),
  ).router;
