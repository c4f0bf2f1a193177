import { z } from '@hono/zod-openapi';
import { LANGUAGE_COOKIE } from '@pulsecheck/shared/i18n/languages';
import {
  auditExportQuerySchema,
  auditListQuerySchema,
  auditListSchema,
  auditRetentionSchema,
  auditVerifySchema,
} from '@pulsecheck/shared/audit/log';
import { auditBy } from '../../audit/record';
import { requireUser } from '../../auth/session';
import { attachment } from '../../lib/download';
import { routes } from '../../lib/openapi';
import { enforceLimitOn, LIMITS } from '../../lib/rate-limit';
import { getCookie } from 'hono/cookie';
import { downloaderLanguage } from '../../mail/language';
import * as service from './service';

const TYPES = { csv: 'text/csv; charset=utf-8', jsonl: 'application/jsonl; charset=utf-8' } as const;

/** The organisation's audit log (issue 37 item 3): its owner and organisation admins, signed in (no API token). */
export const auditRoutes = routes('audit log')
  .call(
    'get /organizations/{organizationId}/audit-log',
    'The audit log, newest first, filtered by actor, action, target and date range; a page at a time (`before`: the `next` of the page before)',
    { query: auditListQuerySchema, ok: [200, auditListSchema, 'Entries'] },
    service.listAudit,
  )
  .handle(
    'get /organizations/{organizationId}/audit-log/export',
    'The filtered audit log as CSV or JSON Lines, newest first (the export is itself recorded)',
    {
      query: auditExportQuerySchema,
      ok: [
        [200, z.string(), 'CSV', 'text/csv'],
        [200, z.string(), 'JSON Lines', 'application/jsonl'],
      ],
      errors: [401, 404],
    },
    async (c) => {
      const user = await requireUser(c);
      const query = c.req.valid('query');
      const deps = c.get('deps');
      const locale = await downloaderLanguage(
        deps.db,
        user.id,
        { cookie: getCookie(c, LANGUAGE_COOKIE), acceptLanguage: c.req.header('accept-language') },
        deps.config,
      );
      const { body, filename } = await service.exportAudit(deps, {
        ...query,
        ...c.req.valid('param'),
        userId: user.id,
        by: auditBy(c, user),
        locale,
      });
      return c.body(body, 200, {
        'Content-Type': TYPES[query.format],
        'Content-Disposition': attachment(filename),
      });
    },
  )
  .handle(
    'post /organizations/{organizationId}/audit-log/verify',
    'Re-computes the hash chain: whether every entry is as it was written, and the first one that is not (10 times in 10 minutes per organisation)',
    { ok: [200, auditVerifySchema, 'Verified'], errors: [401, 404, 429] },
    async (c) => {
      const user = await requireUser(c);
      const { organizationId } = c.req.valid('param');
      const deps = c.get('deps');
      // Who may is asked first: a stranger's calls never spend the organisation's allowance.
      await service.allowed(deps, { userId: user.id, organizationId });
      await enforceLimitOn(c, LIMITS.auditVerify, organizationId.toLowerCase());
      return c.json(await service.verifyAudit(deps, { userId: user.id, organizationId }), 200);
    },
  )
  .call(
    'put /organizations/{organizationId}/audit-log/retention',
    'How many days entries are kept (30 to 3650; 365 unless set)',
    { body: auditRetentionSchema, ok: [200, auditRetentionSchema, 'Saved'] },
    service.setAuditRetention,
  ).router;
