import { randomUUID } from 'node:crypto';
import { and, eq, gt } from 'drizzle-orm';
import type { Db } from '../db/client';
import { verification } from '../db/schema/auth';

/**
 * Adding a passkey needs the proof that deleting the account needs (auth/confirm-identity.ts). The proof is bound
 * to the one registration it was given for: a grant named after the ceremony's challenge, for its owner, that the
 * passkey plugin's verification takes (auth/auth.ts), once. Options obtained any other way, say from the plugin's
 * own endpoint with a stolen session, have no grant and save nothing.
 */
const grantIdentifier = (challenge: string) => `passkey-grant-${challenge}`;
/** As long as the plugin's challenge lives. */
const GRANT_SECONDS = 5 * 60;

export async function grantPasskeyRegistration(db: Db, userId: string, challenge: string): Promise<void> {
  await db.insert(verification).values({
    id: randomUUID(),
    identifier: grantIdentifier(challenge),
    value: userId,
    expiresAt: new Date(Date.now() + GRANT_SECONDS * 1000),
  });
}

/**
 * Takes the grant of the registration whose client data is `clientDataJSON` (base64url, its challenge already
 * checked by @simplewebauthn against the one issued); false when there is none for `userId`, or it expired.
 */
export async function takePasskeyGrant(db: Db, userId: string, clientDataJSON: string): Promise<boolean> {
  const { challenge } = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as {
    challenge?: unknown;
  };
  if (typeof challenge !== 'string') return false;
  const taken = await db
    .delete(verification)
    .where(
      and(
        eq(verification.identifier, grantIdentifier(challenge)),
        eq(verification.value, userId),
        gt(verification.expiresAt, new Date()),
      ),
    )
    .returning({ id: verification.id });
  return taken.length > 0;
}
