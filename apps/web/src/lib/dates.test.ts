import { describe, expect, it } from 'vitest';
import { formatDate, formatDay } from './dates';

// The hand-written dates must read exactly as the browser's own medium English dates.
describe('dates', () => {
  const medium = new Intl.DateTimeFormat('en', { dateStyle: 'medium' });
  const mediumUtc = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'UTC' });

  it('writes a timestamp’s date as Intl does, in every month, across year ends and leap days', () => {
    for (let i = 0; i < 800; i++) {
      const at = new Date(Date.UTC(1999, 11, 25) + i * 37 * 3_600_000 * 24 + i * 3_599_000);
      expect(formatDate(at.toISOString())).toBe(medium.format(at));
    }
    expect(formatDate('2028-02-29T12:00:00Z')).toBe(medium.format(new Date('2028-02-29T12:00:00Z')));
  });

  it('writes a calendar day as Intl does in UTC, and refuses what is no date', () => {
    for (const day of ['2026-01-05', '2026-09-30', '2027-01-31', '2028-02-29', '2026-12-31']) {
      expect(formatDay(day)).toBe(mediumUtc.format(new Date(`${day}T00:00:00Z`)));
    }
    expect(() => formatDay('not-a-day')).toThrow(RangeError);
    expect(() => formatDate('nope')).toThrow(RangeError);
  });
});
