/**
 * The figures of a loop's rounds, and whether a change between two rounds is real or within normal variation
 * (docs/decisions/0009-loops.md, "Statistics"). Counts in, figures out: the SQL that aggregates answers returns
 * counts per value (or per eNPS group), these functions make every figure the screens and exports show, and a
 * test holds the SQL to them. Rounding is half away from zero, exactly, as PostgreSQL's round(numeric) does.
 */

import { completionRate } from '../health-checks/rules';
import { ENPS_MAX, ENPS_MIN, SCALE_MAX, SCALE_MIN } from './rules';

/** z of a two-sided 95% interval. */
export const Z_95 = 1.96;

/** Below this many answers a round's spread cannot be estimated, so no change is called either way. */
export const COMPARE_MIN_ANSWERS = 3;

/** numerator / denominator rounded half away from zero, exact for integers (no floating-point ties). */
export function roundRatio(numerator: number, denominator: number): number {
  if (denominator <= 0) throw new RangeError('The denominator must be positive');
  if (numerator < 0) return -roundRatio(-numerator, denominator);
  return Math.floor((2 * numerator + denominator) / (2 * denominator));
}

/**
 * A round's response rate: members who answered over the members it was sent to, as a rounded percentage, 0 for
 * an empty audience (the completion-rate rule of health checks).
 */
export const responseRate = (answered: number, audience: number) => completionRate(answered, audience);

/** Counts per value from SQL's `group by value` rows, as a dense array from min to max (absent values 0). */
export function countsByValue(
  rows: readonly { value: number; count: number }[],
  min: number,
  max: number,
): number[] {
  const counts = Array.from({ length: max - min + 1 }, () => 0);
  for (const row of rows) {
    if (!Number.isInteger(row.value) || row.value < min || row.value > max) {
      throw new RangeError(`Answer value ${row.value} is outside ${min}..${max}`);
    }
    counts[row.value - min] = (counts[row.value - min] ?? 0) + row.count;
  }
  return counts;
}

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

function checkCounts(counts: readonly number[], length: number) {
  if (counts.length !== length || counts.some((count) => !Number.isInteger(count) || count < 0)) {
    throw new RangeError(`Expected ${length} counts, whole and not negative`);
  }
}

/** Each bar's share of all answers, in rounded percent (0 for every bar without answers). */
export function shares(counts: readonly number[]): number[] {
  const total = sum(counts);
  return counts.map((count) => (total === 0 ? 0 : roundRatio(count * 100, total)));
}

export type ScaleSummary = {
  answers: number;
  /** Answers per value: index 0 is 1, index 4 is 5. */
  counts: number[];
  /** The mean with one decimal; null without answers. */
  mean: number | null;
};

/** A 1–5 question's distribution and mean, from its counts per value (1 to 5). */
export function scaleSummary(counts: readonly number[]): ScaleSummary {
  checkCounts(counts, SCALE_MAX - SCALE_MIN + 1);
  const answers = sum(counts);
  const total = sum(counts.map((count, index) => count * (index + SCALE_MIN)));
  return { answers, counts: [...counts], mean: answers === 0 ? null : roundRatio(total * 10, answers) / 10 };
}

export type EnpsGroups = { promoters: number; passives: number; detractors: number };

/** eNPS groups from the counts per score (0 to 10): promoters 9–10, passives 7–8, detractors 0–6. */
export function enpsGroups(counts: readonly number[]): EnpsGroups {
  checkCounts(counts, ENPS_MAX - ENPS_MIN + 1);
  return {
    promoters: sum(counts.slice(9)),
    passives: sum(counts.slice(7, 9)),
    detractors: sum(counts.slice(0, 7)),
  };
}

export type EnpsSummary = EnpsGroups & {
  answers: number;
  /** % promoters minus % detractors, a whole number from −100 to +100; null without answers. */
  score: number | null;
};

/** The eNPS of a round: the groups' counts in, the score out (rounded half away from zero). */
export function enpsSummary(groups: EnpsGroups): EnpsSummary {
  checkCounts([groups.promoters, groups.passives, groups.detractors], 3);
  const answers = groups.promoters + groups.passives + groups.detractors;
  const score = answers === 0 ? null : roundRatio(100 * (groups.promoters - groups.detractors), answers);
  return { ...groups, answers, score };
}

/**
 * A change from one round to a later one: `change` (later minus earlier, unrounded, in the figure's unit: points
 * of the mean, eNPS points, percentage points) and `margin`, the half-width of its 95% interval. `real` when the
 * change is larger than the margin; otherwise it is within normal variation.
 */
