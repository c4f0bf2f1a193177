import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client';
import type { Logger } from '../logger';
import { recordAuditWhereUser } from './record';

/**
 * Sign-ins in the audit log (issue 37 item 3): an admin's sign-in, and a failed one, in each organisation where the
 * person is the owner, an organisation admin or a workspace admin. Everyone else's sign-ins are not recorded.
 */

export type SignInMethod = 'password' | 'code' | 'recovery code' | 'passkey' | 'single sign-on';

/** Whether the account oversees anything: the one query both records start with, admins or not. */
async function accountOf(db: Db, match: { id: string } | { email: string }) {
  const [row] = await queryRows<{ id: string; email: string }>(
    db,
    'id' in match
      ? sql`select id, email from "user" where id = ${match.id}`
      : sql`select id, email from "user" where email = lower(${match.email})`,
  );
  return row ?? null;
}

export async function recordSignIn(
  db: Db,
  userId: string,
  options: { ip: string | null; method: SignInMethod },
) {
  const account = await accountOf(db, { id: userId });
  if (!account) return;
  await db.transaction((tx) =>
    recordAuditWhereUser(
      tx,
      account.id,
      'admin',
      { kind: 'user', id: account.id, label: account.email, ip: options.ip },
      {
        action: 'admin.signed-in',
        targetType: 'person',
        targetId: account.id,
        targetLabel: account.email,
        changes: { method: options.method },
      },
    ),
  );
}

/**
 * A refused password or code for an admin's account: the actor is whoever tried, known only by the address. It never
 * changes the answer: should the entry fail to be written, that is logged and the refusal stands (and still counts
 * against the account, auth/login-limit.ts).
 */
export async function recordFailedSignIn(
  deps: { db: Db; logger: Logger },
  match: { id: string } | { email: string },
  options: { ip: string | null; method: SignInMethod },
) {
  try {
    const account = await accountOf(deps.db, match);
    if (!account) return;
    await deps.db.transaction((tx) =>
      recordAuditWhereUser(
        tx,
        account.id,
        'admin',
        { kind: 'user', id: null, label: account.email, ip: options.ip },
        {
          action: 'admin.sign-in-failed',
          targetType: 'person',
          targetId: account.id,
          targetLabel: account.email,
          changes: { method: options.method },
        },
      ),
    );
  } catch (error) {
    deps.logger.error({ err: error }, 'audit log: a failed sign-in could not be recorded');
  }
}
