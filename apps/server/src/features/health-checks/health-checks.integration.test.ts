import { DEFAULT_SETTINGS } from '@pulsecheck/shared/health-checks/schemas';
import { HEALTH_CHECK_MESSAGES } from '@pulsecheck/shared/health-checks/messages';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { healthCheckComponents, healthChecks, templates } from '../../db/schema/health-checks';
import { mailOutbox, notifications } from '../../db/schema/messaging';
import { workspaceMembers } from '../../db/schema/organizations';
import { createAdmin, signedInUser, useAdmin } from '../../test/accounts';
import { nextEvent } from '../../test/events';
import { useTestContext } from '../../test/harness';
import { addParticipant, catalogueComponentIds, launch, launchBody } from '../../test/health-checks';
import { english, type ErrorJson, json } from '../../test/requests';

const ctx = useTestContext();
const admin = useAdmin(ctx);
const stranger = useAdmin(ctx, { companyName: 'Other Org' });

describe('launch', () => {
  it('snapshots the enabled components for the check (not a listed template) and opens it in collect', async () => {
    const ids = await catalogueComponentIds(ctx);
    const enabled = [ids[0], ids[2], ids[10]].filter((id): id is string => Boolean(id));
    const event = nextEvent(ctx, `workspace:${admin.workspaceId}`);
    const result = await launch(ctx, admin.jar, admin.workspaceId, {
      title: 'Launch me',
      enabledComponentIds: enabled,
      teamEmails: ['Team1@Example.com', ' team1@example.com ', 'not-an-address', 'team2@example.com', ''],
    });
    expect(result.joinUrl).toBe(`http://localhost:3000/join/${result.id}`);
    expect(result.failedEmails).toEqual(['not-an-address']);
    expect((await event).type).toBe('health-check-changed');

    const [check] = await ctx.deps.db.select().from(healthChecks).where(eq(healthChecks.id, result.id));
    expect(check).toMatchObject({ phase: 'collect', status: 'phase_1', workspaceId: admin.workspaceId });
    expect(check?.createdBy).toBe(admin.userId);
    const [template] = await ctx.deps.db
      .select()
      .from(templates)
      .where(eq(templates.id, check?.templateId ?? ''));
    expect(template).toMatchObject({
      title: 'Launch me',
      isGlobal: false,
      isSnapshot: true,
      workspaceId: admin.workspaceId,
    });
    const copied = await ctx.deps.db
      .select()
      .from(healthCheckComponents)
      .where(eq(healthCheckComponents.templateId, template?.id ?? ''));
    expect(copied.sort((a, b) => a.orderIndex - b.orderIndex).map((c) => [c.key, c.orderIndex])).toEqual([
      ['c1', 0],
      ['c3', 1],
      ['c11', 2],
    ]);
    expect(copied.every((c) => !enabled.includes(c.id) && c.examples.length > 0)).toBe(true);

    const invitations = await ctx.deps.db
      .select({ to: mailOutbox.to, subject: mailOutbox.subject, text: mailOutbox.text })
      .from(mailOutbox)
      .where(eq(mailOutbox.kind, 'health-check-invitation'));
    expect(invitations.map((m) => m.to).sort()).toEqual(['team1@example.com', 'team2@example.com']);
    expect(invitations[0]?.subject).toBe('Health Check Invitation');
    expect(invitations[0]?.text).toContain(result.joinUrl);
  });

  it('is atomic: when copying the components fails, no template or check remains', async () => {
    await ctx.deps.db.execute(sql`
      create or replace function fail_component_insert() returns trigger language plpgsql as $$
      begin
        if new.title like '%Fail me%' or exists (select 1 from templates t where t.id = new.template_id and t.title = 'Atomic launch') then
          raise exception 'component insert failed on purpose';
        end if;
        return new;
      end $$`);
    await ctx.deps.db.execute(
      sql`create trigger fail_component_insert before insert on health_check_components
          for each row execute function fail_component_insert()`,
    );
    try {
      const response = await ctx.call(
        admin.jar,
        'POST',
        '/api/health-checks',
        await launchBody(ctx, admin.workspaceId, {
          title: 'Atomic launch',
          teamEmails: ['atomic@example.com'],
        }),
      );
      expect(response.status).toBe(500);
      expect(await ctx.deps.db.select().from(templates).where(eq(templates.title, 'Atomic launch'))).toEqual(
        [],
      );
      expect(
        await ctx.deps.db.select().from(healthChecks).where(eq(healthChecks.title, 'Atomic launch')),
      ).toEqual([]);
      expect(
        await ctx.deps.db.select().from(mailOutbox).where(eq(mailOutbox.to, 'atomic@example.com')),
      ).toEqual([]);
    } finally {
      await ctx.deps.db.execute(sql`drop trigger fail_component_insert on health_check_components`);
    }
  });

  it('creates one check for two launches with the same launchKey, sequential or concurrent', async () => {
    const body = await launchBody(ctx, admin.workspaceId, { title: 'Double click' });
    const [first, second] = await Promise.all([
      ctx.call(admin.jar, 'POST', '/api/health-checks', body),
      ctx.call(admin.jar, 'POST', '/api/health-checks', body),
    ]);
    const third = await ctx.call(admin.jar, 'POST', '/api/health-checks', body);
    const ids = await Promise.all(
      [first, second, third].map(async (r) => (await json<{ id: string }>(r)).id),
    );
    expect([first.status, second.status, third.status]).toEqual([201, 201, 201]);
    expect(new Set(ids).size).toBe(1);
    const checks = await ctx.deps.db
      .select()
      .from(healthChecks)
      .where(eq(healthChecks.title, 'Double click'));
    expect(checks).toHaveLength(1);
    const copies = await ctx.deps.db.select().from(templates).where(eq(templates.title, 'Double click'));
    expect(copies).toHaveLength(1);
  });

  it.each([
    [{ enabledComponentIds: [] }, english(HEALTH_CHECK_MESSAGES.noEnabledComponents)],
    [{ title: '  ' }, english(HEALTH_CHECK_MESSAGES.titleRequired)],
    [{ settings: { minResponses: 0 } }, english(HEALTH_CHECK_MESSAGES.minResponsesRange)],
    [{ settings: { minResponses: 51 } }, english(HEALTH_CHECK_MESSAGES.minResponsesRange)],
    [{ settings: { votesPerPerson: 11 } }, english(HEALTH_CHECK_MESSAGES.votesPerPersonRange)],
    [{ workspaceId: '' }, 'Please select a workspace before launching the health check'],
  ])('refuses %o with 400 "%s"', async (override, message) => {
    const base = await launchBody(ctx, admin.workspaceId);
    const body = {
      ...base,
      ...override,
      settings: { ...base.settings, ...('settings' in override ? override.settings : {}) },
    };
    const response = await ctx.call(admin.jar, 'POST', '/api/health-checks', body);
    expect(response.status).toBe(400);
    expect((await json<ErrorJson>(response)).error.message).toBe(message);
  });

  it('refuses component ids of another template as no enabled component', async () => {
    const own = await launch(ctx, admin.jar, admin.workspaceId, { title: 'Source' });
    const [check] = await ctx.deps.db.select().from(healthChecks).where(eq(healthChecks.id, own.id));
    const foreign = await ctx.deps.db
      .select({ id: healthCheckComponents.id })
      .from(healthCheckComponents)
      .where(eq(healthCheckComponents.templateId, check?.templateId ?? ''));
    const response = await ctx.call(
      admin.jar,
      'POST',
      '/api/health-checks',
      await launchBody(ctx, admin.workspaceId, { enabledComponentIds: foreign.map((c) => c.id) }),
    );
    expect(response.status).toBe(400);
  });

  it('answers 404 for a workspace or workspace template of another organisation', async () => {
    const inForeignWorkspace = await ctx.call(
      stranger.jar,
      'POST',
      '/api/health-checks',
      await launchBody(ctx, admin.workspaceId),
    );
    expect(inForeignWorkspace.status).toBe(404);
    // The spec's wording (section 8, issue 32), under the code clients act on.
    expect((await json<ErrorJson>(inForeignWorkspace)).error).toEqual({
      code: 'workspace_not_found',
      message: 'You must be a workspace member to create a health check',
    });
    const own = await launch(ctx, admin.jar, admin.workspaceId, { title: 'Private template' });
    const [check] = await ctx.deps.db.select().from(healthChecks).where(eq(healthChecks.id, own.id));
    const foreignTemplate = await ctx.call(
      stranger.jar,
      'POST',
      '/api/health-checks',
      await launchBody(ctx, stranger.workspaceId, { templateId: check?.templateId ?? '' }),
    );
    expect(foreignTemplate.status).toBe(404);
    const anonymous = await ctx.request('POST', '/api/health-checks', {
      body: await launchBody(ctx, admin.workspaceId),
    });
    expect(anonymous.status).toBe(401);
  });
});

