import { describe, expect, it } from 'vitest';
import { SCIM_SCHEMAS } from '@pulsecheck/shared/scim/rules';
import {
  booleanOf,
  groupChange,
  paging,
  parseFilter,
  patchOperations,
  patchUser,
  ScimError,
  userFromBody,
  type UserRecord,
} from './protocol';

const base: UserRecord = {
  userName: 'ada@acme.test',
  externalId: null,
  givenName: 'Ada',
  familyName: 'Lovelace',
  displayName: null,
  emails: null,
  active: true,
};
const ops = (...operations: unknown[]) =>
  patchOperations({ schemas: [SCIM_SCHEMAS.patchOp], Operations: operations });
const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof ScimError) return error.toBody();
    throw error;
  }
  throw new Error('no refusal');
};

describe('SCIM protocol', () => {
  it('parses equality filters on the allowed attributes, case-insensitive operator and name, with escapes', () => {
    expect(parseFilter('userName eq "a@b.test"', ['username'])).toEqual({
      attribute: 'username',
      value: 'a@b.test',
    });
    expect(parseFilter('USERNAME EQ "x\\"y"', ['username'])).toEqual({ attribute: 'username', value: 'x"y' });
    expect(parseFilter(undefined, ['username'])).toBeNull();
    for (const filter of [
      'userName co "a"',
      'title eq "x"',
      'userName eq "a" and active eq true',
      'userName eq a',
    ])
      expect(refusal(() => parseFilter(filter, ['username']))).toMatchObject({
        status: '400',
        scimType: 'invalidFilter',
      });
  });

  it('pages as RFC 7644 3.4.2.4 says', () => {
    expect(paging(undefined, undefined)).toEqual({ startIndex: 1, count: 100 });
    expect(paging('0', '-5')).toEqual({ startIndex: 1, count: 0 });
    expect(paging('3', '1000')).toEqual({ startIndex: 3, count: 200 });
    expect(refusal(() => paging('x', undefined))).toMatchObject({ scimType: 'invalidValue' });
  });

  it("reads Entra's string booleans", () => {
    expect(booleanOf('False', 'active')).toBe(false);
    expect(booleanOf('true', 'active')).toBe(true);
    expect(booleanOf(false, 'active')).toBe(false);
    expect(refusal(() => booleanOf('no', 'active'))).toMatchObject({ scimType: 'invalidValue' });
  });

  it('applies user PATCH with and without path, leaving the input unchanged', () => {
    const next = patchUser(
      base,
      ops(
        { op: 'Replace', path: 'emails[type eq "work"].value', value: 'ada@work.test' },
        { op: 'replace', path: `${SCIM_SCHEMAS.user}:name.givenName`, value: 'Augusta' },
        { op: 'replace', value: { active: false, 'name.familyName': 'King', displayName: 'A. King' } },
        { op: 'Add', path: 'phoneNumbers[type eq "work"].value', value: '123' },
      ),
    );
    expect(next).toEqual({
      ...base,
      givenName: 'Augusta',
      familyName: 'King',
      displayName: 'A. King',
      active: false,
      emails: [{ value: 'ada@work.test', type: 'work', primary: true }],
    });
    expect(base.active).toBe(true);
    expect(patchUser(next, ops({ op: 'remove', path: 'emails[type eq "work"].value' })).emails).toEqual([]);
  });

  it('keeps active when a PUT leaves it out, and makes a new user active', () => {
    expect(userFromBody({ userName: 'a@b.test' }, { ...base, active: false }).active).toBe(false);
    expect(userFromBody({ userName: 'a@b.test' }).active).toBe(true);
    expect(userFromBody({ userName: 'a@b.test', active: 'False' }).active).toBe(false);
  });

  it('refuses malformed PatchOp bodies', () => {
    expect(refusal(() => patchOperations({ Operations: [] }))).toMatchObject({ scimType: 'invalidSyntax' });
    expect(refusal(() => ops({ op: 'copy', path: 'a', value: 1 }))).toMatchObject({
      scimType: 'invalidSyntax',
    });
    expect(refusal(() => ops({ op: 'remove' }))).toMatchObject({ scimType: 'noTarget' });
    expect(
      refusal(() => patchUser(base, ops({ op: 'add', path: 'emails[type eq "work"', value: 'x' }))),
    ).toMatchObject({
      scimType: 'invalidPath',
    });
  });

  it('reads group PATCH as Entra and Okta send it', () => {
    expect(
      groupChange(
        ops(
          { op: 'Add', path: 'members', value: [{ value: 'u1' }, { value: 'u2' }] },
          { op: 'Remove', path: 'members', value: [{ value: 'u3' }] },
          { op: 'remove', path: 'members[value eq "u4"]' },
          { op: 'Replace', path: 'displayName', value: 'Team' },
        ),
      ),
    ).toEqual({ add: ['u1', 'u2'], remove: ['u3', 'u4'], displayName: 'Team' });
    expect(groupChange(ops({ op: 'replace', value: { id: 'g', displayName: 'New' } }))).toEqual({
      add: [],
      remove: [],
      displayName: 'New',
    });
    expect(groupChange(ops({ op: 'replace', path: 'members', value: [{ value: 'u9' }] }))).toMatchObject({
      replaceMembers: ['u9'],
    });
    expect(refusal(() => groupChange(ops({ op: 'add', path: 'owners', value: [] })))).toMatchObject({
      scimType: 'invalidPath',
    });
  });
});
