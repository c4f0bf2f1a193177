import { AUTH_MESSAGES } from '@pulsecheck/shared/auth/messages';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { user } from '../../db/schema/auth';
import { useAdmin, validParticipantSignup } from '../../test/accounts';
import { useForAll, useTestContext } from '../../test/harness';
import { createCheck } from '../../test/health-checks';
import { followLink, latestMail, linkIn } from '../../test/mail';
import { english } from '../../test/requests';

const ctx = useTestContext();
const admin = useAdmin(ctx);
const check = useForAll(() => createCheck(ctx, admin, { title: 'Q4 check' }));

const body = (overrides: Record<string, unknown> = {}) =>
  validParticipantSignup(check.healthCheckId, overrides);

describe('participant sign-up', () => {
  it('requires full name, e-mail and password, and a valid health check link', async () => {
    const response = await ctx.request('POST', '/api/signup/participant', {
      body: { fullName: '', email: '', password: '', healthCheckId: 'nope' },
    });
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: { fields: Record<string, string> } };
    expect(error.fields).toMatchObject({
      fullName: english(AUTH_MESSAGES.fullNameRequired),
      email: english(AUTH_MESSAGES.emailRequired),
      password: english(AUTH_MESSAGES.passwordRequired),
      healthCheckId: 'Invalid health check link',
    });
  });

  it('answers 404 for a health check that does not exist', async () => {
    const response = await ctx.request('POST', '/api/signup/participant', {
      body: body({ healthCheckId: '00000000-0000-4000-8000-00000000ffff' }),
    });
    expect(response.status).toBe(404);
  });

  it('remembers the check to join, and the verification link signs the participant in', async () => {
    const input = body();
    const response = await ctx.request('POST', '/api/signup/participant', { body: input });
    expect(response.status).toBe(201);
    const [row] = await ctx.deps.db.select().from(user).where(eq(user.email, input.email));
    expect(row).toMatchObject({ pendingJoinHealthCheckId: check.healthCheckId, setupStatus: null });

    const { jar } = await followLink(ctx, linkIn((await latestMail(ctx, input.email, 'Verify')).text));
    const me = (await (await ctx.request('GET', '/api/me', { headers: jar.header() })).json()) as {
      user: { pendingJoinHealthCheckId: string; canAdmin: boolean; home: string };
    };
    expect(me.user).toMatchObject({
      pendingJoinHealthCheckId: check.healthCheckId,
      canAdmin: false,
      home: '/dashboard',
    });

    // Signing up again answers as for a new address; the account owner is warned by e-mail instead.
    const again = await ctx.request('POST', '/api/signup/participant', { body: input });
    expect(again.status).toBe(201);
    expect(await again.json()).toEqual({ ok: true, mail: 'sending' });
    expect((await latestMail(ctx, input.email, 'tried to sign up')).text).toContain('Sign in');
  });
});