describe('launch without a workspace, or in one the launcher only takes part in', () => {
  it("answers 400 'Please select a workspace before launching the health check' without a workspace", async () => {
    const { workspaceId: _left, ...body } = await launchBody(ctx, admin.workspaceId);
    const response = await ctx.call(admin.jar, 'POST', '/api/health-checks', body);
    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).toContain(
      'Please select a workspace before launching the health check',
    );
  });

  it("answers 404 'You must be a workspace member to create a health check' to a participant", async () => {
    const joined = await signedInUser(ctx, { workspaceId: admin.workspaceId, access: 'participant' });
    const response = await ctx.call(
      joined.jar,
      'POST',
      '/api/health-checks',
      await launchBody(ctx, admin.workspaceId),
    );
    expect(response.status).toBe(404);
    expect((await json<ErrorJson>(response)).error).toEqual({
      code: 'workspace_not_found',
      message: 'You must be a workspace member to create a health check',
    });
  });
});

describe('phase transitions', () => {
  it('refuses voting below minResponses, then walks collect → vote → summarize → plan', async () => {
    const { id } = await launch(ctx, admin.jar, admin.workspaceId, {
      title: 'Phases',
      settings: { ...DEFAULT_SETTINGS, minResponses: 2 },
    });
    const done = await addParticipant(
      ctx,
      { healthCheckId: id, workspaceId: admin.workspaceId },
      { status: 'completed' },
    );
    await addParticipant(
      ctx,
      { healthCheckId: id, workspaceId: admin.workspaceId },
      { status: 'in_progress', progress: 40 },
    );

    const early = await ctx.call(admin.jar, 'POST', `/api/health-checks/${id}/phase`, { to: 'vote' });
    expect(early.status).toBe(409);
    expect((await json<ErrorJson>(early)).error.message).toBe(
      'At least 2 completed responses are needed before voting',
    );

    const skip = await ctx.call(admin.jar, 'POST', `/api/health-checks/${id}/phase`, { to: 'summarize' });
    expect(skip.status).toBe(409);

    await addParticipant(ctx, { healthCheckId: id, workspaceId: admin.workspaceId }, { status: 'completed' });
    const events = nextEvent(ctx, `health-check:${id}`);
    const vote = await ctx.call(admin.jar, 'POST', `/api/health-checks/${id}/phase`, { to: 'vote' });
    expect(vote.status).toBe(200);
    expect(await json(vote)).toEqual({ phase: 'vote', status: 'phase_2' });
    expect((await events).type).toBe('health-check-changed');

    const again = await ctx.call(admin.jar, 'POST', `/api/health-checks/${id}/phase`, { to: 'vote' });
    expect(again.status).toBe(200);
    const back = await ctx.call(admin.jar, 'POST', `/api/health-checks/${id}/phase`, { to: 'collect' });
    expect(back.status).toBe(409);

    // Voting opens the results to those who completed: their notice says so (features/notifications tests).
    const notes = await ctx.deps.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, done.userId), eq(notifications.healthCheckId, id)));
    expect(notes.map((n) => n.type)).toEqual(['results-ready']);

    const complete = await ctx.call(admin.jar, 'POST', `/api/health-checks/${id}/phase`, { to: 'summarize' });
    expect(await json(complete)).toEqual({ phase: 'summarize', status: 'completed' });
    const [row] = await ctx.deps.db.select().from(healthChecks).where(eq(healthChecks.id, id));
    expect(row?.completedAt).toBeInstanceOf(Date);

    const plan = await ctx.call(admin.jar, 'POST', `/api/health-checks/${id}/phase`, { to: 'plan' });
    expect(await json(plan)).toEqual({ phase: 'plan', status: 'completed' });
    const beyond = await ctx.call(admin.jar, 'POST', `/api/health-checks/${id}/phase`, { to: 'vote' });
    expect(beyond.status).toBe(409);
    const unknown = await ctx.call(admin.jar, 'POST', `/api/health-checks/${id}/phase`, { to: 'archive' });
    expect(unknown.status).toBe(400);
  });

  it('runs two simultaneous identical phase changes once: both succeed, one notification each', async () => {
    const { id } = await launch(ctx, admin.jar, admin.workspaceId, {
      title: 'Race',
      settings: { ...DEFAULT_SETTINGS, minResponses: 1 },
    });
    const person = await addParticipant(
      ctx,
      { healthCheckId: id, workspaceId: admin.workspaceId },
      { status: 'completed' },
    );
    const responses = await Promise.all(
      [0, 1, 2].map(() => ctx.call(admin.jar, 'POST', `/api/health-checks/${id}/phase`, { to: 'vote' })),
    );
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200]);
    const notes = await ctx.deps.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, person.userId), eq(notifications.healthCheckId, id)));
    expect(notes).toHaveLength(1);
  });

  it('lets a member manage the checks they created, but not the ones of others', async () => {
    const member = await createAdmin(ctx, { companyName: 'Member Org' });
    await ctx.deps.db
      .insert(workspaceMembers)
      .values({ workspaceId: admin.workspaceId, userId: member.userId, access: 'member', status: 'active' });
    const adminsCheck = await launch(ctx, admin.jar, admin.workspaceId, {
      title: 'Admin owned',
      settings: { ...DEFAULT_SETTINGS, minResponses: 1 },
    });
    await addParticipant(
      ctx,
      { healthCheckId: adminsCheck.id, workspaceId: admin.workspaceId },
      { status: 'completed' },
    );
    const view = await ctx.call(member.jar, 'GET', `/api/health-checks/${adminsCheck.id}`);
    expect(view.status).toBe(200);
    expect((await json<{ healthCheck: { canManage: boolean } }>(view)).healthCheck.canManage).toBe(false);
    const refused = await ctx.call(member.jar, 'POST', `/api/health-checks/${adminsCheck.id}/phase`, {
      to: 'vote',
    });
    expect(refused.status).toBe(403);

    const own = await launch(ctx, member.jar, admin.workspaceId, {
      title: 'Member owned',
      settings: { ...DEFAULT_SETTINGS, minResponses: 1 },
    });
    await addParticipant(
      ctx,
      { healthCheckId: own.id, workspaceId: admin.workspaceId },
      { status: 'completed' },
    );
    const moved = await ctx.call(member.jar, 'POST', `/api/health-checks/${own.id}/phase`, { to: 'vote' });
    expect(moved.status).toBe(200);
  });
});

