import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { user } from '../../db/schema/auth';
import { healthChecks } from '../../db/schema/health-checks';
import { userPreferences } from '../../db/schema/organizations';

export async function findUserByEmail(db: Db, email: string) {
  const [row] = await db.select({ id: user.id }).from(user).where(eq(user.email, email)).limit(1);
  return row;
}

export async function updateSignupProfile(
  db: Db,
  email: string,
  values: Partial<
    Pick<
      typeof user.$inferInsert,
      'role' | 'companyName' | 'companySize' | 'setupStatus' | 'pendingJoinHealthCheckId'
    >
  >,
) {
  await db
    .update(user)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(user.email, email));
}

export async function findProfile(db: Db, userId: string) {
  const [row] = await db
    .select({
      id: user.id,
      email: user.email,
      name: user.name,
      role: user.role,
      setupStatus: user.setupStatus,
      pendingJoinHealthCheckId: user.pendingJoinHealthCheckId,
      avatarId: user.avatarId,
      activeWorkspaceId: userPreferences.activeWorkspaceId,
    })
    .from(user)
    .leftJoin(userPreferences, eq(userPreferences.userId, user.id))
    .where(eq(user.id, userId))
    .limit(1);
  return row;
}

export async function healthCheckExists(db: Db, id: string) {
  const [row] = await db
    .select({ id: healthChecks.id })
    .from(healthChecks)
    .where(eq(healthChecks.id, id))
    .limit(1);
  return Boolean(row);
}

/** The owner of an address, to tell them their sign-in was paused (features/auth/login-limit.ts). */
export async function findAccountOwner(db: Db, email: string) {
  const [row] = await db
    .select({ email: user.email, name: user.name })
    .from(user)
    .where(eq(user.email, email))
    .limit(1);
  return row;
}
