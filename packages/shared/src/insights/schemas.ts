import { z } from 'zod';
import { healthLabelSchema, trendDirectionSchema } from '../results/schemas';
import { DEFAULT_PERIOD, INSIGHT_PERIODS, INSIGHT_SORTS } from './rules';

/**
 * Wording of the insights page, written once: catalogue keys (packages/shared/messages/<language>/insights.json;
 * the floor notes say PRIVACY_FLOOR's 3).
 */
export const INSIGHTS_MESSAGES = {
  title: 'insights.title',
  loadFailed: 'insights.loadFailed',
  noWorkspace: 'insights.noWorkspace',
  notForYou: 'insights.notForYou',
  noTeams: 'insights.noTeams',
  noTeamsHint: 'insights.noTeamsHint',
  notInCheck: 'insights.notInCheck',
  belowFloor: 'insights.belowFloor',
  floorNote: 'insights.floorNote',
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

/** Wording of the loops part of the insights page (issue 16: each team's latest eNPS and participation). */
export const LOOP_INSIGHTS_MESSAGES = {
  title: 'insights.loopsTitle',
  loadFailed: 'insights.loopsLoadFailed',
  noLoops: 'insights.noLoops',
  noLoopsHint: 'insights.noLoopsHint',
  noEnps: 'insights.noEnps',
  enpsTooFew: 'insights.enpsTooFew',
  floorNote: 'insights.loopsFloorNote',
} as const;

export const loopInsightsQuerySchema = z.object({
  period: z.enum(INSIGHT_PERIODS).default(DEFAULT_PERIOD),
});

/** eNPS of a round or of a month pooled: the score (−100 to +100) and the answers it is made of. */
const enpsFigureSchema = z.object({ score: z.number().int(), answers: z.number().int() });

const loopRowSchema = z.object({
  id: z.string(),
  title: z.string(),
  workspace: z.object({ id: z.string(), name: z.string() }),
  /** The loop's latest closed round. */
  round: z.object({
    id: z.string(),
    number: z.number().int(),
    openedAt: z.string(),
    closedAt: z.string(),
    audience: z.number().int(),
    answered: z.number().int(),
    /** Response rate in percent (stats.ts responseRate). */
    participation: z.number().int(),
  }),
  /**
   * 'none': the round asked no eNPS question; 'below-floor': its eNPS question had fewer answers than the floor;
   * 'shown': `enps` holds the figure.
   */
  enpsState: z.enum(['none', 'below-floor', 'shown']),
  enps: enpsFigureSchema.nullable(),
});
export type LoopInsightRow = z.infer<typeof loopRowSchema>;

export const loopInsightsResponseSchema = z.object({
  period: z.enum(INSIGHT_PERIODS),
  since: z.string().nullable(),
  /** Loops whose latest closed round reached the floor, by team name, then loop title. */
  loops: z.array(loopRowSchema),
  /** Loops whose latest closed round in the period had too few responses: named, no figure. */
  leftOut: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      workspace: z.object({ id: z.string(), name: z.string() }),
    }),
  ),
  /** The organisation's trend by month (of a round's opening, UTC), pooled over the loops shown only. */
  trend: z.array(
    z.object({
      /** 'YYYY-MM'. */
      month: z.string(),
      /** Rounds and teams pooled in the month (each round reached its floor). */
      rounds: z.number().int(),
      teams: z.number().int(),
      audience: z.number().int(),
      answered: z.number().int(),
      participation: z.number().int(),
      /** Pooled over the month's rounds whose eNPS question reached the floor; null without one. */
      enps: enpsFigureSchema.nullable(),
    }),
  ),
  /** What the trend pools: loops and teams shown, and loops and teams left out (none of their figures in it). */
  pooled: z.object({
    loops: z.number().int(),
    teams: z.number().int(),
    leftOutLoops: z.number().int(),
    leftOutTeams: z.number().int(),
  }),
});
export type LoopInsightsResponse = z.infer<typeof loopInsightsResponseSchema>;

/** One row of 'Actions that worked' (decision 0019): a team's or the organisation's figures in the period. */
const workedRowSchema = z.object({
  /** Action items marked done in the period. */
  done: z.number().int(),
  /** Of those, asked about by a completed health check. */
  asked: z.number().int(),
  /** Follow-up answers counted (only of questions that reach the privacy floor). */
  answered: z.number().int(),
  /** Percent of those answers that said 'Yes' or 'Partly'; null without answers counted. */
  workedShare: z.number().int().nullable(),
  /** Actions whose component shows in the check it came from and in the check that asked. */
  compared: z.number().int(),
  /** Percent of those whose component's health improved; null without any compared. */
  improvedShare: z.number().int().nullable(),
});
export type WorkedRow = z.infer<typeof workedRowSchema>;

export const actionInsightsQuerySchema = z.object({
  period: z.enum(INSIGHT_PERIODS).default(DEFAULT_PERIOD),
});

export const actionInsightsResponseSchema = z.object({
  period: z.enum(INSIGHT_PERIODS),
  since: z.string().nullable(),
  /** Teams with at least one action item done in the period, by name. */
  teams: z.array(workedRowSchema.extend({ id: z.string(), name: z.string() })),
  /** The teams' figures summed, nothing else (so no team's hidden answers can be had by subtraction). */
  organisation: workedRowSchema.extend({ teams: z.number().int() }),
});
export type ActionInsightsResponse = z.infer<typeof actionInsightsResponseSchema>;
