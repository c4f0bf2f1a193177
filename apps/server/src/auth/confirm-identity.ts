import {
  DELETION_MESSAGES,
  RECENT_SIGN_IN_MINUTES,
  type IdentityProof,
  type PrimaryProofMethod,
} from '@pulsecheck/shared/account/deletion';
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client';
import { invalid } from '../lib/app-error';
import type { Auth } from './auth';
import { FailedAttempt } from './login-limit';
import { authenticatorCodeValid } from './two-factor';

/**
 * Proof that the signed-in person is at the keyboard before something that cannot be undone (deleting an account
 * or an organisation): the password where there is one, otherwise a sign-in of the last few minutes (single
 * sign-on accounts have no password); with two-factor sign-in on, a fresh authenticator code also counts (and is
 * used up, like a sign-in's). Another method is one more member of `identityProofSchema`
 * (packages/shared/src/account/deletion.ts) and one more case below.
 */
export async function proofMethodFor(db: Db, userId: string): Promise<PrimaryProofMethod> {
  return (await passwordHash(db, userId)) ? 'password' : 'recent-sign-in';
}

/** Whether a code of the person's authenticator app confirms too: two-factor sign-in is on, with a key. */
export async function authenticatorAccepted(db: Db, userId: string): Promise<boolean> {
  const [enrolled] = await queryRows<{ one: number }>(
    db,
    sql`select 1 as one from "user" u join two_factor t on t.user_id = u.id
        where u.id = ${userId} and u.two_factor_enabled`,
  );
  return Boolean(enrolled);
}

async function passwordHash(db: Db, userId: string): Promise<string | null> {
  const [row] = await queryRows<{ password: string }>(
    db,
    sql`select password from account where user_id = ${userId} and provider_id = 'credential'
          and password is not null limit 1`,
  );
  return row?.password ?? null;
}

/**
 * Throws a 400 naming the field unless `proof` shows it is `userId` (signed in with `sessionToken`). A wrong
 * password or code is a `FailedAttempt`: the route counts it against the account like a failed sign-in
 * (`limitFailedLogins`), so a stolen session cannot guess its way to deleting the account.
 */
export async function confirmIdentity(
  deps: { db: Db; auth: Auth },
  options: { userId: string; sessionToken: string; proof: IdentityProof },
): Promise<void> {
  const { db } = deps;
  const { userId, proof } = options;
  const method = await proofMethodFor(db, userId);
  if (proof.method === 'password') {
    const hash = await passwordHash(db, userId);
    if (!hash) throw invalid(DELETION_MESSAGES.noPassword);
    const context = await deps.auth.$context;
    if (!(await context.password.verify({ hash, password: proof.password })))
      throw new FailedAttempt('invalid', DELETION_MESSAGES.passwordIncorrect, {
        password: DELETION_MESSAGES.passwordIncorrect,
      });
    return;
  }
  if (proof.method === 'authenticator') {
    if (!(await authenticatorAccepted(db, userId))) throw invalid(DELETION_MESSAGES.noAuthenticator);
    if (!(await authenticatorCodeValid(deps, userId, proof.code)))
      throw new FailedAttempt('invalid', DELETION_MESSAGES.codeIncorrect, {
        code: DELETION_MESSAGES.codeIncorrect,
      });
    return;
  }
  // A recent sign-in counts only for accounts that have nothing stronger.
  if (method !== 'recent-sign-in')
    throw invalid(DELETION_MESSAGES.passwordRequired, { password: DELETION_MESSAGES.passwordRequired });
  const [recent] = await queryRows<{ one: number }>(
    db,
    sql`select 1 as one from session where token = ${options.sessionToken} and user_id = ${userId}
          and created_at > now() - make_interval(mins => ${RECENT_SIGN_IN_MINUTES})`,
  );
  if (!recent) throw invalid(DELETION_MESSAGES.signInAgain, undefined, { minutes: RECENT_SIGN_IN_MINUTES });
}
