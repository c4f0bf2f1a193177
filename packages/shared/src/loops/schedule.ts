/**
 * When a loop's rounds open and close: the one cadence rule of the form's preview, the server's launch and the
 * job that opens rounds (docs/decisions/0009-loops.md, "Schedule").
 *
 * A schedule is a cadence, a weekday, a time of day and an IANA time zone, pinned to an anchor date: the local
 * date of its slot 0. Slot k falls on
 * - weekly: the anchor plus 7k days; biweekly: the anchor plus 14k days;
 * - monthly: the first <weekday> of the k-th month after the anchor's month (the first Monday of every month,
 *   say; never a 5th weekday that some months lack, never a day-of-month that falls on another weekday);
 * and opens at the time of day in the zone. Each slot has a period around it, which holds no other slot: the
 * ISO week (Monday to Sunday) of a weekly slot, the two such weeks from the anchor's week of a biweekly one, the
 * calendar month of a monthly one, all in local dates.
 *
 * Daylight saving: the first round's time is validated (a time the clocks skip that night is refused with
 * LOOP_MESSAGES.noSuchTime); for later rounds and for closing times, a skipped time is moved forward by the
 * length of the jump (02:30 becomes 03:30) and a repeated one takes its first occurrence (zoned-time.ts).
 */

import { messageWith } from '../i18n/message';
import { LOOP_MESSAGES, isoWeekdayOf, longDate, type Cadence, type Weekday } from './rules';
import {
  DAY_MS,
  addDays,
  dateOfDayNumber,
  dayNumber,
  instantAt,
  instantOfWall,
  isoWeekday,
  localDateOf,
  wallOf,
} from './zoned-time';

/** What the admin chooses: how often, which weekday, what time, in which zone. */
export type ScheduleRule = { cadence: Cadence; weekday: Weekday; time: string; timeZone: string };
/** The rule pinned to the local date of its slot 0 (stored with the loop). */
export type Schedule = ScheduleRule & { anchorDate: string };

/** The start of the first round: 'now' (at launch), or a local date 'YYYY-MM-DD' (the first slot on or after it). */
export type FirstRoundStart = string;

const monthIndex = (date: string) => Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7)) - 1;
const monthStart = (index: number) =>
  `${String(Math.floor(index / 12)).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}-01`;
const mondayOf = (date: string) => dayNumber(date) - (isoWeekday(date) - 1);

/** The first day on or after `date` that falls on the weekday. */
const onOrAfter = (date: string, weekday: Weekday) =>
  addDays(date, (isoWeekdayOf(weekday) - isoWeekday(date) + 7) % 7);

const firstWeekdayOfMonth = (index: number, weekday: Weekday) => onOrAfter(monthStart(index), weekday);

/** The local date of slot k (k may be negative: slots before the anchor). */
export function slotDate(schedule: Schedule, k: number): string {
  if (schedule.cadence === 'monthly')
    return firstWeekdayOfMonth(monthIndex(schedule.anchorDate) + k, schedule.weekday);
  return addDays(schedule.anchorDate, (schedule.cadence === 'weekly' ? 7 : 14) * k);
}

/** The instant slot k opens (UTC), daylight-saving gaps and repeats resolved as the module says. */
export const slotOpening = (schedule: Schedule, k: number): Date =>
  instantAt(slotDate(schedule, k), schedule.time, schedule.timeZone).instant;

/** The index of the slot whose period holds the instant (negative before the anchor's period). */
export function periodOf(schedule: Schedule, instant: Date): number {
  const local = localDateOf(instant, schedule.timeZone);
  if (schedule.cadence === 'monthly') return monthIndex(local) - monthIndex(schedule.anchorDate);
  const weeks = schedule.cadence === 'weekly' ? 7 : 14;
  return Math.floor((mondayOf(local) - mondayOf(schedule.anchorDate)) / weeks);
}

/**
 * The slot date of the period that holds a local date under the rule: the anchor of a loop that starts now, or
 * whose schedule is changed (the period then under way counts as served, see nextRoundOpening).
 */
export function periodSlotDate(rule: ScheduleRule, date: string): string {
  if (rule.cadence === 'monthly') return firstWeekdayOfMonth(monthIndex(date), rule.weekday);
  return dateOfDayNumber(mondayOf(date) + isoWeekdayOf(rule.weekday) - 1);
}

/** The anchor for a rule from an instant on: the slot date of the period the instant falls in. */
export const anchorAt = (rule: ScheduleRule, instant: Date): Schedule => ({
  ...rule,
  anchorDate: periodSlotDate(rule, localDateOf(instant, rule.timeZone)),
});

/**
 * The schedule and first opening of a new loop.
 * - A date: the first slot day on or after it (a Thursday start of a Monday loop opens the Monday after).
 * - 'now': the first round opens at `now`, outside the slots; it serves the period it falls in, so the next round
 *   opens at the next period's slot (a Wednesday start of a weekly Monday loop: next Monday; biweekly: the
 *   Monday twelve days on; monthly: the first Monday of next month).
 */
