import { z } from '@hono/zod-openapi';
import {
  followUpRequestSchema,
  followUpResponseSchema,
  planResponseSchema,
  resultsResponseSchema,
} from '@pulsecheck/shared/results/schemas';
import { auditBy } from '../../audit/record';
import { requireUser } from '../../auth/session';
import { attachment, csvHeaders, downloadLanguage } from '../../lib/download';
import { routes } from '../../lib/openapi';
import * as service from './service';

export const resultsRoutes = routes('results')
  .call(
    'get /health-checks/{healthCheckId}/results',
    'Results of a health check, as far as the caller may see them (release and anonymity rules)',
    { scope: 'results:read', ok: [200, resultsResponseSchema, 'Results'] },
    (deps, input, _user, locale) => service.getResults(deps, { ...input, locale }),
  )
  .handle(
    'get /health-checks/{healthCheckId}/results/csv',
    'The results as a CSV download',
    { scope: 'results:read', ok: [200, z.string(), 'CSV', 'text/csv'], errors: [401, 409] },
    async (c) => {
      const user = await requireUser(c);
      const deps = c.get('deps');
      const { csv, filename } = await service.exportResultsCsv(deps, {
        userId: user.id,
        by: auditBy(c, user),
        locale: await downloadLanguage(c, user.id),
        ...c.req.valid('param'),
      });
      return c.body(csv, 200, csvHeaders(filename));
    },
  )
  .call(
    'post /health-checks/{healthCheckId}/plan',
    "'Plan Actions': move a completed check from summarize to plan",
    { scope: 'health-checks:write', ok: [200, planResponseSchema, 'Moved'], errors: [403, 409] },
    service.planActions,
  )
  .call(
    'post /health-checks/{healthCheckId}/follow-up',
    "'Schedule Follow-up': e-mail the creator on that date",
    {
      scope: 'health-checks:write',
      body: followUpRequestSchema,
      ok: [200, followUpResponseSchema, 'Scheduled'],
    },
    service.scheduleFollowUp,
  )
  .handle(
    'get /health-checks/{healthCheckId}/follow-up/calendar',
    'The follow-up as an .ics calendar file',
    {
      scope: 'health-checks:read',
      query: followUpRequestSchema,
      ok: [200, z.string(), 'iCalendar', 'text/calendar'],
      errors: [401],
    },
    async (c) => {
      const user = await requireUser(c);
      const { ics, filename } = await service.followUpCalendar(c.get('deps'), {
        userId: user.id,
        ...c.req.valid('param'),
        ...c.req.valid('query'),
      });
      return c.body(ics, 200, {
        'Content-Type': 'text/calendar; charset=utf-8',
        'Content-Disposition': attachment(filename),
      });
    },
  ).router;
