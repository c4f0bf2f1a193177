import { z } from 'zod';
import { launchSchema, settingsSchema } from '../health-checks/schemas';
import { loopTemplateSchema } from '../loops/schemas';

export const TEMPLATE_TYPES = ['health-check', 'loop'] as const;

export const TEMPLATE_MESSAGES = {
  empty: 'No Templates Found',
  noGlobal: 'No global templates available',
  saveAsTemplate: 'Save as template',
  saved: 'Template saved',
  updated: 'Template updated',
  deleted: 'Template deleted',
  saveFailed: 'The template could not be saved',
  deleteFailed: 'The template could not be deleted',
  /** A workspace template's title and description are changed by its workspace's admins and its creator. */
  notAllowed: "Only the workspace's admins and the person who made this template can change it",
  /** Saving a template from a template that is not a health-check one (or a loop template's rename as one). */
  notHealthCheckTemplate: 'This is not a health check template',
} as const;

export const templateSummarySchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  type: z.enum(TEMPLATE_TYPES),
  isGlobal: z.boolean(),
  workspaceId: z.string().nullable(),
  createdAt: z.string(),
  /** Whether the caller may rename or delete it (a workspace's admins, and the person who made it). */
  canChange: z.boolean(),
});
export type TemplateSummary = z.infer<typeof templateSummarySchema>;

/** The Templates list's type filter: one kind, or both when left out. */
export const templatesQuerySchema = z.object({
  type: z.enum(TEMPLATE_TYPES).optional(),
  workspaceId: z.uuid().optional(),
});

export const templatesResponseSchema = z.object({ templates: z.array(templateSummarySchema) });

export const templateComponentSchema = z.object({
  id: z.string(),
  key: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  category: z.string().nullable(),
  orderIndex: z.number(),
  enabled: z.boolean(),
  examples: z.array(z.string()),
});
export type TemplateComponent = z.infer<typeof templateComponentSchema>;

export const templateDetailResponseSchema = z.object({
  template: templateSummarySchema.extend({
    /** A health-check template's components (none for a loop template). */
    components: z.array(templateComponentSchema),
    /** A loop template's questions and the defaults Configure Loop starts from (null for a health check). */
    loop: loopTemplateSchema.nullable().optional(),
    /** A saved health-check template's settings, which Configure starts from (null: the defaults). */
    settings: settingsSchema.nullable().optional(),
  }),
});
export type TemplateDetail = z.infer<typeof templateDetailResponseSchema>['template'];

/**
 * 'Save as template' on Configure (POST /templates/health-checks): the workspace's new template takes the
 * title and description chosen there, every component of the source template (`templateId`) with the
 * enabled flags chosen there, and the check settings.
 */
export const saveHealthCheckTemplateSchema = launchSchema.pick({
  workspaceId: true,
  templateId: true,
  title: true,
  description: true,
  settings: true,
  enabledComponentIds: true,
});
export type SaveHealthCheckTemplate = z.input<typeof saveHealthCheckTemplateSchema>;

/** Renaming a workspace template (PATCH /templates/{templateId}): its title and description. */
export const templateTextSchema = launchSchema.pick({ title: true, description: true });
export type TemplateText = z.input<typeof templateTextSchema>;

/** Components grouped by category, categories in the order they first appear (the template's order). */
export function groupByCategory<T extends { category: string | null }>(components: T[]) {
  const groups = new Map<string, T[]>();
  for (const component of components) {
    const category = component.category ?? 'Uncategorized';
    const list = groups.get(category) ?? [];
    list.push(component);
    groups.set(category, list);
  }
  return [...groups].map(([category, items]) => ({ category, items }));
}

/** The read-only 'Rating Options' panel of the configure screen. */
export const RATING_OPTIONS = [
  { value: 'healthy', label: 'Healthy', meaning: 'working well' },
  { value: 'needs-improvement', label: 'Needs Improvement', meaning: 'could be better' },
  { value: 'fire-warning', label: 'Fire Warning', meaning: 'needs urgent attention' },
  { value: 'dont-know', label: "I Don't Know", meaning: 'not familiar with this area' },
] as const;
