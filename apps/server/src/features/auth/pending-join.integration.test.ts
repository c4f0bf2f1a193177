import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { user } from '../../db/schema/auth';
import { participants } from '../../db/schema/health-checks';
import { useAdmin, validParticipantSignup } from '../../test/accounts';
import { useTestContext } from '../../test/harness';
import { createCheck, setPhase } from '../../test/health-checks';
import { followLink, latestMail, linkIn } from '../../test/mail';

/**
 * Spec section 4: "on login the participant is set up, pending_join cleared", not only on the verification
 * redirect (issue 14). Someone who signed up from a join link, verified the address, and signs in later (another
 * browser, or the redirect screen never ran) is registered for that check at login.
 */

const ctx = useTestContext();
const admin = useAdmin(ctx);

/** Signs up from the check's join link and verifies the address (the server's part of the link only). */
async function signedUpAndVerified(healthCheckId: string) {
  const body = validParticipantSignup(healthCheckId);
  expect((await ctx.request('POST', '/api/signup/participant', { body })).status).toBe(201);
  await followLink(ctx, linkIn((await latestMail(ctx, body.email, 'Verify')).text));
  return body;
}

/** Signs in with the sign-up's password; answers the signed-in user as the login returns them. */
async function logIn(person: { email: string; password: string }) {
  const login = await ctx.request('POST', '/api/login', {
    body: { email: person.email, password: person.password },
  });
  expect(login.status).toBe(200);
  return ((await login.json()) as { user: { home: string; pendingJoinHealthCheckId: string | null } }).user;
}

const pendingJoinOf = async (email: string) =>
  (
    await ctx.deps.db
      .select({ pending: user.pendingJoinHealthCheckId, id: user.id })
      .from(user)
      .where(eq(user.email, email))
  )[0]!;

describe('a pending join at login', () => {
  it('registers the participant, clears the pending join and sends them to their check', async () => {
    const check = await createCheck(ctx, admin);
    const person = await signedUpAndVerified(check.healthCheckId);
    const before = await pendingJoinOf(person.email);
    expect(before.pending).toBe(check.healthCheckId);

    const me = await logIn(person);
    expect(me.pendingJoinHealthCheckId).toBeNull();
    expect(me.home).toBe(`/health-check/${check.healthCheckId}`);
    const rows = await ctx.deps.db
      .select({ status: participants.status })
      .from(participants)
      .where(and(eq(participants.healthCheckId, check.healthCheckId), eq(participants.userId, before.id)));
    expect(rows).toEqual([{ status: 'pending' }]);
  });

  it('clears a pending join whose check no longer takes people, and signs in all the same', async () => {
    const check = await createCheck(ctx, admin);
    const person = await signedUpAndVerified(check.healthCheckId);
    await setPhase(ctx, check.healthCheckId, 'vote');

    const me = await logIn(person);
    expect(me.pendingJoinHealthCheckId).toBeNull();
    expect(me.home).toBe('/dashboard');
    expect((await pendingJoinOf(person.email)).pending).toBeNull();
  });
});
