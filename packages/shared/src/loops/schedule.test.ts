import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { english } from '../i18n/english.test-support';
import { CADENCES, WEEKDAYS, isoWeekdayOf, type Weekday } from './rules';
import {
  firstRoundProblem,
  nextRoundOpening,
  localMoment,
  reminderAt,
  periodOf,
  planFirstRound,
  roundClosing,
  scheduleSentence,
  slotDate,
  slotOpening,
  type Schedule,
  type ScheduleRule,
} from './schedule';
import { instantAt, isoWeekday, localDateOf, wallOf } from './zoned-time';

const at = (value: string) => new Date(value);
const iso = (instant: Date) => instant.toISOString();
const berlin = (cadence: ScheduleRule['cadence'], weekday: Weekday = 'monday'): ScheduleRule => ({
  cadence,
  weekday,
  time: '09:00',
  timeZone: 'Europe/Berlin',
});
/** The local wall clock of an instant, 'YYYY-MM-DDTHH:MM'. */
const local = (instant: Date, zone = 'Europe/Berlin') =>
  new Date(wallOf(instant, zone)).toISOString().slice(0, 16);

describe('the first round', () => {
  it('opens on the first slot day on or after the chosen date', () => {
    // 2026-12-03 is a Thursday: a Monday loop starts on Monday 7 December.
    const thursday = planFirstRound(berlin('weekly'), '2026-12-03', at('2026-11-23T12:00:00Z'));
    expect(thursday.schedule.anchorDate).toBe('2026-12-07');
    expect(iso(thursday.opensAt)).toBe('2026-12-07T08:00:00.000Z');
    expect(thursday.startsNow).toBe(false);
    // On the weekday itself: that day.
    expect(
      planFirstRound(berlin('biweekly'), '2026-12-07', at('2026-11-23T12:00:00Z')).schedule.anchorDate,
    ).toBe('2026-12-07');
  });

  it('opens a monthly loop on the first such weekday of the month, this month or the next', () => {
    const now = at('2026-11-23T12:00:00Z');
    expect(planFirstRound(berlin('monthly'), '2026-12-03', now).schedule.anchorDate).toBe('2026-12-07');
    expect(planFirstRound(berlin('monthly'), '2026-12-07', now).schedule.anchorDate).toBe('2026-12-07');
    expect(planFirstRound(berlin('monthly'), '2026-12-08', now).schedule.anchorDate).toBe('2027-01-04');
  });

  it("opens at once with 'start now', serving the period it falls in", () => {
    // Wednesday 25 November 2026, 12:00 in Berlin.
    const now = at('2026-11-25T11:00:00Z');
    const weekly = planFirstRound(berlin('weekly'), 'now', now);
    expect(weekly).toMatchObject({ opensAt: now, startsNow: true });
    expect(weekly.schedule.anchorDate).toBe('2026-11-23');
    const next = (plan: { schedule: Schedule }) =>
      local(nextRoundOpening(plan.schedule, { after: now, lastOpenedAt: now }).opensAt);
    expect(next(weekly)).toBe('2026-11-30T09:00');
    expect(next(planFirstRound(berlin('biweekly'), 'now', now))).toBe('2026-12-07T09:00');
    expect(next(planFirstRound(berlin('monthly'), 'now', now))).toBe('2026-12-07T09:00');
  });

  it("does not add a second round the same day when 'start now' comes just before the slot", () => {
    // Monday 23 November 2026, 08:00 in Berlin; the slot is 09:00.
    const now = at('2026-11-23T07:00:00Z');
    const { schedule } = planFirstRound(berlin('weekly'), 'now', now);
    expect(local(nextRoundOpening(schedule, { after: now, lastOpenedAt: now }).opensAt)).toBe(
      '2026-11-30T09:00',
    );
  });

  it('refuses a first round at a time the clocks skip that night, with a clear message', () => {
    const rule: ScheduleRule = {
      cadence: 'weekly',
      weekday: 'sunday',
      time: '02:30',
      timeZone: 'Europe/Berlin',
    };
    const message =
      '02:30 does not exist on Sunday 29 March 2026 in Europe/Berlin: the clocks go forward that night. Choose another time or first round date';
    expect(english.say(firstRoundProblem(rule, '2026-03-29') ?? '')).toBe(message);
    // A Thursday start whose first Sunday is that night says the same.
    expect(english.say(firstRoundProblem(rule, '2026-03-26') ?? '')).toBe(message);
    expect(firstRoundProblem(rule, '2026-04-05')).toBeNull();
    expect(firstRoundProblem({ ...rule, time: '03:30' }, '2026-03-29')).toBeNull();
    // Starting now needs no slot time.
    expect(firstRoundProblem(rule, 'now', at('2026-03-29T00:00:00Z'))).toBeNull();
  });

  it('refuses a first round that would open in the past, given the time', () => {
    const rule = berlin('weekly');
    const message = "The first round would open in the past: choose a later date or 'Start now'";
    // Monday 7 December 2026 09:00 Berlin is 08:00 UTC.
    expect(english.say(firstRoundProblem(rule, '2026-12-07', at('2026-12-07T08:00:00Z')) ?? '')).toBe(
      message,
    );
    expect(english.say(firstRoundProblem(rule, '2026-12-01', at('2026-12-10T00:00:00Z')) ?? '')).toBe(
      message,
    );
    expect(firstRoundProblem(rule, '2026-12-07', at('2026-12-07T07:59:00Z'))).toBeNull();
  });
});

