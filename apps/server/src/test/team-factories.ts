import { desc, eq } from 'drizzle-orm';
import { mailOutbox } from '../db/schema/messaging';
import { notificationJobHandlers } from '../features/account/notification-jobs';
import { runDueJobs } from '../jobs/queue';
import { createLogger } from '../logger';
import { CookieJar, latestMail, uniqueEmail } from './factories';
import type { TestContext } from './harness';

type Admin = { jar: CookieJar; workspaceId: string };

/** The token of the newest invitation e-mailed to `email`. */
export async function invitationToken(ctx: TestContext, email: string) {
  const mail = await latestMail(ctx, email, 'invited');
  const match = /\/invite\/([A-Za-z0-9_-]+)/.exec(mail.text);
  if (!match?.[1]) throw new Error('no invitation link in the e-mail');
  return match[1];
}

export async function invite(
  ctx: TestContext,
  admin: Admin,
  overrides: { email?: string; role?: string; department?: string; admin?: boolean } = {},
) {
  const email = overrides.email ?? uniqueEmail('invitee');
  const response = await ctx.request('POST', `/api/workspaces/${admin.workspaceId}/invitations`, {
    body: { email, role: 'Engineer', ...overrides },
    headers: admin.jar.header(),
  });
  if (response.status !== 201) throw new Error(`invite failed: ${response.status} ${await response.text()}`);
  const { member } = (await response.json()) as { member: { id: string } };
  return { email, memberId: member.id, token: await invitationToken(ctx, email) };
}

/** Invites a new person and accepts as them through sign-up; returns their signed-in cookie jar. */
export async function addMember(
  ctx: TestContext,
  admin: Admin,
  overrides: { admin?: boolean; fullName?: string } = {},
) {
  const invited = await invite(ctx, admin, { admin: overrides.admin ?? false });
  const password = 'member-password-1';
  const jar = new CookieJar();
  const response = jar.store(
    await ctx.request('POST', `/api/invitations/${invited.token}/accept-signup`, {
      body: { fullName: overrides.fullName ?? 'Mia Member', password, confirmPassword: password },
    }),
  );
  if (response.status !== 200) throw new Error(`accept failed: ${response.status} ${await response.text()}`);
  const me = (await (await ctx.request('GET', '/api/me', { headers: jar.header() })).json()) as {
    user: { id: string };
  };
  return { ...invited, jar, password, userId: me.user.id };
}

/** Runs every due notification job (deliveries, the schedule and its fan-outs) until none is left. */
export async function runNotificationJobs(ctx: TestContext) {
  const handlers = notificationJobHandlers(ctx.deps);
  const logger = createLogger('silent');
  for (let i = 0; i < 10 && (await runDueJobs({ db: ctx.deps.db, logger, handlers })) > 0; i++);
}

export async function mailsTo(ctx: TestContext, email: string) {
  return ctx.deps.db
    .select()
    .from(mailOutbox)
    .where(eq(mailOutbox.to, email.toLowerCase()))
    .orderBy(desc(mailOutbox.createdAt));
}
