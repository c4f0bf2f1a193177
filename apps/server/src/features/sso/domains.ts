import { recipientLanguage } from '../../mail/language';
import { audited, type AuditBy } from '../../audit/record';
import { randomBytes } from 'node:crypto';
import { SECURITY_MESSAGES, ssoVerificationRecord } from '@pulsecheck/shared/auth/security-messages';
import { requireOrganizationAdmin } from '../../auth/access';
import { enqueueJob, type JobHandler } from '../../jobs/queue';
import { conflict, invalid } from '../../lib/app-error';
import { txtRecords } from '../../lib/dns';
import type { AppDeps } from '../../lib/router';
import { ssoDomainLostMail } from '../../mail/templates';
import { domainRows, domainsTakenElsewhere, markDomain, verifiedDomains } from './queries';

/**
 * Proof that an organisation controls the domains its SSO covers (issue 30, decision 0016): a TXT record
 * `pulsecheck-verification=<token>` on the domain itself, the token one of this organisation and domain. Found with
 * Node's DNS resolver (DNS_SERVERS, else the system's: lib/dns.ts). A domain is verified by one organisation at
 * most (a unique index); it is re-checked daily and stops working for SSO when its record is gone.
 */

type Deps = Pick<AppDeps, 'db' | 'config' | 'mailer' | 'logger'>;

export const newDomainToken = () => randomBytes(16).toString('hex');

/** Whether `domain` carries the record of `token` (DNS failures count as not found). */
async function recordFound(deps: Pick<Deps, 'config'>, domain: string, token: string) {
  const records = await txtRecords(deps.config.dnsServers, domain).catch((): string[] => []);
  return records.includes(ssoVerificationRecord(token));
}

/** 'Verify domain': looks the record up now; verified, or a 400 that says the record was not found. */
export async function verifyDomain(deps: Deps, options: { userId: string; domain: string; by: AuditBy }) {
  const organization = await requireOrganizationAdmin(deps.db, options.userId);
  const row = (await domainRows(deps.db, organization.id)).find((d) => d.domain === options.domain);
  if (!row) throw invalid(SECURITY_MESSAGES.ssoDomainUnknown, { domain: SECURITY_MESSAGES.ssoDomainUnknown });
  if ((await domainsTakenElsewhere(deps.db, organization.id, [row.domain])).length > 0)
    throw conflict(SECURITY_MESSAGES.ssoDomainTaken);
  const found = await recordFound(deps, row.domain, row.token);
  // Should another organisation verify it in between, the unique index on verified domains refuses this one.
  if (found)
    await audited(
      deps.db,
      organization.id,
      options.by,
      { action: 'sso.domain-verified', targetType: 'domain', targetLabel: row.domain },
      (tx) => markDomain(tx, { organizationId: organization.id, domain: row.domain, found }),
    );
  else await markDomain(deps.db, { organizationId: organization.id, domain: row.domain, found });
  if (!found) {
    throw invalid(
      SECURITY_MESSAGES.ssoDomainNotVerified,
      { domain: SECURITY_MESSAGES.ssoDomainNotVerified },
      { domain: row.domain },
    );
  }
}

/**
 * The daily re-check: every verified domain whose record is gone becomes 'failed' (SSO stops for it at once:
 * only verified domains sign in) and the organisation's owner is told by e-mail.
 */
export async function recheckDomains(deps: Deps) {
  for (const row of await verifiedDomains(deps.db)) {
    if (await recordFound(deps, row.domain, row.token)) {
      await markDomain(deps.db, { organizationId: row.organizationId, domain: row.domain, found: true });
      continue;
    }
    await markDomain(deps.db, { organizationId: row.organizationId, domain: row.domain, found: false });
    deps.logger.warn(
      { domain: row.domain },
      'sso: a verified domain lost its TXT record; SSO stopped for it',
    );
    if (row.ownerEmail)
      await deps.mailer.enqueue({
        kind: 'sso-domain-lost',
        to: row.ownerEmail,
        ...ssoDomainLostMail({
          name: row.ownerName ?? '',
          domain: row.domain,
          record: ssoVerificationRecord(row.token),
          url: `${deps.config.appUrl}/admin/account-settings/security`,
          locale: recipientLanguage({ language: row.ownerLanguage, organization: row.organizationLanguage }),
        }),
      });
  }
}

export const SSO_DOMAIN_JOB = 'sso-domain-recheck';
const DAY_MS = 24 * 3600_000;
const dayStart = (at: number) => new Date(Math.floor(at / DAY_MS) * DAY_MS);

/** Enqueues today's re-check (every process may call it; the unique key keeps one a day). */
export async function startSsoDomainSchedule(db: AppDeps['db'], now = Date.now()) {
  const at = dayStart(now);
  await enqueueJob(db, {
    kind: SSO_DOMAIN_JOB,
    runAt: at,
    uniqueKey: `${SSO_DOMAIN_JOB}:${at.toISOString()}`,
  });
}

/** The re-check job: runs it, then enqueues tomorrow's. */
export function ssoJobHandlers(deps: Deps): Record<string, JobHandler> {
  return {
    [SSO_DOMAIN_JOB]: async () => {
      await recheckDomains(deps);
      await startSsoDomainSchedule(deps.db, Date.now() + DAY_MS);
    },
  };
}