describe('the slots', () => {
  const weekly: Schedule = { ...berlin('weekly'), anchorDate: '2026-12-07' };

  it('falls every 7 or 14 days, or on the first weekday of each month', () => {
    expect([0, 1, 2, 3].map((k) => slotDate(weekly, k))).toEqual([
      '2026-12-07',
      '2026-12-14',
      '2026-12-21',
      '2026-12-28',
    ]);
    const biweekly = { ...weekly, cadence: 'biweekly' as const };
    expect([0, 1, 2].map((k) => slotDate(biweekly, k))).toEqual(['2026-12-07', '2026-12-21', '2027-01-04']);
    const monthly = { ...weekly, cadence: 'monthly' as const };
    expect([0, 1, 2, 3, 12].map((k) => slotDate(monthly, k))).toEqual([
      '2026-12-07',
      '2027-01-04',
      '2027-02-01',
      '2027-03-01',
      '2027-12-06',
    ]);
  });

  it('keeps the local time across daylight saving (the UTC instant moves instead)', () => {
    // Europe/Berlin springs forward on 28 March 2027 and falls back on 31 October 2027.
    const before = slotOpening(weekly, 15); // Monday 22 March 2027
    const after = slotOpening(weekly, 16); // Monday 29 March 2027
    expect(iso(before)).toBe('2027-03-22T08:00:00.000Z');
    expect(iso(after)).toBe('2027-03-29T07:00:00.000Z');
    expect(local(before)).toBe('2027-03-22T09:00');
    expect(local(after)).toBe('2027-03-29T09:00');
    expect(iso(slotOpening(weekly, 47))).toBe('2027-11-01T08:00:00.000Z');
  });

  it('moves a later round whose time the clocks skip by the jump, and takes the first of a repeated time', () => {
    const sunday: Schedule = {
      cadence: 'weekly',
      weekday: 'sunday',
      time: '02:30',
      timeZone: 'Europe/Berlin',
      anchorDate: '2027-03-21',
    };
    expect(local(slotOpening(sunday, 1))).toBe('2027-03-28T03:30');
    expect(local(slotOpening(sunday, 2))).toBe('2027-04-04T02:30');
    const autumn = { ...sunday, anchorDate: '2026-10-18' };
    expect(iso(slotOpening(autumn, 1))).toBe('2026-10-25T00:30:00.000Z');
  });

  it('puts every slot on its weekday and time, in its own period, in order (property)', () => {
    const zones = fc.constantFrom(
      'Europe/Berlin',
      'America/New_York',
      'Australia/Sydney',
      'Asia/Kolkata',
      'UTC',
    );
    const times = fc.constantFrom('00:00', '00:30', '02:30', '09:00', '23:59');
    const anchors = fc
      .integer({ min: 0, max: 3650 })
      .map((days) => new Date(Date.UTC(2025, 0, 1) + days * 86_400_000));
    fc.assert(
      fc.property(
        fc.constantFrom(...CADENCES),
        fc.constantFrom(...WEEKDAYS),
        times,
        zones,
        anchors,
        fc.integer({ min: 0, max: 60 }),
        (cadence, weekday, time, timeZone, day, k) => {
          const rule = { cadence, weekday, time, timeZone };
          const { schedule } = planFirstRound(rule, day.toISOString().slice(0, 10), day);
          const date = slotDate(schedule, k);
          expect(isoWeekday(date)).toBe(isoWeekdayOf(weekday));
          if (cadence === 'monthly') expect(Number(date.slice(8))).toBeLessThanOrEqual(7);
          const opens = slotOpening(schedule, k);
          const resolved = instantAt(date, time, timeZone);
          expect(opens).toEqual(resolved.instant);
          if (resolved.resolution !== 'skipped') expect(local(opens, timeZone)).toBe(`${date}T${time}`);
          expect(localDateOf(opens, timeZone)).toBe(date);
          expect(periodOf(schedule, opens)).toBe(k);
          expect(slotOpening(schedule, k + 1).getTime()).toBeGreaterThan(opens.getTime());
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('the next round', () => {
  const weekly: Schedule = { ...berlin('weekly'), anchorDate: '2026-12-07' };
  const next = (schedule: Schedule, after: string, lastOpenedAt?: string) =>
    local(
      nextRoundOpening(schedule, { after: at(after), lastOpenedAt: lastOpenedAt ? at(lastOpenedAt) : null })
        .opensAt,
    );

  it('is slot 0 before the loop starts', () => {
    expect(nextRoundOpening(weekly, { after: at('2026-11-23T12:00:00Z') })).toEqual({
      index: 0,
      opensAt: at('2026-12-07T08:00:00Z'),
    });
  });

  it('follows a scheduled round with the next slot', () => {
    expect(next(weekly, '2026-12-07T08:00:00Z', '2026-12-07T08:00:00Z')).toBe('2026-12-14T09:00');
    expect(nextRoundOpening(weekly, { after: at('2026-12-07T08:00:00Z') }).index).toBe(1);
  });

  it("lets a round opened by hand ('Start Next Round Now') stand in for its period's slot", () => {
    // Thursday 10 December: the Monday 7 round already ran; the hand-opened one serves that week too.
    expect(next(weekly, '2026-12-10T10:00:00Z', '2026-12-10T10:00:00Z')).toBe('2026-12-14T09:00');
    // Opened by hand on Monday 14 December at 08:00, before that day's 09:00 slot: it serves that week.
    expect(next(weekly, '2026-12-14T07:00:00Z', '2026-12-14T07:00:00Z')).toBe('2026-12-21T09:00');
    const biweekly = { ...weekly, cadence: 'biweekly' as const };
    expect(next(biweekly, '2026-12-17T10:00:00Z', '2026-12-17T10:00:00Z')).toBe('2026-12-21T09:00');
  });

  it('skips the slots missed while paused (or while the job was down), without catching up', () => {
    // Paused after the 7 December round, resumed on Wednesday 6 January 2027.
    expect(next(weekly, '2027-01-06T12:00:00Z', '2026-12-07T08:00:00Z')).toBe('2027-01-11T09:00');
    // Resumed on Monday 11 January before 09:00: that day's slot still comes.
    expect(next(weekly, '2027-01-11T07:00:00Z', '2026-12-07T08:00:00Z')).toBe('2027-01-11T09:00');
  });
});

describe('closing', () => {
  const weekly: Schedule = { ...berlin('weekly'), anchorDate: '2026-12-07' };

  it('closes the given number of calendar days later at the same local time', () => {
    expect(iso(roundClosing(weekly, at('2026-12-07T08:00:00Z'), 2))).toBe('2026-12-09T08:00:00.000Z');
    // A round opened by hand keeps its own time of day, to the millisecond.
    expect(iso(roundClosing(weekly, at('2026-12-08T13:37:12.345Z'), 1))).toBe('2026-12-09T13:37:12.345Z');
  });

  it('keeps the local closing time when the clocks change while the round is open', () => {
    const friday: Schedule = { ...berlin('weekly', 'friday'), time: '14:00', anchorDate: '2027-03-26' };
    const opened = slotOpening(friday, 0);
    const closes = roundClosing(friday, opened, 3);
    expect(local(closes)).toBe('2027-03-29T14:00');
    expect((closes.getTime() - opened.getTime()) / 3_600_000).toBe(71);
  });

  it('closes no later than the next round opens, so one round is open at a time', () => {
    expect(iso(roundClosing(weekly, at('2026-12-07T08:00:00Z'), 7))).toBe('2026-12-14T08:00:00.000Z');
    // Started now on a Wednesday for 7 days: closes when Monday's round opens.
    const now = at('2026-11-25T11:00:00Z');
    const { schedule } = planFirstRound(berlin('weekly'), 'now', now);
    expect(local(roundClosing(schedule, now, 7))).toBe('2026-11-30T09:00');
  });
});

describe('in words', () => {
  it('says the schedule', () => {
    expect(english.say(scheduleSentence(berlin('weekly')))).toBe('Every Monday at 09:00 (Europe/Berlin)');
    expect(english.say(scheduleSentence(berlin('biweekly', 'friday')))).toBe(
      'Every other Friday at 09:00 (Europe/Berlin)',
    );
    expect(english.say(scheduleSentence(berlin('monthly')))).toBe(
      'The first Monday of every month at 09:00 (Europe/Berlin)',
    );
  });
});

describe('reminderAt', () => {
  const at = (iso: string) => new Date(iso);
  it('is a day before the close of a round of two days or more', () => {
    expect(reminderAt(at('2026-03-02T09:00:00Z'), at('2026-03-05T09:00:00Z')).toISOString()).toBe(
      '2026-03-04T09:00:00.000Z',
    );
    expect(reminderAt(at('2026-03-02T09:00:00Z'), at('2026-03-04T09:00:00Z')).toISOString()).toBe(
      '2026-03-03T09:00:00.000Z',
    );
  });
  it('is halfway through a shorter round', () => {
    expect(reminderAt(at('2026-03-02T09:00:00Z'), at('2026-03-03T09:00:00Z')).toISOString()).toBe(
      '2026-03-02T21:00:00.000Z',
    );
  });
});

describe('localMoment', () => {
  it('reads an instant in the loop zone, daylight saving included', () => {
    expect(english.say(localMoment(new Date('2026-03-04T08:00:00Z'), 'Europe/Berlin'))).toBe(
      'Wednesday 4 March 2026 at 09:00 (Europe/Berlin)',
    );
    expect(english.say(localMoment(new Date('2026-07-01T07:30:00Z'), 'Europe/Berlin'))).toBe(
      'Wednesday 1 July 2026 at 09:30 (Europe/Berlin)',
    );
  });
});
