import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DAY_MS,
  addDays,
  instantAt,
  instantOfWall,
  isTimeZone,
  isoWeekday,
  localDateOf,
  offsetAt,
  parsePlainDate,
  parseTimeOfDay,
  wallAt,
  wallOf,
} from './zoned-time';

const iso = (instant: Date) => instant.toISOString();
const HOUR = 3_600_000;

describe('plain dates and times of day', () => {
  it('accepts real calendar days only', () => {
    expect(parsePlainDate('2026-11-23')).toEqual({ year: 2026, month: 11, day: 23 });
    expect(parsePlainDate('2028-02-29')).not.toBeNull();
    for (const bad of ['2026-02-29', '2026-02-30', '2026-13-01', '2026-00-10', '2026-3-1', '26-03-01', '']) {
      expect(parsePlainDate(bad), bad).toBeNull();
    }
  });

  it('reads HH:MM from 00:00 to 23:59 as minutes after midnight', () => {
    expect(parseTimeOfDay('00:00')).toBe(0);
    expect(parseTimeOfDay('09:30')).toBe(570);
    expect(parseTimeOfDay('23:59')).toBe(1439);
    for (const bad of ['24:00', '9:00', '09:60', '09:00:00', ' 09:00', '']) {
      expect(parseTimeOfDay(bad), bad).toBeNull();
    }
  });

  it('counts calendar days and ISO weekdays across months, years and leap days', () => {
    expect(isoWeekday('2026-11-23')).toBe(1);
    expect(isoWeekday('2026-11-29')).toBe(7);
    expect(addDays('2026-12-28', 7)).toBe('2027-01-04');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });
});

describe('time zones', () => {
  it('knows IANA names and refuses everything else', () => {
    for (const zone of ['Europe/Berlin', 'America/New_York', 'UTC', 'Asia/Kathmandu', 'Etc/GMT+5']) {
      expect(isTimeZone(zone), zone).toBe(true);
    }
    for (const zone of ['Mars/Olympus_Mons', '+01:00', '', 'Europe/Berlin; drop table', 'Europe/../Berlin']) {
      expect(isTimeZone(zone), zone).toBe(false);
    }
  });

  it('gives the offset in force, including half and three-quarter hours', () => {
    expect(offsetAt(new Date('2026-01-15T12:00:00Z'), 'Europe/Berlin')).toBe(HOUR);
    expect(offsetAt(new Date('2026-07-15T12:00:00Z'), 'Europe/Berlin')).toBe(2 * HOUR);
    expect(offsetAt(new Date('2026-07-15T12:00:00Z'), 'Asia/Kolkata')).toBe(5.5 * HOUR);
    expect(offsetAt(new Date('2026-07-15T12:00:00Z'), 'Asia/Kathmandu')).toBe(5.75 * HOUR);
    expect(offsetAt(new Date('2026-07-15T12:00:00Z'), 'America/New_York')).toBe(-4 * HOUR);
  });

  it('reads the local date of an instant in its zone', () => {
    const instant = new Date('2026-11-22T23:30:00Z');
    expect(localDateOf(instant, 'Europe/Berlin')).toBe('2026-11-23');
    expect(localDateOf(instant, 'America/New_York')).toBe('2026-11-22');
    expect(localDateOf(instant, 'UTC')).toBe('2026-11-22');
  });

  it('keeps milliseconds in the wall clock', () => {
    const instant = new Date('2026-07-15T12:34:56.789Z');
    expect(new Date(wallOf(instant, 'Europe/Berlin')).toISOString()).toBe('2026-07-15T14:34:56.789Z');
  });
});

