import { describe, expect, it } from 'vitest';
import { english } from '../i18n/english.test-support';
import {
  displayName,
  displayRole,
  inviteMemberSchema,
  matchesSearch,
  TEAM_MESSAGES,
  updateMemberSchema,
} from './schemas';

describe('team display rules', () => {
  it("shows 'Unknown' without a name and 'Member' without a role", () => {
    expect(english.say(displayName(null))).toBe('Unknown');
    expect(english.say(displayName('  '))).toBe('Unknown');
    expect(displayName('Ada')).toBe('Ada');
    expect(english.say(displayRole(undefined))).toBe('Member');
    expect(displayRole('Engineer')).toBe('Engineer');
  });

  it('searches name, e-mail, role and department, ignoring case', () => {
    const member = {
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      role: 'Engineer',
      department: 'Platform',
    };
    for (const query of ['', 'ada', 'LOVE', 'example.com', 'engin', 'platf'])
      expect(matchesSearch(member, query)).toBe(true);
    expect(matchesSearch(member, 'grace')).toBe(false);
    expect(matchesSearch({ ...member, name: null, role: null, department: null }, 'ada@')).toBe(true);
  });
});

describe('invite form', () => {
  it('needs a valid e-mail and a role; admin access is off unless ticked', () => {
    const ok = inviteMemberSchema.parse({ email: ' Ada@Example.COM ', role: ' Engineer ' });
    expect(ok).toEqual({ email: 'ada@example.com', role: 'Engineer', admin: false });
    const bad = inviteMemberSchema.safeParse({ email: 'ada@example', role: '' });
    expect(bad.success).toBe(false);
    const messages = bad.error?.issues.map((i) => i.message);
    expect(messages).toEqual([TEAM_MESSAGES.emailInvalid, TEAM_MESSAGES.roleRequired]);
  });

  it('refuses an empty change and an access other than admin or member', () => {
    expect(updateMemberSchema.safeParse({}).success).toBe(false);
    expect(updateMemberSchema.safeParse({ access: 'participant' }).success).toBe(false);
    expect(updateMemberSchema.safeParse({ access: 'member' }).success).toBe(true);
  });
});