export type Change = { change: number; margin: number; real: boolean };

const verdict = (change: number, margin: number): Change => ({
  change,
  margin,
  real: Math.abs(change) > margin,
});

/** Rounds below their minimum responses show no figures, and too few answers give no estimate of spread. */
const comparable = (answers: number, minResponses: number) =>
  answers >= Math.max(minResponses, COMPARE_MIN_ANSWERS);

/**
 * Mean and sample variance (n − 1) of answers given as counts per value, the variance taken as at least 1/n: the
 * spread of n answers of which one is a single point off the others. Answers are whole numbers, so a round where
 * everyone said the same says little about how far the next round could fall by chance; the floor keeps a
 * spread of zero from making any difference look real.
 */
function moments(values: readonly { value: number; count: number }[]) {
  const n = sum(values.map((v) => v.count));
  const mean = sum(values.map((v) => v.value * v.count)) / n;
  const squares = sum(values.map((v) => v.count * (v.value - mean) ** 2));
  return { n, mean, variance: Math.max(squares / (n - 1), 1 / n) };
}

/** Welch's comparison of two means: margin = 1.96 × √(s₁²/n₁ + s₂²/n₂). */
function meanChange(before: ReturnType<typeof moments>, after: ReturnType<typeof moments>, scale: number) {
  const margin = Z_95 * Math.sqrt(before.variance / before.n + after.variance / after.n);
  return verdict((after.mean - before.mean) * scale, margin * scale);
}

/**
 * Change of a 1–5 question's mean between two rounds (counts per value, 1 to 5): real when the difference of the
 * means exceeds 1.96 × √(s₁²/n₁ + s₂²/n₂). Null when either round has fewer answers than its minimum or than 3.
 */
export function scaleChange(before: readonly number[], after: readonly number[], minResponses: number) {
  const [a, b] = [scaleSummary(before), scaleSummary(after)];
  if (!comparable(a.answers, minResponses) || !comparable(b.answers, minResponses)) return null;
  const asValues = (counts: readonly number[]) =>
    counts.map((count, index) => ({ value: index + SCALE_MIN, count }));
  return meanChange(moments(asValues(before)), moments(asValues(after)), 1);
}

/**
 * Change of the eNPS between two rounds. Each answer scores +1 (promoter), 0 (passive) or −1 (detractor); the
 * eNPS is 100 × their mean, so its change is compared like a mean's: real when it exceeds
 * 100 × 1.96 × √(s₁²/n₁ + s₂²/n₂) with s² the sample variance of those scores. Null as for scaleChange.
 */
export function enpsChange(before: EnpsGroups, after: EnpsGroups, minResponses: number) {
  const [a, b] = [enpsSummary(before), enpsSummary(after)];
  if (!comparable(a.answers, minResponses) || !comparable(b.answers, minResponses)) return null;
  const asValues = (groups: EnpsGroups) => [
    { value: 1, count: groups.promoters },
    { value: 0, count: groups.passives },
    { value: -1, count: groups.detractors },
  ];
  return meanChange(moments(asValues(before)), moments(asValues(after)), 100);
}

export type Participation = { answered: number; audience: number };

/**
 * Change of the response rate between two rounds, in percentage points, by the two-proportion z-test: real when
 * it exceeds 100 × 1.96 × √(p(1 − p)(1/N₁ + 1/N₂)), p the pooled rate. Who answered is no secret from the admin,
 * so no minimum applies; null only when a round had no audience.
 */
export function participationChange(before: Participation, after: Participation): Change | null {
  if (before.audience <= 0 || after.audience <= 0) return null;
  const pooled = (before.answered + after.answered) / (before.audience + after.audience);
  const margin = Z_95 * Math.sqrt(pooled * (1 - pooled) * (1 / before.audience + 1 / after.audience));
  return verdict(100 * (after.answered / after.audience - before.answered / before.audience), 100 * margin);
}

/** Each point's change from the one before it (null for the first, and where no comparison is possible). */
export function consecutiveChanges<T>(
  points: readonly T[],
  compare: (before: T, after: T) => Change | null,
): (Change | null)[] {
  return points.map((point, index) => {
    const previous = points[index - 1];
    return index === 0 || previous === undefined ? null : compare(previous, point);
  });
}

export const CHANGE_LABELS = {
  real: 'loops.changeReal',
  normal: 'loops.changeNormal',
  none: 'loops.changeNone',
} as const;

export const changeLabel = (change: Change | null) =>
  change === null ? CHANGE_LABELS.none : change.real ? CHANGE_LABELS.real : CHANGE_LABELS.normal;
