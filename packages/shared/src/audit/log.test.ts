import { describe, expect, it } from 'vitest';
import { compileCatalogue } from '../i18n/compile';
import { Translator } from '../i18n/translate';
import englishWords from '../../messages/en/audit.json';
import germanWords from '../../messages/de/audit.json';
import { auditActorName, auditChangeLines, auditFilterSchema } from './log';

/** The audit area's words (read as JSON, without Node's file system). */
const english = new Translator('en', compileCatalogue(englishWords, 'en'));
const german = new Translator('de', compileCatalogue(germanWords, 'de'));

describe('auditChangeLines', () => {
  it('says a setting before → after, and facts as they are, in words', () => {
    expect(
      auditChangeLines(
        {
          name: { before: 'Platform', after: 'Platform Core' },
          retentionDays: { before: 365, after: 90 },
          requireSso: { before: null, after: true },
        },
        english,
      ),
    ).toEqual(['Name: Platform → Platform Core', 'Retention days: 365 → 90', 'Require sso: none → yes']);
    expect(
      auditChangeLines(
        { format: 'csv', filter: { action: 'workspace.renamed', from: '2026-11-01' } },
        english,
      ),
    ).toEqual(['Format: csv', 'Filter: Action Workspace renamed, From 2026-11-01']);
    expect(auditChangeLines({ filter: {}, scopes: ['results:read', 'health-checks:read'] }, english)).toEqual(
      ['Filter: none', 'Scopes: results:read, health-checks:read'],
    );
    expect(auditChangeLines(null, english)).toEqual([]);
  });

  it("says the fields, yes, no, none and the actions in the reader's language, the recorded values as recorded", () => {
    expect(
      auditChangeLines(
        {
          retentionDays: { before: 365, after: 90 },
          requireTwoFactor: { before: false, after: true },
          filter: { action: 'workspace.renamed' },
          workspace: 'Platform',
        },
        german,
      ),
    ).toEqual([
      'Aufbewahrung (Tage): 365 → 90',
      'Zwei-Faktor-Anmeldung verlangen: nein → ja',
      'Filter: Aktion Workspace umbenannt',
      'Workspace: Platform',
    ]);
    expect(auditActorName({ actorKind: 'api-token', actorLabel: 'CI' }, german)).toBe('API-Token „CI“');
  });

  it('names the actor by kind', () => {
    expect(auditActorName({ actorKind: 'user', actorLabel: 'ann@example.com' }, english)).toBe(
      'ann@example.com',
    );
    expect(auditActorName({ actorKind: 'api-token', actorLabel: 'CI' }, english)).toBe('API token “CI”');
    expect(auditActorName({ actorKind: 'scim-token', actorLabel: 'x' }, english)).toBe('SCIM token');
    expect(auditActorName({ actorKind: 'system', actorLabel: 'x' }, english)).toBe('Pulsecheck');
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
