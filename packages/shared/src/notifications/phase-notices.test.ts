import { describe, expect, it } from 'vitest';
import { inEnglish } from './notices.test-support';
import { opensResults, phaseNotice, type PhaseNoticeInput } from './phase-notices';

const base: PhaseNoticeInput = {
  healthCheckId: 'hc1',
  title: 'Sprint',
  from: 'collect',
  to: 'vote',
  manages: false,
  participantStatus: 'completed',
  completed: 3,
  minResponses: 3,
  showResultsAfterVoting: true,
};
/** The notice, its words in English (the server says them in each recipient's language). */
const notice = (overrides: Partial<PhaseNoticeInput>) => inEnglish(phaseNotice({ ...base, ...overrides }));

describe('phaseNotice', () => {
  it('tells a participant who completed that voting started and the results are ready, in two parts', () => {
    expect(notice({})).toEqual({
      type: 'results-ready',
      message: 'Voting has started for "Sprint", and its results are ready',
      link: '/health-check/hc1/vote',
      parts: [
        { setting: 'phaseChanges', text: 'Voting has started for "Sprint"' },
        { setting: 'resultsReady', text: 'The results of "Sprint" are ready' },
      ],
    });
  });

  it('sends managers to the admin results', () => {
    const manager = notice({ manages: true, participantStatus: null });
    expect(manager.type).toBe('results-ready');
    expect(manager.link).toBe('/admin/health-check/hc1/results');
  });

  it('never announces results the release rule withholds', () => {
    // Did not complete: rating has closed for them, nothing to open.
    expect(notice({ participantStatus: 'in_progress' })).toEqual({
      type: 'phase-change',
      message: 'Rating has closed for "Sprint": the team is voting',
      link: '/dashboard',
      parts: [{ setting: 'phaseChanges', text: 'Rating has closed for "Sprint": the team is voting' }],
    });
    // The check does not show results to participants.
    const withheld = notice({ showResultsAfterVoting: false });
    expect(withheld.type).toBe('phase-change');
    expect(withheld.message).toBe('Voting has started for "Sprint"');
    expect(notice({ showResultsAfterVoting: false, from: 'vote', to: 'summarize' }).message).toBe(
      '"Sprint" is complete. Your facilitator will share the results',
    );
    // Below the anonymity threshold (cannot happen through the phase rules, and still holds): nobody.
    for (const manages of [true, false]) {
      for (const to of ['vote', 'summarize'] as const) {
        const below = notice({ manages, completed: 2, to, from: to === 'vote' ? 'collect' : 'vote' });
        expect(below.type).toBe('phase-change');
        expect(below.message).not.toMatch(/results/);
        expect(below.link).not.toMatch(/results/);
      }
    }
  });

  it('announces the final results when voting ends, to those who see the figures', () => {
    const done = notice({ from: 'vote', to: 'summarize' });
    expect(done).toEqual({
      type: 'results-ready',
      message: '"Sprint" is complete: the final results are ready',
      link: '/health-check/hc1/results',
      parts: [
        { setting: 'phaseChanges', text: '"Sprint" is complete' },
        { setting: 'resultsReady', text: 'The final results of "Sprint" are ready' },
      ],
    });
    expect(notice({ from: 'vote', to: 'summarize', participantStatus: 'pending' })).toMatchObject({
      type: 'phase-change',
      message: '"Sprint" is complete',
      link: '/dashboard',
    });
  });

  it('moves to action planning as a phase change, linking to what the person may open', () => {
    expect(notice({ from: 'summarize', to: 'plan' })).toMatchObject({
      type: 'phase-change',
      message: '"Sprint" has moved to action planning',
      link: '/health-check/hc1/results',
    });
    expect(notice({ from: 'summarize', to: 'plan', participantStatus: 'pending' }).link).toBe('/dashboard');
  });
});

describe('opensResults', () => {
  it('opens at the first release and again when the dots are shown, not when nothing new opens', () => {
    expect(opensResults(base)).toBe(true);
    expect(opensResults({ ...base, from: 'vote', to: 'summarize' })).toBe(true);
    expect(opensResults({ ...base, from: 'summarize', to: 'plan' })).toBe(false);
    expect(opensResults({ ...base, participantStatus: null })).toBe(false);
  });
});
