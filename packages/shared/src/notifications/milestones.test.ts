import { describe, expect, it } from 'vitest';
import { inEnglish, sayInEnglish } from './notices.test-support';

/** A notice's message in English (the server says it in each recipient's language). */
const say = (message: string | undefined) => (message === undefined ? null : sayInEnglish(message));
import {
  freshMilestones,
  milestoneKey,
  milestoneNotice,
  reachedMilestones,
  type Milestone,
  type TeamCompletion,
} from './milestones';

/**
 * Replays a check: `steps` are 'join' (one more participant) or 'complete' (one more completes). Returns what
 * fired at each completion, recording keys once as the server does.
 */
function replay(steps: ('join' | 'complete')[], minResponses: number, title = 'Check') {
  const recorded = new Set<string>();
  const team: TeamCompletion = { completed: 0, total: 0, minResponses };
  const fired: { at: string; milestones: Milestone[]; message: string | null }[] = [];
  for (const step of steps) {
    if (step === 'join') {
      team.total += 1;
      continue;
    }
    team.completed += 1;
    const fresh = freshMilestones(recorded, team);
    for (const m of fresh) recorded.add(milestoneKey(m, minResponses));
    fired.push({
      at: `${team.completed} of ${team.total}`,
      milestones: fresh,
      message: say(milestoneNotice(fresh, { ...team, title })?.message),
    });
  }
  return fired;
}

/** A team of `size` that joins first, then completes one by one. */
const team = (size: number, minResponses: number) =>
  replay([...Array<'join'>(size).fill('join'), ...Array<'complete'>(size).fill('complete')], minResponses);

/** How often each milestone fired over the replay. */
const counts = (fired: ReturnType<typeof replay>) => {
  const all = fired.flatMap((f) => f.milestones);
  return {
    half: all.filter((m) => m === 'half').length,
    enough: all.filter((m) => m === 'enough').length,
    all: all.filter((m) => m === 'all').length,
  };
};

describe('reachedMilestones', () => {
  it('reaches nothing before anyone has completed, or without a team', () => {
    expect(reachedMilestones({ completed: 0, total: 3, minResponses: 1 })).toEqual([]);
    expect(reachedMilestones({ completed: 0, total: 0, minResponses: 1 })).toEqual([]);
  });

  it('counts half as at least half of the team, rounding up for odd teams', () => {
    const half = (completed: number, total: number) =>
      reachedMilestones({ completed, total, minResponses: 99 }).includes('half');
    expect([
      half(1, 1),
      half(1, 2),
      half(1, 3),
      half(2, 3),
      half(1, 4),
      half(2, 4),
      half(2, 5),
      half(3, 5),
    ]).toEqual([true, true, false, true, false, true, false, true]);
  });

  it('reaches enough at minResponses, and all only when every participant has completed and the threshold is met', () => {
    expect(reachedMilestones({ completed: 2, total: 2, minResponses: 3 })).toEqual(['half']);
    expect(reachedMilestones({ completed: 3, total: 5, minResponses: 3 })).toEqual(['half', 'enough']);
    expect(reachedMilestones({ completed: 5, total: 5, minResponses: 3 })).toEqual(['half', 'enough', 'all']);
  });
});

