import { describe, expect, it } from 'vitest';
import {
  createTrackerIssueSchema,
  deliveryKey,
  trackerConnectSchema,
  issueBody,
  issueTitle,
  isNotOlder,
  issueKey,
  ISSUE_TITLE_MAX,
  pollKey,
  statusAfterIssueChange,
} from './rules';
import { compileCatalogue } from '../i18n/compile';
import { Translator } from '../i18n/translate';
import trackerWords from '../../messages/en/trackers.json';

/** The shared catalogue's English words of this area. */
const english = new Translator('en', compileCatalogue(trackerWords, 'en'));

describe('the sync rules (decision 0023)', () => {
  it("writes an issue's key as each tracker does", () => {
    expect(issueKey('github', 'acme/web', 12)).toBe('acme/web#12');
    expect(issueKey('linear', 'ENG', 12)).toBe('ENG-12');
    expect(issueKey('jira', 'PROJ', 12)).toBe('PROJ-12');
  });

  it('makes the title from the description: one line, cut at the maximum', () => {
    expect(issueTitle('  Fix\nthe   build  ')).toBe('Fix the build');
    const long = issueTitle('x'.repeat(ISSUE_TITLE_MAX + 10));
    expect(long).toHaveLength(ISSUE_TITLE_MAX);
    expect(long.endsWith('…')).toBe(true);
  });

  it('puts the action, its component, its due date and a link in the body, nothing else', () => {
    const body = issueBody(
      {
        description: 'Shorter standups',
        componentTitle: 'Speed',
        dueDate: '2027-01-15',
        checkTitle: 'Sprint 12',
        resultsUrl: 'https://pulse.example.com/health-check/1/results',
      },
      english,
    );
    expect(body).toBe(
      'Shorter standups\n\nComponent: Speed\nDue: 2027-01-15\nFrom the health check "Sprint 12" in Pulsecheck: https://pulse.example.com/health-check/1/results',
    );
    expect(
      issueBody(
        { description: 'A', componentTitle: null, dueDate: null, checkTitle: 'C', resultsUrl: 'u' },
        english,
      ),
    ).toBe('A\n\nFrom the health check "C" in Pulsecheck: u');
  });

  it('ignores reports older than the last applied (one as old is applied: times have whole seconds)', () => {
    expect(isNotOlder(null, '2026-11-28T10:00:00Z')).toBe(true);
    expect(isNotOlder('2026-11-28T10:00:00.000Z', '2026-11-28T10:00:01Z')).toBe(true);
    expect(isNotOlder('2026-11-28T10:00:00.000Z', '2026-11-28T10:00:00Z')).toBe(true);
    expect(isNotOlder('2026-11-28T10:00:00.000Z', '2026-11-28T09:59:59Z')).toBe(false);
  });

  it('moves the status only on a change of the issue’s state, and only when closing marks done', () => {
    const base = { closeMarksDone: true } as const;
    expect(statusAfterIssueChange({ ...base, before: 'open', after: 'closed', status: 'pending' })).toBe(
      'completed',
    );
    expect(
      statusAfterIssueChange({ ...base, before: 'creating', after: 'closed', status: 'in-progress' }),
    ).toBe('completed');
    expect(statusAfterIssueChange({ ...base, before: 'closed', after: 'open', status: 'completed' })).toBe(
      'pending',
    );
    // Done in Pulsecheck while the issue stays open: not undone.
    expect(
      statusAfterIssueChange({ ...base, before: 'open', after: 'open', status: 'completed' }),
    ).toBeNull();
    // Replayed close: nothing.
    expect(
      statusAfterIssueChange({ ...base, before: 'closed', after: 'closed', status: 'pending' }),
    ).toBeNull();
    // Reopened but set back in Pulsecheck already: nothing.
    expect(
      statusAfterIssueChange({ ...base, before: 'closed', after: 'open', status: 'in-progress' }),
    ).toBeNull();
    expect(
      statusAfterIssueChange({ closeMarksDone: false, before: 'open', after: 'closed', status: 'pending' }),
    ).toBeNull();
  });

  it('keys a delivery per connection and a poll per 15-minute slot', () => {
    expect(deliveryKey('c1', 'd1')).not.toBe(deliveryKey('c2', 'd1'));
    const at = new Date('2026-11-28T10:01:00Z');
    expect(pollKey('c1', at)).toBe(pollKey('c1', new Date('2026-11-28T10:14:59Z')));
    expect(pollKey('c1', at)).not.toBe(pollKey('c1', new Date('2026-11-28T10:15:00Z')));
  });

  it("takes every tracker's place for an issue, and nothing that could reach a query", () => {
    for (const place of ['acme/web', 'group/sub/project', 'ENG', 'PROJ'])
      expect(createTrackerIssueSchema.safeParse({ repository: place }).success).toBe(true);
    expect(createTrackerIssueSchema.safeParse({ repository: 'PROJ' }).success).toBe(true);
    expect(createTrackerIssueSchema.safeParse({ repository: 'PROJ" OR 1=1' }).success).toBe(false);
  });

  it('takes an account e-mail with the token where a tracker needs one, lower-cased', () => {
    const parsed = trackerConnectSchema.parse({
      kind: 'jira',
      baseUrl: 'https://acme.atlassian.net',
      token: 't',
      email: ' Bot@Acme.example ',
    });
    expect(parsed.email).toBe('bot@acme.example');
    expect(
      trackerConnectSchema.safeParse({ kind: 'jira', token: 't', email: 'not-an-address' }).success,
    ).toBe(false);
  });
});
