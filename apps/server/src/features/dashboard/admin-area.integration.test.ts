import { LOOP_CATALOGUE } from '@pulsecheck/shared/loops/catalogue';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { DashboardResponse } from '@pulsecheck/shared/dashboard/schemas';
import { DEFAULT_SETTINGS } from '@pulsecheck/shared/health-checks/schemas';
import type { TemplateDetail, TemplateSummary } from '@pulsecheck/shared/templates/schemas';
import type { Workspace, WorkspacesResponse } from '@pulsecheck/shared/workspaces/schemas';
import { GLOBAL_TEMPLATE_ID } from '../../db/catalogue';
import { healthChecks, templates } from '../../db/schema/health-checks';
import { userPreferences, workspaceMembers } from '../../db/schema/organizations';
import { createAdmin, useAdmin } from '../../test/accounts';
import { useTestContext } from '../../test/harness';
import { addParticipant, launch } from '../../test/health-checks';
import { json } from '../../test/requests';

const ctx = useTestContext();
const admin = useAdmin(ctx, { companyName: 'Dash Org' });
const stranger = useAdmin(ctx, { companyName: 'Stranger Org' });
const settings = (minResponses = 1) => ({ ...DEFAULT_SETTINGS, minResponses });

describe('workspaces', () => {
  it('lists, creates, renames and switches the workspaces of the organisation', async () => {
    const first = await json<WorkspacesResponse>(await ctx.call(admin.jar, 'GET', '/api/workspaces'));
    expect(first.activeWorkspaceId).toBe(admin.workspaceId);
    expect(first.workspaces).toEqual([
      expect.objectContaining({ id: admin.workspaceId, name: 'Dash Org', access: 'admin', isDefault: true }),
    ]);

    const created = await ctx.call(admin.jar, 'POST', '/api/workspaces', { name: '  Platform team ' });
    expect(created.status).toBe(201);
    const { workspace } = await json<{ workspace: Workspace }>(created);
    expect(workspace).toMatchObject({ name: 'Platform team', access: 'admin', isDefault: false });
    expect(workspace.organizationId).toBe(first.workspaces[0]?.organizationId);

    const renamed = await ctx.call(admin.jar, 'PATCH', `/api/workspaces/${workspace.id}`, {
      name: 'Platform',
    });
    expect((await json<{ workspace: Workspace }>(renamed)).workspace.name).toBe('Platform');

    const switched = await ctx.call(admin.jar, 'PUT', '/api/workspaces/active', {
      workspaceId: workspace.id,
    });
    expect((await json<WorkspacesResponse>(switched)).activeWorkspaceId).toBe(workspace.id);
    const me = await json<{ user: { activeWorkspaceId: string } }>(
      await ctx.call(admin.jar, 'GET', '/api/me'),
    );
    expect(me.user.activeWorkspaceId).toBe(workspace.id);
    const dashboard = await json<DashboardResponse>(await ctx.call(admin.jar, 'GET', '/api/dashboard'));
    expect(dashboard.workspace).toEqual({ id: workspace.id, name: 'Platform' });

    await ctx.call(admin.jar, 'PUT', '/api/workspaces/active', { workspaceId: admin.workspaceId });
  });

  it('refuses blank names, and hides foreign workspaces behind 404', async () => {
    expect((await ctx.call(admin.jar, 'POST', '/api/workspaces', { name: '   ' })).status).toBe(400);
    expect(
      (await ctx.call(stranger.jar, 'PATCH', `/api/workspaces/${admin.workspaceId}`, { name: 'Mine' }))
        .status,
    ).toBe(404);
    expect(
      (await ctx.call(stranger.jar, 'PUT', '/api/workspaces/active', { workspaceId: admin.workspaceId }))
        .status,
    ).toBe(404);
    const list = await json<WorkspacesResponse>(await ctx.call(stranger.jar, 'GET', '/api/workspaces'));
    expect(list.workspaces.map((w) => w.id)).toEqual([stranger.workspaceId]);
    expect((await ctx.request('GET', '/api/workspaces')).status).toBe(401);
  });

  it('lets members switch to a workspace but not rename it; a stale preference falls back', async () => {
    const member = await createAdmin(ctx, { companyName: 'Member Home' });
    await ctx.deps.db
      .insert(workspaceMembers)
      .values({ workspaceId: admin.workspaceId, userId: member.userId, access: 'member', status: 'active' });
    expect(
      (await ctx.call(member.jar, 'PATCH', `/api/workspaces/${admin.workspaceId}`, { name: 'x' })).status,
    ).toBe(403);
    expect(
      (await ctx.call(member.jar, 'PUT', '/api/workspaces/active', { workspaceId: admin.workspaceId }))
        .status,
    ).toBe(200);
    await ctx.deps.db.delete(workspaceMembers).where(eq(workspaceMembers.userId, member.userId));
    const list = await json<WorkspacesResponse>(await ctx.call(member.jar, 'GET', '/api/workspaces'));
    expect(list).toEqual({ workspaces: [], activeWorkspaceId: null });
    const dashboard = await json<DashboardResponse>(await ctx.call(member.jar, 'GET', '/api/dashboard'));
    expect(dashboard.workspace).toBeNull();
    expect(dashboard.items).toEqual([]);
  });
});

