/**
 * Pure rules of organisation insights (issue 16): the privacy floor, the periods, a team's health score and the
 * order of the heat map's teams. Without zod, so the page can use them at first paint.
 */
import { overallHealth, totalOf, type HealthLabel, type RatingCounts } from '../results/rules';

/** No figure of fewer than this many responses is ever shown, whatever a team's own minimum says. */
export const PRIVACY_FLOOR = 3;

/** The responses a team's figure needs: the team's own minimum (its check's `minResponses`), never fewer than 3. */
export const privacyFloor = (minResponses: number) => Math.max(PRIVACY_FLOOR, minResponses);

export const INSIGHT_PERIODS = ['90d', '180d', '365d', 'all'] as const;
export type InsightPeriod = (typeof INSIGHT_PERIODS)[number];
export const DEFAULT_PERIOD: InsightPeriod = '365d';
export const PERIOD_LABELS: Record<InsightPeriod, string> = {
  '90d': 'insights.periods.last3Months',
  '180d': 'insights.periods.last6Months',
  '365d': 'insights.periods.last12Months',
  all: 'insights.periods.allTime',
};
const PERIOD_DAYS: Record<InsightPeriod, number | null> = { '90d': 90, '180d': 180, '365d': 365, all: null };

/** The earliest completion a period counts (a team's latest completed check must be this recent), or null. */
export function periodStart(period: InsightPeriod, now: Date): Date | null {
  const days = PERIOD_DAYS[period];
  return days === null ? null : new Date(now.getTime() - days * 24 * 3600_000);
}

export const INSIGHT_SORTS = ['health', 'trend', 'name'] as const;
export type InsightSort = (typeof INSIGHT_SORTS)[number];
export const SORT_LABELS: Record<InsightSort, string> = {
  health: 'insights.sortBy.health',
  trend: 'insights.sortBy.trend',
  name: 'insights.sortBy.name',
};

/**
 * A team's or a component's health score in points, -100 to 100: the share of healthy ratings minus the share of
 * fire warnings, over all ratings (the score the results' trend compares). Null without ratings.
 */
export function healthScore(counts: RatingCounts): number | null {
  const total = totalOf(counts);
  if (total === 0) return null;
  return Math.round(((counts.healthy - counts.fireWarning) * 1000) / total) / 10;
}

/** One counts object for several (a team's cells, or the organisation's pooled teams). */
export function sumCounts(items: Iterable<RatingCounts>): RatingCounts {
  const sum: RatingCounts = { healthy: 0, needsImprovement: 0, fireWarning: 0, dontKnow: 0 };
  for (const c of items) {
    sum.healthy += c.healthy;
    sum.needsImprovement += c.needsImprovement;
    sum.fireWarning += c.fireWarning;
    sum.dontKnow += c.dontKnow;
  }
  return sum;
}

/** The label of one cell: the results' overall-health wording applied to that component's ratings. */
export const cellLabel = (counts: RatingCounts): HealthLabel => overallHealth([counts]);

/**
 * Short words for a cell, so a narrow column still says in text what its colour says: catalogue keys of
 * `insights` ('No data', 'No ratings', 'Urgent', 'Attention', 'Healthy', 'Mixed' in English).
 */
export const SHORT_LABELS: Record<HealthLabel, string> = {
  'No Data': 'insights.short.noData',
  'No Ratings': 'insights.short.noRatings',
  'Needs Immediate Attention': 'insights.short.urgent',
  'Needs Attention': 'insights.short.attention',
  'Mostly Healthy': 'insights.short.healthy',
  'Mixed Health': 'insights.short.mixed',
};

type Sortable = { name: string; score: number | null; change: number | null };

/**
 * The heat map's team order: by overall health, weakest first; by trend, falling most first (teams without an
 * earlier check last); or by name. Ties by name. Returns a new array.
 */
export function sortTeams<T extends Sortable>(teams: readonly T[], sort: InsightSort): T[] {
  const last = (value: number | null) => value ?? Number.POSITIVE_INFINITY;
  const byName = (a: T, b: T) => a.name.localeCompare(b.name);
  return [...teams].sort((a, b) => {
    if (sort === 'health') return last(a.score) - last(b.score) || byName(a, b);
    if (sort === 'trend') return last(a.change) - last(b.change) || byName(a, b);
    return byName(a, b);
  });
}

/** A heat map cell starts with its four counts (healthy, needs improvement, fire warning, don't know). */
export type CountsTuple = readonly [number, number, number, number, ...unknown[]];
export const cellCounts = (cell: CountsTuple): RatingCounts => ({
  healthy: cell[0],
  needsImprovement: cell[1],
  fireWarning: cell[2],
  dontKnow: cell[3],
});
