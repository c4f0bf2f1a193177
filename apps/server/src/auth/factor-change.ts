import { and, eq, like, ne } from 'drizzle-orm';
import { passkey, session, verification } from '../db/schema/auth';
import type { AppDeps } from '../lib/router';
import { accessChanged } from '../realtime/bus';

/**
 * How better-auth's two-factor plugin names the verification row of a 'Trust this device' cookie (the cookie holds
 * `<HMAC>!<identifier>`; the row's value is the user's id, so a user's rows are found by both).
 */
const TRUST_DEVICE_PREFIX = 'trust-device-';

/**
 * A sign-in factor of the user changed: two-factor sign-in on or off, new recovery codes, the password changed or
 * reset, a passkey removed. Every other session ends (`keep` is the one that made the change, null after a reset)
 * and every 'Trust this device' record goes, so each browser asks for the second step again; with `passkeys`,
 * every passkey goes too ('Also remove my passkeys and sign out everywhere else'). Open live streams re-check
 * their session at once. The one place that says what a factor change ends (docs/security.md, "Factors").
 */
export async function endOtherSignIns(
  deps: Pick<AppDeps, 'db' | 'realtime'>,
  options: { userId: string; keep: string | null; passkeys?: boolean },
): Promise<void> {
  const { userId, keep } = options;
  await deps.db.transaction(async (tx) => {
    const mine = eq(session.userId, userId);
    await tx.delete(session).where(keep ? and(mine, ne(session.token, keep)) : mine);
    await tx
      .delete(verification)
      .where(and(like(verification.identifier, `${TRUST_DEVICE_PREFIX}%`), eq(verification.value, userId)));
    if (options.passkeys) await tx.delete(passkey).where(eq(passkey.userId, userId));
    await accessChanged(deps.realtime, userId, tx);
  });
}
