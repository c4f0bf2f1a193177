import type { Participation } from '@pulsecheck/shared/participation/contract';
import { HEALTH_CHECK_MESSAGES } from '@pulsecheck/shared/health-checks/messages';
import { DEFAULT_SETTINGS } from '@pulsecheck/shared/health-checks/schemas';
import {
  TEMPLATE_MESSAGES,
  type TemplateDetail,
  type TemplateSummary,
} from '@pulsecheck/shared/templates/schemas';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { GLOBAL_TEMPLATE_ID } from '../../db/catalogue';
import { healthCheckComponents, healthChecks, templates } from '../../db/schema/health-checks';
import { useAdmin } from '../../test/accounts';
import { useTestContext } from '../../test/harness';
import { catalogueComponentIds, launch, launchBody } from '../../test/health-checks';
import { english, json } from '../../test/requests';
import { LOOP_CATALOGUE } from '@pulsecheck/shared/loops/catalogue';
import { LOOP_MESSAGES } from '@pulsecheck/shared/loops/rules';
import { createAdmin, signedInUser } from '../../test/accounts';
import { addPeople, launchLoop, loopBody } from '../../test/loops';

const ctx = useTestContext();
const admin = useAdmin(ctx, { companyName: 'Snapshot Co' });

const listed = async () => {
  const response = await ctx.call(admin.jar, 'GET', '/api/templates');
  expect(response.status).toBe(200);
  return (await json<{ templates: TemplateSummary[] }>(response)).templates;
};

const snapshotOf = async (healthCheckId: string) => {
  const [row] = await ctx.deps.db
    .select({ id: templates.id, isSnapshot: templates.isSnapshot, workspaceId: templates.workspaceId })
    .from(healthChecks)
    .innerJoin(templates, eq(templates.id, healthChecks.templateId))
    .where(eq(healthChecks.id, healthCheckId));
  if (!row) throw new Error('the check has no template');
  return row;
};

describe('templates and launch snapshots', () => {
  it('launching twice leaves the Templates list unchanged; each check keeps the components it was launched with', async () => {
    const before = await listed();
    expect(before.map((t) => t.id)).toContain(GLOBAL_TEMPLATE_ID);
    const ids = await catalogueComponentIds(ctx);
    const catalogue = await ctx.call(admin.jar, 'GET', `/api/templates/${GLOBAL_TEMPLATE_ID}`);
    const titles = (await json<{ template: TemplateDetail }>(catalogue)).template.components.map(
      (c) => c.title,
    );

    const first = await launch(ctx, admin.jar, admin.workspaceId, {
      title: 'First launch',
      enabledComponentIds: ids.slice(0, 3),
    });
    const second = await launch(ctx, admin.jar, admin.workspaceId, {
      title: 'Second launch',
      enabledComponentIds: ids.slice(3, 5),
    });

    expect(await listed()).toEqual(before);
    const forType = await ctx.call(admin.jar, 'GET', '/api/templates?type=health-check');
    expect((await json<{ templates: TemplateSummary[] }>(forType)).templates).toEqual(
      before.filter((t) => t.type === 'health-check'),
    );
    const dashboard = await ctx.call(admin.jar, 'GET', '/api/dashboard');
    expect(
      (await json<{ globalTemplates: TemplateSummary[] }>(dashboard)).globalTemplates.map((t) => t.id).sort(),
    ).toEqual([GLOBAL_TEMPLATE_ID, ...LOOP_CATALOGUE.map((t) => t.id)].sort());

    for (const [check, expected] of [
      [first, titles.slice(0, 3)],
      [second, titles.slice(3, 5)],
    ] as const) {
      const snapshot = await snapshotOf(check.id);
      expect(snapshot).toMatchObject({ isSnapshot: true, workspaceId: admin.workspaceId });
      // The check reads its snapshot's components: participation (preview) shows them in order.
      const preview = await ctx.call(
        admin.jar,
        'GET',
        `/api/health-checks/${check.id}/participation?preview=1`,
      );
      expect(preview.status).toBe(200);
      const participation = await json<Participation>(preview);
      expect(participation.components.map((c) => c.title)).toEqual(expected);
    }
  });

  it('a snapshot cannot be opened, configured or launched from as a template', async () => {
    const check = await launch(ctx, admin.jar, admin.workspaceId, { title: 'Not a template' });
    const snapshot = await snapshotOf(check.id);

    const opened = await ctx.call(admin.jar, 'GET', `/api/templates/${snapshot.id}`);
    expect(opened.status).toBe(404);
    expect((await json(opened)).error.code).toBe('template_not_found');

    const relaunch = await ctx.call(
      admin.jar,
      'POST',
      '/api/health-checks',
      await launchBody(ctx, admin.workspaceId, { templateId: snapshot.id }),
    );
    expect(relaunch.status).toBe(404);
    expect((await json(relaunch)).error.code).toBe('template_not_found');

    // The global catalogue still opens.
    const catalogue = await ctx.call(admin.jar, 'GET', `/api/templates/${GLOBAL_TEMPLATE_ID}`);
    expect(catalogue.status).toBe(200);
    expect((await json<{ template: TemplateDetail }>(catalogue)).template.components).toHaveLength(29);
  });
});

