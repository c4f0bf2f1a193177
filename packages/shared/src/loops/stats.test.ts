import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { english } from '../i18n/english.test-support';
import {
  CHANGE_LABELS,
  changeLabel,
  consecutiveChanges,
  countsByValue,
  enpsChange,
  enpsGroups,
  enpsSummary,
  participationChange,
  responseRate,
  roundRatio,
  scaleChange,
  scaleSummary,
  shares,
  type EnpsGroups,
} from './stats';

describe('rounding', () => {
  it('rounds half away from zero, exactly, like PostgreSQL round(numeric)', () => {
    expect(roundRatio(5, 2)).toBe(3);
    expect(roundRatio(-5, 2)).toBe(-3);
    expect(roundRatio(1, 3)).toBe(0);
    expect(roundRatio(2, 3)).toBe(1);
    expect(roundRatio(-2, 3)).toBe(-1);
    expect(roundRatio(0, 7)).toBe(0);
    expect(() => roundRatio(1, 0)).toThrow(RangeError);
  });

  it('agrees with the decimal definition for any integers (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e6, max: 1e6 }), fc.integer({ min: 1, max: 1e5 }), (num, den) => {
        const result = roundRatio(num, den);
        // |num/den - result| <= 1/2, and exactly 1/2 only when rounding away from zero.
        const twice = 2 * (num - result * den);
        expect(Math.abs(twice)).toBeLessThanOrEqual(den);
        if (Math.abs(twice) === den) expect(Math.sign(result)).toBe(Math.sign(num));
      }),
    );
  });
});

describe('response rate', () => {
  it('is the rounded percentage of the audience that answered', () => {
    expect(responseRate(23, 40)).toBe(58);
    expect(responseRate(1, 3)).toBe(33);
    expect(responseRate(0, 0)).toBe(0);
    expect(responseRate(10, 10)).toBe(100);
  });
});

describe('scale questions', () => {
  it('turns grouped SQL rows into counts per value', () => {
    expect(
      countsByValue(
        [
          { value: 5, count: 2 },
          { value: 1, count: 1 },
        ],
        1,
        5,
      ),
    ).toEqual([1, 0, 0, 0, 2]);
    expect(() => countsByValue([{ value: 6, count: 1 }], 1, 5)).toThrow(RangeError);
  });

  it('gives the distribution and the mean with one decimal', () => {
    expect(scaleSummary([0, 0, 0, 0, 0])).toEqual({ answers: 0, counts: [0, 0, 0, 0, 0], mean: null });
    expect(scaleSummary([1, 0, 0, 0, 1]).mean).toBe(3);
    expect(scaleSummary([1, 2, 0, 0, 0]).mean).toBe(1.7); // 5/3
    expect(scaleSummary([0, 3, 1, 0, 0]).mean).toBe(2.3); // 2.25, half away from zero
    expect(scaleSummary([0, 1, 1, 0, 0]).mean).toBe(2.5);
    expect(scaleSummary([0, 0, 0, 4, 7])).toMatchObject({ answers: 11, mean: 4.6 });
    expect(() => scaleSummary([1, 2, 3])).toThrow(RangeError);
    expect(() => scaleSummary([1, 2, 3, 4, -1])).toThrow(RangeError);
  });

  it('gives each bar its share in percent', () => {
    expect(shares([1, 0, 0, 0, 2])).toEqual([33, 0, 0, 0, 67]);
    expect(shares([0, 0, 0, 0, 0])).toEqual([0, 0, 0, 0, 0]);
  });
});

