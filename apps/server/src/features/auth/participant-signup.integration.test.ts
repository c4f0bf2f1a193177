import { AUTH_MESSAGES } from '@pulsecheck/shared/auth/schemas';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../app';
import { GLOBAL_TEMPLATE_ID } from '../../db/catalogue';
import { user } from '../../db/schema/auth';
import { healthChecks } from '../../db/schema/health-checks';
import { createTestContext, type TestContext } from '../../test/harness';
import { createAdmin, followLink, latestMail, linkIn, uniqueEmail } from '../../test/factories';

let ctx: TestContext;
let healthCheckId: string;
beforeAll(async () => {
  ctx = await createTestContext();
  const admin = await createAdmin(ctx);
  const [check] = await ctx.deps.db
    .insert(healthChecks)
    .values({
      title: 'Q4 check',
      workspaceId: admin.workspaceId,
      templateId: GLOBAL_TEMPLATE_ID,
      createdBy: admin.userId,
      settings: {
        minResponses: 3,
        allowAnonymous: true,
        enableComments: true,
        votesPerPerson: 5,
        showResultsAfterVoting: true,
      },
    })
    .returning();
  healthCheckId = check!.id;
});
afterAll(async () => {
  await ctx.close();
});

const body = (overrides: Record<string, unknown> = {}) => ({
  fullName: 'Pat Participant',
  email: uniqueEmail('participant'),
  password: 'participant-password',
  healthCheckId,
  ...overrides,
});

describe('participant sign-up', () => {
  it('requires full name, e-mail and password, and a valid health check link', async () => {
    const response = await ctx.request('POST', '/api/signup/participant', {
      body: { fullName: '', email: '', password: '', healthCheckId: 'nope' },
    });
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: { fields: Record<string, string> } };
    expect(error.fields).toMatchObject({
      fullName: AUTH_MESSAGES.fullNameRequired,
      email: AUTH_MESSAGES.emailRequired,
      password: AUTH_MESSAGES.passwordRequired,
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
    expect(row).toMatchObject({ pendingJoinHealthCheckId: healthCheckId, setupStatus: null });

    const { jar } = await followLink(ctx, linkIn((await latestMail(ctx, input.email, 'Verify')).text));
    const me = (await (await ctx.request('GET', '/api/me', { headers: jar.header() })).json()) as {
      user: { pendingJoinHealthCheckId: string; canAdmin: boolean; home: string };
    };
    expect(me.user).toMatchObject({
      pendingJoinHealthCheckId: healthCheckId,
      canAdmin: false,
      home: '/dashboard',
    });

    const again = await ctx.request('POST', '/api/signup/participant', { body: input });
    expect(again.status).toBe(409);
    expect(((await again.json()) as { error: { message: string } }).error.message).toBe(
      AUTH_MESSAGES.accountExists,
    );
  });
});

describe('/dev/mail', () => {
  it('lists outgoing e-mails with their links outside production', async () => {
    const input = body();
    await ctx.request('POST', '/api/signup/participant', { body: input });
    const page = await ctx.request('GET', `/dev/mail?to=${encodeURIComponent(input.email)}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Verify your email for Pulsecheck');
    expect(html).toContain('/api/auth/verify-email?token=');
  });

  it('does not exist in production', async () => {
    const production = createApp({ ...ctx.deps, config: { ...ctx.deps.config, env: 'production' } });
    const page = await production.request('/dev/mail');
    expect(await page.text()).not.toContain('Outgoing e-mail');
  });
});
