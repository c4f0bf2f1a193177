/** Pure rules of the results: ranking, overall health label, trend (spec sections 4 and 9, PRODUCT-DECISIONS 2 and 9). */

export type RatingCounts = {
  healthy: number;
  needsImprovement: number;
  fireWarning: number;
  dontKnow: number;
};

export type RankInput = RatingCounts & { dots: number; orderIndex: number };

/** How many of the top of the prioritized list are highlighted (spec section 9). */
export const HIGHLIGHTED_TOP = 3;

/**
 * PRODUCT-DECISIONS 2: fire warnings (most first), then dots, then needs-improvement count, then template order.
 * Returns a new array; the input is not changed.
 */
export function prioritize<T extends RankInput>(items: readonly T[]): T[] {
  return [...items].sort(
    (a, b) =>
      b.fireWarning - a.fireWarning ||
      b.dots - a.dots ||
      b.needsImprovement - a.needsImprovement ||
      a.orderIndex - b.orderIndex,
  );
}

export const HEALTH_LABELS = [
  'No Data',
  'No Ratings',
  'Needs Immediate Attention',
  'Needs Attention',
  'Mostly Healthy',
  'Mixed Health',
] as const;
export type HealthLabel = (typeof HEALTH_LABELS)[number];

/** Each overall health's words on a screen (the API's values stay English): catalogue keys of `results`. */
export const HEALTH_LABEL_MESSAGES: Record<HealthLabel, string> = {
  'No Data': 'results.health.noData',
  'No Ratings': 'results.health.noRatings',
  'Needs Immediate Attention': 'results.health.immediate',
  'Needs Attention': 'results.health.attention',
  'Mostly Healthy': 'results.health.mostlyHealthy',
  'Mixed Health': 'results.health.mixed',
};

export const totalOf = (counts: RatingCounts) =>
  counts.healthy + counts.needsImprovement + counts.fireWarning + counts.dontKnow;

/**
 * Spec section 4: 'No Data' without components, 'No Ratings' without votes; fire warnings over 30% 'Needs
 * Immediate Attention', over 20% 'Needs Attention'; healthy over 60% 'Mostly Healthy'; else 'Mixed Health'.
 * Shares are over all ratings, don't-know included (PRODUCT-DECISIONS 9). Integer arithmetic, so an exact
 * 30% is not "over 30%".
 */
export function overallHealth(components: readonly RatingCounts[]): HealthLabel {
  if (components.length === 0) return 'No Data';
  let total = 0;
  let fire = 0;
  let healthy = 0;
  for (const c of components) {
    total += totalOf(c);
    fire += c.fireWarning;
    healthy += c.healthy;
  }
  if (total === 0) return 'No Ratings';
  if (fire * 10 > total * 3) return 'Needs Immediate Attention';
  if (fire * 10 > total * 2) return 'Needs Attention';
  if (healthy * 10 > total * 6) return 'Mostly Healthy';
  return 'Mixed Health';
}

export type TrendDirection = 'better' | 'same' | 'worse';

/** A change of the health score of at most this many percentage points counts as 'same'. */
export const TREND_TOLERANCE_POINTS = 5;

/**
 * Trend of one component against an earlier check: its score is the share of healthy ratings minus the share
 * of fire warnings (both over all its ratings). Null when either side has no ratings.
 */
export function componentTrend(now: RatingCounts, before: RatingCounts): TrendDirection | null {
  const tNow = totalOf(now);
  const tBefore = totalOf(before);
  if (tNow === 0 || tBefore === 0) return null;
  // (hN - fN)/tN - (hB - fB)/tB, scaled by tN * tB to stay in integers.
  const diff = (now.healthy - now.fireWarning) * tBefore - (before.healthy - before.fireWarning) * tNow;
  const tolerance = TREND_TOLERANCE_POINTS * tNow * tBefore;
  if (diff * 100 > tolerance) return 'better';
  if (diff * 100 < -tolerance) return 'worse';
  return 'same';
}

/**
 * Percentages of the three-part bar (don't-know excluded, spec section 2), whole numbers summing to exactly 100
 * (largest remainder), or all 0 when nothing was rated.
 */
export function distributionBar(counts: RatingCounts): {
  healthy: number;
  needsImprovement: number;
  fireWarning: number;
} {
  const parts = [counts.healthy, counts.needsImprovement, counts.fireWarning];
  const rated = parts[0]! + parts[1]! + parts[2]!;
  if (rated === 0) return { healthy: 0, needsImprovement: 0, fireWarning: 0 };
  const exact = parts.map((n) => (n * 100) / rated);
  const whole = exact.map(Math.floor);
  let left = 100 - whole.reduce((a, b) => a + b, 0);
  const byRemainder = [0, 1, 2].sort((a, b) => exact[b]! - whole[b]! - (exact[a]! - whole[a]!) || a - b);
  for (const index of byRemainder) {
    if (left <= 0) break;
    whole[index] = whole[index]! + 1;
    left -= 1;
  }
  return { healthy: whole[0]!, needsImprovement: whole[1]!, fireWarning: whole[2]! };
}

/** Three months after `from`, as YYYY-MM-DD (the Next Steps default, PRODUCT-DECISIONS 5). */
export function defaultFollowUpDate(from: Date): string {
  const date = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth() + 3, from.getUTCDate()));
  // 30 November + 3 months has no 30 February: JavaScript rolls over; step back to the month's last day.
  if (date.getUTCDate() !== from.getUTCDate()) date.setUTCDate(0);
  return date.toISOString().slice(0, 10);
}
