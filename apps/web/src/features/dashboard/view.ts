import { dashboardStatus } from '@pulsecheck/shared/health-checks/rules';

/**
 * The dashboard's view: which items the filter buttons and the tabs list. It lives in the address
 * (`?filter=health-checks&tab=active`), so a reload, the back button and a shared link show the same view.
 */

export const FILTERS = [{ value: 'all' }, { value: 'loops' }, { value: 'health-checks' }] as const;
export type Filter = (typeof FILTERS)[number]['value'];

export const TABS = ['overview', 'active', 'completed'] as const;
export type Tab = (typeof TABS)[number];

export type DashboardView = { filter: Filter; tab: Tab };

type Item = { status: string; createdAt: string };

const isFilter = (value: string | null): value is Filter => FILTERS.some((f) => f.value === value);
const isTab = (value: string | null): value is Tab => TABS.some((t) => t === value);

/** The view in the address; anything unknown falls back to all items, overview. */
export function readView(params: URLSearchParams): DashboardView {
  const filter = params.get('filter');
  const tab = params.get('tab');
  return { filter: isFilter(filter) ? filter : 'all', tab: isTab(tab) ? tab : 'overview' };
}

/** The address's search parameters for a view; the defaults are left out. */
export function viewParams(view: DashboardView): URLSearchParams {
  const params = new URLSearchParams();
  if (view.filter !== 'all') params.set('filter', view.filter);
  if (view.tab !== 'overview') params.set('tab', view.tab);
  return params;
}

/** The absolute link to the dashboard showing `view`. */
export function viewUrl(origin: string, view: DashboardView): string {
  const search = viewParams(view).toString();
  return `${origin}/admin/dashboard${search ? `?${search}` : ''}`;
}

/**
 * The items the filter admits, health checks and loops together newest first, split as the tabs show them. A
 * paused loop is active (its status on the dashboard says so already).
 */
export function itemsOf<H extends Item, L extends Item>(
  lists: { healthChecks: readonly H[]; loops: readonly L[] },
  filter: Filter,
) {
  // ISO 8601 times in UTC order as their strings do; localeCompare would consult the locale's collation for
  // nothing (it was the dashboard's costliest function at first paint).
  const listed: (H | L)[] = [
    ...(filter === 'loops' ? [] : lists.healthChecks),
    ...(filter === 'health-checks' ? [] : lists.loops),
  ].sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
  return {
    overview: listed,
    active: listed.filter((item) => dashboardStatus(item.status) !== 'completed'),
    completed: listed.filter((item) => dashboardStatus(item.status) === 'completed'),
  } satisfies Record<Tab, (H | L)[]>;
}

/** The download's file name: the view it holds and the day. */
export function csvFileName(view: DashboardView, day: string): string {
  const parts = ['pulsecheck-dashboard'];
  if (view.filter !== 'all') parts.push(view.filter);
  if (view.tab !== 'overview') parts.push(view.tab);
  return `${[...parts, day].join('-')}.csv`;
}