describe('loop templates', () => {
  const [weekly] = LOOP_CATALOGUE;
  const content = {
    title: 'Our pulse',
    description: 'Ours',
    questions: weekly!.questions,
    defaults: weekly!.defaults,
  };
  const detail = async (jar: typeof admin.jar, id: string) => ctx.call(jar, 'GET', `/api/templates/${id}`);

  it('lists the five seeded loop templates with both kinds, filters by type, and opens one with its questions', async () => {
    const all = await listed();
    const loops = all.filter((t) => t.type === 'loop' && t.isGlobal);
    expect(loops.map((t) => t.title).sort()).toEqual(LOOP_CATALOGUE.map((t) => t.title).sort());
    const onlyLoops = await json<{ templates: TemplateSummary[] }>(
      await ctx.call(admin.jar, 'GET', '/api/templates?type=loop'),
    );
    expect(onlyLoops.templates.every((t) => t.type === 'loop')).toBe(true);
    const opened = await json<{ template: TemplateDetail }>(await detail(admin.jar, weekly!.id));
    expect(opened.template).toMatchObject({ type: 'loop', components: [], title: weekly!.title });
    expect(opened.template.loop?.questions.map((q) => q.text)).toEqual(weekly!.questions.map((q) => q.text));
    expect(opened.template.loop?.defaults).toEqual(weekly!.defaults);
  });

  it("saves, edits and deletes a workspace loop template; members change only their own; global ones are nobody's", async () => {
    const created = await ctx.call(admin.jar, 'POST', '/api/templates', {
      workspaceId: admin.workspaceId,
      template: content,
    });
    expect(created.status).toBe(201);
    const { id } = await json<{ id: string }>(created);
    expect((await listed()).find((t) => t.id === id)).toMatchObject({
      type: 'loop',
      isGlobal: false,
      workspaceId: admin.workspaceId,
    });

    const renamed = await ctx.call(admin.jar, 'PUT', `/api/templates/${id}`, {
      template: { ...content, title: 'Renamed pulse' },
    });
    expect(renamed.status).toBe(200);
    expect((await json<{ template: TemplateDetail }>(await detail(admin.jar, id))).template.title).toBe(
      'Renamed pulse',
    );

    const member = await signedInUser(ctx, { workspaceId: admin.workspaceId, access: 'member' });
    const notTheirs = await ctx.call(member.jar, 'PUT', `/api/templates/${id}`, { template: content });
    expect(notTheirs.status).toBe(403);
    expect((await json(notTheirs)).error.message).toBe(english(LOOP_MESSAGES.templateNotAllowed));
    const theirs = await json<{ id: string }>(
      await ctx.call(member.jar, 'POST', '/api/templates', {
        workspaceId: admin.workspaceId,
        template: content,
      }),
    );
    expect((await ctx.call(member.jar, 'DELETE', `/api/templates/${theirs.id}`)).status).toBe(200);

    const global = await ctx.call(admin.jar, 'PUT', `/api/templates/${weekly!.id}`, { template: content });
    expect(global.status).toBe(403);
    expect((await json(global)).error.message).toBe(english(LOOP_MESSAGES.globalTemplate));

    const bad = await ctx.call(admin.jar, 'POST', '/api/templates', {
      workspaceId: admin.workspaceId,
      template: { ...content, questions: [] },
    });
    expect(bad.status).toBe(400);
    expect((await json(bad)).error.fields?.['template.questions']).toBe(english(LOOP_MESSAGES.questionsMin));

    // A loop launched from the template keeps its questions when the template goes.
    await addPeople(ctx, admin.workspaceId, 3);
    const loop = await launchLoop(ctx, admin.jar, admin.workspaceId, { templateId: id });
    expect((await ctx.call(admin.jar, 'DELETE', `/api/templates/${id}`)).status).toBe(200);
    expect((await detail(admin.jar, id)).status).toBe(404);
    const after = await ctx.call(admin.jar, 'GET', `/api/loops/${loop.id}`);
    expect(
      (await json<{ loop: { questions: unknown[]; templateId: string | null } }>(after)).loop,
    ).toMatchObject({ templateId: null });
  });

  it('launches only from a loop template the workspace may use', async () => {
    const other = await createAdmin(ctx);
    const theirs = await json<{ id: string }>(
      await ctx.call(other.jar, 'POST', '/api/templates', {
        workspaceId: other.workspaceId,
        template: content,
      }),
    );
    const refused = await ctx.call(
      admin.jar,
      'POST',
      '/api/loops',
      loopBody(admin.workspaceId, { templateId: theirs.id }),
    );
    expect(refused.status).toBe(404);
    expect((await json(refused)).error.code).toBe('template_not_found');
    const healthCheck = await ctx.call(
      admin.jar,
      'POST',
      '/api/loops',
      loopBody(admin.workspaceId, { templateId: GLOBAL_TEMPLATE_ID }),
    );
    expect(healthCheck.status).toBe(404);
  });
});

