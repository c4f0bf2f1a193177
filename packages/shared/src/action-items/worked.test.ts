import { describe, expect, it } from 'vitest';
import { followUpCounted, poolWorked, shareOf, workedFigures, type WorkedAction } from './worked';

const counts = (yes: number, partly: number, no: number, tooEarly = 0) => ({
  yes,
  partly,
  no,
  'too-early': tooEarly,
});
const ratings = (healthy: number, needsImprovement: number, fireWarning: number) => ({
  healthy,
  needsImprovement,
  fireWarning,
  dontKnow: 0,
});
const action = (over: Partial<WorkedAction> = {}): WorkedAction => ({
  asked: true,
  checkShown: true,
  floor: 3,
  counts: counts(2, 1, 1),
  before: ratings(0, 3, 0),
  after: ratings(3, 0, 0),
  ...over,
});

describe('actions that worked', () => {
  it('counts a question only when its check shows and at least the floor answered it', () => {
    expect(followUpCounted(action())).toBe(true);
    expect(followUpCounted(action({ counts: counts(1, 1, 0) }))).toBe(false);
    expect(followUpCounted(action({ counts: counts(1, 1, 0, 1) }))).toBe(true);
    expect(followUpCounted(action({ floor: 5 }))).toBe(false);
    expect(followUpCounted(action({ checkShown: false }))).toBe(false);
    expect(followUpCounted(action({ counts: null }))).toBe(false);
  });

  it('sums a team: done, asked, answers that reach the floor, and components compared on both sides', () => {
    const figures = workedFigures([
      action(),
      // Too few answers: its answers count nowhere, its component's change still does.
      action({ counts: counts(1, 0, 0), before: ratings(3, 0, 0), after: ratings(0, 0, 3) }),
      // The origin check does not show the component: not compared.
      action({ before: null }),
      // Done but never asked (e.g. done before done dates were recorded): counted as done only.
      action({ asked: false, counts: null, before: null, after: null }),
    ]);
    expect(figures).toEqual({ done: 4, asked: 3, answered: 8, worked: 6, compared: 2, improved: 1 });
    expect(shareOf(figures.worked, figures.answered)).toBe(75);
    expect(shareOf(figures.improved, figures.compared)).toBe(50);
    expect(workedFigures([])).toEqual({
      done: 0,
      asked: 0,
      answered: 0,
      worked: 0,
      compared: 0,
      improved: 0,
    });
  });

  it('pools the organisation from the team figures only, so subtracting teams leaves sums of shown figures', () => {
    const a = workedFigures([action()]);
    const b = workedFigures([action({ counts: counts(0, 0, 3) })]);
    // A team whose only question is under the floor adds answers to nothing.
    const hidden = workedFigures([action({ counts: counts(1, 0, 0) })]);
    const org = poolWorked([a, b, hidden]);
    expect(org.answered - a.answered - b.answered).toBe(hidden.answered);
    expect(hidden.answered).toBe(0);
    expect(org).toMatchObject({ done: 3, answered: 7, worked: 3 });
  });

  it('has no share without anything to divide', () => {
    expect(shareOf(0, 0)).toBeNull();
    expect(shareOf(1, 3)).toBe(33);
  });
});