export function planFirstRound(
  rule: ScheduleRule,
  start: FirstRoundStart,
  now: Date,
): { schedule: Schedule; opensAt: Date; startsNow: boolean } {
  if (start === 'now') return { schedule: anchorAt(rule, now), opensAt: now, startsNow: true };
  const schedule = firstSlotFrom(rule, start);
  return { schedule, opensAt: slotOpening(schedule, 0), startsNow: false };
}

/** The schedule whose slot 0 is the first slot day on or after a local date. */
function firstSlotFrom(rule: ScheduleRule, date: string): Schedule {
  if (rule.cadence !== 'monthly') return { ...rule, anchorDate: onOrAfter(date, rule.weekday) };
  const thisMonth = firstWeekdayOfMonth(monthIndex(date), rule.weekday);
  const anchorDate = thisMonth >= date ? thisMonth : firstWeekdayOfMonth(monthIndex(date) + 1, rule.weekday);
  return { ...rule, anchorDate };
}

/**
 * Why a first round given by date cannot be scheduled, or null: its time does not exist that day in the zone
 * (clocks go forward), checked without a clock so the schemas can say it; and, given `now`, that it would open
 * in the past. 'now' always can. A message (i18n/message.ts).
 */
export function firstRoundProblem(rule: ScheduleRule, start: FirstRoundStart, now?: Date): string | null {
  if (start === 'now') return null;
  const { anchorDate } = firstSlotFrom(rule, start);
  const first = instantAt(anchorDate, rule.time, rule.timeZone);
  if (first.resolution === 'skipped')
    return messageWith(LOOP_MESSAGES.noSuchTime, {
      time: rule.time,
      date: longDate(anchorDate),
      timeZone: rule.timeZone,
    });
  if (now && first.instant.getTime() <= now.getTime()) return LOOP_MESSAGES.firstRoundPast;
  return null;
}

/**
 * The next scheduled round: the first slot that opens after `after` and lies in a later period than the last
 * round opened (by schedule, 'start now' or 'Start Next Round Now'), so a period gets at most one round and a
 * hand-opened round stands in for its period's slot. Slots missed while the loop was paused or the job was down
 * are skipped, not caught up. `index` is the slot index, not the round's number (rounds are numbered in the
 * order they open).
 */
export function nextRoundOpening(
  schedule: Schedule,
  options: { after: Date; lastOpenedAt?: Date | null },
): { index: number; opensAt: Date } {
  let k = Math.max(
    0,
    periodOf(schedule, options.after),
    options.lastOpenedAt ? periodOf(schedule, options.lastOpenedAt) + 1 : 0,
  );
  let opensAt = slotOpening(schedule, k);
  while (opensAt.getTime() <= options.after.getTime()) {
    k += 1;
    opensAt = slotOpening(schedule, k);
  }
  return { index: k, opensAt };
}

/**
 * When a round that opened at `openedAt` closes: the same local time `roundDays` calendar days later (a Monday
 * 09:00 round of 2 days closes Wednesday 09:00 whatever the clocks did), or when the next round opens if that
 * is sooner, so at most one round of a loop is open at a time.
 */
export function roundClosing(schedule: Schedule, openedAt: Date, roundDays: number): Date {
  const byLength = instantOfWall(
    wallOf(openedAt, schedule.timeZone) + roundDays * DAY_MS,
    schedule.timeZone,
  ).instant;
  const next = nextRoundOpening(schedule, { after: openedAt, lastOpenedAt: openedAt }).opensAt;
  return byLength.getTime() <= next.getTime() ? byLength : next;
}

/** The reminder comes this long before a round closes, or halfway through a round shorter than twice that. */
export const REMINDER_BEFORE_CLOSE_MS = DAY_MS;

/**
 * When the reminder to those who have not answered goes out: a day before the round closes, or halfway through
 * a round of less than two days (a one-day round is reminded after twelve hours).
 */
export function reminderAt(openedAt: Date, closesAt: Date): Date {
  const length = closesAt.getTime() - openedAt.getTime();
  return new Date(closesAt.getTime() - Math.min(REMINDER_BEFORE_CLOSE_MS, Math.max(0, length) / 2));
}

/**
 * An instant as people of the loop's zone read it, as a message (i18n/message.ts): 'Wednesday 4 March 2026 at
 * 09:00 (Europe/Berlin)' in English.
 */
export function localMoment(instant: Date, timeZone: string): string {
  const time = new Date(wallOf(instant, timeZone)).toISOString().slice(11, 16);
  return messageWith('loops.localMoment', { date: longDate(localDateOf(instant, timeZone)), time, timeZone });
}

/** The schedule in words, as a message (i18n/message.ts): 'Every Monday at 09:00 (Europe/Berlin)' in English. */
export const scheduleSentence = (rule: ScheduleRule): string =>
  messageWith('loops.scheduleSentence', {
    cadence: rule.cadence,
    weekday: rule.weekday,
    time: rule.time,
    timeZone: rule.timeZone,
  });
