import { describe, expect, it } from 'vitest';
import { cellCounts, cellLabel, healthScore, periodStart, privacyFloor, sortTeams, sumCounts } from './rules';

const counts = (healthy: number, needsImprovement: number, fireWarning: number, dontKnow = 0) => ({
  healthy,
  needsImprovement,
  fireWarning,
  dontKnow,
});

describe('organisation insights rules', () => {
  it('never lets the floor go under 3, and keeps a stricter team minimum', () => {
    expect(privacyFloor(1)).toBe(3);
    expect(privacyFloor(3)).toBe(3);
    expect(privacyFloor(7)).toBe(7);
  });

  it('scores health as healthy minus fire warnings, in points over all ratings', () => {
    expect(healthScore(counts(0, 0, 0))).toBeNull();
    expect(healthScore(counts(3, 0, 0))).toBe(100);
    expect(healthScore(counts(0, 0, 3))).toBe(-100);
    expect(healthScore(counts(1, 1, 0, 1))).toBe(33.3);
  });

  it('sums counts and reads a cell tuple', () => {
    expect(sumCounts([counts(1, 2, 3, 4), counts(1, 1, 1, 1)])).toEqual(counts(2, 3, 4, 5));
    expect(cellCounts([1, 2, 3, 4, 'better'])).toEqual(counts(1, 2, 3, 4));
    expect(cellLabel(counts(0, 1, 3))).toBe('Needs Immediate Attention');
  });

  it('starts a period that many days back, and all time nowhere', () => {
    const now = new Date('2026-11-25T12:00:00Z');
    expect(periodStart('90d', now)?.toISOString()).toBe('2026-08-27T12:00:00.000Z');
    expect(periodStart('all', now)).toBeNull();
  });

  it('orders teams weakest or falling most first, without figures last, ties by name', () => {
    const teams = [
      { name: 'B', score: 50, change: null },
      { name: 'A', score: 50, change: -10 },
      { name: 'C', score: -20, change: 5 },
      { name: 'D', score: null, change: -30 },
    ];
    expect(sortTeams(teams, 'health').map((t) => t.name)).toEqual(['C', 'A', 'B', 'D']);
    expect(sortTeams(teams, 'trend').map((t) => t.name)).toEqual(['D', 'A', 'C', 'B']);
    expect(sortTeams(teams, 'name').map((t) => t.name)).toEqual(['A', 'B', 'C', 'D']);
  });
});
