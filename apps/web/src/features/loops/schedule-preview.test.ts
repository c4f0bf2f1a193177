import { messageWith } from '@pulsecheck/shared/i18n/message';
import { LOOP_MESSAGES, longDate } from '@pulsecheck/shared/loops/rules';
import { describe, expect, it } from 'vitest';
import { firstRoundPreview, zonedMoment } from './schedule-preview';

const monday = {
  cadence: 'weekly',
  weekday: 'monday',
  time: '09:00',
  timeZone: 'Europe/Berlin',
  roundDays: 2,
};
// Wednesday 25 November 2026, 12:00 UTC.
const now = new Date('2026-11-25T12:00:00Z');

describe('firstRoundPreview', () => {
  it('for a date, gives the first scheduled day on or after it, its closing and the next round, in the zone', () => {
    expect(firstRoundPreview({ ...monday, start: '2026-11-26' }, now)).toEqual({
      kind: 'plan',
      opens: 'Monday 30 November 2026 at 09:00',
      closes: 'Wednesday 2 December 2026 at 09:00',
      next: 'Monday 7 December 2026 at 09:00',
    });
  });

  it("for 'Start now', opens at launch and follows with the next period's slot", () => {
    expect(firstRoundPreview({ ...monday, start: 'now', cadence: 'monthly' }, now)).toMatchObject({
      kind: 'plan',
      opens: 'As soon as you launch',
      next: 'Monday 7 December 2026 at 09:00',
    });
  });

  it('says when the time does not exist that day, and when the first round would be in the past', () => {
    expect(
      firstRoundPreview(
        { ...monday, weekday: 'sunday', time: '02:30', start: '2026-03-29' },
        new Date('2026-03-01'),
      ),
    ).toEqual({
      kind: 'problem',
      message: messageWith(LOOP_MESSAGES.noSuchTime, {
        time: '02:30',
        date: longDate('2026-03-29'),
        timeZone: 'Europe/Berlin',
      }),
    });
    expect(firstRoundPreview({ ...monday, start: '2026-11-23' }, now)).toEqual({
      kind: 'problem',
      message: LOOP_MESSAGES.firstRoundPast,
    });
  });

  it('says nothing while the schedule is incomplete, and leaves out the closing without a valid length', () => {
    expect(firstRoundPreview({ ...monday, time: '', start: 'now' }, now)).toBeNull();
    expect(firstRoundPreview({ ...monday, timeZone: 'Mars/Olympus', start: 'now' }, now)).toBeNull();
    expect(firstRoundPreview({ ...monday, start: '2026-02-30' }, now)).toBeNull();
    expect(firstRoundPreview({ ...monday, roundDays: Number.NaN, start: '2026-11-26' }, now)).toMatchObject({
      closes: '',
    });
  });

  it('reads instants on the loop’s clock, not the browser’s', () => {
    expect(zonedMoment(new Date('2026-07-01T23:30:00Z'), 'Asia/Tokyo')).toBe('Thursday 2 July 2026 at 08:30');
  });
});
