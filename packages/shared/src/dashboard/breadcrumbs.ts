/**
 * The admin layout's breadcrumb (spec section 2, 'Admin layout'). A crumb's `label` is a catalogue key
 * ('breadcrumbs.teamManagement', said in the reader's language) for the app's own segments, else the segment in
 * words ('Team Management').
 */
export type Crumb = { label: string; href: string | null };

/** The app's path segments that have words of their own in every language (area `breadcrumbs`). */
const NAMED = new Set([
  'account-settings',
  'api-tokens',
  'audit-log',
  'completion-status',
  'configure',
  'configure-health-check',
  'configure-loop',
  'dashboard',
  'health-check',
  'health-checks',
  'insights',
  'integrations',
  'invitations',
  'loop-insights',
  'loop-results',
  'manage',
  'new',
  'notifications',
  'organisation',
  'overview',
  'results',
  'security',
  'team-management',
  'templates',
  'webhooks',
  'workspace-settings',
  'workspaces',
]);

/** A segment's label: its catalogue key when it has one, else the segment in words. */
const labelOf = (segment: string) =>
  NAMED.has(segment)
    ? `breadcrumbs.${segment.replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase())}`
    : capitalise(segment);

/** Segments after which an id-like segment is named like the segment itself. */
const LABEL_AFTER = new Set(['loop-results', 'loop-insights', 'configure-loop', 'completion-status']);

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
  if (segments[1] === 'loop-results') crumbs.push({ label: labelOf('dashboard'), href: '/admin/dashboard' });
  let path = '/admin';
  for (let index = 1; index < segments.length; index += 1) {
    const segment = segments[index] ?? '';
    path += `/${segment}`;
    if (isIdLike(segment)) {
      const before = segments[index - 1] ?? '';
      if (LABEL_AFTER.has(before)) crumbs.push({ label: labelOf(before), href: null });
      continue;
    }
    crumbs.push({ label: labelOf(segment), href: LINKABLE.has(path) ? path : null });
  }
  const last = crumbs.at(-1);
  if (last) last.href = null;
  return crumbs;
}