describe('eNPS', () => {
  it('groups 0–6 as detractors, 7–8 as passives, 9–10 as promoters', () => {
    expect(enpsGroups([1, 1, 1, 1, 1, 1, 1, 2, 2, 3, 3])).toEqual({
      detractors: 7,
      passives: 4,
      promoters: 6,
    });
    expect(() => enpsGroups([1, 2, 3])).toThrow(RangeError);
  });

  it('is % promoters minus % detractors, a whole number from −100 to +100', () => {
    expect(enpsSummary({ promoters: 5, passives: 3, detractors: 2 })).toEqual({
      promoters: 5,
      passives: 3,
      detractors: 2,
      answers: 10,
      score: 30,
    });
    expect(enpsSummary({ promoters: 4, passives: 0, detractors: 0 }).score).toBe(100);
    expect(enpsSummary({ promoters: 0, passives: 0, detractors: 4 }).score).toBe(-100);
    expect(enpsSummary({ promoters: 0, passives: 0, detractors: 0 }).score).toBeNull();
    // ±12.5 round away from zero.
    expect(enpsSummary({ promoters: 1, passives: 7, detractors: 0 }).score).toBe(13);
    expect(enpsSummary({ promoters: 0, passives: 7, detractors: 1 }).score).toBe(-13);
  });

  it('stays within −100..100 and matches the definition (property)', () => {
    const count = fc.integer({ min: 0, max: 5000 });
    fc.assert(
      fc.property(count, count, count, (promoters, passives, detractors) => {
        const { score, answers } = enpsSummary({ promoters, passives, detractors });
        if (answers === 0) return expect(score).toBeNull();
        expect(score).toBeGreaterThanOrEqual(-100);
        expect(score).toBeLessThanOrEqual(100);
        const exact = (100 * (promoters - detractors)) / answers;
        expect(Math.abs((score ?? 0) - exact)).toBeLessThanOrEqual(0.5);
      }),
    );
  });
});

