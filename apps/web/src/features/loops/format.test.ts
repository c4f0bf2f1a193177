import { describe, expect, it } from 'vitest';
import { timeLeft } from './format';

describe('timeLeft', () => {
  it('says days and hours, hours and minutes, or minutes, in whole units', () => {
    const minute = 60_000;
    expect(timeLeft((2 * 1440 + 3 * 60 + 59) * minute)).toBe('2 days 3 hours left');
    expect(timeLeft(1440 * minute)).toBe('1 day left');
    expect(timeLeft((4 * 60 + 10) * minute + 5000)).toBe('4 hours 10 minutes left');
    expect(timeLeft(60 * minute)).toBe('1 hour left');
    expect(timeLeft(8 * minute)).toBe('8 minutes left');
    expect(timeLeft(59_999)).toBe('Closing now');
    expect(timeLeft(-5)).toBe('Closing now');
  });
});