describe('milestones fire once each, for every team size', () => {
  it('one participant: one notice, everyone has completed', () => {
    expect(team(1, 1)).toEqual([
      {
        at: '1 of 1',
        milestones: ['half', 'enough', 'all'],
        message: 'All participants have completed "Check" (1 of 1)',
      },
    ]);
  });

  it('one participant below the threshold: nothing is said of everyone (PRODUCT-DECISIONS 1)', () => {
    expect(team(1, 3)).toEqual([
      {
        at: '1 of 1',
        milestones: ['half'],
        message: 'At least half of the participants have completed "Check" (1 of 1)',
      },
    ]);
  });

  it('two participants: half at the first, all at the second', () => {
    expect(team(2, 3).map((f) => [f.at, f.message])).toEqual([
      ['1 of 2', 'At least half of the participants have completed "Check" (1 of 2)'],
      ['2 of 2', null],
    ]);
    expect(team(2, 2).map((f) => f.milestones)).toEqual([['half'], ['enough', 'all']]);
  });

  it('three participants: nothing at one, half at two, all at three', () => {
    expect(team(3, 3).map((f) => [f.at, f.milestones])).toEqual([
      ['1 of 3', []],
      ['2 of 3', ['half']],
      ['3 of 3', ['enough', 'all']],
    ]);
    expect(team(3, 3)[2]?.message).toBe('All participants have completed "Check" (3 of 3)');
  });

  it('larger teams: half, enough and all once each, each in its own notice where they differ', () => {
    const ten = team(10, 3);
    expect(ten.filter((f) => f.milestones.length > 0).map((f) => [f.at, f.milestones])).toEqual([
      ['3 of 10', ['enough']],
      ['5 of 10', ['half']],
      ['10 of 10', ['all']],
    ]);
    expect(ten[2]?.message).toBe('"Check" has enough completed responses to start voting (3 of 10)');
    expect(ten[4]?.message).toBe('At least half of the participants have completed "Check" (5 of 10)');
    for (const size of [1, 2, 3, 4, 5, 7, 10, 51]) {
      for (const minResponses of [1, 3, 50]) {
        expect(counts(team(size, minResponses))).toEqual({
          half: 1,
          enough: minResponses <= size ? 1 : 0,
          all: minResponses <= size ? 1 : 0,
        });
      }
    }
  });

  it('does not announce a milestone again when the team grows after it', () => {
    // One joins and completes (half of 1; below the threshold, not all), two more join: half is not repeated;
    // enough and all come together at 3.
    const fired = replay(['join', 'complete', 'join', 'join', 'complete', 'complete'], 3);
    expect(fired.map((f) => [f.at, f.milestones])).toEqual([
      ['1 of 1', ['half']],
      ['2 of 3', []],
      ['3 of 3', ['enough', 'all']],
    ]);
    expect(fired[2]?.message).toBe('All participants have completed "Check" (3 of 3)');
    // A threshold raised after everyone had completed: enough at the new threshold, with everyone done, says so.
    const raised = replay(['join', 'complete'], 1);
    expect(raised[0]?.milestones).toEqual(['half', 'enough', 'all']);
    expect(
      say(
        milestoneNotice(
          freshMilestones(new Set(['half', 'all', 'enough:1']), { completed: 2, total: 2, minResponses: 2 }),
          {
            completed: 2,
            total: 2,
            minResponses: 2,
            title: 'Check',
          },
        )?.message,
      ),
    ).toBe('All participants have completed "Check" (2 of 2)');
    const later = replay(['join', 'complete', 'join', 'join', 'join', 'complete', 'complete'], 3);
    expect(later[2]?.message).toBe('"Check" has enough completed responses to start voting (3 of 4)');
  });

  it('records enough per threshold, since the threshold may still rise', () => {
    expect(milestoneKey('enough', 3)).toBe('enough:3');
    expect(milestoneKey('half', 3)).toBe('half');
    const recorded = new Set([milestoneKey('enough', 3)]);
    expect(freshMilestones(recorded, { completed: 4, total: 9, minResponses: 4 })).toEqual(['enough']);
    expect(freshMilestones(recorded, { completed: 4, total: 9, minResponses: 3 })).toEqual([]);
  });
});

describe('milestoneNotice', () => {
  it('is null when nothing fired, and says counts only', () => {
    expect(milestoneNotice([], { completed: 1, total: 3, minResponses: 1, title: 'T' })).toBeNull();
    const notice = milestoneNotice(['half'], { completed: 2, total: 4, minResponses: 1, title: 'T' });
    expect(notice && inEnglish(notice)).toEqual({
      type: 'completion-milestone',
      message: 'At least half of the participants have completed "T" (2 of 4)',
    });
  });

  it('is all-completed when everyone has completed, so its own settings (e-mail) apply', () => {
    expect(
      milestoneNotice(['half', 'all'], { completed: 2, total: 2, minResponses: 1, title: 'T' })?.type,
    ).toBe('all-completed');
  });
});
