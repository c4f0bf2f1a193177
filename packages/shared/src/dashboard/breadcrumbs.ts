/** The admin layout's breadcrumb (spec section 2, 'Admin layout'). */
export type Crumb = { label: string; href: string | null };

/** Segments after which an id-like segment gets a fixed label. */
const LABEL_AFTER: Record<string, string> = {
  'loop-results': 'Loop Results',
  'loop-insights': 'Loop Insights',
  'configure-loop': 'Configure Loop',
  'completion-status': 'Completion Status',
};

/** Admin paths that are screens of their own, so their crumbs may link. */
const LINKABLE = new Set([
  '/admin/dashboard',
  '/admin/templates',
  '/admin/workspaces',
  '/admin/team-management',
  '/admin/team-management/invitations',
  '/admin/account-settings',
  '/admin/account-settings/notifications',
  '/admin/account-settings/security',
  '/admin/workspace-settings',
]);

const ID_LIKE = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\d+|[A-Za-z0-9_]{20,})$/i;

export const isIdLike = (segment: string) => ID_LIKE.test(segment);

/** 'team-management' → 'Team Management'. */
export const capitalise = (segment: string) =>
  segment
    .split('-')
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');

/**
 * Crumbs after the home link (which always goes to /admin/dashboard). Id-like segments are labelled after the
 * loop segments, and skipped elsewhere (an id is no place to name); under loop-results a Dashboard crumb comes
 * first. The last crumb is the current page and never links.
 */
export function breadcrumbs(pathname: string): Crumb[] {
  const segments = pathname.split('/').filter(Boolean).map(decodeURIComponent);
  if (segments[0] !== 'admin') return [];
  const crumbs: Crumb[] = [];
  if (segments[1] === 'loop-results') crumbs.push({ label: 'Dashboard', href: '/admin/dashboard' });
  let path = '/admin';
  for (let index = 1; index < segments.length; index += 1) {
    const segment = segments[index] ?? '';
    path += `/${segment}`;
    if (isIdLike(segment)) {
      const label = LABEL_AFTER[segments[index - 1] ?? ''];
      if (label) crumbs.push({ label, href: null });
      continue;
    }
    crumbs.push({ label: capitalise(segment), href: LINKABLE.has(path) ? path : null });
  }
  const last = crumbs.at(-1);
  if (last) last.href = null;
  return crumbs;
}
