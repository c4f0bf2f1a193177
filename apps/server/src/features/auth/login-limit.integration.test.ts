import { AUTH_MESSAGES } from '@pulsecheck/shared/auth/messages';
import { eq, like } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rateLimit } from '../../db/schema/auth';
import { countHit, LIMITS, loginAccountKey } from '../../lib/rate-limit';
import { createAdmin, passwordResetToken } from '../../test/accounts';
import { useTestContext } from '../../test/harness';
import { mailsTo } from '../../test/mail';
import type { ErrorJson } from '../../test/requests';
import { randomIp, uniqueEmail } from '../../test/unique';
import { english } from '../../test/requests';

/**
 * Trust item 6. The harness runs the app as if behind one trusted proxy (TRUST_PROXY=1): the proxy appends the
 * address it saw to X-Forwarded-For, and whatever the client wrote stands left of it.
 */
const ctx = useTestContext({ trustProxyHops: 1 });

const PAUSED_SUBJECT = 'Sign-in to your Pulsecheck account was paused';
const MAX = LIMITS.loginAccount.max;

/** A sign-in as it reaches the app through the proxy: `spoofed` is what the client wrote, `from` what the proxy saw. */
const logIn = (body: { email: string; password: string }, from = randomIp(), spoofed?: string) =>
  ctx.request('POST', '/api/login', {
    body,
    headers: { 'x-forwarded-for': spoofed ? `${spoofed}, ${from}` : from },
  });

describe('the address behind a trusted proxy', () => {
  it('is the one the proxy saw: a rotating spoofed X-Forwarded-For does not escape the per-address limit', async () => {
    const attacker = '203.0.113.66';
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      // A different account each time, so only the per-address limit can bite.
      const response = await logIn(
        { email: uniqueEmail(), password: 'wrong-password' },
        attacker,
        randomIp(),
      );
      statuses.push(response.status);
    }
    expect(statuses.slice(0, LIMITS.login.max)).toEqual(Array(LIMITS.login.max).fill(401));
    expect(statuses.slice(LIMITS.login.max)).toEqual([429, 429]);
  });
});

