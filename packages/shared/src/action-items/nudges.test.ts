import { describe, expect, it } from 'vitest';
import { compileCatalogue } from '../i18n/compile';
import { Translator } from '../i18n/translate';
import actionItemWords from '../../messages/en/actionItems.json';
import {
  NUDGE_HINT_VALUES,
  NUDGE_MESSAGES,
  NUDGE_NO_FOLLOW_UP_DAYS,
  NUDGE_OVERDUE_DAYS,
  nudgeOf,
  nudgeWords,
} from './nudges';

/** The shared catalogue's English words of this area. */
const english = new Translator('en', compileCatalogue(actionItemWords, 'en'));

const now = new Date('2026-11-28T10:00:00Z');
const open = (dueDate: string | null) => ({ status: 'pending', dueDate, completedAt: null, asked: false });
const done = (completedAt: string | null, asked = false) => ({
  status: 'completed',
  dueDate: '2026-01-01',
  completedAt,
  asked,
});

describe('nudges', () => {
  it('are 7 and 30 days', () => {
    expect([NUDGE_OVERDUE_DAYS, NUDGE_NO_FOLLOW_UP_DAYS]).toEqual([7, 30]);
  });

  it('nudge an open action from 7 days past its due date, never one without a due date', () => {
    expect(nudgeOf(open('2026-11-22'), now)).toBeNull();
    expect(nudgeOf(open('2026-11-21'), now)).toEqual({ reason: 'overdue', days: 7 });
    expect(nudgeOf({ ...open('2026-11-01'), status: 'in-progress' }, now)).toEqual({
      reason: 'overdue',
      days: 27,
    });
    expect(nudgeOf(open(null), now)).toBeNull();
  });

  it('nudge a done action 30 days after it was done while no check asked about it', () => {
    expect(nudgeOf(done('2026-10-30T23:00:00Z'), now)).toBeNull();
    expect(nudgeOf(done('2026-10-29T08:00:00Z'), now)).toEqual({ reason: 'no-follow-up', days: 30 });
    expect(nudgeOf(done('2026-10-01T08:00:00Z', true), now)).toBeNull();
    // Done before done dates were recorded: no check can ask about it, so it is never nudged.
    expect(nudgeOf(done(null), now)).toBeNull();
  });

  it('say why in words', () => {
    expect(nudgeWords({ reason: 'overdue', days: 9 }, english)).toBe('Overdue by 9 days');
    expect(nudgeWords({ reason: 'overdue', days: 1 }, english)).toBe('Overdue by 1 day');
    expect(nudgeWords({ reason: 'no-follow-up', days: 31 }, english)).toBe(
      'Done 31 days ago; no check has asked whether it helped',
    );
    expect(english.t(NUDGE_MESSAGES.hint, NUDGE_HINT_VALUES)).toBe(
      'Open action items 7 or more days past their due date, and done ones no health check has asked about for 30 days.',
    );
  });
});
