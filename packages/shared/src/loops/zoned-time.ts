/**
 * Wall-clock time in an IANA time zone, with Intl.DateTimeFormat only (no dependency): what a loop's schedule
 * needs to turn "Mondays at 09:00 in Europe/Berlin" into instants and back. Plain dates are 'YYYY-MM-DD'
 * strings and times 'HH:MM', as the Configure Loop form sends them.
 *
 * A "wall" value is a local date and time written as milliseconds since 1970-01-01T00:00 *as if* the zone were
 * UTC; it makes calendar arithmetic plain integer arithmetic. An instant is a real point in time (a Date).
 */

export const DAY_MS = 86_400_000;

export type PlainDate = { year: number; month: number; day: number };

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME_PATTERN = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** 'YYYY-MM-DD' that names a real calendar day, or null (2026-02-30 is not one). */
export function parsePlainDate(value: string): PlainDate | null {
  const match = DATE_PATTERN.exec(value);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const check = new Date(Date.UTC(year, month - 1, day));
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) {
    return null;
  }
  return { year, month, day };
}

export const isPlainDate = (value: string) => parsePlainDate(value) !== null;

/** 'HH:MM' from 00:00 to 23:59, as minutes after midnight, or null. */
export function parseTimeOfDay(value: string): number | null {
  const match = TIME_PATTERN.exec(value);
  return match ? Number(match[1]) * 60 + Number(match[2]) : null;
}

export const isTimeOfDay = (value: string) => parseTimeOfDay(value) !== null;

/** Day number (days since 1970-01-01) of a plain date; throws on a malformed one (validate first). */
export function dayNumber(date: string): number {
  const parsed = parsePlainDate(date);
  if (!parsed) throw new RangeError(`Not a date: ${date}`);
  return Date.UTC(parsed.year, parsed.month - 1, parsed.day) / DAY_MS;
}

export function dateOfDayNumber(days: number): string {
  return new Date(days * DAY_MS).toISOString().slice(0, 10);
}

export const addDays = (date: string, days: number) => dateOfDayNumber(dayNumber(date) + days);

/** ISO weekday of a plain date: 1 Monday … 7 Sunday. */
export function isoWeekday(date: string): number {
  const day = new Date(dayNumber(date) * DAY_MS).getUTCDay();
  return day === 0 ? 7 : day;
}

/** A zone name Intl knows, written as an IANA name ('Europe/Berlin', 'UTC'); offsets such as '+01:00' are not zones. */
export function isTimeZone(zone: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(zone) || zone.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}

/** The wall clock of an instant in a zone, to the millisecond. */
export function wallOf(instant: Date, zone: string): number {
  const fields: Record<string, number> = {};
  for (const part of formatterFor(zone).formatToParts(instant)) {
    if (part.type !== 'literal') fields[part.type] = Number(part.value);
  }
  const ms = ((instant.getTime() % 1000) + 1000) % 1000;
  // Some ICU versions write midnight as 24 even with h23.
  const hour = fields.hour === 24 ? 0 : (fields.hour ?? 0);
  return (
    Date.UTC(
      fields.year ?? 1970,
      (fields.month ?? 1) - 1,
      fields.day ?? 1,
      hour,
      fields.minute ?? 0,
      fields.second ?? 0,
    ) + ms
  );
}

/** The zone's offset from UTC at an instant, in milliseconds (Berlin in summer: +7,200,000). */
export const offsetAt = (instant: Date, zone: string) => wallOf(instant, zone) - instant.getTime();

/** The local date ('YYYY-MM-DD') of an instant in a zone. */
export const localDateOf = (instant: Date, zone: string) =>
  dateOfDayNumber(Math.floor(wallOf(instant, zone) / DAY_MS));

/** How a wall-clock time maps to instants: once, never (skipped when clocks go forward) or twice (clocks go back). */
export type WallResolution = 'exact' | 'skipped' | 'repeated';

/**
 * The instant of a wall-clock time in a zone, resolved deterministically where daylight saving makes the time
 * ambiguous (the rule of Temporal's 'compatible' disambiguation, and of most calendars):
 * - 'skipped' (the clocks jump over it, e.g. 02:30 on the spring-forward night in Europe/Berlin): moved forward
 *   by the length of the jump, so 02:30 becomes 03:30 local time.
 * - 'repeated' (it happens twice when the clocks go back): the earlier of the two.
 */
export function instantOfWall(wall: number, zone: string): { instant: Date; resolution: WallResolution } {
  // Offsets in force around that wall time; a transition has at most two, and none is closer than a day to another.
  const before = offsetAt(new Date(wall - DAY_MS), zone);
  const candidates = new Set([
    before,
    offsetAt(new Date(wall), zone),
    offsetAt(new Date(wall + DAY_MS), zone),
  ]);
  const matches = [...candidates]
    .map((offset) => wall - offset)
    .filter((time) => wallOf(new Date(time), zone) === wall)
    .sort((a, b) => a - b);
  const first = matches[0];
  if (first !== undefined) {
    return { instant: new Date(first), resolution: matches.length > 1 ? 'repeated' : 'exact' };
  }
  // In a gap: read the wall time with the offset from before the jump, which lands after it.
  return { instant: new Date(wall - before), resolution: 'skipped' };
}

/** The wall value of a plain date at a time of day ('HH:MM'). */
export function wallAt(date: string, time: string): number {
  const minutes = parseTimeOfDay(time);
  if (minutes === null) throw new RangeError(`Not a time of day: ${time}`);
  return dayNumber(date) * DAY_MS + minutes * 60_000;
}

/** The instant of a local date and time in a zone, with how it resolved (see instantOfWall). */
export const instantAt = (date: string, time: string, zone: string) =>
  instantOfWall(wallAt(date, time), zone);
