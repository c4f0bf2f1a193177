import { describe, expect, it } from 'vitest';
import { auditActorName, auditChangeLines, auditFilterSchema } from './log';

describe('auditChangeLines', () => {
  it('says a setting before → after, and facts as they are, in words', () => {
    expect(
      auditChangeLines({
        name: { before: 'Platform', after: 'Platform Core' },
        retentionDays: { before: 365, after: 90 },
        requireSso: { before: null, after: true },
      }),
    ).toEqual(['Name: Platform → Platform Core', 'Retention days: 365 → 90', 'Require sso: none → yes']);
    expect(
      auditChangeLines({ format: 'csv', filter: { action: 'workspace.renamed', from: '2026-11-01' } }),
    ).toEqual(['Format: csv', 'Filter: Action Workspace renamed, From 2026-11-01']);
    expect(auditChangeLines({ filter: {}, scopes: ['results:read', 'health-checks:read'] })).toEqual([
      'Filter: none',
      'Scopes: results:read, health-checks:read',
    ]);
    expect(auditChangeLines(null)).toEqual([]);
  });

  it('names the actor by kind', () => {
    expect(auditActorName({ actorKind: 'user', actorLabel: 'ann@example.com' })).toBe('ann@example.com');
    expect(auditActorName({ actorKind: 'api-token', actorLabel: 'CI' })).toBe('API token “CI”');
    expect(auditActorName({ actorKind: 'scim-token', actorLabel: 'x' })).toBe('SCIM token');
    expect(auditActorName({ actorKind: 'system', actorLabel: 'x' })).toBe('Pulsecheck');
  });
});

describe('auditFilterSchema', () => {
  it('takes only calendar days that exist (the database refuses the others)', () => {
    for (const day of ['2026-02-31', '2026-02-29', '2026-04-31', '0000-01-01', '2026-13-01', '2026-1-01'])
      expect(auditFilterSchema.safeParse({ from: day }).success, day).toBe(false);
    for (const day of ['2024-02-29', '2026-12-31', '0001-01-01'])
      expect(auditFilterSchema.safeParse({ to: day }).success, day).toBe(true);
  });
});