describe('local time to instant', () => {
  it('maps an ordinary local time once', () => {
    expect(instantAt('2026-07-01', '09:00', 'Europe/Berlin')).toEqual({
      instant: new Date('2026-07-01T07:00:00Z'),
      resolution: 'exact',
    });
    expect(iso(instantAt('2026-12-01', '09:00', 'Europe/Berlin').instant)).toBe('2026-12-01T08:00:00.000Z');
    expect(iso(instantAt('2026-07-01', '09:00', 'Asia/Kathmandu').instant)).toBe('2026-07-01T03:15:00.000Z');
  });

  it('moves a time the clocks skip forward by the length of the jump', () => {
    const cases = [
      // Europe/Berlin springs forward from 02:00 to 03:00: 02:30 becomes 03:30 CEST.
      ['2026-03-29', '02:30', 'Europe/Berlin', '2026-03-29T01:30:00.000Z'],
      ['2026-03-08', '02:30', 'America/New_York', '2026-03-08T07:30:00.000Z'],
      ['2026-10-04', '02:30', 'Australia/Sydney', '2026-10-03T16:30:00.000Z'],
      // Lord Howe Island moves by half an hour: 02:15 becomes 02:45.
      ['2026-10-04', '02:15', 'Australia/Lord_Howe', '2026-10-03T15:45:00.000Z'],
    ] as const;
    for (const [date, time, zone, expected] of cases) {
      const { instant, resolution } = instantAt(date, time, zone);
      expect(resolution, `${date} ${time} ${zone}`).toBe('skipped');
      expect(iso(instant), `${date} ${time} ${zone}`).toBe(expected);
    }
  });

  it('takes the first of a time that happens twice when the clocks go back', () => {
    const cases = [
      ['2026-10-25', '02:30', 'Europe/Berlin', '2026-10-25T00:30:00.000Z'],
      ['2026-11-01', '01:30', 'America/New_York', '2026-11-01T05:30:00.000Z'],
      ['2026-04-05', '02:30', 'Australia/Sydney', '2026-04-04T15:30:00.000Z'],
      ['2026-04-05', '01:45', 'Australia/Lord_Howe', '2026-04-04T14:45:00.000Z'],
    ] as const;
    for (const [date, time, zone, expected] of cases) {
      const { instant, resolution } = instantAt(date, time, zone);
      expect(resolution, `${date} ${time} ${zone}`).toBe('repeated');
      expect(iso(instant), `${date} ${time} ${zone}`).toBe(expected);
    }
  });

  const zones = fc.constantFrom(
    'Europe/Berlin',
    'America/New_York',
    'America/Sao_Paulo',
    'Australia/Sydney',
    'Australia/Lord_Howe',
    'Asia/Kathmandu',
    'Pacific/Auckland',
    'UTC',
  );
  const instants = fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2040, 0, 1) });

  it('round-trips every instant through its wall clock (property)', () => {
    fc.assert(
      fc.property(zones, instants, (zone, time) => {
        const wall = wallOf(new Date(time), zone);
        const { instant, resolution } = instantOfWall(wall, zone);
        expect(resolution).not.toBe('skipped');
        if (resolution === 'exact') expect(instant.getTime()).toBe(time);
        else expect(instant.getTime()).toBeLessThanOrEqual(time);
        expect(wallOf(instant, zone)).toBe(wall);
      }),
      { numRuns: 2000 },
    );
  });

  it('resolves every wall time to an instant at that wall time, or just after a skipped one (property)', () => {
    fc.assert(
      fc.property(zones, instants, (zone, wall) => {
        const { instant, resolution } = instantOfWall(wall, zone);
        const reached = wallOf(instant, zone);
        if (resolution !== 'skipped') {
          expect(reached).toBe(wall);
          return;
        }
        // Skipped: pushed forward by exactly the jump, to a wall time that exists.
        const jump = offsetAt(instant, zone) - offsetAt(new Date(instant.getTime() - DAY_MS), zone);
        expect(jump).toBeGreaterThan(0);
        expect(reached - wall).toBe(jump);
        expect(instantOfWall(reached, zone).resolution).toBe('exact');
      }),
      { numRuns: 2000 },
    );
  });

  it('resolves every quarter hour of every 2026 transition day in several zones (sweep)', () => {
    let skipped = 0;
    let repeated = 0;
    for (const zone of ['Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'America/Santiago']) {
      for (let day = Date.UTC(2026, 0, 1); day < Date.UTC(2027, 0, 1); day += DAY_MS) {
        if (offsetAt(new Date(day), zone) === offsetAt(new Date(day + 2 * DAY_MS), zone)) continue;
        for (let wall = day; wall < day + 3 * DAY_MS; wall += 15 * 60_000) {
          const { instant, resolution } = instantOfWall(wall, zone);
          const reached = wallOf(instant, zone);
          if (resolution === 'skipped') {
            skipped += 1;
            const jump = offsetAt(instant, zone) - offsetAt(new Date(instant.getTime() - DAY_MS), zone);
            expect(reached - wall).toBe(jump);
          } else {
            expect(reached).toBe(wall);
          }
          if (resolution === 'repeated') {
            repeated += 1;
            // The first occurrence: the clocks go back by `back`, and the same wall time comes again that much later.
            const back = offsetAt(instant, zone) - offsetAt(new Date(instant.getTime() + DAY_MS), zone);
            expect(back).toBeGreaterThan(0);
            expect(wallOf(new Date(instant.getTime() + back), zone)).toBe(wall);
          }
        }
      }
    }
    // Each zone skips and repeats a stretch once a year (Lord Howe by half an hour): the sweep met them all.
    expect(skipped).toBeGreaterThanOrEqual(4 * 2);
    expect(repeated).toBeGreaterThanOrEqual(4 * 2);
  });

  it('refuses a malformed time of day', () => {
    expect(() => wallAt('2026-01-01', '25:00')).toThrow(RangeError);
  });
});
