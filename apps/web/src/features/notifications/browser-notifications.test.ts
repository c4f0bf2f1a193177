import type { NotificationItem } from '@pulsecheck/shared/notifications/schemas';
import { describe, expect, it } from 'vitest';
import { takeArrivals } from './browser-notifications';

const item = (id: string, read = false): NotificationItem => ({
  id,
  type: 'new-response',
  message: `message ${id}`,
  link: null,
  healthCheckId: null,
  read,
  createdAt: '2026-11-23T12:00:00.000Z',
});

describe('takeArrivals', () => {
  it('gives the unread notifications not seen before, oldest first, and remembers every one', () => {
    const seen = new Set(['a']);
    // The API lists newest first.
    const arrivals = takeArrivals(seen, [item('d'), item('c', true), item('b'), item('a')]);
    expect(arrivals.map((n) => n.id)).toEqual(['b', 'd']);
    expect([...seen].sort()).toEqual(['a', 'b', 'c', 'd']);
  });

  it('gives each notification once, even when the list is refetched', () => {
    const seen = new Set<string>();
    expect(takeArrivals(seen, [item('a')]).map((n) => n.id)).toEqual(['a']);
    expect(takeArrivals(seen, [item('a')])).toEqual([]);
    expect(takeArrivals(seen, [item('b'), item('a', true)]).map((n) => n.id)).toEqual(['b']);
  });

  it('never gives a notification that was read before it arrived here (read in another tab)', () => {
    const seen = new Set<string>();
    expect(takeArrivals(seen, [item('a', true)])).toEqual([]);
    // Marked unread again would not make it new: it was seen.
    expect(takeArrivals(seen, [item('a')])).toEqual([]);
  });
});
