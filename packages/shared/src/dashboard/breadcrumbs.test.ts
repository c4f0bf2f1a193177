import { describe, expect, it } from 'vitest';
import { english } from '../i18n/english.test-support';
import { breadcrumbs, capitalise } from './breadcrumbs';

const ID = '3f2a9c1e-1b2c-4d5e-8f90-123456789abc';
/** The crumbs with their labels in English words (a label is a catalogue key for the app's own segments). */
const said = (pathname: string) =>
  breadcrumbs(pathname).map((crumb) => ({ ...crumb, label: english.say(crumb.label) }));

describe('breadcrumb labels', () => {
  it('capitalises hyphenated words', () => {
    expect(capitalise('team-management')).toBe('Team Management');
    expect(capitalise('configure-health-check')).toBe('Configure Health Check');
  });

  it('names the dashboard and links nothing for the current page', () => {
    expect(said('/admin/dashboard')).toEqual([{ label: 'Dashboard', href: null }]);
  });

  it('links screens above the current page', () => {
    expect(said('/admin/team-management/invitations')).toEqual([
      { label: 'Team Management', href: '/admin/team-management' },
      { label: 'Invitations', href: null },
    ]);
    expect(said('/admin/account-settings/notifications')).toEqual([
      { label: 'Account Settings', href: '/admin/account-settings' },
      { label: 'Notifications', href: null },
    ]);
  });

  it('skips ids of health checks and templates', () => {
    expect(said(`/admin/health-check/${ID}/manage`)).toEqual([
      { label: 'Health Check', href: null },
      { label: 'Manage', href: null },
    ]);
    expect(said(`/admin/templates/${ID}/configure`)).toEqual([
      { label: 'Templates', href: '/admin/templates' },
      { label: 'Configure', href: null },
    ]);
    expect(said('/admin/configure-health-check/new')).toEqual([
      { label: 'Configure Health Check', href: null },
      { label: 'New', href: null },
    ]);
  });

  it('labels ids after the loop segments', () => {
    expect(said(`/admin/loop-insights/${ID}/overview`)).toEqual([
      { label: 'Loop Insights', href: null },
      { label: 'Loop Insights', href: null },
      { label: 'Overview', href: null },
    ]);
    expect(said(`/admin/completion-status/${ID}`).at(-1)).toEqual({
      label: 'Completion Status',
      href: null,
    });
    expect(said(`/admin/configure-loop/${ID}`).at(-1)).toEqual({
      label: 'Configure Loop',
      href: null,
    });
  });

  it('inserts a Dashboard crumb under loop-results', () => {
    expect(said(`/admin/loop-results/${ID}`)).toEqual([
      { label: 'Dashboard', href: '/admin/dashboard' },
      { label: 'Loop Results', href: null },
      { label: 'Loop Results', href: null },
    ]);
  });

  it('has nothing outside the admin area', () => {
    expect(said('/dashboard')).toEqual([]);
  });
});
