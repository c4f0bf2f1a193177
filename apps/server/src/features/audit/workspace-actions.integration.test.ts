import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { AuditEntry, AuditList, AuditVerify } from '@pulsecheck/shared/audit/log';
import type { LoopDetail } from '@pulsecheck/shared/loops/contract';
import type { Participation } from '@pulsecheck/shared/participation/contract';
import { PARTICIPATION_RATINGS } from '@pulsecheck/shared/participation/rules';
import type { MembersResponse } from '@pulsecheck/shared/team/schemas';
import type { WorkspacesResponse } from '@pulsecheck/shared/workspaces/schemas';
import { GLOBAL_TEMPLATE_ID } from '../../db/catalogue';
import { queryRows } from '../../db/client';
import { createAdmin, invite, joinedParticipant, signedInUser, type Admin } from '../../test/accounts';
import { useTestContext } from '../../test/harness';
import { allRated, catalogueComponentIds, launchBody } from '../../test/health-checks';
import { addPeople, answerByLink, answerToken, editable, launchLoop, loopBody } from '../../test/loops';
import { json } from '../../test/requests';
import { unique, uniqueEmail } from '../../test/unique';

/**
 * The audit log of what happens in a workspace (issue 37 item 3): launches and phase changes of health checks, a
 * loop's launch and status, a template's deletion, downloads of results and insights, invitations and members. Each
 * is done through the API as a person would and read back from the log; a refused attempt records nothing; what
 * participants answer, rate, write or vote is never recorded, nor that they did; the chain verifies afterwards.
 */

const ctx = useTestContext();

type Org = { owner: Admin; organizationId: string };

async function newOrganization(): Promise<Org> {
  const owner = await createAdmin(ctx);
  const list = await json<WorkspacesResponse>(await ctx.call(owner.jar, 'GET', '/api/workspaces'));
  return { owner, organizationId: list.workspaces[0]!.organizationId };
}

/** The organisation's entries of `action`, newest first, as its owner reads them. */
async function logged(org: Org, action: string) {
  const response = await ctx.call(
    org.owner.jar,
    'GET',
    `/api/organizations/${org.organizationId}/audit-log?action=${action}`,
  );
  expect(response.status).toBe(200);
  return (await json<AuditList>(response)).entries;
}

async function entryCount(org: Org) {
  const [row] = await queryRows<{ count: string | number }>(
    ctx.deps.db,
    sql`select count(*) as count from audit_entries where organization_id = ${org.organizationId}`,
  );
  return Number(row!.count);
}

/** A refused attempt: its status, and not one entry more. */
async function refused(org: Org, status: number, attempt: () => Promise<Response>) {
  const before = await entryCount(org);
  const response = await attempt();
  expect(response.status, await response.clone().text()).toBe(status);
  expect(await entryCount(org)).toBe(before);
}

async function verified(org: Org) {
  const response = await ctx.call(
    org.owner.jar,
    'POST',
    `/api/organizations/${org.organizationId}/audit-log/verify`,
  );
  expect(response.status).toBe(200);
  const result = await json<AuditVerify>(response);
  expect(result).toMatchObject({ ok: true, brokenSeq: null });
  expect(result.checked).toBeGreaterThan(0);
}

/** Every row of audit_entries, of every organisation, as text: what must never hold an answer. */
async function wholeLog() {
  const rows = await queryRows<{ row: string }>(ctx.deps.db, sql`select e::text as row from audit_entries e`);
  return rows.map((r) => r.row).join('\n');
}

const byOwner = (org: Org) => ({ actorKind: 'user', actorId: org.owner.userId, actorLabel: org.owner.email });

