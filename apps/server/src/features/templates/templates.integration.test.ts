import type { Participation } from '@pulsecheck/shared/participation/contract';
import type { TemplateDetail, TemplateSummary } from '@pulsecheck/shared/templates/schemas';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { GLOBAL_TEMPLATE_ID } from '../../db/catalogue';
import { healthChecks, templates } from '../../db/schema/health-checks';
import { useAdmin } from '../../test/accounts';
import { useTestContext } from '../../test/harness';
import { catalogueComponentIds, launch, launchBody } from '../../test/health-checks';
import { json } from '../../test/requests';

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
      (await json<{ globalTemplates: TemplateSummary[] }>(dashboard)).globalTemplates.map((t) => t.id),
    ).toEqual([GLOBAL_TEMPLATE_ID]);

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
