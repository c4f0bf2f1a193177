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

  it('lists per tab what the filter admits', () => {
    const items = [
      { id: 'a', status: 'phase_1' },
      { id: 'b', status: 'phase_2' },
      { id: 'c', status: 'completed' },
    ];
    const all = itemsOf(items, 'all');
    expect(all.overview.map((i) => i.id)).toEqual(['a', 'b', 'c']);
    expect(all.active.map((i) => i.id)).toEqual(['a', 'b']);
    expect(all.completed.map((i) => i.id)).toEqual(['c']);
    expect(itemsOf(items, 'health-checks')).toEqual(all);
    expect(itemsOf(items, 'loops')).toEqual({ overview: [], active: [], completed: [] });
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
