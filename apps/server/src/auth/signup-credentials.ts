import { createHash, randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { account, session, signupCredentials, user, type SignupProfile } from '../db/schema/auth';

/**
 * Pending sign-up credentials (docs/security.md, "Sign-up"). Every sign-up on an address that is not verified yet
 * records the password hash and profile it chose, bound to a random single-use token carried only by that
 * sign-up's own verification link (`&signup=<token>`). Following a verification link settles the account:
 * - the link names a recorded sign-up: its password becomes the only one and its profile the account's;
 * - it names none (a link from "resend verification", or a tampered one): the password stays only when exactly
 *   one sign-up ever set it, that is the one that created the account; otherwise no password survives and the
 *   mailbox owner, signed in by the link, chooses one through "forgot password";
 * and in every case all other pending credentials and every existing session of the user are deleted.
 */

/** The query parameter of the verification link that carries the sign-up's token. */
export const SIGNUP_TOKEN_PARAM = 'signup';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** Records one sign-up's credentials inside `tx`; returns the token for its verification link. */
export async function recordSignupCredential(
  tx: Db,
  options: {
    userId: string;
    passwordHash: string;
    name: string;
    profile: SignupProfile;
    createdAccount: boolean;
  },
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await tx.insert(signupCredentials).values({
    userId: options.userId,
    tokenHash: sha256(token),
    passwordHash: options.passwordHash,
    name: options.name,
    profile: options.profile,
    createdAccount: options.createdAccount,
  });
  return token;
}

/** The sign-up token of a verification request's URL, or null. */
export function signupTokenOf(request: Request | undefined): string | null {
  if (!request) return null;
  try {
    const token = new URL(request.url).searchParams.get(SIGNUP_TOKEN_PARAM);
    return token && token.length <= 200 ? token : null;
  } catch {
    return null;
  }
}

/**
 * Runs right before better-auth marks the address verified and signs the link's follower in (its
 * `beforeEmailVerification` hook), in one transaction. Accounts with no pending credentials (made before they
 * existed, or by an accepted invitation) are left as they are.
 */
export async function settleSignupOnVerification(db: Db, userId: string, token: string | null) {
  await db.transaction(async (tx) => {
    const rows = await tx
      .select()
      .from(signupCredentials)
      .where(eq(signupCredentials.userId, userId))
      .for('update');
    if (rows.length === 0) return;
    const tokenHash = token ? sha256(token) : null;
    const named = rows.find((row) => row.tokenHash === tokenHash);
    const creator = rows.length === 1 && rows[0]?.createdAccount ? rows[0] : undefined;
    const chosen = named ?? creator;
    const credential = and(eq(account.userId, userId), eq(account.providerId, 'credential'));
    if (chosen) {
      await tx
        .update(account)
        .set({ password: chosen.passwordHash, updatedAt: new Date() })
        .where(credential);
      await tx
        .update(user)
        .set({ name: chosen.name, ...chosen.profile, updatedAt: new Date() })
        .where(eq(user.id, userId));
    } else {
      // Several people signed up with this address and the link names none of them: keep no one's password.
      await tx.update(account).set({ password: null, updatedAt: new Date() }).where(credential);
    }
    await tx.delete(signupCredentials).where(eq(signupCredentials.userId, userId));
    await tx.delete(session).where(eq(session.userId, userId));
  });
}
