import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client';
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

/** A refused password or code for an admin's account: the actor is whoever tried, known only by the address. */
export async function recordFailedSignIn(
  db: Db,
  match: { id: string } | { email: string },
  options: { ip: string | null; method: SignInMethod },
) {
  const account = await accountOf(db, match);
  if (!account) return;
  await db.transaction((tx) =>
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
}
