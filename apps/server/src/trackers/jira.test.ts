import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { jira, parseJiraIssueUrl } from './jira';

const SITE = 'https://acme.atlassian.net';
const sign = (secret: string, body: string) =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

describe('the Jira module', () => {
  it('takes a site or server address, under a path too, and nothing that is not one', () => {
    expect(jira.apiUrl('https://acme.atlassian.net/')).toBe(SITE);
    expect(jira.apiUrl(' https://example.com/jira// ')).toBe('https://example.com/jira');
    expect(jira.target('https://example.com/jira')).toBe('example.com/jira');
    expect(jira.target(SITE)).toBe('acme.atlassian.net');
    // Required: there is no default Jira.
    expect(jira.apiUrl('')).toBeNull();
    expect(jira.apiUrl('ftp://example.com')).toBeNull();
    expect(jira.apiUrl('https://user:pw@example.com')).toBeNull();
    expect(jira.apiUrl('https://example.com/?x=1')).toBeNull();
    expect(jira.needsEmail?.(SITE)).toBe(true);
    expect(jira.needsEmail?.('https://jira.example.com')).toBe(false);
  });

  it('reads a pasted issue URL on the connection, or a key; nothing else', () => {
    expect(parseJiraIssueUrl(SITE, `${SITE}/browse/PROJ-12`)).toEqual({ repository: 'PROJ', number: 12 });
    expect(parseJiraIssueUrl(SITE, ' proj-12 ')).toEqual({ repository: 'PROJ', number: 12 });
    expect(parseJiraIssueUrl('https://example.com/jira', 'https://example.com/jira/browse/OPS-3')).toEqual({
      repository: 'OPS',
      number: 3,
    });
    expect(parseJiraIssueUrl('https://example.com/jira', 'https://example.com/browse/OPS-3')).toBeNull();
    expect(parseJiraIssueUrl(SITE, 'https://evil.atlassian.net/browse/PROJ-12')).toBeNull();
    expect(parseJiraIssueUrl(SITE, `${SITE}/browse/PROJ`)).toBeNull();
    expect(parseJiraIssueUrl(SITE, 'PROJ-12; drop')).toBeNull();
  });

  it('reads a webhook only with the right X-Hub-Signature, and maps the issue as the sync rules see it', () => {
    const body = JSON.stringify({
      timestamp: 1,
      webhookEvent: 'jira:issue_updated',
      issue: {
        key: 'PROJ-7',
        fields: {
          summary: 'Ship it',
          status: { statusCategory: { key: 'done' } },
          assignee: { accountId: 'acc-1', displayName: 'Ada' },
          updated: '2026-11-28T12:00:00.123+0100',
        },
      },
    });
    const headers = (signature: string, id?: string) =>
      new Headers({ 'X-Hub-Signature': signature, ...(id ? { 'X-Atlassian-Webhook-Identifier': id } : {}) });
    expect(jira.readWebhook(headers(sign('other', body), 'd1'), body, 'secret', SITE)).toBeNull();
    expect(jira.readWebhook(headers(''), body, 'secret', SITE)).toBeNull();
    expect(jira.readWebhook(headers(sign('secret', body), 'd1'), body, 'secret', SITE)).toEqual({
      deliveryId: 'd1',
      issue: {
        repository: 'PROJ',
        number: 7,
        key: 'PROJ-7',
        url: `${SITE}/browse/PROJ-7`,
        title: 'Ship it',
        state: 'closed',
        assignee: 'Ada',
        updatedAt: '2026-11-28T11:00:00.123Z',
      },
    });
    // Without an identifier, the signed body names the delivery: the same body twice is one delivery.
    const once = jira.readWebhook(headers(sign('secret', body)), body, 'secret', SITE);
    expect(once?.deliveryId).toMatch(/^body-[0-9a-f]{64}$/);
    expect(jira.readWebhook(headers(sign('secret', body)), body, 'secret', SITE)?.deliveryId).toBe(
      once?.deliveryId,
    );
    const other = JSON.stringify({ webhookEvent: 'comment_created', issue: { key: 'PROJ-7' } });
    expect(jira.readWebhook(headers(sign('secret', other), 'd2'), other, 'secret', SITE)).toEqual({
      deliveryId: 'd2',
      issue: null,
    });
  });
});
