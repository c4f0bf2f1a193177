import { describe, expect, it } from 'vitest';
import {
  FOLLOW_UP_ANSWER_LABELS,
  FOLLOW_UP_ANSWERS,
  actionsToAsk,
  componentHealth,
  emptyFollowUpCounts,
  followUpPercentages,
  followUpQuestion,
  followUpReleased,
  healthChange,
  healthChangeWords,
} from './follow-up';

const launchAt = new Date('2027-03-01T10:00:00Z');
const action = (over: Partial<Parameters<typeof actionsToAsk>[0][number]> = {}) => ({
  id: 'a',
  status: 'completed',
  completedAt: '2027-02-01T10:00:00Z',
  componentKey: 'c1',
  asked: false,
  ...over,
});

describe('which done actions a new check asks about', () => {
  it('asks about a done action tied to one of the check’s components', () => {
    expect(actionsToAsk([action()], { componentKeys: ['c1', 'c2'], launchAt }).map((a) => a.id)).toEqual([
      'a',
    ]);
  });

  it('leaves out actions not done, done after the launch, without or outside the components', () => {
    const actions = [
      action({ id: 'pending', status: 'pending', completedAt: null }),
      action({ id: 'in-progress', status: 'in-progress', completedAt: null }),
      action({ id: 'later', completedAt: '2027-03-01T10:00:01Z' }),
      action({ id: 'no-component', componentKey: null }),
      action({ id: 'other', componentKey: 'c9' }),
      action({ id: 'exactly-at-launch', completedAt: launchAt.toISOString() }),
    ];
    expect(actionsToAsk(actions, { componentKeys: ['c1'], launchAt }).map((a) => a.id)).toEqual([
      'exactly-at-launch',
    ]);
  });

  it('asks once per action, and not about those the facilitator left out', () => {
    const actions = [action({ id: 'asked', asked: true }), action({ id: 'left' }), action({ id: 'kept' })];
    expect(
      actionsToAsk(actions, { componentKeys: ['c1'], launchAt, leaveOut: ['left'] }).map((a) => a.id),
    ).toEqual(['kept']);
  });
});

describe('the question and its answers', () => {
  it('has the product’s words', () => {
    expect(followUpQuestion('Write down decisions', 'Teamwork')).toBe(
      'Did "Write down decisions" help with Teamwork?',
    );
    expect(FOLLOW_UP_ANSWERS.map((a) => FOLLOW_UP_ANSWER_LABELS[a])).toEqual([
      'Yes',
      'Partly',
      'No',
      'Too early to say',
    ]);
  });
});

describe('release of the answers', () => {
  it('follows the ratings: nothing while collecting, below the minimum or not released', () => {
    expect(followUpReleased('released', 3, 3)).toBe(true);
    expect(followUpReleased('collecting', 40, 3)).toBe(false);
    expect(followUpReleased('below-threshold', 3, 3)).toBe(false);
    expect(followUpReleased('not-released', 3, 3)).toBe(false);
    expect(followUpReleased('withheld', 3, 3)).toBe(false);
  });

  it('shows nothing while fewer than the minimum answered the question', () => {
    expect(followUpReleased('released', 2, 3)).toBe(false);
  });

  it('gives whole percentages summing to 100', () => {
    expect(followUpPercentages({ yes: 1, partly: 1, no: 1, 'too-early': 0 })).toEqual({
      yes: 34,
      partly: 33,
      no: 33,
      'too-early': 0,
    });
    expect(followUpPercentages(emptyFollowUpCounts())).toEqual(emptyFollowUpCounts());
  });
});

describe('the change in words', () => {
  const counts = (healthy: number, needsImprovement: number, fireWarning: number, dontKnow = 0) => ({
    healthy,
    needsImprovement,
    fireWarning,
    dontKnow,
  });

  it('takes the rating most gave, a tie going to the worse, don’t-know left out', () => {
    expect(componentHealth(counts(3, 1, 0))).toBe('Healthy');
    expect(componentHealth(counts(2, 2, 0))).toBe('Needs Improvement');
    expect(componentHealth(counts(1, 1, 1))).toBe('Fire Warning');
    expect(componentHealth(counts(0, 1, 0, 9))).toBe('Needs Improvement');
    expect(componentHealth(counts(0, 0, 0, 4))).toBeNull();
  });

  it('says improved, stayed or worsened', () => {
    expect(healthChange('Needs Improvement', 'Healthy')).toBe('improved');
    expect(healthChangeWords('Needs Improvement', 'Healthy')).toBe(
      'improved from Needs Improvement to Healthy',
    );
    expect(healthChangeWords('Healthy', 'Healthy')).toBe('stayed Healthy');
    expect(healthChangeWords('Healthy', 'Fire Warning')).toBe('worsened from Healthy to Fire Warning');
    expect(healthChange(null, 'Healthy')).toBeNull();
    expect(healthChangeWords('Healthy', null)).toBe(
      'No comparison: the component has no ratings on one side',
    );
  });
});
