import { describe, expect, it } from 'vitest';
import { english } from '../i18n/english.test-support';
import {
  ANSWER_REFUSAL_MESSAGES,
  LOOP_MESSAGES,
  WEEKDAYS,
  answerRefusal,
  audienceProblem,
  isoWeekdayOf,
  longDate,
  loopDashboardStatus,
  loosenedLoopMessages,
  loosenedLoopSettings,
  sameQuestion,
} from './rules';

describe('loop words', () => {
  it('shows paused loops as active on the dashboard, stopped ones as completed', () => {
    expect(loopDashboardStatus('active')).toBe('active');
    expect(loopDashboardStatus('paused')).toBe('active');
    expect(loopDashboardStatus('completed')).toBe('completed');
  });

  it('numbers weekdays the ISO way', () => {
    expect(WEEKDAYS.map(isoWeekdayOf)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('writes dates in words the same on every machine', () => {
    expect(english.say(longDate('2026-03-29'))).toBe('Sunday 29 March 2026');
    expect(english.say(longDate('2027-01-04'))).toBe('Monday 4 January 2027');
  });

  it("uses the issue's exact wording for answers that cannot be taken", () => {
    expect(english.say(LOOP_MESSAGES.alreadyAnswered)).toBe('You have already answered this round');
    expect(english.say(LOOP_MESSAGES.roundClosed)).toBe('This round has closed');
    expect(english.say(LOOP_MESSAGES.launch)).toBe('Launch Loop');
  });
});

describe('who may answer', () => {
  const now = new Date('2026-12-08T10:00:00Z');
  const open = {
    loopStatus: 'active',
    roundStatus: 'open',
    closesAt: new Date('2026-12-09T08:00:00Z'),
    now,
    answered: false,
  };

  it('takes the answer of a member who has not answered an open round of an active loop', () => {
    expect(answerRefusal(open)).toBeNull();
  });

  it('refuses, with a reason each, in a fixed order', () => {
    expect(answerRefusal({ ...open, answered: true, roundStatus: 'closed' })).toBe('already-answered');
    expect(answerRefusal({ ...open, loopStatus: 'completed' })).toBe('loop-ended');
    expect(answerRefusal({ ...open, roundStatus: 'closed' })).toBe('round-closed');
    expect(answerRefusal({ ...open, now: open.closesAt })).toBe('round-closed');
    expect(answerRefusal({ ...open, loopStatus: 'paused' })).toBe('loop-paused');
    expect(english.say(ANSWER_REFUSAL_MESSAGES['already-answered'])).toBe(
      'You have already answered this round',
    );
    expect(english.say(ANSWER_REFUSAL_MESSAGES['round-closed'])).toBe('This round has closed');
  });
});

describe('settings that protect respondents', () => {
  it('only get stricter once people have answered', () => {
    const before = { anonymous: true, minResponses: 5 };
    expect(loosenedLoopSettings(before, { anonymous: true, minResponses: 7 })).toEqual([]);
    expect(loosenedLoopSettings(before, { anonymous: false, minResponses: 4 })).toEqual([
      'anonymous',
      'minResponses',
    ]);
    expect(
      loosenedLoopSettings({ anonymous: false, minResponses: 1 }, { anonymous: true, minResponses: 3 }),
    ).toEqual([]);
    const messages = loosenedLoopMessages(before, ['anonymous', 'minResponses']);
    expect(Object.fromEntries(Object.entries(messages).map(([field, m]) => [field, english.say(m)]))).toEqual(
      {
        anonymous: 'Anonymous answers cannot be turned off once people have answered',
        minResponses: 'Minimum responses can only rise now that people have answered (it is 5)',
      },
    );
  });

  it('need an audience that can reach the minimum responses', () => {
    expect(english.say(audienceProblem(2, 3) ?? '')).toBe(
      'The audience has 2 members, fewer than the 3 responses needed before results show',
    );
    expect(english.say(audienceProblem(1, 3) ?? '')).toBe(
      'The audience has 1 member, fewer than the 3 responses needed before results show',
    );
    expect(audienceProblem(3, 3)).toBeNull();
  });
});

describe('trend lines', () => {
  const scale = { kind: 'scale' as const, text: 'How was your week?', lowLabel: 'Rough', highLabel: 'Great' };

  it('continue while the question asks the same thing the same way', () => {
    expect(sameQuestion(scale, { ...scale, text: '  how was your   week? ' })).toBe(true);
    expect(sameQuestion({ kind: 'text', text: 'Why?' }, { kind: 'text', text: 'why?' })).toBe(true);
  });

  it('start anew when the wording, the scale ends or the kind change', () => {
    expect(sameQuestion(scale, { ...scale, text: 'How was your month?' })).toBe(false);
    expect(sameQuestion(scale, { ...scale, highLabel: 'Excellent' })).toBe(false);
    expect(sameQuestion(scale, { kind: 'text', text: scale.text })).toBe(false);
  });
});