describe('templates', () => {
  /** A workspace's own template (no route creates one yet; launch only writes its check's snapshot). */
  const workspaceTemplate = async (title: string) => {
    const [row] = await ctx.deps.db
      .insert(templates)
      .values({ title, type: 'health-check', workspaceId: admin.workspaceId, isGlobal: false })
      .returning({ id: templates.id });
    return row!.id;
  };

  it("lists the global template and the workspace's own ones (never a launch's snapshot), filtered by type", async () => {
    await workspaceTemplate('Own template');
    await launch(ctx, admin.jar, admin.workspaceId, { title: 'Launched check' });
    const all = await json<{ templates: TemplateSummary[] }>(
      await ctx.call(admin.jar, 'GET', '/api/templates'),
    );
    expect(all.templates[0]).toMatchObject({ id: GLOBAL_TEMPLATE_ID, isGlobal: true, type: 'health-check' });
    expect(all.templates.some((t) => t.title === 'Own template' && !t.isGlobal)).toBe(true);
    expect(all.templates.some((t) => t.title === 'Launched check')).toBe(false);
    const loops = await json<{ templates: TemplateSummary[] }>(
      await ctx.call(admin.jar, 'GET', '/api/templates?type=loop'),
    );
    // Only the seeded global loop templates (none of this workspace's are loops).
    expect(loops.templates.map((t) => [t.type, t.isGlobal])).toEqual(
      LOOP_CATALOGUE.map(() => ['loop', true]),
    );
    const others = await json<{ templates: TemplateSummary[] }>(
      await ctx.call(stranger.jar, 'GET', '/api/templates'),
    );
    expect(others.templates.some((t) => t.title === 'Own template')).toBe(false);
    expect(
      (await ctx.call(stranger.jar, 'GET', `/api/templates?workspaceId=${admin.workspaceId}`)).status,
    ).toBe(404);
  });

  it("opens 'new' as the 29-component catalogue and hides foreign workspace templates", async () => {
    const fresh = await json<{ template: TemplateDetail }>(
      await ctx.call(admin.jar, 'GET', '/api/templates/new'),
    );
    expect(fresh.template.id).toBe(GLOBAL_TEMPLATE_ID);
    expect(fresh.template.components).toHaveLength(29);
    expect(fresh.template.components.map((c) => c.key).slice(0, 3)).toEqual(['c1', 'c2', 'c3']);
    const own = await workspaceTemplate('Own template to open');
    expect((await ctx.call(admin.jar, 'GET', `/api/templates/${own}`)).status).toBe(200);
    expect((await ctx.call(stranger.jar, 'GET', `/api/templates/${own}`)).status).toBe(404);
    expect(
      (await ctx.call(admin.jar, 'GET', '/api/templates/00000000-0000-4000-8000-00000000beef')).status,
    ).toBe(404);
    expect((await ctx.call(admin.jar, 'GET', '/api/templates/nonsense')).status).toBe(404);
  });
});

