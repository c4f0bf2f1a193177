import { MAIL_QUOTA, mailQuotaExceededMessage, type MailQuotaScope } from '@pulsecheck/shared/mail/quota';
import { sql } from 'drizzle-orm';
import type { Config } from '../config';
import { queryRows, type Db } from '../db/client';
import { AppError } from '../lib/app-error';

/** Today's budgets, scaled like every other limit (RATE_LIMIT_MULTIPLIER). */
export function mailQuotaLimits(config: Pick<Config, 'rateLimitMultiplier'>) {
  return {
    user: MAIL_QUOTA.perUserPerDay * config.rateLimitMultiplier,
    organization: MAIL_QUOTA.perOrganizationPerDay * config.rateLimitMultiplier,
  } satisfies Record<MailQuotaScope, number>;
}

/**
 * Adds `count` to a counter of today (UTC) unless that would pass `limit`; true when charged. One statement on a
 * row PostgreSQL locks, so concurrent requests on any number of processes never charge past the limit.
 */
async function charge(tx: Db, scope: MailQuotaScope, subjectId: string, count: number, limit: number) {
  if (count > limit) return false;
  const rows = await queryRows<{ sent: number }>(
    tx,
    sql`insert into mail_quota (scope, subject_id, day, sent)
        values (${scope}, ${subjectId}, (now() at time zone 'utc')::date, ${count})
        on conflict (scope, subject_id, day) do update set sent = mail_quota.sent + excluded.sent
          where mail_quota.sent + excluded.sent <= ${limit}
        returning sent`,
  );
  return rows.length > 0;
}

async function sentToday(tx: Db, scope: MailQuotaScope, subjectId: string) {
  const [row] = await queryRows<{ sent: number }>(
    tx,
    sql`select sent from mail_quota
        where scope = ${scope} and subject_id = ${subjectId} and day = (now() at time zone 'utc')::date`,
  );
  return Number(row?.sent ?? 0);
}

/**
 * Charges `count` e-mails that `userId` is about to send for `workspaceId` against the user's and the
 * organisation's daily budgets, inside the caller's transaction `tx` (call it before queuing the mails there):
 * past either budget it throws a 429 with the limit, what is left, when it resets and what to do, and the
 * transaction rolls back, so a refused request queues nothing and charges nothing.
 */
export async function chargeMailQuota(
  tx: Db,
  config: Pick<Config, 'rateLimitMultiplier'>,
  options: { userId: string; workspaceId: string; count: number },
): Promise<void> {
  const { userId, workspaceId, count } = options;
  if (count <= 0) return;
  const limits = mailQuotaLimits(config);
  const [workspace] = await queryRows<{ organization_id: string }>(
    tx,
    sql`select organization_id from workspaces where id = ${workspaceId}`,
  );
  const subjects: [MailQuotaScope, string | undefined][] = [
    ['user', userId],
    ['organization', workspace?.organization_id],
  ];
  for (const [scope, subjectId] of subjects) {
    if (!subjectId) continue;
    if (await charge(tx, scope, subjectId, count, limits[scope])) continue;
    const remaining = Math.max(0, limits[scope] - (await sentToday(tx, scope, subjectId)));
    throw new AppError(
      'rate_limited',
      mailQuotaExceededMessage({ scope, limit: limits[scope], remaining, requested: count }),
    );
  }
}
