import type { TemplateDetail, TemplateSummary } from '@pulsecheck/shared/templates/schemas';
import { requireWorkspace } from '../../auth/access';
import { GLOBAL_TEMPLATE_ID } from '../../db/catalogue';
import type { Db } from '../../db/client';
import { templateNotFound } from '../../lib/app-error';
import { resolveActiveWorkspace } from '../workspaces/service';
import { findComponents, findTemplate, findTemplates } from './queries';

type Deps = { db: Db };

type Row = Awaited<ReturnType<typeof findTemplates>>[number];

const toSummary = (row: Row): TemplateSummary => ({
  ...row,
  type: row.type === 'loop' ? 'loop' : 'health-check',
  createdAt: row.createdAt.toISOString(),
});

/** Global templates and those of the given (or active) workspace the user manages. */
export async function listTemplates(
  deps: Deps,
  options: { userId: string; workspaceId?: string; type?: 'health-check' | 'loop' },
): Promise<TemplateSummary[]> {
  let workspaceId: string | null = null;
  if (options.workspaceId) {
    await requireWorkspace(deps.db, options.userId, options.workspaceId);
    workspaceId = options.workspaceId;
  } else {
    workspaceId = (await resolveActiveWorkspace(deps, options.userId))?.id ?? null;
  }
  const rows = await findTemplates(deps.db, { workspaceId, type: options.type });
  return rows.map(toSummary);
}

/** Global templates only (the dashboard's section). */
export async function listGlobalTemplates(deps: Deps): Promise<TemplateSummary[]> {
  return (await findTemplates(deps.db, { workspaceId: null })).map(toSummary);
}

/**
 * A template with its components, when the user may see it: global ones for any admin-area user, workspace
 * ones for that workspace's admins and members. `new` is the seeded catalogue (PRODUCT-DECISIONS 9).
 */
export async function getTemplate(
  deps: Deps,
  options: { userId: string; templateId: string },
): Promise<TemplateDetail> {
  const templateId = options.templateId === 'new' ? GLOBAL_TEMPLATE_ID : options.templateId;
  const row = await findTemplate(deps.db, templateId);
  if (!row) throw templateNotFound();
  if (!row.isGlobal) {
    if (!row.workspaceId) throw templateNotFound();
    await requireWorkspace(deps.db, options.userId, row.workspaceId);
  }
  const components = await findComponents(deps.db, templateId);
  return { ...toSummary(row), components };
}
