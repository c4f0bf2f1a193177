import { z } from 'zod';
import { launchSchema, settingsSchema } from '../health-checks/schemas';
import { loopTemplateSchema } from '../loops/schemas';
import { RESULTS_MESSAGES } from '../results/messages';

export const TEMPLATE_TYPES = ['health-check', 'loop'] as const;

/** The templates' wording: catalogue keys (packages/shared/messages/<language>/templates.json). */
export const TEMPLATE_MESSAGES = {
  empty: 'templates.empty',
  noGlobal: 'templates.noGlobal',
  saveAsTemplate: 'templates.saveAsTemplate',
  saved: 'templates.saved',
  updated: 'templates.updated',
  deleted: 'templates.deleted',
  saveFailed: 'templates.saveFailed',
  deleteFailed: 'templates.deleteFailed',
  /** A workspace template's title and description are changed by its workspace's admins and its creator. */
  notAllowed: 'templates.notAllowed',
  /** Saving a template from a template that is not a health-check one (or a loop template's rename as one). */
  notHealthCheckTemplate: 'templates.notHealthCheckTemplate',
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

/**
 * Components grouped by category, categories in the order they first appear (the template's order); components
 * without one under the catalogue key of 'Uncategorized' (say it where it is shown).
 */
export function groupByCategory<T extends { category: string | null }>(components: T[]) {
  const groups = new Map<string, T[]>();
  for (const component of components) {
    const category = component.category ?? RESULTS_MESSAGES.uncategorized;
    const list = groups.get(category) ?? [];
    list.push(component);
    groups.set(category, list);
  }
  return [...groups].map(([category, items]) => ({ category, items }));
}

/** The read-only 'Rating Options' panel of the configure screen: catalogue keys. */
export const RATING_OPTIONS = [
  { value: 'healthy', label: 'participation.ratingHealthy', meaning: 'templates.meaningHealthy' },
  {
    value: 'needs-improvement',
    label: 'participation.ratingNeedsImprovement',
    meaning: 'templates.meaningNeedsImprovement',
  },
  {
    value: 'fire-warning',
    label: 'participation.ratingFireWarning',
    meaning: 'templates.meaningFireWarning',
  },
  { value: 'dont-know', label: 'participation.ratingDontKnow', meaning: 'templates.meaningDontKnow' },
] as const;
