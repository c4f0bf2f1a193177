import { describe, expect, it } from 'vitest';
import { can, POLICY, type Action, type Actor } from './policy';

const me = 'user-me';
const as = (access: Actor['access'], participates = false): Actor => ({ userId: me, access, participates });
const admin = as('admin');
const member = as('member');
const participant = as('participant', true);
const outsider = as(null);
const joinedElsewhere = as('participant');

describe('the access policy (PRODUCT-DECISIONS 3)', () => {
  it('lets admins and members use a workspace and only admins administer it', () => {
    expect([admin, member, participant, outsider].map((a) => can(a, 'workspace:use'))).toEqual([
      true,
      true,
      false,
      false,
    ]);
    expect([admin, member, participant, outsider].map((a) => can(a, 'workspace:administer'))).toEqual([
      true,
      false,
      false,
      false,
    ]);
  });

  it('shows a check to its workspace managers and its participants, and lets only managers oversee it', () => {
    expect([admin, member, participant, joinedElsewhere, outsider].map((a) => can(a, 'check:view'))).toEqual([
      true,
      true,
      true,
      false,
      false,
    ]);
    expect([admin, member, participant, outsider].map((a) => can(a, 'check:oversee'))).toEqual([
      true,
      true,
      false,
      false,
    ]);
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
    expect([admin, member, joinedElsewhere, outsider].map((a) => can(a, 'check:participate'))).toEqual([
      true,
      true,
      true,
      false,
    ]);
  });

  it('refuses everything to someone with no access to the workspace', () => {
    for (const action of Object.keys(POLICY) as Action[])
      expect(can(outsider, action, { createdBy: me })).toBe(false);
  });
});
