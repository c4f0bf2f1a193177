import { z } from 'zod';
import { healthLabelSchema, trendDirectionSchema } from '../results/schemas';
import { DEFAULT_PERIOD, INSIGHT_PERIODS, INSIGHT_SORTS, PRIVACY_FLOOR } from './rules';

/** Wording of the insights page, written once. */
export const INSIGHTS_MESSAGES = {
  title: 'Organisation insights',
  loadFailed: 'Failed to load organisation insights',
  noWorkspace: 'Choose a workspace of your organisation to see its insights.',
  notForYou:
    "Organisation insights are for the organisation's owner and the organisation admins they appoint. Ask your organisation's owner if you need them.",
  noTeams: 'No team has a completed health check in this period yet.',
  noTeamsHint:
    'Teams appear here once a health check is completed with enough responses. Choose a longer period, or complete a health check.',
  notInCheck: 'Not in this check',
  belowFloor: 'Too few responses to show',
  floorNote: `A team, a cell or the organisation column is shown only with at least the team's own minimum of responses, and never fewer than ${PRIVACY_FLOOR}. The Organisation column pools only the teams shown.`,
} as const;

export const insightsQuerySchema = z.object({
  period: z.enum(INSIGHT_PERIODS).default(DEFAULT_PERIOD),
  /** One of the catalogue's categories; absent: all of them. */
  category: z.string().trim().max(120).optional(),
});

export const insightsCsvQuerySchema = insightsQuerySchema.extend({
  sort: z.enum(INSIGHT_SORTS).default('health'),
});

/**
 * One heat map cell, compact because a page holds up to 500 × 29 of them: the counts of healthy, needs
 * improvement, fire warning and don't know, and the change against the team's previous check of the component.
 */
const insightCellSchema = z.tuple([
  z.number().int(),
  z.number().int(),
  z.number().int(),
  z.number().int(),
  trendDirectionSchema.nullable(),
]);
export type InsightCell = z.infer<typeof insightCellSchema>;

const insightTeamSchema = z.object({
  id: z.string(),
  name: z.string(),
  check: z.object({ id: z.string(), title: z.string(), completedAt: z.string() }),
  /** Completed participants of that check. */
  responses: z.number().int(),
  overallHealth: healthLabelSchema,
  /** Health score in points (see healthScore), over the cells shown. */
  score: z.number().nullable(),
  /** Score change in points since the team's previous check shown; null without one. */
  change: z.number().nullable(),
  /** By component key; a key absent here was not in the check, or had too few ratings (`hidden`). */
  cells: z.record(z.string(), insightCellSchema),
  /** Keys of the check whose ratings are too few to show. */
  hidden: z.array(z.string()),
});
export type InsightTeam = z.infer<typeof insightTeamSchema>;

const leftOutReasonSchema = z.enum(['below-floor', 'no-check']);

export const insightsResponseSchema = z.object({
  organization: z.object({ id: z.string(), name: z.string() }),
  period: z.enum(INSIGHT_PERIODS),
  /** Earliest completion the period counts; null for all time. */
  since: z.string().nullable(),
  category: z.string().nullable(),
  /** The heat map's rows: the catalogue's components by category (only the chosen category when filtered). */
  rows: z.array(
    z.object({
      category: z.string(),
      components: z.array(z.object({ key: z.string(), title: z.string() })),
    }),
  ),
  /** Every category, for the filter. */
  categories: z.array(z.string()),
  /** Teams shown, by name. */
  teams: z.array(insightTeamSchema),
  /** Teams of the organisation not shown, and why: too few responses, or no completed check in the period. */
  leftOut: z.array(z.object({ id: z.string(), name: z.string(), reason: leftOutReasonSchema })),
  /** The teams shown, pooled per component (never a team that is not shown, so nothing hidden can be subtracted). */
  organisation: z.object({
    teams: z.number().int(),
    cells: z.record(z.string(), insightCellSchema),
    overallHealth: healthLabelSchema.nullable(),
  }),
  priorities: z.object({
    /** Components most often in the shown teams' top 3 (the results' prioritized order), most first. */
    components: z.array(
      z.object({ key: z.string(), title: z.string(), category: z.string(), teams: z.number().int() }),
    ),
    /** Shown teams whose score fell since their previous check, most first. */
    falling: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        change: z.number(),
        from: healthLabelSchema,
        to: healthLabelSchema,
      }),
    ),
  }),
});
export type InsightsResponse = z.infer<typeof insightsResponseSchema>;