describe('workspace health-check templates (issue 32)', () => {
  const save = (jar: typeof admin.jar, body: Record<string, unknown>) =>
    ctx.call(jar, 'POST', '/api/templates/health-checks', body);
  const saveBody = async (overrides: Record<string, unknown> = {}) => {
    const { workspaceId, templateId, title, description, settings, enabledComponentIds } = await launchBody(
      ctx,
      admin.workspaceId,
    );
    return { workspaceId, templateId, title, description, settings, enabledComponentIds, ...overrides };
  };
  const open = async (jar: typeof admin.jar, id: string) =>
    (await json<{ template: TemplateDetail }>(await ctx.call(jar, 'GET', `/api/templates/${id}`))).template;

  it("'Save as template' copies every component with the chosen flags, new ids, same keys and order, and the settings", async () => {
    const catalogue = await open(admin.jar, GLOBAL_TEMPLATE_ID);
    const chosen = [catalogue.components[1]!.id, catalogue.components[7]!.id];
    const settings = { ...DEFAULT_SETTINGS, minResponses: 7, enableComments: false };
    const created = await save(
      admin.jar,
      await saveBody({ title: 'Our check', description: 'Ours', settings, enabledComponentIds: chosen }),
    );
    expect(created.status).toBe(201);
    const { id } = await json<{ id: string }>(created);

    expect((await listed()).find((t) => t.id === id)).toMatchObject({
      title: 'Our check',
      description: 'Ours',
      type: 'health-check',
      isGlobal: false,
      workspaceId: admin.workspaceId,
    });
    const saved = await open(admin.jar, id);
    expect(saved.settings).toEqual(settings);
    expect(saved.components.map((c) => c.key)).toEqual(catalogue.components.map((c) => c.key));
    expect(saved.components.map((c) => c.orderIndex)).toEqual(catalogue.components.map((_, i) => i));
    expect(saved.components.filter((c) => c.enabled).map((c) => c.key)).toEqual([
      catalogue.components[1]!.key,
      catalogue.components[7]!.key,
    ]);
    const catalogueIds = new Set(catalogue.components.map((c) => c.id));
    expect(saved.components.some((c) => catalogueIds.has(c.id))).toBe(false);

    // Launching from it works like from any template; the check keeps its snapshot when the template goes.
    const enabledIds = saved.components.filter((c) => c.enabled).map((c) => c.id);
    const check = await launch(ctx, admin.jar, admin.workspaceId, {
      templateId: id,
      enabledComponentIds: enabledIds,
    });
    expect((await ctx.call(admin.jar, 'DELETE', `/api/templates/${id}`)).status).toBe(200);
    expect((await ctx.call(admin.jar, 'GET', `/api/templates/${id}`)).status).toBe(404);
    expect((await listed()).some((t) => t.id === id)).toBe(false);
    const snapshot = await snapshotOf(check.id);
    expect(snapshot.isSnapshot).toBe(true);
    const components = await ctx.deps.db
      .select({ key: healthCheckComponents.key })
      .from(healthCheckComponents)
      .where(eq(healthCheckComponents.templateId, snapshot.id));
    expect(components.map((c) => c.key).sort()).toEqual(
      [catalogue.components[1]!.key, catalogue.components[7]!.key].sort(),
    );
  });

  it('admins and members save; admins and the member who made it rename and delete; others are refused', async () => {
    const member = await signedInUser(ctx, { workspaceId: admin.workspaceId, access: 'member' });
    const participant = await signedInUser(ctx, { workspaceId: admin.workspaceId, access: 'participant' });
    const outsider = await createAdmin(ctx);

    const byAdmin = await json<{ id: string }>(
      await save(admin.jar, await saveBody({ title: 'Admin made' })),
    );
    const byMember = await save(member.jar, await saveBody({ title: 'Member made' }));
    expect(byMember.status).toBe(201);
    const { id: memberId } = await json<{ id: string }>(byMember);
    expect((await save(participant.jar, await saveBody())).status).toBe(404);
    expect((await save(outsider.jar, await saveBody())).status).toBe(404);
    // From another workspace's template, or with nothing enabled: refused.
    expect(
      (
        await save(
          outsider.jar,
          await saveBody({ workspaceId: outsider.workspaceId, templateId: byAdmin.id }),
        )
      ).status,
    ).toBe(404);
    const none = await save(admin.jar, await saveBody({ enabledComponentIds: [] }));
    expect(none.status).toBe(400);
    expect((await json(none)).error.message).toBe(english(HEALTH_CHECK_MESSAGES.noEnabledComponents));

    // The list says who may change what, as the policy does.
    const asMember = await json<{ templates: TemplateSummary[] }>(
      await ctx.call(member.jar, 'GET', '/api/templates?type=health-check'),
    );
    const canChange = (id: string) => asMember.templates.find((t) => t.id === id)?.canChange;
    expect([canChange(memberId), canChange(byAdmin.id), canChange(GLOBAL_TEMPLATE_ID)]).toEqual([
      true,
      false,
      false,
    ]);
    expect((await listed()).find((t) => t.id === memberId)?.canChange).toBe(true);

    const rename = (jar: typeof admin.jar, id: string, title: string) =>
      ctx.call(jar, 'PATCH', `/api/templates/${id}`, { title, description: 'Renamed' });
    const refused = await rename(member.jar, byAdmin.id, 'Not mine');
    expect(refused.status).toBe(403);
    expect((await json(refused)).error.message).toBe(english(TEMPLATE_MESSAGES.notAllowed));
    expect((await ctx.call(member.jar, 'DELETE', `/api/templates/${byAdmin.id}`)).status).toBe(403);
    expect((await rename(outsider.jar, byAdmin.id, 'Never')).status).toBe(404);
    expect((await rename(member.jar, memberId, 'Mine renamed')).status).toBe(200);
    expect(await open(admin.jar, memberId)).toMatchObject({ title: 'Mine renamed', description: 'Renamed' });
    expect((await rename(admin.jar, memberId, 'Admin renamed')).status).toBe(200);
    const blank = await rename(admin.jar, memberId, ' ');
    expect(blank.status).toBe(400);
    expect(JSON.stringify(await blank.json())).toContain(english(HEALTH_CHECK_MESSAGES.titleRequired));
    expect((await rename(admin.jar, GLOBAL_TEMPLATE_ID, 'Global')).status).toBe(403);

    expect((await ctx.call(admin.jar, 'DELETE', `/api/templates/${memberId}`)).status).toBe(200);
    expect((await ctx.call(member.jar, 'DELETE', `/api/templates/${byAdmin.id}`)).status).toBe(403);
    expect((await ctx.call(admin.jar, 'DELETE', `/api/templates/${byAdmin.id}`)).status).toBe(200);
  });
});
