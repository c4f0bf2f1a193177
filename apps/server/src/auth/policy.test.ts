import { describe, expect, it } from 'vitest';
import { can, POLICY, type Action, type Actor } from './policy';

const me = 'user-me';
const as = (access: Actor['access'], participates = false): Actor => ({ userId: me, access, participates });
const admin = as('admin');
const member = as('member');
const participant = as('participant', true);
const outsider = as(null);
const joinedElsewhere = as('participant');
const callers = { admin, member, participant, joinedElsewhere, outsider };
/** Who of `callers` may do `action`. */
const allowed = (action: Action) =>
  Object.entries(callers)
    .filter(([, actor]) => can(actor, action))
    .map(([name]) => name);

describe('the access policy (PRODUCT-DECISIONS 3)', () => {
  it('lets admins and members use a workspace and only admins administer it', () => {
    expect(allowed('workspace:use')).toEqual(['admin', 'member']);
    expect(allowed('workspace:administer')).toEqual(['admin']);
  });

  it('shows a check to its workspace managers and its participants, and lets only managers oversee it', () => {
    expect(allowed('check:view')).toEqual(['admin', 'member', 'participant']);
    expect(allowed('check:oversee')).toEqual(['admin', 'member']);
  });

  it('lets admins change any check and members only the checks they created', () => {
    expect(can(admin, 'check:change', { createdBy: 'someone-else' })).toBe(true);
    expect(can(member, 'check:change', { createdBy: me })).toBe(true);
    expect(can(member, 'check:change', { createdBy: 'someone-else' })).toBe(false);
    // A creator who is no longer an admin or member changes nothing.
    expect(can(as('participant', true), 'check:change', { createdBy: me })).toBe(false);
    expect(can(outsider, 'check:change', { createdBy: me })).toBe(false);
  });

  it('lets every member of the workspace take part, and nobody else', () => {
    expect(allowed('check:participate')).toEqual(['admin', 'member', 'participant', 'joinedElsewhere']);
  });

  it('treats loops and workspace templates as health checks: managers oversee, admins and creators change', () => {
    expect(allowed('loop:oversee')).toEqual(['admin', 'member']);
    for (const action of ['loop:change', 'template:change'] as const) {
      expect(can(admin, action, { createdBy: 'someone-else' })).toBe(true);
      expect(can(member, action, { createdBy: me })).toBe(true);
      expect(can(member, action, { createdBy: 'someone-else' })).toBe(false);
      expect(can(as('participant', true), action, { createdBy: me })).toBe(false);
    }
  });

  it('lets the organisation owner and its admins oversee it, and only the owner appoint admins (issue 16)', () => {
    const owner: Actor = { userId: me, access: null, organizationRole: 'owner' };
    const orgAdmin: Actor = { userId: me, access: 'member', organizationRole: 'admin' };
    expect(can(owner, 'organization:administer')).toBe(true);
    expect(can(orgAdmin, 'organization:administer')).toBe(true);
    expect(can(owner, 'organization:appoint-admins')).toBe(true);
    expect(can(orgAdmin, 'organization:appoint-admins')).toBe(false);
    // Workspace access alone, even admin access, gives nothing of the organisation.
    expect(allowed('organization:administer')).toEqual([]);
    expect(allowed('organization:appoint-admins')).toEqual([]);
    // SCIM provisioning (issue 37): its token is the owner's alone.
    expect(can(owner, 'organization:provision')).toBe(true);
    expect(can(orgAdmin, 'organization:provision')).toBe(false);
    expect(allowed('organization:provision')).toEqual([]);
    // The audit log (issue 37): the owner and organisation admins, never a workspace role alone.
    expect(can(owner, 'organization:audit')).toBe(true);
    expect(can(orgAdmin, 'organization:audit')).toBe(true);
    expect(can({ userId: me, access: 'member', organizationRole: 'member' }, 'organization:audit')).toBe(
      false,
    );
    expect(allowed('organization:audit')).toEqual([]);
    expect(can(owner, 'organization:shorten-audit-retention')).toBe(true);
    expect(can(orgAdmin, 'organization:shorten-audit-retention')).toBe(false);
    // The organisation role gives nothing inside a workspace either.
    expect(can(owner, 'check:view')).toBe(false);
    expect(can(owner, 'workspace:use')).toBe(false);
  });

  it('lets workspace admins manage its webhooks, and the owner and organisation admins the organisation-wide ones', () => {
    expect(allowed('webhook:manage')).toEqual(['admin']);
    const owner: Actor = { userId: me, access: null, organizationRole: 'owner' };
    const orgAdmin: Actor = { userId: me, access: 'member', organizationRole: 'admin' };
    const wide = { organizationWide: true };
    expect(can(owner, 'webhook:manage', wide)).toBe(true);
    expect(can(orgAdmin, 'webhook:manage', wide)).toBe(true);
    expect(can(admin, 'webhook:manage', wide)).toBe(false);
    expect(can(owner, 'webhook:manage')).toBe(false);
  });

  it('refuses everything to someone with no access to the workspace', () => {
    for (const action of Object.keys(POLICY) as Action[])
      expect(can(outsider, action, { createdBy: me })).toBe(false);
  });
});