describe('the per-account sign-in limit', () => {
  it('pauses an account after 10 failures from 20 different addresses, tells the owner once, and not even the right password gets in', async () => {
    const admin = await createAdmin(ctx);
    const answers: { status: number; message: string; retryAfter: number }[] = [];
    for (let i = 0; i < 20; i++) {
      const response = await logIn({ email: admin.email, password: `wrong-password-${i}` });
      answers.push({
        status: response.status,
        message: ((await response.json()) as ErrorJson).error.message,
        retryAfter: Number(response.headers.get('retry-after')),
      });
    }
    expect(answers.slice(0, MAX - 1).map((a) => a.status)).toEqual(Array(MAX - 1).fill(401));
    for (const answer of answers.slice(MAX - 1)) {
      expect(answer.status).toBe(429);
      expect(answer.message).toBe(english(AUTH_MESSAGES.accountLocked));
      expect(answer.retryAfter).toBeGreaterThan(0);
      expect(answer.retryAfter).toBeLessThanOrEqual(LIMITS.loginAccount.windowSeconds);
    }

    const right = await logIn({ email: admin.email, password: admin.password });
    expect(right.status).toBe(429);
    // The address is normalised: another spelling of it is the same account.
    const shouting = await logIn({ email: ` ${admin.email.toUpperCase()} `, password: admin.password });
    expect(shouting.status).toBe(429);

    const paused = (await mailsTo(ctx, admin.email)).filter((m) => m.subject === PAUSED_SUBJECT);
    expect(paused).toHaveLength(1);
    expect(paused[0]!.text).toContain(`${MAX} times`);
    expect(paused[0]!.text).toContain('http://localhost:3000/login');
  });

  it('answers an address without an account exactly as one with an account (and e-mails nobody)', async () => {
    const admin = await createAdmin(ctx);
    const nobody = uniqueEmail('nobody');
    const run = async (email: string) => {
      const seen: string[] = [];
      for (let i = 0; i < MAX + 2; i++) {
        const response = await logIn({ email, password: 'wrong-password' });
        seen.push(`${response.status} ${((await response.json()) as ErrorJson).error.message}`);
      }
      return seen;
    };
    expect(await run(nobody)).toEqual(await run(admin.email));
    expect(await mailsTo(ctx, nobody)).toHaveLength(0);
  });

  it('holds under concurrent attempts: at most 10 passwords are checked, one e-mail goes out', async () => {
    const admin = await createAdmin(ctx);
    const statuses = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        logIn({ email: admin.email, password: `wrong-password-${i}` }).then((r) => r.status),
      ),
    );
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(MAX - 1);
    expect(statuses.filter((s) => s !== 401).every((s) => s === 429)).toBe(true);
    expect((await mailsTo(ctx, admin.email)).filter((m) => m.subject === PAUSED_SUBJECT)).toHaveLength(1);
  });

  it('does not count successful sign-ins', async () => {
    const admin = await createAdmin(ctx);
    for (let i = 0; i < MAX + 5; i++) {
      expect((await logIn({ email: admin.email, password: admin.password })).status).toBe(200);
    }
  });

  it('locks no one out for good: a password reset lifts the pause at once, and the pause ends with its window', async () => {
    const admin = await createAdmin(ctx);
    for (let i = 0; i < MAX; i++) await logIn({ email: admin.email, password: 'wrong-password' });
    expect((await logIn({ email: admin.email, password: admin.password })).status).toBe(429);

    const token = await passwordResetToken(ctx, admin.email);
    const reset = await ctx.request('POST', '/api/password/reset', {
      body: { token, password: 'a-brand-new-password', confirmPassword: 'a-brand-new-password' },
    });
    expect(reset.status).toBe(200);
    expect((await logIn({ email: admin.email, password: 'a-brand-new-password' })).status).toBe(200);

    // Paused again; then the window passes (moved back in the database instead of waiting 15 minutes).
    for (let i = 0; i < MAX; i++) await logIn({ email: admin.email, password: 'wrong-password' });
    expect((await logIn({ email: admin.email, password: 'a-brand-new-password' })).status).toBe(429);
    const key = loginAccountKey(admin.email);
    const [row] = await ctx.deps.db.select().from(rateLimit).where(eq(rateLimit.key, key));
    expect(row).toBeDefined();
    await ctx.deps.db
      .update(rateLimit)
      .set({ lastRequest: row!.lastRequest - LIMITS.loginAccount.windowSeconds * 1000 - 1000 })
      .where(eq(rateLimit.key, key));
    expect((await logIn({ email: admin.email, password: 'a-brand-new-password' })).status).toBe(200);
    // One e-mail per pause: two pauses, two e-mails.
    expect((await mailsTo(ctx, admin.email)).filter((m) => m.subject === PAUSED_SUBJECT)).toHaveLength(2);
  });

  it('counts concurrent first hits on a new key once each, without an error', async () => {
    // The race CI once met: thirty first attempts on one account at the same moment all try to create its row.
    for (let round = 0; round < 20; round++) {
      const key = loginAccountKey(uniqueEmail());
      const hits = await Promise.all(Array.from({ length: 30 }, () => countHit(ctx.deps.db, key, 60)));
      expect(hits.map((h) => h.count).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 30 }, (_, i) => i + 1),
      );
    }
  });

  it('keeps its counter in PostgreSQL, shared by every server process', async () => {
    const email = uniqueEmail();
    await logIn({ email, password: 'wrong-password' });
    const rows = await ctx.deps.db
      .select()
      .from(rateLimit)
      .where(like(rateLimit.key, `pc:${LIMITS.loginAccount.name}:${email}`));
    expect(rows.map((r) => r.count)).toEqual([1]);
  });
});
