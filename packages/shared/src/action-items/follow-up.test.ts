import { describe, expect, it } from 'vitest';
import {
  FOLLOW_UP_ANSWER_LABELS,
  FOLLOW_UP_ANSWERS,
  actionsToAsk,
  actionsToAskInRound,
  componentHealth,
  emptyFollowUpCounts,
  followUpPercentages,
  followUpQuestion,
  followUpReleased,
  healthChange,
  healthChangeWords,
} from './follow-up';
import { compileCatalogue } from '../i18n/compile';
import { Translator } from '../i18n/translate';
import actionItemWords from '../../messages/en/actionItems.json';
import participationWords from '../../messages/en/participation.json';

/** The shared catalogue's English words of this area (and the ratings' names). */
const english = new Translator('en', compileCatalogue({ ...actionItemWords, ...participationWords }, 'en'));

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

describe('which done actions a loop round asks about (Follow-up on actions)', () => {
  const since = new Date('2027-02-20T10:00:00Z');
  const openAt = new Date('2027-02-27T10:00:00Z');

  it('asks about actions done since the previous round, with or without a component, in the order given', () => {
    const actions = [
      action({ id: 'with-component', completedAt: '2027-02-21T10:00:00Z' }),
      action({ id: 'without', componentKey: null, completedAt: '2027-02-22T10:00:00Z' }),
      action({ id: 'at-opening', completedAt: openAt.toISOString() }),
    ];
    expect(actionsToAskInRound(actions, { since, openAt }).map((a) => a.id)).toEqual([
      'with-component',
      'without',
      'at-opening',
    ]);
  });

  it('leaves out actions not done, without a done date, done before or at the previous round, after the opening, or asked', () => {
    const actions = [
      action({ id: 'pending', status: 'pending', completedAt: null }),
      action({ id: 'no-date', completedAt: null }),
      action({ id: 'at-previous', completedAt: since.toISOString() }),
      action({ id: 'before', completedAt: '2027-02-01T10:00:00Z' }),
      action({ id: 'after', completedAt: '2027-02-27T10:00:01Z' }),
      action({ id: 'asked', asked: true, completedAt: '2027-02-21T10:00:00Z' }),
    ];
    expect(actionsToAskInRound(actions, { since, openAt })).toEqual([]);
  });
});

describe('the question and its answers', () => {
  it('asks without a component when the action has none (a loop round)', () => {
    expect(followUpQuestion('Shorter stand-ups', null, english)).toBe('Did "Shorter stand-ups" help?');
  });

  it('has the product’s words', () => {
    expect(followUpQuestion('Write down decisions', 'Teamwork', english)).toBe(
      'Did "Write down decisions" help with Teamwork?',
    );
    expect(FOLLOW_UP_ANSWERS.map((a) => english.t(FOLLOW_UP_ANSWER_LABELS[a]))).toEqual([
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
    expect(healthChangeWords('Needs Improvement', 'Healthy', english)).toBe(
      'improved from Needs Improvement to Healthy',
    );
    expect(healthChangeWords('Healthy', 'Healthy', english)).toBe('stayed Healthy');
    expect(healthChangeWords('Healthy', 'Fire Warning', english)).toBe(
      'worsened from Healthy to Fire Warning',
    );
    expect(healthChange(null, 'Healthy')).toBeNull();
    expect(healthChangeWords('Healthy', null, english)).toBe(
      'No comparison: the component has no ratings on one side',
    );
  });
});
