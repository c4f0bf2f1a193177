import { and, eq, gt, sql } from 'drizzle-orm';
import { twoFactorDueSql } from '../../auth/access';
import { type Db, first } from '../../db/client';
import { account, user, verification, type SignupProfile } from '../../db/schema/auth';
import { mailOutbox } from '../../db/schema/messaging';
import { healthChecks } from '../../db/schema/health-checks';
import { userPreferences } from '../../db/schema/organizations';

export async function findUserByEmail(db: Db, email: string) {
  return first(
    db
      .select({ id: user.id, name: user.name, emailVerified: user.emailVerified, language: user.language })
      .from(user)
      .where(eq(user.email, email)),
  );
}

/**
 * Creates the unverified account of a first sign-up with its password hash, inside `tx`; returns undefined when
 * the address already has an account (including one another request is creating at this moment).
 */
export async function insertUnverifiedUser(
  tx: Db,
  values: {
    userId: string;
    accountId: string;
    name: string;
    email: string;
    passwordHash: string;
    language: string | null;
  } & SignupProfile,
) {
  const { userId, accountId, passwordHash, ...profile } = values;
  const [created] = await tx
    .insert(user)
    .values({ id: userId, emailVerified: false, ...profile })
    .onConflictDoNothing({ target: user.email })
    .returning({ id: user.id });
  if (!created) return undefined;
  await tx.insert(account).values({
    id: accountId,
    accountId: created.id,
    providerId: 'credential',
    userId: created.id,
    password: passwordHash,
  });
  return created.id;
}

/** Whether an e-mail of `kind` was queued to `to` since `since` (throttles the sign-up warning). */
export async function mailQueuedSince(db: Db, to: string, kind: string, since: Date) {
  const row = await first(
    db
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(
        and(eq(mailOutbox.to, to.toLowerCase()), eq(mailOutbox.kind, kind), gt(mailOutbox.createdAt, since)),
      ),
  );
  return Boolean(row);
}

export async function findProfile(db: Db, userId: string) {
  return first(
    db
      .select({
        id: user.id,
        email: user.email,
        name: user.name,
        role: user.role,
        setupStatus: user.setupStatus,
        pendingJoinHealthCheckId: user.pendingJoinHealthCheckId,
        avatarId: user.avatarId,
        language: user.language,
        activeWorkspaceId: userPreferences.activeWorkspaceId,
        twoFactorDue: sql<boolean>`${twoFactorDueSql(sql`${user.id}`, sql`${user.twoFactorEnabled}`)}`,
      })
      .from(user)
      .leftJoin(userPreferences, eq(userPreferences.userId, user.id))
      .where(eq(user.id, userId)),
  );
}

export async function healthCheckExists(db: Db, id: string) {
  const row = await first(
    db.select({ id: healthChecks.id }).from(healthChecks).where(eq(healthChecks.id, id)),
  );
  return Boolean(row);
}

/** The user a password-reset token belongs to (better-auth keeps it as `reset-password:<token>`), if any. */
export async function resetTokenOwner(db: Db, token: string) {
  const row = await first(
    db
      .select({ userId: verification.value })
      .from(verification)
      .where(eq(verification.identifier, `reset-password:${token}`)),
  );
  return row?.userId;
}
