import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  componentTrend,
  distributionBar,
  overallHealth,
  prioritize,
  totalOf,
  type RankInput,
  type RatingCounts,
} from './rules';

const counts = (
  healthy: number,
  needsImprovement: number,
  fireWarning: number,
  dontKnow = 0,
): RatingCounts => ({
  healthy,
  needsImprovement,
  fireWarning,
  dontKnow,
});

const countsArb = fc.record({
  healthy: fc.nat(50),
  needsImprovement: fc.nat(50),
  fireWarning: fc.nat(50),
  dontKnow: fc.nat(50),
});
const rankArb = fc
  .array(fc.record({ c: countsArb, dots: fc.nat(20) }), { maxLength: 30 })
  .map((rows) =>
    rows.map((r, i): RankInput & { id: number } => ({ ...r.c, dots: r.dots, orderIndex: i, id: i })),
  );

describe('prioritize', () => {
  it('sorts by fire warnings, then dots, then needs improvement, then template order', () => {
    const items: (RankInput & { id: string })[] = [
      { id: 'a', ...counts(5, 1, 1), dots: 0, orderIndex: 0 },
      { id: 'b', ...counts(0, 0, 3), dots: 0, orderIndex: 1 },
      { id: 'c', ...counts(0, 0, 1), dots: 4, orderIndex: 2 },
      { id: 'd', ...counts(0, 2, 1), dots: 4, orderIndex: 3 },
      { id: 'e', ...counts(0, 2, 1), dots: 4, orderIndex: 4 },
    ];
    expect(prioritize(items).map((i) => i.id)).toEqual(['b', 'd', 'e', 'c', 'a']);
  });

  it('keeps template order for complete ties and does not mutate its input', () => {
    const items = [2, 0, 1].map((orderIndex) => ({ ...counts(1, 1, 1), dots: 1, orderIndex }));
    const copy = JSON.parse(JSON.stringify(items)) as typeof items;
    expect(prioritize(items).map((i) => i.orderIndex)).toEqual([0, 1, 2]);
    expect(items).toEqual(copy);
  });

  it('is empty for an empty check', () => {
    expect(prioritize([])).toEqual([]);
  });

  it('property: a permutation, ordered by the lexicographic key, independent of input order', () => {
    fc.assert(
      fc.property(rankArb, fc.infiniteStream(fc.nat()), (items, randoms) => {
        const sorted = prioritize(items);
        expect(sorted.map((i) => i.id).sort((a, b) => a - b)).toEqual(items.map((i) => i.id));
        for (let i = 1; i < sorted.length; i += 1) {
          const a = sorted[i - 1]!;
          const b = sorted[i]!;
          const key = (x: RankInput) => [-x.fireWarning, -x.dots, -x.needsImprovement, x.orderIndex];
          const [ka, kb] = [key(a), key(b)];
          const firstDiff = ka.findIndex((v, k) => v !== kb[k]);
          expect(firstDiff).toBeGreaterThanOrEqual(0);
          expect(ka[firstDiff]!).toBeLessThan(kb[firstDiff]!);
        }
        const shuffled = [...items].sort(() => (randoms.next().value % 3) - 1);
        expect(prioritize(shuffled)).toEqual(sorted);
      }),
    );
  });
});

