import { describe, expect, it } from 'vitest';
import { english } from '../i18n/english.test-support';
import { dotsVisible, missingResponses, releaseMessage, releaseState } from './release';

/** A message in English. */
const say = (message: string) => english.say(message);

describe('release rules', () => {
  it('counts the missing responses', () => {
    expect(missingResponses(1, 3)).toBe(2);
    expect(missingResponses(3, 3)).toBe(0);
    expect(missingResponses(5, 3)).toBe(0);
  });

  const base = {
    phase: 'vote',
    manages: false,
    completed: 3,
    minResponses: 3,
    participantStatus: 'completed',
    showResultsAfterVoting: true,
  };

  it('shows nobody, managers included, any figure while the check collects', () => {
    for (const manages of [true, false]) {
      expect(releaseState({ ...base, phase: 'collect', manages, completed: 40 })).toBe('collecting');
    }
  });

  it('keeps figures below the threshold hidden from everyone once collection ended', () => {
    expect(releaseState({ ...base, manages: true, completed: 2 })).toBe('below-threshold');
    expect(releaseState({ ...base, phase: 'summarize', completed: 2 })).toBe('below-threshold');
  });

  it('releases to managers and to participants who completed, when collection ended', () => {
    for (const phase of ['vote', 'summarize', 'plan']) {
      expect(releaseState({ ...base, phase, manages: true, participantStatus: null })).toBe('released');
      expect(releaseState({ ...base, phase })).toBe('released');
      expect(releaseState({ ...base, phase, participantStatus: 'in_progress' })).toBe('not-released');
      expect(releaseState({ ...base, phase, showResultsAfterVoting: false })).toBe('withheld');
      expect(releaseState({ ...base, phase, manages: true, showResultsAfterVoting: false })).toBe('released');
    }
  });

  it('shows dot totals only once voting has ended', () => {
    expect([...['collect', 'vote', 'summarize', 'plan'].map(dotsVisible)]).toEqual([
      false,
      false,
      true,
      true,
    ]);
  });

  it('explains every state but released', () => {
    expect(say(releaseMessage('collecting', 0))).toMatch(/^Results open when collection ends/);
    expect(say(releaseMessage('below-threshold', 1))).toBe(
      '1 more response is needed before results can be shown',
    );
    expect(say(releaseMessage('withheld', 0))).toBe('Your facilitator will share the results');
  });
});
