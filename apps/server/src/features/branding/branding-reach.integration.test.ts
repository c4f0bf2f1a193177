import type { RoundToAnswer } from '@pulsecheck/shared/loops/contract';
import type { JoinInfo, Participation } from '@pulsecheck/shared/participation/contract';
import type { ResultsResponse } from '@pulsecheck/shared/results/schemas';
import { inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { jobs } from '../../db/schema/messaging';
import { createAdmin, signedInParticipant, type Admin } from '../../test/accounts';
import { useTestContext } from '../../test/harness';
import { launch } from '../../test/health-checks';
import { addPeople, answerToken, launchLoop, roundMail } from '../../test/loops';
import { latestMail, runNotificationJobs } from '../../test/mail';
import { DELIVERY_JOBS, notify } from '../notifications/service';
import { json, type Jar } from '../../test/requests';
import { uniqueEmail } from '../../test/unique';

/** Where an organisation's branding reaches (issue 32 item 10): participant payloads and the e-mails it sends. */

const ctx = useTestContext();

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 9, 8, 7, 6]);
const ACCENT = '#0f766e';
const BRANDING_KEYS = ['accentColor', 'logoUrl', 'organizationName'];

async function brand(jar: Jar) {
  const form = new FormData();
  form.set('logo', new File([new Uint8Array(PNG)], 'logo.png', { type: 'image/png' }));
  const uploaded = await ctx.app.request('/api/organization/branding/logo', {
    method: 'POST',
    body: form,
    headers: jar.header(),
  });
  expect(uploaded.status).toBe(200);
  const saved = await ctx.call(jar, 'PUT', '/api/organization/branding', { accentColor: ACCENT });
  expect(saved.status).toBe(200);
  return (await json<{ branding: { logoUrl: string } }>(saved)).branding.logoUrl;
}

let branded: { admin: Admin; logoUrl: string } | undefined;
/** An organisation with a logo and an accent colour, made once for the file. */
async function brandedOrganisation() {
  if (!branded) {
    const admin = await createAdmin(ctx, { companyName: 'Teal Harbour' });
    branded = { admin, logoUrl: await brand(admin.jar) };
  }
  return branded;
}

const absolute = (path: string) => `${ctx.deps.config.appUrl.replace(/\/$/, '')}${path}`;

describe('participant pages show the branding of the organisation the check or loop belongs to', () => {
  it("a check's join info (signed out) and participation carry its organisation's name, logo and colour, nothing more", async () => {
    const { admin, logoUrl } = await brandedOrganisation();
    const other = await createAdmin(ctx, { companyName: 'Plain Works' });
    const check = await launch(ctx, admin.jar, admin.workspaceId);
    const plain = await launch(ctx, other.jar, other.workspaceId);

    const info = await json<JoinInfo>(await ctx.request('GET', `/api/join/${check.id}`));
    expect(Object.keys(info.branding!).sort()).toEqual(BRANDING_KEYS);
    expect(info.branding).toEqual({ organizationName: 'Teal Harbour', logoUrl, accentColor: ACCENT });
    const plainInfo = await json<JoinInfo>(await ctx.request('GET', `/api/join/${plain.id}`));
    expect(plainInfo.branding).toEqual({ organizationName: 'Plain Works', logoUrl: null, accentColor: null });

    const participant = await signedInParticipant(ctx, {
      healthCheckId: check.id,
      workspaceId: admin.workspaceId,
    });
    const read = await ctx.call(participant.jar, 'GET', `/api/health-checks/${check.id}/participation`);
    expect(read.status).toBe(200);
    expect((await json<Participation>(read)).branding).toEqual(info.branding);

    // The results screen too: the participant sees the branding, the admin (who manages the check) does not.
    const results = await ctx.call(participant.jar, 'GET', `/api/health-checks/${check.id}/results`);
    expect(results.status).toBe(200);
    expect((await json<ResultsResponse>(results)).branding).toEqual(info.branding);
    const own = await ctx.call(admin.jar, 'GET', `/api/health-checks/${check.id}/results`);
    expect((await json<ResultsResponse>(own)).branding).toBeNull();
  });

  it("a loop's answer page by personal link carries the loop organisation's branding only", async () => {
    const { admin, logoUrl } = await brandedOrganisation();
    const [person] = await addPeople(ctx, admin.workspaceId, 3);
    await launchLoop(ctx, admin.jar, admin.workspaceId);
    const token = await answerToken(ctx, person!.email);
    const page = await json<RoundToAnswer>(await ctx.request('GET', `/api/loop-answer/${token}`));
    expect(Object.keys(page.branding!).sort()).toEqual(BRANDING_KEYS);
    expect(page.branding).toEqual({ organizationName: 'Teal Harbour', logoUrl, accentColor: ACCENT });
  });
});

