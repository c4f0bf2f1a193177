import { LOOP_MESSAGES } from '@pulsecheck/shared/loops/rules';
import { loopTemplateSchema, type LoopTemplate } from '@pulsecheck/shared/loops/schemas';
import { HEALTH_CHECK_MESSAGES } from '@pulsecheck/shared/health-checks/messages';
import { settingsSchema } from '@pulsecheck/shared/health-checks/schemas';
import type { z } from 'zod';
import {
  TEMPLATE_MESSAGES,
  type saveHealthCheckTemplateSchema,
  type TemplateDetail,
  type TemplateSummary,
  type TemplateText,
} from '@pulsecheck/shared/templates/schemas';
import { recordWorkspaceAudit, type AuditBy } from '../../audit/record';
import { requireWorkspace } from '../../auth/access';
import { can, type Actor } from '../../auth/policy';
import { GLOBAL_TEMPLATE_ID } from '../../db/catalogue';
import type { Db } from '../../db/client';
import { conflict, forbidden, invalid, templateNotFound } from '../../lib/app-error';
import { resolveActiveWorkspace } from '../workspaces/service';
import { canonicalContent, canonicalWording } from '../../lib/content-language';
import {
  deleteTemplate,
  findComponents,
  findTemplate,
  findTemplates,
  insertComponents,
  insertTemplate,
  updateTemplate,
} from './queries';

type Deps = { db: Db };

type Row = Awaited<ReturnType<typeof findTemplates>>[number];

/** The template as listed; `canChange` says what the policy says of `actor` (never for a global template). */
const toSummary = (row: Row, actor: Actor | null = null): TemplateSummary => ({
  id: row.id,
  title: row.title,
  description: row.description,
  type: row.type === 'loop' ? 'loop' : 'health-check',
  isGlobal: row.isGlobal,
  workspaceId: row.workspaceId,
  createdAt: row.createdAt.toISOString(),
  canChange: !row.isGlobal && actor !== null && can(actor, 'template:change', { createdBy: row.createdBy }),
});

/** A loop template's content: its questions and defaults (kept in `templates.settings`), with its title. */
function loopContent(row: Row): z.output<typeof loopTemplateSchema> | null {
  if (row.type !== 'loop') return null;
  const parsed = loopTemplateSchema.safeParse({
    ...(row.settings as object | null),
    title: row.title,
    description: row.description ?? '',
  });
  return parsed.success ? parsed.data : null;
}

/** Global templates and those of the given (or active) workspace the user manages. */
export async function listTemplates(
  deps: Deps,
  options: { userId: string; workspaceId?: string; type?: 'health-check' | 'loop' },
): Promise<TemplateSummary[]> {
  let workspaceId: string | null = null;
  let actor: Actor | null = null;
  if (options.workspaceId) {
    const membership = await requireWorkspace(deps.db, options.userId, options.workspaceId);
    workspaceId = options.workspaceId;
    actor = { userId: options.userId, access: membership.access };
  } else {
    const active = await resolveActiveWorkspace(deps, options.userId);
    workspaceId = active?.id ?? null;
    actor = active ? { userId: options.userId, access: active.access } : null;
  }
  const rows = await findTemplates(deps.db, { workspaceId, type: options.type });
  return rows.map((row) => toSummary(row, actor));
}

/** Global templates only (the dashboard's section). */
export async function listGlobalTemplates(deps: Deps): Promise<TemplateSummary[]> {
  return (await findTemplates(deps.db, { workspaceId: null })).map((row) => toSummary(row));
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
  let actor: Actor | null = null;
  if (!row.isGlobal) {
    if (!row.workspaceId) throw templateNotFound();
    const membership = await requireWorkspace(deps.db, options.userId, row.workspaceId);
    actor = { userId: options.userId, access: membership.access };
  }
  const components = row.type === 'loop' ? [] : await findComponents(deps.db, templateId);
  return { ...toSummary(row, actor), components, loop: loopContent(row), settings: checkSettings(row) };
}

/** A saved health-check template's check settings (the catalogue and older rows have none). */
function checkSettings(row: Row) {
  if (row.type === 'loop') return null;
  const parsed = settingsSchema.safeParse(row.settings);
  return parsed.success ? parsed.data : null;
}

/** A loop template by id, global or of a workspace (no access check: the caller checks the workspace). */
export async function findLoopTemplate(db: Db, templateId: string) {
  const row = await findTemplate(db, templateId);
  return row?.type === 'loop' ? row : null;
}

const storedContent = (template: LoopTemplate) => ({
  title: canonicalContent(template.title),
  description: canonicalContent(template.description ?? ''),
  settings: {
    ...(template.language ? { language: template.language } : {}),
    questions: canonicalWording(template.questions),
    defaults: template.defaults,
  },
});