describe('audit log of workspace actions', () => {
  it('records a health check launch, its settings and each phase change, and the results download, never a rating, comment or vote', async () => {
    const org = await newOrganization();
    const { owner } = org;
    const title = `Audit check ${unique('hc')}`;
    await refused(org, 400, async () =>
      ctx.call(
        owner.jar,
        'POST',
        '/api/health-checks',
        await launchBody(ctx, owner.workspaceId, { enabledComponentIds: [] }),
      ),
    );
    const body = await launchBody(ctx, owner.workspaceId, { title, teamEmails: [uniqueEmail('invitee')] });
    const first = await ctx.call(owner.jar, 'POST', '/api/health-checks', body);
    expect(first.status).toBe(201);
    const check = await json<{ id: string }>(first);
    // The same launch again (its launchKey) answers the first and records nothing more.
    await refused(org, 201, () => ctx.call(owner.jar, 'POST', '/api/health-checks', body));
    const [launched] = await logged(org, 'health-check.launched');
    expect(launched).toMatchObject({
      ...byOwner(org),
      targetType: 'health-check',
      targetId: check.id,
      targetLabel: title,
    });
    expect(launched!.changes).toMatchObject({ components: 5, invitations: 1 });
    expect(launched!.ip).toBeTruthy();

    // A change of settings names each changed field; saving them again, or a value out of range, records nothing.
    const settings = { ...(await launchBody(ctx, owner.workspaceId)).settings, votesPerPerson: 3 };
    const settingsPath = `/api/health-checks/${check.id}/settings`;
    expect((await ctx.call(owner.jar, 'PUT', settingsPath, settings)).status).toBe(200);
    await refused(org, 200, () => ctx.call(owner.jar, 'PUT', settingsPath, settings));
    await refused(org, 400, () =>
      ctx.call(owner.jar, 'PUT', settingsPath, { ...settings, votesPerPerson: 0 }),
    );
    const [settingsChanged] = await logged(org, 'health-check.settings-changed');
    expect(settingsChanged).toMatchObject({
      ...byOwner(org),
      targetId: check.id,
      targetLabel: title,
      changes: { votesPerPerson: { before: 5, after: 3 } },
    });

    // Refused: the results before they are released, a member who neither made the check nor administers the
    // workspace, and voting before enough people have answered.
    await refused(org, 409, () => ctx.call(owner.jar, 'GET', `/api/health-checks/${check.id}/results/csv`));
    const member = await signedInUser(ctx, { workspaceId: owner.workspaceId, access: 'member' });
    await refused(org, 403, () =>
      ctx.call(member.jar, 'POST', `/api/health-checks/${check.id}/phase`, { to: 'vote' }),
    );
    await refused(org, 409, () =>
      ctx.call(owner.jar, 'POST', `/api/health-checks/${check.id}/phase`, { to: 'vote' }),
    );

    // Three people join, rate everything, comment and vote: none of it is recorded.
    const comment = `Secret comment ${unique('c')}`;
    const people = [];
    for (let i = 0; i < 3; i += 1) {
      const person = await joinedParticipant(ctx, check.id, `Rater ${i}`);
      const read = await json<Participation>(
        await ctx.call(person.jar, 'GET', `/api/health-checks/${check.id}/participation`),
      );
      const ids = read.components.map((c) => c.id);
      const submitted = await ctx.call(
        person.jar,
        'POST',
        `/api/health-checks/${check.id}/submit`,
        allRated(ids, { [ids[0]!]: `${comment} ${i}` }),
      );
      expect(submitted.status).toBe(200);
      people.push({ ...person, componentIds: ids });
    }
    const before = await entryCount(org);
    expect(
      (await ctx.call(owner.jar, 'POST', `/api/health-checks/${check.id}/phase`, { to: 'vote' })).status,
    ).toBe(200);
    expect(await entryCount(org)).toBe(before + 1);
    for (const person of people) {
      const voted = await ctx.call(person.jar, 'PUT', `/api/health-checks/${check.id}/votes`, {
        allocation: { [person.componentIds[1]!]: 2 },
      });
      expect(voted.status).toBe(200);
    }
    expect(await entryCount(org)).toBe(before + 1);
    expect(
      (await ctx.call(owner.jar, 'POST', `/api/health-checks/${check.id}/phase`, { to: 'summarize' })).status,
    ).toBe(200);
    // A repeat is a no-op and records nothing.
    await refused(org, 200, () =>
      ctx.call(owner.jar, 'POST', `/api/health-checks/${check.id}/phase`, { to: 'summarize' }),
    );

    const csv = await ctx.call(owner.jar, 'GET', `/api/health-checks/${check.id}/results/csv`);
    expect(csv.status).toBe(200);
    const [exported] = await logged(org, 'results.exported');
    expect(exported).toMatchObject({
      ...byOwner(org),
      targetType: 'health-check',
      targetId: check.id,
      targetLabel: title,
      changes: { format: 'csv', report: 'results', phase: 'summarize' },
    });

    // 'Plan Actions' is a phase change too.
    expect((await ctx.call(owner.jar, 'POST', `/api/health-checks/${check.id}/plan`)).status).toBe(200);
    const phases = await logged(org, 'health-check.phase-changed');
    expect(phases.map((e) => e.changes)).toEqual([
      { phase: { before: 'summarize', after: 'plan' } },
      { phase: { before: 'vote', after: 'summarize' } },
      { phase: { before: 'collect', after: 'vote' } },
    ]);
    for (const entry of phases)
      expect(entry).toMatchObject({ ...byOwner(org), targetId: check.id, targetLabel: title });

    const log = await wholeLog();
    expect(log).not.toContain(comment);
    for (const rating of PARTICIPATION_RATINGS) expect(log).not.toContain(rating);
    for (const person of people) {
      expect(log).not.toContain(person.email);
      expect(log).not.toContain(person.userId);
      expect(log).not.toContain(person.participantId);
    }
    await verified(org);
  });

  it('records a loop launch, its edits, each change of its status and the results download, never an answer or who answered', async () => {
    const org = await newOrganization();
    const { owner } = org;
    const people = await addPeople(ctx, owner.workspaceId, 3);
    const audience = { kind: 'members' as const, memberIds: people.map((p) => p.memberId) };
    await refused(org, 400, () =>
      ctx.call(
        owner.jar,
        'POST',
        '/api/loops',
        loopBody(owner.workspaceId, { audience: { kind: 'members', memberIds: [crypto.randomUUID()] } }),
      ),
    );
    const title = `Audit pulse ${unique('loop')}`;
    const loop = await launchLoop(ctx, owner.jar, owner.workspaceId, { title, audience });
    const [launched] = await logged(org, 'loop.launched');
    expect(launched).toMatchObject({
      ...byOwner(org),
      targetType: 'loop',
      targetId: loop.id,
      targetLabel: title,
      changes: { questions: 3, audience: 'members', anonymous: true, minResponses: 3 },
    });

    // An edit names each changed setting; saving it again records nothing.
    const launchedDetail = await json<{ loop: LoopDetail }>(
      await ctx.call(owner.jar, 'GET', `/api/loops/${loop.id}`),
    );
    const edited = { ...editable(launchedDetail.loop), reminder: false, roundDays: 4 };
    expect((await ctx.call(owner.jar, 'PUT', `/api/loops/${loop.id}`, edited)).status).toBe(200);
    await refused(org, 200, () => ctx.call(owner.jar, 'PUT', `/api/loops/${loop.id}`, edited));
    const [edit] = await logged(org, 'loop.changed');
    expect(edit).toMatchObject({
      ...byOwner(org),
      targetId: loop.id,
      targetLabel: title,
      changes: { reminder: { before: true, after: false }, roundDays: { before: 3, after: 4 } },
    });
    expect(Object.keys(edit!.changes!).sort()).toEqual(['reminder', 'roundDays']);

    const answer = `Secret answer ${unique('a')}`;
    for (const [index, person] of people.entries()) {
      const answered = await answerByLink(ctx, await answerToken(ctx, person.email), {
        scale: 5,
        enps: 10,
        text: `${answer} ${index}`,
      });
      expect(answered.status).toBe(201);
    }
    // Refused: a protective setting loosened once answered, the results of the open round, a member who did not
    // make the loop.
    await refused(org, 409, () =>
      ctx.call(owner.jar, 'PUT', `/api/loops/${loop.id}`, { ...edited, anonymous: false }),
    );
    await refused(org, 409, () => ctx.call(owner.jar, 'GET', `/api/loops/${loop.id}/results/csv`));
    const member = await signedInUser(ctx, { workspaceId: owner.workspaceId, access: 'member' });
    await refused(org, 403, () => ctx.call(member.jar, 'POST', `/api/loops/${loop.id}/pause`));

    expect((await ctx.call(owner.jar, 'POST', `/api/loops/${loop.id}/pause`)).status).toBe(200);
    await refused(org, 200, () => ctx.call(owner.jar, 'POST', `/api/loops/${loop.id}/pause`));
    expect((await ctx.call(owner.jar, 'POST', `/api/loops/${loop.id}/resume`)).status).toBe(200);
    await refused(org, 200, () => ctx.call(owner.jar, 'POST', `/api/loops/${loop.id}/resume`));

    const detail = await json<{ loop: LoopDetail }>(
      await ctx.call(owner.jar, 'GET', `/api/loops/${loop.id}`),
    );
    const roundId = detail.loop.currentRound!.id;
    expect((await ctx.call(owner.jar, 'POST', `/api/loops/${loop.id}/rounds/${roundId}/close`)).status).toBe(
      200,
    );
    expect((await ctx.call(owner.jar, 'GET', `/api/loops/${loop.id}/results/csv`)).status).toBe(200);
    const [exported] = await logged(org, 'results.exported');
    expect(exported).toMatchObject({
      ...byOwner(org),
      targetType: 'loop',
      targetId: loop.id,
      targetLabel: title,
      changes: { format: 'csv', report: 'loop-results', round: 1 },
    });

    expect((await ctx.call(owner.jar, 'POST', `/api/loops/${loop.id}/stop`)).status).toBe(200);
    await refused(org, 409, () => ctx.call(owner.jar, 'POST', `/api/loops/${loop.id}/resume`));
    await refused(org, 200, () => ctx.call(owner.jar, 'POST', `/api/loops/${loop.id}/stop`));
    const changes = await logged(org, 'loop.status-changed');
    expect(changes.map((e) => e.changes)).toEqual([
      { status: { before: 'active', after: 'completed' } },
      { status: { before: 'paused', after: 'active' } },
      { status: { before: 'active', after: 'paused' } },
    ]);
    for (const entry of changes)
      expect(entry).toMatchObject({
        ...byOwner(org),
        targetType: 'loop',
        targetId: loop.id,
        targetLabel: title,
      });

    const log = await wholeLog();
    expect(log).not.toContain(answer);
    for (const person of people) {
      expect(log).not.toContain(person.email);
      expect(log).not.toContain(person.userId);
    }
    await verified(org);
  });

  it("records the insights download with its view, and a workspace template's deletion", async () => {
    const org = await newOrganization();
    const { owner } = org;
    const member = await signedInUser(ctx, { workspaceId: owner.workspaceId, access: 'member' });
    const insights = `/api/organizations/${org.organizationId}/insights/csv`;
    await refused(org, 404, () => ctx.call(member.jar, 'GET', insights));
    const csv = await ctx.call(owner.jar, 'GET', `${insights}?period=365d&sort=name`);
    expect(csv.status, await csv.clone().text()).toBe(200);
    const [exported] = await logged(org, 'results.exported');
    expect(exported).toMatchObject({
      ...byOwner(org),
      targetType: 'organization',
      targetId: org.organizationId,
      changes: { format: 'csv', report: 'insights', period: '365d', sort: 'name', category: null },
    });

    const title = `Audit template ${unique('t')}`;
    const saved = await ctx.call(owner.jar, 'POST', '/api/templates/health-checks', {
      workspaceId: owner.workspaceId,
      templateId: GLOBAL_TEMPLATE_ID,
      title,
      description: 'Ours',
      settings: (await launchBody(ctx, owner.workspaceId)).settings,
      enabledComponentIds: (await catalogueComponentIds(ctx)).slice(0, 3),
    });
    expect(saved.status).toBe(201);
    const { id } = await json<{ id: string }>(saved);
    await refused(org, 403, () => ctx.call(member.jar, 'DELETE', `/api/templates/${id}`));
    await refused(org, 403, () => ctx.call(owner.jar, 'DELETE', `/api/templates/${GLOBAL_TEMPLATE_ID}`));
    expect((await ctx.call(owner.jar, 'DELETE', `/api/templates/${id}`)).status).toBe(200);
    await refused(org, 404, () => ctx.call(owner.jar, 'DELETE', `/api/templates/${id}`));
    const deleted = await logged(org, 'template.deleted');
    expect(deleted).toHaveLength(1);
    expect(deleted[0]).toMatchObject({
      ...byOwner(org),
      targetType: 'template',
      targetId: id,
      targetLabel: title,
      changes: { type: 'health-check' },
    });
    await verified(org);
  });

  it('records invitations sent, sent again and revoked, changes of access and role, and removals', async () => {
    const org = await newOrganization();
    const { owner } = org;
    const team = `/api/workspaces/${owner.workspaceId}`;
    const member = await signedInUser(ctx, { workspaceId: owner.workspaceId, access: 'member' });

    await refused(org, 403, () =>
      ctx.call(member.jar, 'POST', `${team}/invitations`, { email: uniqueEmail('x'), role: 'Engineer' }),
    );
    const invited = await invite(ctx, owner, { role: 'Designer', department: 'Product' });
    await refused(org, 409, () =>
      ctx.call(owner.jar, 'POST', `${team}/invitations`, { email: invited.email, role: 'Engineer' }),
    );
    expect((await ctx.call(owner.jar, 'POST', `${team}/invitations/${invited.memberId}/resend`)).status).toBe(
      200,
    );
    await refused(org, 403, () => ctx.call(member.jar, 'DELETE', `${team}/invitations/${invited.memberId}`));
    expect((await ctx.call(owner.jar, 'DELETE', `${team}/invitations/${invited.memberId}`)).status).toBe(200);

    const sent = await logged(org, 'invitation.sent');
    expect(sent.map((e) => e.changes)).toEqual([
      { workspace: expect.any(String) as string, resent: true },
      { workspace: expect.any(String) as string, access: 'member', role: 'Designer', department: 'Product' },
    ]);
    const revoked = await logged(org, 'invitation.revoked');
    expect(revoked).toHaveLength(1);
    for (const entry of [...sent, ...revoked])
      expect(entry).toMatchObject({
        ...byOwner(org),
        targetType: 'invitation',
        targetId: invited.memberId,
        targetLabel: invited.email,
      });

    const members = await json<MembersResponse>(await ctx.call(owner.jar, 'GET', `${team}/members`));
    const ownMembership = members.members.find((m) => m.userId === owner.userId)!;
    const theirs = members.members.find((m) => m.userId === member.userId)!;
    // The last admin stays admin, and cannot be removed.
    await refused(org, 409, () =>
      ctx.call(owner.jar, 'PATCH', `${team}/members/${ownMembership.id}`, { access: 'member' }),
    );
    await refused(org, 409, () => ctx.call(owner.jar, 'DELETE', `${team}/members/${ownMembership.id}`));
    await refused(org, 403, () =>
      ctx.call(member.jar, 'PATCH', `${team}/members/${theirs.id}`, { access: 'admin' }),
    );
    await refused(org, 403, () => ctx.call(member.jar, 'DELETE', `${team}/members/${ownMembership.id}`));

    expect(
      (
        await ctx.call(owner.jar, 'PATCH', `${team}/members/${theirs.id}`, {
          access: 'admin',
          role: 'Lead',
        })
      ).status,
    ).toBe(200);
    // Saving what is already there changes nothing and records nothing.
    await refused(org, 200, () =>
      ctx.call(owner.jar, 'PATCH', `${team}/members/${theirs.id}`, { access: 'admin' }),
    );
    const [changed] = await logged(org, 'member.access-changed');
    expect(changed).toMatchObject({
      ...byOwner(org),
      targetType: 'member',
      targetId: theirs.id,
      targetLabel: member.email,
      changes: {
        access: { before: 'member', after: 'admin' },
        role: { before: null, after: 'Lead' },
      },
    });
    expect(changed!.changes).not.toHaveProperty('department');

    expect((await ctx.call(owner.jar, 'DELETE', `${team}/members/${theirs.id}`)).status).toBe(200);
    const removed: AuditEntry[] = await logged(org, 'member.removed');
    expect(removed).toHaveLength(1);
    expect(removed[0]).toMatchObject({
      ...byOwner(org),
      targetType: 'member',
      targetId: theirs.id,
      targetLabel: member.email,
      changes: { access: 'admin', status: 'active' },
    });
    await verified(org);
  });

  it('names an API token, and whose it is, as the actor when a change comes with one', async () => {
    const org = await newOrganization();
    const { owner } = org;
    const created = await ctx.call(owner.jar, 'POST', '/api/account/api-tokens', {
      name: 'Audit robot',
      scopes: ['health-checks:write', 'health-checks:read'],
      expiresInDays: 30,
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const { secret } = await json<{ secret: string }>(created);
    const response = await ctx.request('POST', '/api/health-checks', {
      headers: { authorization: `Bearer ${secret}` },
      body: await launchBody(ctx, owner.workspaceId, { title: 'By token' }),
    });
    expect(response.status, await response.clone().text()).toBe(201);
    const [launched] = await logged(org, 'health-check.launched');
    expect(launched).toMatchObject({
      actorKind: 'api-token',
      actorLabel: `Audit robot (${owner.email})`,
      targetLabel: 'By token',
    });
    await verified(org);
  });
});
