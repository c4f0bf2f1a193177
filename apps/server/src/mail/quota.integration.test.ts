import { MAIL_QUOTA, mailQuotaExceededMessage } from '@pulsecheck/shared/mail/quota';
import { count, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { healthChecks } from '../db/schema/health-checks';
import { mailOutbox } from '../db/schema/messaging';
import { workspaceMembers } from '../db/schema/organizations';
import { addMember, createAdmin, invite } from '../test/accounts';
import { useTestContext } from '../test/harness';
import { launchBody } from '../test/health-checks';
import type { Jar } from '../test/requests';

/**
 * Trust item 9: a signed-in admin could make the server e-mail any addresses without limit (200 per launch, as many
 * launches and invitations as they liked). Every such e-mail now counts against a daily budget per user and per
 * organisation; past it the request is a 429 that says so and queues nothing.
 */
const ctx = useTestContext();

type Admin = { jar: Jar; workspaceId: string };
const addresses = (tag: string, n: number) =>
  Array.from({ length: n }, (_, i) => `${tag}-${i}@victims.example`);

async function launchTo(admin: Admin, emails: string[]) {
  return ctx.call(
    admin.jar,
    'POST',
    '/api/health-checks',
    await launchBody(ctx, admin.workspaceId, { teamEmails: emails }),
  );
}

async function queued(emails: string[]) {
  const [row] = await ctx.deps.db
    .select({ n: count() })
    .from(mailOutbox)
    .where(inArray(mailOutbox.to, emails));
  return row?.n ?? 0;
}

async function checksOf(workspaceId: string) {
  const [row] = await ctx.deps.db
    .select({ n: count() })
    .from(healthChecks)
    .where(eq(healthChecks.workspaceId, workspaceId));
  return row?.n ?? 0;
}

const refusal = async (response: Response) =>
  ({ status: response.status, ...((await response.json()) as object) }) as {
    status: number;
    error?: { code: string; message: string };
  };

describe('daily e-mail budget per user', () => {
  it('refuses launches, invitations and resends past it with a 429 that says why, queuing nothing', async () => {
    const admin = await createAdmin(ctx);
    const pending = await invite(ctx, admin); // 1
    for (const [i, n] of [200, 200, 98].entries()) {
      const response = await launchTo(admin, addresses(`u${i}-${admin.workspaceId}`, n));
      expect(response.status).toBe(201);
    } // 499 sent today

    const over = addresses(`over-${admin.workspaceId}`, 2);
    const launch = await refusal(await launchTo(admin, over));
    expect(launch).toEqual({
      status: 429,
      error: {
        code: 'rate_limited',
        message: mailQuotaExceededMessage({
          scope: 'user',
          limit: MAIL_QUOTA.perUserPerDay,
          remaining: 1,
          requested: 2,
        }),
      },
    });
    expect(launch.error?.message).toContain('resets at midnight UTC');
    expect(await queued(over)).toBe(0);
    expect(await checksOf(admin.workspaceId)).toBe(3); // the refused launch left no check behind

    // The last one of the day still goes; then invitations and resends are refused too.
    expect((await launchTo(admin, [`last-${admin.workspaceId}@victims.example`])).status).toBe(201);
    const extra = `extra-${admin.workspaceId}@victims.example`;
    const invitation = await ctx.call(admin.jar, 'POST', `/api/workspaces/${admin.workspaceId}/invitations`, {
      email: extra,
      role: 'Engineer',
    });
    expect(invitation.status).toBe(429);
    expect((await refusal(invitation)).error?.message).toContain('you can send up to 500');
    expect(await queued([extra])).toBe(0);
    const members = await ctx.deps.db
      .select()
      .from(workspaceMembers)
      .where(eq(workspaceMembers.invitationEmail, extra));
    expect(members).toHaveLength(0);

    const before = await queued([pending.email]);
    const resend = await ctx.call(
      admin.jar,
      'POST',
      `/api/workspaces/${admin.workspaceId}/invitations/${pending.memberId}/resend`,
    );
    expect(resend.status).toBe(429);
    expect(await queued([pending.email])).toBe(before);
  });

  it('charges concurrent launches atomically: never past the budget', async () => {
    const admin = await createAdmin(ctx);
    const batches = Array.from({ length: 4 }, (_, i) => addresses(`race${i}-${admin.workspaceId}`, 150));
    const responses = await Promise.all(batches.map((emails) => launchTo(admin, emails)));
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 201, 201, 429]);
    expect(await queued(batches.flat())).toBe(450);
  });
});

describe('daily e-mail budget per organisation', () => {
  it('holds across several admins of one organisation', async () => {
    const owner = await createAdmin(ctx);
    const second = await addMember(ctx, owner, { admin: true }); // owner: 1
    const third = await addMember(ctx, owner, { admin: true }); // owner: 2
    const admins = [second, third].map((a) => ({ jar: a.jar, workspaceId: owner.workspaceId }));
    for (const [i, admin] of admins.entries()) {
      for (const [j, n] of [200, 200].entries()) {
        expect((await launchTo(admin, addresses(`o${i}${j}-${owner.workspaceId}`, n))).status).toBe(201);
      }
    } // organisation: 802, each of the two admins 400
    expect((await launchTo(owner, addresses(`o-owner-${owner.workspaceId}`, 198))).status).toBe(201);
    // organisation: 1,000; the owner has sent 200 of their own 500.

    const over = addresses(`o-over-${owner.workspaceId}`, 1);
    const refused = await refusal(await launchTo(owner, over));
    expect(refused.status).toBe(429);
    expect(refused.error?.message).toBe(
      mailQuotaExceededMessage({
        scope: 'organization',
        limit: MAIL_QUOTA.perOrganizationPerDay,
        remaining: 0,
        requested: 1,
      }),
    );
    expect(await queued(over)).toBe(0);
    const invitation = await ctx.request('POST', `/api/workspaces/${owner.workspaceId}/invitations`, {
      body: { email: over[0], role: 'Engineer' },
      headers: admins[0]!.jar.header(),
    });
    expect(invitation.status).toBe(429);
    expect(await queued(over)).toBe(0);

    // Another organisation is not affected.
    const other = await createAdmin(ctx);
    expect((await launchTo(other, addresses(`elsewhere-${other.workspaceId}`, 10))).status).toBe(201);
  });
});