describe('overallHealth', () => {
  it('is No Data without components and No Ratings without votes', () => {
    expect(overallHealth([])).toBe('No Data');
    expect(overallHealth([counts(0, 0, 0), counts(0, 0, 0)])).toBe('No Ratings');
  });

  it.each([
    // [healthy, needs, fire, dontKnow, label] over 10 ratings: the exact thresholds are not "over"
    [0, 7, 3, 0, 'Needs Attention'],
    [0, 6, 4, 0, 'Needs Immediate Attention'],
    [0, 8, 2, 0, 'Mixed Health'],
    [7, 0, 3, 0, 'Needs Attention'],
    [6, 2, 2, 0, 'Mixed Health'],
    [7, 1, 2, 0, 'Mostly Healthy'],
    [6, 3, 1, 0, 'Mixed Health'],
    [7, 3, 0, 0, 'Mostly Healthy'],
    [10, 0, 0, 0, 'Mostly Healthy'],
    [0, 0, 0, 10, 'Mixed Health'],
  ] as const)('healthy %i, needs %i, fire %i, dont-know %i → %s', (h, n, f, d, label) => {
    expect(overallHealth([counts(h, n, f, d)])).toBe(label);
  });

  it("counts don't-know in the shares (PRODUCT-DECISIONS 9)", () => {
    // 3 fire of 10 is exactly 30%: not immediate; one more don't-know lowers it further.
    expect(overallHealth([counts(0, 6, 4, 0)])).toBe('Needs Immediate Attention');
    expect(overallHealth([counts(0, 6, 4, 4)])).toBe('Needs Attention');
    // 7 healthy of 10 is Mostly Healthy; with 2 don't-know it is 7 of 12 (58%).
    expect(overallHealth([counts(7, 3, 0, 0)])).toBe('Mostly Healthy');
    expect(overallHealth([counts(7, 3, 0, 2)])).toBe('Mixed Health');
  });

  it('property: equals the spec rule computed with exact fractions, whatever the split into components', () => {
    fc.assert(
      fc.property(fc.array(countsArb, { minLength: 1, maxLength: 8 }), (components) => {
        const total = components.reduce((s, c) => s + totalOf(c), 0);
        const fire = components.reduce((s, c) => s + c.fireWarning, 0);
        const healthy = components.reduce((s, c) => s + c.healthy, 0);
        const expected =
          total === 0
            ? 'No Ratings'
            : fire / total > 0.3
              ? 'Needs Immediate Attention'
              : fire / total > 0.2
                ? 'Needs Attention'
                : healthy / total > 0.6
                  ? 'Mostly Healthy'
                  : 'Mixed Health';
        // Exact thresholds (e.g. 3/10 in floating point) are checked by the table above; skip float-ambiguous cases.
        const ambiguous = [0.3, 0.2].some((t) => fire * 10 === total * t * 10) || healthy * 10 === total * 6;
        fc.pre(!ambiguous);
        expect(overallHealth(components)).toBe(expected);
        const merged = components.reduce(
          (a, c) =>
            counts(
              a.healthy + c.healthy,
              a.needsImprovement + c.needsImprovement,
              a.fireWarning + c.fireWarning,
              a.dontKnow + c.dontKnow,
            ),
          counts(0, 0, 0, 0),
        );
        expect(overallHealth([merged])).toBe(overallHealth(components));
      }),
    );
  });

  it('property: at every exact threshold the label is the lower one', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), (k) => {
        const total = 10 * k;
        expect(overallHealth([counts(0, total - 3 * k, 3 * k)])).toBe('Needs Attention');
        expect(overallHealth([counts(0, total - 3 * k - 1, 3 * k + 1)])).toBe('Needs Immediate Attention');
        expect(overallHealth([counts(0, total - 2 * k, 2 * k)])).toBe('Mixed Health');
        expect(overallHealth([counts(0, total - 2 * k - 1, 2 * k + 1)])).toBe('Needs Attention');
        expect(overallHealth([counts(6 * k, total - 6 * k, 0)])).toBe('Mixed Health');
        expect(overallHealth([counts(6 * k + 1, total - 6 * k - 1, 0)])).toBe('Mostly Healthy');
      }),
    );
  });
});

describe('componentTrend', () => {
  it('is null when either side has no ratings', () => {
    expect(componentTrend(counts(0, 0, 0), counts(1, 0, 0))).toBeNull();
    expect(componentTrend(counts(1, 0, 0), counts(0, 0, 0))).toBeNull();
  });

  it('compares healthy minus fire-warning shares, with a 5-point tolerance', () => {
    expect(componentTrend(counts(8, 2, 0), counts(2, 2, 6))).toBe('better');
    expect(componentTrend(counts(2, 2, 6), counts(8, 2, 0))).toBe('worse');
    // 50% → 55%: exactly 5 points is 'same'; 6 points is 'better'.
    expect(componentTrend(counts(11, 9, 0), counts(10, 10, 0))).toBe('same');
    expect(componentTrend(counts(28, 22, 0), counts(11, 14, 0))).toBe('better');
  });

  it('property: antisymmetric, and the same counts are always same', () => {
    fc.assert(
      fc.property(countsArb, countsArb, (a, b) => {
        const forward = componentTrend(a, b);
        const backward = componentTrend(b, a);
        const flip = { better: 'worse', worse: 'better', same: 'same' } as const;
        expect(backward).toBe(forward === null ? null : flip[forward]);
        if (totalOf(a) > 0) expect(componentTrend(a, a)).toBe('same');
      }),
    );
  });
});

describe('distributionBar', () => {
  it("leaves don't-know out and sums to 100", () => {
    expect(distributionBar(counts(1, 1, 1, 5))).toEqual({
      healthy: 34,
      needsImprovement: 33,
      fireWarning: 33,
    });
    expect(distributionBar(counts(0, 0, 0, 5))).toEqual({ healthy: 0, needsImprovement: 0, fireWarning: 0 });
  });

  it('property: whole percentages summing to 100, each within one point of the exact share', () => {
    fc.assert(
      fc.property(countsArb, (c) => {
        const bar = distributionBar(c);
        const rated = c.healthy + c.needsImprovement + c.fireWarning;
        if (rated === 0) return;
        expect(bar.healthy + bar.needsImprovement + bar.fireWarning).toBe(100);
        expect(Math.abs(bar.healthy - (c.healthy * 100) / rated)).toBeLessThan(1);
        expect(Math.abs(bar.fireWarning - (c.fireWarning * 100) / rated)).toBeLessThan(1);
      }),
    );
  });
});
