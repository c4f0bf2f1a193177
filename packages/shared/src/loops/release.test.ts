import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { english } from '../i18n/english.test-support';
import { defaultResultsRound, orderFreeText, roundResultMessage, roundResultState } from './release';

describe('when a round shows its results', () => {
  const round = { anonymous: true, open: false, answers: 5, minResponses: 3 };

  it('shows nothing of an anonymous round while it is open, however many answered', () => {
    expect(roundResultState({ ...round, open: true, answers: 500 })).toBe('collecting');
    expect(english.say(roundResultMessage('collecting', { ...round, open: true }) ?? '')).toBe(
      'Results of an anonymous round show when it closes, so that no one\u2019s answers can be told apart as they come in.',
    );
  });

  it('shows nothing below the minimum responses, and says how many more an open round needs', () => {
    expect(roundResultState({ ...round, answers: 2 })).toBe('below-threshold');
    expect(english.say(roundResultMessage('below-threshold', { ...round, answers: 2 }) ?? '')).toBe(
      'This round closed with 2 responses, fewer than the 3 needed to show results',
    );
    expect(english.say(roundResultMessage('below-threshold', { ...round, answers: 1 }) ?? '')).toBe(
      'This round closed with 1 response, fewer than the 3 needed to show results',
    );
    const open = { ...round, anonymous: false, open: true, answers: 1 };
    expect(roundResultState(open)).toBe('below-threshold');
    expect(english.say(roundResultMessage('below-threshold', open) ?? '')).toBe(
      '2 more responses are needed before results can be shown',
    );
  });

  it('shows a closed round with enough answers, and an open one of a loop that is not anonymous', () => {
    expect(roundResultState({ ...round, answers: 3 })).toBe('released');
    expect(roundResultState({ ...round, anonymous: false, open: true })).toBe('released');
    expect(roundResultMessage('released', round)).toBeNull();
  });
});

describe('free-text answers', () => {
  it('are listed alphabetically, whatever order they arrived in', () => {
    const arrived = ['more focus time', 'Fewer meetings', '  calmer sprint starts', 'Better coffee'];
    expect(orderFreeText(arrived.map((text) => ({ text }))).map((a) => a.text)).toEqual([
      'Better coffee',
      '  calmer sprint starts',
      'Fewer meetings',
      'more focus time',
    ]);
  });

  it('put like answers side by side, ties settled by the exact text', () => {
    const texts = [
      'too many meetings',
      'Zero',
      'Too many meetings',
      'Too  many meetings',
      'Ánother',
      'Another',
    ];
    const ordered = orderFreeText(texts.map((text) => ({ text }))).map((a) => a.text);
    expect(ordered).toEqual([
      'Another',
      'Ánother',
      'Too  many meetings',
      'Too many meetings',
      'too many meetings',
      'Zero',
    ]);
  });

  it('are ordered the same for every arrival order, and the input is not changed (property)', () => {
    const texts = fc.array(fc.string({ maxLength: 12 }), { maxLength: 30 });
    fc.assert(
      fc.property(texts, fc.integer(), (list, seed) => {
        const entries = list.map((text) => ({ text }));
        const reversed = [...entries].reverse();
        // A seeded rotation as another arrival order.
        const rotation = list.length === 0 ? 0 : Math.abs(seed) % list.length;
        const rotated = [...entries.slice(rotation), ...entries.slice(0, rotation)];
        const copy = [...entries];
        const ordered = orderFreeText(entries).map((a) => a.text);
        expect(orderFreeText(reversed).map((a) => a.text)).toEqual(ordered);
        expect(orderFreeText(rotated).map((a) => a.text)).toEqual(ordered);
        expect(entries).toEqual(copy);
        expect([...ordered].sort()).toEqual([...list].sort());
      }),
    );
  });
});

describe('defaultResultsRound', () => {
  const rounds = [
    { number: 3, state: 'collecting' as const },
    { number: 2, state: 'below-threshold' as const },
    { number: 1, state: 'released' as const },
  ];
  it('is the newest round whose results show', () => {
    expect(defaultResultsRound(rounds, (r) => r.state)?.number).toBe(1);
  });
  it('is the newest round when none shows yet, and nothing without rounds', () => {
    expect(defaultResultsRound(rounds.slice(0, 2), (r) => r.state)?.number).toBe(3);
    expect(defaultResultsRound([], () => 'released')).toBeUndefined();
  });
});