describe('manage view, participants and settings', () => {
  it('shows counts, completion, the join link and every participant with status and progress', async () => {
    const { id } = await launch(ctx, admin.jar, admin.workspaceId, {
      title: 'Manage me',
      settings: { ...DEFAULT_SETTINGS, minResponses: 1 },
    });
    await addParticipant(
      ctx,
      { healthCheckId: id, workspaceId: admin.workspaceId },
      { status: 'completed', name: 'Cora Complete' },
    );
    await addParticipant(
      ctx,
      { healthCheckId: id, workspaceId: admin.workspaceId },
      { status: 'in_progress', progress: 60, name: 'Ivan Inprogress' },
    );
    await addParticipant(
      ctx,
      { healthCheckId: id, workspaceId: admin.workspaceId },
      { status: 'pending', name: 'Pia Pending' },
    );

    const view = await json<{ healthCheck: Record<string, unknown> }>(
      await ctx.call(admin.jar, 'GET', `/api/health-checks/${id}`),
    );
    expect(view.healthCheck).toMatchObject({
      id,
      title: 'Manage me',
      phase: 'collect',
      status: 'phase_1',
      participants: { total: 3, completed: 1 },
      completionRate: 33,
      allCompleted: false,
      joinUrl: `http://localhost:3000/join/${id}`,
      canManage: true,
      workspace: { id: admin.workspaceId },
    });

    const list = await json<{
      participants: { name: string; status: string; progress: number; lastActivity: string | null }[];
    }>(await ctx.call(admin.jar, 'GET', `/api/health-checks/${id}/participants`));
    expect(list.participants.map((p) => [p.name, p.status, p.progress])).toEqual([
      ['Cora Complete', 'completed', 100],
      ['Ivan Inprogress', 'in_progress', 60],
      ['Pia Pending', 'pending', 0],
    ]);
    expect(list.participants.every((p) => typeof p.lastActivity === 'string')).toBe(true);
  });

  it('says all participants have completed when everyone has and the minimum is met', async () => {
    const { id } = await launch(ctx, admin.jar, admin.workspaceId, {
      settings: { ...DEFAULT_SETTINGS, minResponses: 1 },
    });
    await addParticipant(ctx, { healthCheckId: id, workspaceId: admin.workspaceId }, { status: 'completed' });
    const view = await json<{ healthCheck: { allCompleted: boolean; completionRate: number } }>(
      await ctx.call(admin.jar, 'GET', `/api/health-checks/${id}`),
    );
    expect(view.healthCheck).toMatchObject({ allCompleted: true, completionRate: 100 });
  });

  it('changes settings during collect only, within the ranges', async () => {
    const { id } = await launch(ctx, admin.jar, admin.workspaceId, {
      settings: { ...DEFAULT_SETTINGS, minResponses: 1 },
    });
    const settings = {
      minResponses: 4,
      allowAnonymous: false,
      enableComments: false,
      votesPerPerson: 3,
      showResultsAfterVoting: false,
    };
    const saved = await ctx.call(admin.jar, 'PUT', `/api/health-checks/${id}/settings`, settings);
    expect(saved.status).toBe(200);
    expect(await json(saved)).toEqual({ settings });
    const bad = await ctx.call(admin.jar, 'PUT', `/api/health-checks/${id}/settings`, {
      ...settings,
      votesPerPerson: 0,
    });
    expect(bad.status).toBe(400);
    expect((await json<ErrorJson>(bad)).error.message).toBe(
      english(HEALTH_CHECK_MESSAGES.votesPerPersonRange),
    );

    await ctx.call(admin.jar, 'PUT', `/api/health-checks/${id}/settings`, { ...settings, minResponses: 1 });
    await addParticipant(ctx, { healthCheckId: id, workspaceId: admin.workspaceId }, { status: 'completed' });
    expect((await ctx.call(admin.jar, 'POST', `/api/health-checks/${id}/phase`, { to: 'vote' })).status).toBe(
      200,
    );
    const locked = await ctx.call(admin.jar, 'PUT', `/api/health-checks/${id}/settings`, settings);
    expect(locked.status).toBe(409);
    expect((await json<ErrorJson>(locked)).error.message).toBe(english(HEALTH_CHECK_MESSAGES.settingsLocked));
  });

  it('answers 404 with no data to strangers and for unknown or malformed ids on every route', async () => {
    const { id } = await launch(ctx, admin.jar, admin.workspaceId, { title: 'Secret check' });
    const routes: [string, string, unknown?][] = [
      ['GET', `/api/health-checks/${id}`],
      ['GET', `/api/health-checks/${id}/participants`],
      ['POST', `/api/health-checks/${id}/phase`, { to: 'vote' }],
      ['PUT', `/api/health-checks/${id}/settings`, { ...DEFAULT_SETTINGS, minResponses: 1 }],
    ];
    for (const [method, path, body] of routes) {
      const response = await ctx.call(stranger.jar, method, path, body);
      expect(response.status, `${method} ${path}`).toBe(404);
      const text = await response.text();
      expect(text).not.toContain('Secret check');
      for (const missing of ['00000000-0000-4000-8000-00000000dead', 'not-a-uuid']) {
        const unknown = await ctx.call(admin.jar, method, path.replace(id, missing), body);
        expect(unknown.status, `${method} ${path} ${missing}`).toBe(404);
      }
      const anonymous = await ctx.request(method, path, { body });
      expect(anonymous.status).toBe(401);
    }
  });
});