describe('real change or normal variation', () => {
  it('compares nothing below the minimum responses, or below 3 answers', () => {
    expect(scaleChange([0, 0, 3, 0, 0], [0, 0, 0, 0, 3], 5)).toBeNull();
    expect(scaleChange([0, 0, 2, 0, 0], [0, 0, 0, 0, 2], 1)).toBeNull();
    const few: EnpsGroups = { promoters: 1, passives: 0, detractors: 1 };
    expect(enpsChange(few, { promoters: 2, passives: 0, detractors: 0 }, 1)).toBeNull();
    expect(changeLabel(null)).toBe(CHANGE_LABELS.none);
  });

  it('calls a scale change real when the means differ by more than 1.96 × √(s₁²/n₁ + s₂²/n₂)', () => {
    // Means 3 and 4, each with sample variance 4/7 over 8 answers: margin 1.96 × √(2 × 4/7 / 8) ≈ 0.741.
    const change = scaleChange([0, 2, 4, 2, 0], [0, 0, 2, 4, 2], 3);
    expect(change?.change).toBeCloseTo(1, 10);
    expect(change?.margin).toBeCloseTo(1.96 * Math.sqrt((2 * 4) / 7 / 8), 10);
    expect(change?.real).toBe(true);
    expect(english.say(changeLabel(change))).toBe('Real change');
    // The same shift with a wide spread is noise.
    const wide = scaleChange([2, 1, 2, 1, 2], [1, 1, 2, 2, 2], 3);
    expect(wide?.real).toBe(false);
    expect(english.say(changeLabel(wide))).toBe('Within normal variation');
  });

  it('does not let a spread of zero make one person moving one point a real change', () => {
    // Three people all say 4, then one or two of them say 5: the variance floor (1/n) keeps it within noise
    // (without it, the first round's spread of zero would call two people moving one point a real change).
    expect(scaleChange([0, 0, 0, 3, 0], [0, 0, 0, 2, 1], 3)?.real).toBe(false);
    const two = scaleChange([0, 0, 0, 3, 0], [0, 0, 0, 1, 2], 3);
    expect(two?.margin).toBeCloseTo(1.96 * Math.sqrt(1 / 9 + 1 / 9), 10);
    expect(two?.real).toBe(false);
    // Everyone moving a full point is still a real change.
    expect(scaleChange([0, 0, 0, 3, 0], [0, 0, 0, 0, 3], 3)?.real).toBe(true);
    // Nothing changed at all: never real.
    expect(scaleChange([0, 0, 0, 3, 0], [0, 0, 0, 3, 0], 3)).toMatchObject({ change: 0, real: false });
  });

  it('is symmetric: swapping the rounds negates the change and keeps the verdict (property)', () => {
    const counts = fc.array(fc.integer({ min: 0, max: 40 }), { minLength: 5, maxLength: 5 });
    fc.assert(
      fc.property(counts, counts, (a, b) => {
        const forward = scaleChange(a, b, 3);
        const backward = scaleChange(b, a, 3);
        if (forward === null) return expect(backward).toBeNull();
        expect(backward?.change).toBeCloseTo(-forward.change, 10);
        expect(backward?.margin).toBeCloseTo(forward.margin, 10);
        expect(backward?.real).toBe(forward.real);
        expect(forward.margin).toBeGreaterThan(0);
      }),
    );
  });

  it('compares eNPS through the variance of the +1/0/−1 scores', () => {
    const before = { promoters: 2, passives: 2, detractors: 6 }; // −40
    const after = { promoters: 6, passives: 2, detractors: 2 }; // +40
    // Sample variance of the scores: (8 − 10 × 0.16) / 9 on both sides.
    const variance = (8 - 10 * 0.16) / 9;
    const change = enpsChange(before, after, 3);
    expect(change?.change).toBeCloseTo(80, 10);
    expect(change?.margin).toBeCloseTo(100 * 1.96 * Math.sqrt((2 * variance) / 10), 10);
    expect(change?.real).toBe(true);
    expect(enpsChange(before, { promoters: 3, passives: 2, detractors: 5 }, 3)?.real).toBe(false);
    // Every answer a promoter twice: no change, and no division by a zero spread.
    const all = { promoters: 5, passives: 0, detractors: 0 };
    expect(enpsChange(all, all, 3)).toMatchObject({ change: 0, real: false });
  });

  it('compares participation by the two-proportion z-test', () => {
    const halved = participationChange({ answered: 10, audience: 10 }, { answered: 5, audience: 10 });
    expect(halved?.change).toBeCloseTo(-50, 10);
    expect(halved?.margin).toBeCloseTo(100 * 1.96 * Math.sqrt(0.75 * 0.25 * 0.2), 10);
    expect(halved?.real).toBe(true);
    expect(participationChange({ answered: 8, audience: 10 }, { answered: 7, audience: 10 })?.real).toBe(
      false,
    );
    expect(participationChange({ answered: 10, audience: 10 }, { answered: 10, audience: 10 })).toEqual({
      change: 0,
      margin: 0,
      real: false,
    });
    expect(participationChange({ answered: 0, audience: 0 }, { answered: 1, audience: 2 })).toBeNull();
  });

  it('flags about 5% of changes as real when nothing changed (simulation)', () => {
    // Deterministic pseudo-random rounds drawn from one unchanging team (measured: 4.2%, 5.5% and 5.0%).
    let seed = 12345;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const draw = (weights: number[], n: number) => {
      const counts = weights.map(() => 0);
      const total = weights.reduce((a, b) => a + b, 0);
      for (let i = 0; i < n; i += 1) {
        let pick = random() * total;
        const index = weights.findIndex((weight) => (pick -= weight) < 0);
        const at = index === -1 ? weights.length - 1 : index;
        counts[at] = (counts[at] ?? 0) + 1;
      }
      return counts;
    };
    const trials = 2000;
    let scaleReal = 0;
    let enpsReal = 0;
    let participationReal = 0;
    for (let t = 0; t < trials; t += 1) {
      if (scaleChange(draw([1, 2, 4, 5, 3], 30), draw([1, 2, 4, 5, 3], 30), 3)?.real) scaleReal += 1;
      const [p1, pa1, d1] = draw([4, 3, 3], 30);
      const [p2, pa2, d2] = draw([4, 3, 3], 30);
      const groups = (p = 0, pa = 0, d = 0) => ({ promoters: p, passives: pa, detractors: d });
      if (enpsChange(groups(p1, pa1, d1), groups(p2, pa2, d2), 3)?.real) enpsReal += 1;
      const [a1] = draw([7, 3], 40);
      const [a2] = draw([7, 3], 40);
      if (
        participationChange({ answered: a1 ?? 0, audience: 40 }, { answered: a2 ?? 0, audience: 40 })?.real
      ) {
        participationReal += 1;
      }
    }
    for (const real of [scaleReal, enpsReal, participationReal]) {
      expect(real / trials).toBeGreaterThan(0.02);
      expect(real / trials).toBeLessThan(0.09);
    }
    // And a real shift of the team is seen most of the time.
    let seen = 0;
    for (let t = 0; t < 200; t += 1) {
      if (scaleChange(draw([1, 2, 4, 5, 3], 30), draw([0, 0, 2, 5, 8], 30), 3)?.real) seen += 1;
    }
    expect(seen / 200).toBeGreaterThan(0.8);
  });

  it('compares each round with the one before it', () => {
    const rounds = [
      { answered: 10, audience: 10 },
      { answered: 5, audience: 10 },
      { answered: 5, audience: 10 },
    ];
    const changes = consecutiveChanges(rounds, participationChange);
    expect(changes.map(changeLabel)).toEqual([CHANGE_LABELS.none, CHANGE_LABELS.real, CHANGE_LABELS.normal]);
  });
});