describe('dashboard figures', () => {
  it('computes the stat cards, tab counts, rates and overdue badge of the active workspace', async () => {
    const fresh = await createAdmin(ctx, { companyName: 'Figures Org' });
    const ws = fresh.workspaceId;
    const a = await launch(ctx, fresh.jar, ws, { title: 'A', settings: settings() });
    const b = await launch(ctx, fresh.jar, ws, { title: 'B', settings: settings() });
    const c = await launch(ctx, fresh.jar, ws, { title: 'C', settings: settings() });
    // A: 1 of 2 completed (50 %); B: 2 of 2 (100 %), then completed; C: nobody (0 %), in collect for 15 days.
    await addParticipant(ctx, { healthCheckId: a.id, workspaceId: ws }, { status: 'completed' });
    await addParticipant(ctx, { healthCheckId: a.id, workspaceId: ws }, { status: 'in_progress' });
    await addParticipant(ctx, { healthCheckId: b.id, workspaceId: ws }, { status: 'completed' });
    await addParticipant(ctx, { healthCheckId: b.id, workspaceId: ws }, { status: 'completed' });
    await ctx.call(fresh.jar, 'POST', `/api/health-checks/${b.id}/phase`, { to: 'vote' });
    await ctx.call(fresh.jar, 'POST', `/api/health-checks/${b.id}/phase`, { to: 'summarize' });
    await ctx.deps.db
      .update(healthChecks)
      .set({ phaseStartedAt: sql`now() - interval '15 days'` })
      .where(eq(healthChecks.id, c.id));

    const dashboard = await json<DashboardResponse>(await ctx.call(fresh.jar, 'GET', '/api/dashboard'));
    expect(dashboard.workspace).toEqual({ id: ws, name: 'Figures Org' });
    expect(dashboard.stats).toEqual({
      activeSurveys: 2,
      totalResponses: 3,
      avgCompletionRate: 50,
      activeCount: 2,
      completedCount: 1,
    });
    const byTitle = Object.fromEntries(dashboard.items.map((item) => [item.title, item]));
    expect(byTitle.A).toMatchObject({
      status: 'phase_1',
      responses: 1,
      totalParticipants: 2,
      completionRate: 50,
      overdue: false,
    });
    expect(byTitle.B).toMatchObject({
      status: 'completed',
      responses: 2,
      totalParticipants: 2,
      completionRate: 100,
    });
    expect(byTitle.C).toMatchObject({
      status: 'phase_1',
      responses: 0,
      totalParticipants: 0,
      completionRate: 0,
      overdue: true,
    });
    expect(byTitle.A?.joinUrl).toBe(`http://localhost:3000/join/${a.id}`);
    expect(dashboard.items.map((i) => i.title)).toEqual(['C', 'B', 'A']);
    expect(dashboard.globalTemplates.map((t) => t.id).sort()).toEqual(
      [GLOBAL_TEMPLATE_ID, ...LOOP_CATALOGUE.map((t) => t.id)].sort(),
    );
  });

  it('shows zeros for an empty workspace and refuses foreign workspaces with 404', async () => {
    const empty = await createAdmin(ctx, { companyName: 'Empty Org' });
    const dashboard = await json<DashboardResponse>(await ctx.call(empty.jar, 'GET', '/api/dashboard'));
    expect(dashboard.stats).toEqual({
      activeSurveys: 0,
      totalResponses: 0,
      avgCompletionRate: 0,
      activeCount: 0,
      completedCount: 0,
    });
    expect(dashboard.items).toEqual([]);
    const foreign = await ctx.call(stranger.jar, 'GET', `/api/dashboard?workspaceId=${admin.workspaceId}`);
    expect(foreign.status).toBe(404);
    expect(await foreign.text()).not.toContain('Dash Org');
    expect((await ctx.request('GET', '/api/dashboard')).status).toBe(401);
  });

  it('ignores a stored preference for a workspace the user left', async () => {
    const leaver = await createAdmin(ctx, { companyName: 'Leaver Org' });
    await ctx.deps.db
      .update(userPreferences)
      .set({ activeWorkspaceId: admin.workspaceId })
      .where(eq(userPreferences.userId, leaver.userId));
    const dashboard = await json<DashboardResponse>(await ctx.call(leaver.jar, 'GET', '/api/dashboard'));
    expect(dashboard.workspace?.id).toBe(leaver.workspaceId);
  });
});
