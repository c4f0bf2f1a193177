import { CADENCES, WEEKDAYS, longDate } from '@pulsecheck/shared/loops/rules';
import {
  firstRoundProblem,
  nextRoundOpening,
  planFirstRound,
  roundClosing,
  type ScheduleRule,
} from '@pulsecheck/shared/loops/schedule';
import {
  isPlainDate,
  isTimeOfDay,
  isTimeZone,
  localDateOf,
  wallOf,
} from '@pulsecheck/shared/loops/zoned-time';
import { say, t } from '@/lib/i18n';

/**
 * An instant as the loop's own clock reads it: 'Monday 30 November 2026 at 09:00' ('Montag, 30. November 2026 um
 * 09:00'), the calendar day in words by the shared `longDate`, as the server's messages write it.
 */
export function zonedMoment(instant: Date, timeZone: string): string {
  const time = new Date(wallOf(instant, timeZone)).toISOString().slice(11, 16);
  return t('loops.zonedMoment', { date: say(longDate(localDateOf(instant, timeZone))), time });
}

export type FirstRoundPreview =
  { kind: 'problem'; message: string } | { kind: 'plan'; opens: string; closes: string; next: string };

type Draft = {
  cadence?: string;
  weekday?: string;
  time?: string;
  timeZone?: string;
  start?: string;
  roundDays?: number;
};

const isRule = (draft: Draft): draft is Draft & ScheduleRule =>
  CADENCES.some((c) => c === draft.cadence) &&
  WEEKDAYS.some((w) => w === draft.weekday) &&
  isTimeOfDay(draft.time ?? '') &&
  isTimeZone(draft.timeZone ?? '');

/**
 * What Configure Loop says about the first round while the form is filled in: when it opens, closes and when the
 * next one follows, by the shared schedule rules, or why that start cannot be (a time the clocks skip, a date in
 * the past). Null while the schedule is incomplete.
 */
export function firstRoundPreview(draft: Draft, now: Date): FirstRoundPreview | null {
  const start = draft.start ?? '';
  if (!isRule(draft) || (start !== 'now' && !isPlainDate(start))) return null;
  const rule: ScheduleRule = {
    cadence: draft.cadence,
    weekday: draft.weekday,
    time: draft.time,
    timeZone: draft.timeZone,
  };
  const problem = firstRoundProblem(rule, start, now);
  if (problem) return { kind: 'problem', message: problem };
  const { schedule, opensAt, startsNow } = planFirstRound(rule, start, now);
  const days = Number.isInteger(draft.roundDays) && (draft.roundDays ?? 0) >= 1 ? draft.roundDays! : null;
  const at = (instant: Date) => zonedMoment(instant, rule.timeZone);
  const next = nextRoundOpening(schedule, { after: opensAt, lastOpenedAt: opensAt }).opensAt;
  return {
    kind: 'plan',
    opens: startsNow ? t('loops.opensAtLaunch') : at(opensAt),
    closes: days === null ? '' : at(roundClosing(schedule, opensAt, days)),
    next: at(next),
  };
}
