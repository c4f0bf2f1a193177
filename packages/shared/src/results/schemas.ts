import { z } from 'zod';
import { trackerIssueSchema } from '../trackers/rules';
import { RELEASE_STATES } from './release';
import { HEALTH_LABELS } from './rules';
import { COMPONENT_HEALTH } from '../action-items/follow-up';
import { brandingSchema } from '../branding/rules';

export const trendDirectionSchema = z.enum(['better', 'same', 'worse']);
export const healthLabelSchema = z.enum(HEALTH_LABELS);

export const ratingCountsSchema = z.object({
  healthy: z.number().int(),
  needsImprovement: z.number().int(),
  fireWarning: z.number().int(),
  dontKnow: z.number().int(),
});

export const resultCommentSchema = z.object({
  /** 'Anonymous' unless the check has allowAnonymous = false; never a participant or user id. */
  author: z.string(),
  content: z.string(),
});

export const actionItemStatusSchema = z.enum(['pending', 'in-progress', 'completed']);

export const actionItemSchema = z.object({
  id: z.string(),
  componentId: z.string().nullable(),
  description: z.string(),
  owner: z.object({ id: z.string(), name: z.string(), email: z.string() }).nullable(),
  dueDate: z.string().nullable(),
  status: actionItemStatusSchema,
  /** When it was marked done; null while it is not. */
  completedAt: z.string().nullable(),
  mentioned: z.array(z.object({ id: z.string(), name: z.string(), email: z.string() })),
  /** The tracker issue it is linked to (decision 0023), or null. */
  tracker: trackerIssueSchema.nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ActionItem = z.infer<typeof actionItemSchema>;

export const followUpCountsSchema = z.object({
  yes: z.number().int(),
  partly: z.number().int(),
  no: z.number().int(),
  'too-early': z.number().int(),
});
const componentHealthSchema = z.enum(COMPONENT_HEALTH);

/** 'Actions since last check' under a component (decision 0019). */
export const componentFollowUpSchema = z.object({
  questionId: z.string(),
  actionItemId: z.string(),
  actionTitle: z.string(),
  question: z.string(),
  ownerName: z.string().nullable(),
  doneAt: z.string().nullable(),
  /** How many answered; the answers themselves only once released (followUpReleased), else null. */
  answered: z.number().int().nullable(),
  counts: followUpCountsSchema.nullable(),
  percentages: followUpCountsSchema.nullable(),
  comments: z.array(resultCommentSchema),
  /** The component's health in the check the action came from, and now; null where it has no figures. */
  before: componentHealthSchema.nullable(),
  now: componentHealthSchema.nullable(),
  change: z.enum(['improved', 'stayed', 'worsened']).nullable(),
  changeWords: z.string(),
});
export type ComponentFollowUp = z.infer<typeof componentFollowUpSchema>;

export const componentResultSchema = ratingCountsSchema.extend({
  id: z.string(),
  key: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  category: z.string(),
  orderIndex: z.number().int(),
  total: z.number().int(),
  /** Null while voting runs: dot totals show once voting has ended. */
  dots: z.number().int().nullable(),
  rank: z.number().int(),
  comments: z.array(resultCommentSchema),
  /** Change since the workspace's previous completed check with the same component key. */
  trend: trendDirectionSchema.nullable(),
  followUps: z.array(componentFollowUpSchema),
});
export type ComponentResult = z.infer<typeof componentResultSchema>;

export const releaseStateSchema = z.enum(RELEASE_STATES);

export type { ReleaseState } from './release';

export const resultsResponseSchema = z.object({
  healthCheck: z.object({
    id: z.string(),
    title: z.string(),
    description: z.string().nullable(),
    phase: z.enum(['collect', 'vote', 'summarize', 'plan']),
    status: z.string(),
    createdAt: z.string(),
    completedAt: z.string().nullable(),
    workspaceName: z.string(),
    allowAnonymous: z.boolean(),
    enableComments: z.boolean(),
    minResponses: z.number().int(),
    votesPerPerson: z.number().int(),
  }),
  viewer: z.object({
    /** Admin or member of the workspace: sees results above the threshold, adds action items. */
    manages: z.boolean(),
    /** May move the check to 'plan' (workspace admin or the member who created it), in summarize. */
    canPlan: z.boolean(),
    isParticipant: z.boolean(),
  }),
  participants: z.object({ total: z.number().int(), completed: z.number().int() }),
  release: z.object({ state: releaseStateSchema, missingResponses: z.number().int() }),
  overallHealth: healthLabelSchema.nullable(),
  components: z.array(componentResultSchema).nullable(),
  actionItems: z.array(actionItemSchema).nullable(),
  voting: z.object({ voted: z.number().int(), eligible: z.number().int() }),
  trend: z
    .object({
      previous: z.object({
        id: z.string(),
        title: z.string(),
        completedAt: z.string().nullable(),
        overallHealth: healthLabelSchema,
      }),
    })
    .nullable(),
  followUp: z.object({ date: z.string() }).nullable(),
  /** The organisation's logo and accent colour, for participants (null for those who manage the check). */
  branding: brandingSchema.nullable(),
});
export type ResultsResponse = z.infer<typeof resultsResponseSchema>;

/** A calendar date that exists (no 30 February) in years 2000 to 9999. */
export function isRealDate(value: string): boolean {
  const time = Date.parse(`${value}T00:00:00Z`);
  if (Number.isNaN(time)) return false;
  const year = Number(value.slice(0, 4));
  return year >= 2000 && new Date(time).toISOString().slice(0, 10) === value;
}

const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Use a date like 2027-02-23')
  .refine(isRealDate, 'Use a date like 2027-02-23');

export const followUpRequestSchema = z.strictObject({ date: isoDate });
export type FollowUpRequest = z.infer<typeof followUpRequestSchema>;
export const followUpResponseSchema = z.object({ date: z.string(), icsUrl: z.string() });

export const planResponseSchema = z.object({ phase: z.literal('plan') });