describe("e-mails sent on an organisation's behalf carry its logo and accent colour in the HTML part only", () => {
  const expectBranded = (mail: { html: string; text: string }, logoUrl: string) => {
    expect(mail.html).toContain(`<img src="${absolute(logoUrl)}" alt="Teal Harbour logo"`);
    expect(mail.html).toContain(`background:${ACCENT}`);
    expect(mail.html).not.toContain('#4f46e5');
    expect(mail.text).not.toContain(logoUrl);
    expect(mail.text).not.toContain(ACCENT);
    expect(mail.text).not.toContain('<');
  };

  it('health check invitations, team invitations and loop round e-mails', async () => {
    const { admin, logoUrl } = await brandedOrganisation();
    const invited = uniqueEmail('branded-invite');
    await launch(ctx, admin.jar, admin.workspaceId, { teamEmails: [invited] });
    expectBranded(await latestMail(ctx, invited), logoUrl);

    const teammate = uniqueEmail('branded-team');
    const invitation = await ctx.call(admin.jar, 'POST', `/api/workspaces/${admin.workspaceId}/invitations`, {
      email: teammate,
      role: 'Engineer',
    });
    expect(invitation.status).toBe(201);
    expectBranded(await latestMail(ctx, teammate, 'invited'), logoUrl);

    const [person] = await addPeople(ctx, admin.workspaceId, 3);
    await launchLoop(ctx, admin.jar, admin.workspaceId);
    const round = await roundMail(ctx, person!.email);
    expectBranded(round, logoUrl);
    // The one-click answers take the accent colour too.
    expect(round.html).toContain(`border:1px solid ${ACCENT}`);
  });

  it("participants' notices carry it: read once by notify() into every e-mail job, shown when each is sent", async () => {
    const { admin, logoUrl } = await brandedOrganisation();
    const check = await launch(ctx, admin.jar, admin.workspaceId);
    const where = { healthCheckId: check.id, workspaceId: admin.workspaceId };
    const people = [
      await signedInParticipant(ctx, where, 'in_progress'),
      await signedInParticipant(ctx, where, 'in_progress'),
    ];
    await notify(ctx.deps, {
      userIds: people.map((p) => p.userId),
      type: 'survey-reminder',
      message: 'Reminder: "Harbour check" is waiting for your ratings',
      link: `/health-check/${check.id}`,
      healthCheckId: check.id,
    });
    const queued = (
      await ctx.deps.db
        .select()
        .from(jobs)
        .where(inArray(jobs.kind, [DELIVERY_JOBS.email]))
    ).filter((job) => people.some((p) => p.userId === (job.payload as { userId?: string }).userId));
    expect(queued).toHaveLength(2);
    for (const job of queued)
      expect((job.payload as { branding?: unknown }).branding).toEqual({
        organizationName: 'Teal Harbour',
        logoUrl,
        accentColor: ACCENT,
      });
    await runNotificationJobs(ctx);
    for (const person of people) expectBranded(await latestMail(ctx, person.email, 'Harbour check'), logoUrl);
  });

  it('an organisation without branding sends the plain Pulsecheck e-mail', async () => {
    const plain = await createAdmin(ctx, { companyName: 'Plain Mail Co' });
    const invited = uniqueEmail('plain-invite');
    await launch(ctx, plain.jar, plain.workspaceId, { teamEmails: [invited] });
    const mail = await latestMail(ctx, invited);
    expect(mail.html).not.toContain('<img');
    expect(mail.html).toContain('background:#4f46e5');
    expect(mail.html).toContain('>Pulsecheck</p>');
  });
});
