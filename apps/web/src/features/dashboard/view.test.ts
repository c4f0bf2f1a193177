import { describe, expect, it } from 'vitest';
import { csvFileName, itemsOf, readView, viewParams, viewUrl } from './view';

describe('dashboard view in the address', () => {
  it('reads the filter and tab, falling back to all items and the overview', () => {
    expect(readView(new URLSearchParams('filter=health-checks&tab=completed'))).toEqual({
      filter: 'health-checks',
      tab: 'completed',
    });
    expect(readView(new URLSearchParams('filter=nonsense&tab=<script>'))).toEqual({
      filter: 'all',
      tab: 'overview',
    });
    expect(readView(new URLSearchParams(''))).toEqual({ filter: 'all', tab: 'overview' });
  });

  it('writes only what differs from the defaults, and round-trips', () => {
    expect(viewParams({ filter: 'all', tab: 'overview' }).toString()).toBe('');
    const view = { filter: 'loops', tab: 'active' } as const;
    expect(viewParams(view).toString()).toBe('filter=loops&tab=active');
    expect(readView(viewParams(view))).toEqual(view);
    expect(viewUrl('https://pc.example', view)).toBe(
      'https://pc.example/admin/dashboard?filter=loops&tab=active',
    );
    expect(viewUrl('https://pc.example', { filter: 'all', tab: 'overview' })).toBe(
      'https://pc.example/admin/dashboard',
    );
  });

  it('lists per tab what the filter admits, health checks and loops together newest first', () => {
    const healthChecks = [
      { id: 'a', status: 'phase_1', createdAt: '2026-11-05T00:00:00Z' },
      { id: 'b', status: 'phase_2', createdAt: '2026-11-03T00:00:00Z' },
      { id: 'c', status: 'completed', createdAt: '2026-11-01T00:00:00Z' },
    ];
    const loops = [
      { id: 'l1', status: 'active', createdAt: '2026-11-04T00:00:00Z' },
      { id: 'l2', status: 'completed', createdAt: '2026-11-02T00:00:00Z' },
    ];
    const ids = (list: { id: string }[]) => list.map((i) => i.id);
    const all = itemsOf({ healthChecks, loops }, 'all');
    expect(ids(all.overview)).toEqual(['a', 'l1', 'b', 'l2', 'c']);
    expect(ids(all.active)).toEqual(['a', 'l1', 'b']);
    expect(ids(all.completed)).toEqual(['l2', 'c']);
    const onlyChecks = itemsOf({ healthChecks, loops }, 'health-checks');
    expect(ids(onlyChecks.overview)).toEqual(['a', 'b', 'c']);
    const onlyLoops = itemsOf({ healthChecks, loops }, 'loops');
    expect(ids(onlyLoops.active)).toEqual(['l1']);
    expect(ids(onlyLoops.completed)).toEqual(['l2']);
  });

  it('names the download after the view', () => {
    expect(csvFileName({ filter: 'all', tab: 'overview' }, '2026-11-23')).toBe(
      'pulsecheck-dashboard-2026-11-23.csv',
    );
    expect(csvFileName({ filter: 'health-checks', tab: 'completed' }, '2026-11-23')).toBe(
      'pulsecheck-dashboard-health-checks-completed-2026-11-23.csv',
    );
  });
});