/** Saves a workspace loop template (the workspace's admins and members). */
export async function createLoopTemplate(
  deps: Deps,
  options: { userId: string; workspaceId: string; template: LoopTemplate },
) {
  await requireWorkspace(deps.db, options.userId, options.workspaceId);
  const id = await insertTemplate(deps.db, {
    ...storedContent(options.template),
    type: 'loop',
    workspaceId: options.workspaceId,
    isGlobal: false,
    createdBy: options.userId,
  });
  return { id };
}

/**
 * A workspace template the user may change: 404 for what they cannot see, 403 for a global template or another
 * member's, 409 when it is not of the `type` asked for.
 */
async function requireTemplateChange(
  db: Db,
  userId: string,
  templateId: string,
  type?: 'loop' | 'health-check',
) {
  const row = await findTemplate(db, templateId === 'new' ? GLOBAL_TEMPLATE_ID : templateId);
  if (!row) throw templateNotFound();
  if (row.isGlobal || !row.workspaceId) {
    // Global templates are visible to every admin-area user; they are nobody's to change.
    await getTemplate({ db }, { userId, templateId });
    throw forbidden(LOOP_MESSAGES.globalTemplate);
  }
  const membership = await requireWorkspace(db, userId, row.workspaceId);
  const actor = { userId, access: membership.access };
  if (!can(actor, 'template:change', { createdBy: row.createdBy }))
    throw forbidden(row.type === 'loop' ? LOOP_MESSAGES.templateNotAllowed : TEMPLATE_MESSAGES.notAllowed);
  if (type && row.type !== type) {
    throw conflict(
      type === 'loop' ? LOOP_MESSAGES.notLoopTemplate : TEMPLATE_MESSAGES.notHealthCheckTemplate,
    );
  }
  return row;
}

export async function editLoopTemplate(
  deps: Deps,
  options: { userId: string; templateId: string; template: LoopTemplate },
) {
  await requireTemplateChange(deps.db, options.userId, options.templateId, 'loop');
  await updateTemplate(deps.db, options.templateId, storedContent(options.template));
  return { id: options.templateId };
}

/**
 * 'Save as template' on Configure: a workspace health-check template (its admins and members) with every
 * component of the source template, new ids, the same keys and order, enabled as chosen; the settings with it.
 */
export async function createHealthCheckTemplate(
  deps: Deps,
  options: { userId: string } & z.output<typeof saveHealthCheckTemplateSchema>,
) {
  await requireWorkspace(deps.db, options.userId, options.workspaceId);
  const source = await getTemplate(deps, { userId: options.userId, templateId: options.templateId });
  if (!source.isGlobal && source.workspaceId !== options.workspaceId) throw templateNotFound();
  if (source.type !== 'health-check') throw conflict(TEMPLATE_MESSAGES.notHealthCheckTemplate);
  const wanted = new Set(options.enabledComponentIds);
  if (!source.components.some((component) => wanted.has(component.id))) {
    throw invalid(HEALTH_CHECK_MESSAGES.noEnabledComponents, {
      enabledComponentIds: HEALTH_CHECK_MESSAGES.noEnabledComponents,
    });
  }
  const id = await deps.db.transaction(async (tx) => {
    const templateId = await insertTemplate(tx, {
      title: canonicalContent(options.title),
      description: options.description && canonicalContent(options.description),
      type: 'health-check',
      workspaceId: options.workspaceId,
      isGlobal: false,
      settings: options.settings,
      createdBy: options.userId,
    });
    await insertComponents(
      tx,
      source.components.map((component, index) => ({
        templateId,
        key: component.key,
        title: component.title,
        description: component.description,
        category: component.category,
        orderIndex: index,
        enabled: wanted.has(component.id),
        examples: component.examples,
      })),
    );
    return templateId;
  });
  return { id };
}

/** Renames a workspace template: its title and description (its admins, and the member who made it). */
export async function renameTemplate(
  deps: Deps,
  options: { userId: string; templateId: string } & TemplateText,
) {
  await requireTemplateChange(deps.db, options.userId, options.templateId);
  await updateTemplate(deps.db, options.templateId, {
    title: canonicalContent(options.title),
    description: canonicalContent(options.description ?? ''),
  });
  return { id: options.templateId };
}

/**
 * Deletes a workspace template; loops configured from it keep their questions (their link is cleared), and
 * checks launched from a health-check template keep their snapshot (they never point at the template). The
 * deletion and its audit entry commit together.
 */
export async function removeTemplate(
  deps: Deps,
  options: { userId: string; templateId: string; by: AuditBy },
) {
  const template = await requireTemplateChange(deps.db, options.userId, options.templateId);
  const { workspaceId } = template;
  if (!workspaceId) throw templateNotFound();
  await deps.db.transaction(async (tx) => {
    if (!(await deleteTemplate(tx, template.id))) return;
    await recordWorkspaceAudit(tx, workspaceId, options.by, {
      action: 'template.deleted',
      targetType: 'template',
      targetId: template.id,
      targetLabel: template.title,
      changes: { type: template.type },
    });
  });
}
