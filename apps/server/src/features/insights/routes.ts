import { z } from '@hono/zod-openapi';
import {
  actionInsightsQuerySchema,
  actionInsightsResponseSchema,
  loopInsightsQuerySchema,
  loopInsightsResponseSchema,
  insightsCsvQuerySchema,
  insightsQuerySchema,
  insightsResponseSchema,
} from '@pulsecheck/shared/insights/schemas';
import { auditBy } from '../../audit/record';
import { requireUser } from '../../auth/session';
import { csvHeaders, downloadLanguage } from '../../lib/download';
import { routes } from '../../lib/openapi';
import * as service from './service';

export const insightsRoutes = routes('insights')
  .call(
    'get /organizations/{organizationId}/insights',
    "The organisation's heat map, priorities and left-out teams (its owner and organisation admins; 404 for others)",
    { scope: 'insights:read', query: insightsQuerySchema, ok: [200, insightsResponseSchema, 'Insights'] },
    service.getInsights,
  )
  .call(
    'get /organizations/{organizationId}/insights/loops',
    "Each team's loops: the latest closed round's participation and eNPS, and the organisation's trend by month, under the privacy floor (owner and organisation admins; 404 for others)",
    {
      scope: 'insights:read',
      query: loopInsightsQuerySchema,
      ok: [200, loopInsightsResponseSchema, 'Loops'],
    },
    service.getLoopInsights,
  )
  .call(
    'get /organizations/{organizationId}/insights/actions',
    "'Actions that worked': per team and for the organisation, the action items done in the period, the share of follow-up answers 'Yes' or 'Partly' and the share whose component improved by the next check, under the privacy floor (owner and organisation admins; 404 for others)",
    {
      scope: 'insights:read',
      query: actionInsightsQuerySchema,
      ok: [200, actionInsightsResponseSchema, 'Actions that worked'],
    },
    service.getActionInsights,
  )
  .handle(
    'get /organizations/{organizationId}/insights/csv',
    'The heat map as a CSV download, one line per cell (owner and organisation admins)',
    {
      scope: 'insights:read',
      query: insightsCsvQuerySchema,
      ok: [200, z.string(), 'CSV', 'text/csv'],
      errors: [401],
    },
    async (c) => {
      const user = await requireUser(c);
      const { csv, filename } = await service.exportInsightsCsv(c.get('deps'), {
        userId: user.id,
        by: auditBy(c, user),
        locale: await downloadLanguage(c, user.id),
        ...c.req.valid('param'),
        ...c.req.valid('query'),
      });
      return c.body(csv, 200, csvHeaders(filename));
    },
  ).router;
