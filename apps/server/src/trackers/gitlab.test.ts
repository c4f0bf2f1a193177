import { GITLAB_COM_API } from '@pulsecheck/shared/trackers/rules';
import { describe, expect, it } from 'vitest';
import { gitlab, gitlabTime, parseGitlabIssueUrl } from './gitlab';

describe('GitLab’s URL rules', () => {
  it('takes gitlab.com or a self-managed instance (with a relative URL root) as its API base', () => {
    expect(gitlab.apiUrl('')).toBe(GITLAB_COM_API);
    expect(gitlab.apiUrl('https://gitlab.com/')).toBe(GITLAB_COM_API);
    expect(gitlab.apiUrl('https://gitlab.example.com')).toBe('https://gitlab.example.com/api/v4');
    expect(gitlab.apiUrl('https://example.com/gitlab/')).toBe('https://example.com/gitlab/api/v4');
    expect(gitlab.apiUrl('https://gitlab.example.com/api/v4')).toBe('https://gitlab.example.com/api/v4');
    expect(gitlab.apiUrl('ftp://gitlab.example.com')).toBeNull();
    expect(gitlab.apiUrl('https://user:pw@gitlab.example.com')).toBeNull();
    expect(gitlab.apiUrl('https://gitlab.example.com/?a=1')).toBeNull();
    expect(gitlab.target(GITLAB_COM_API)).toBe('gitlab.com');
    expect(gitlab.target('https://example.com/gitlab/api/v4')).toBe('example.com/gitlab');
    expect(gitlab.webOrigin('https://example.com/gitlab/api/v4')).toBe('https://example.com/gitlab');
  });

  it('reads an issue URL of the connected instance: nested groups, /-/issues, /issues and /-/work_items', () => {
    const web = 'https://gitlab.com';
    expect(parseGitlabIssueUrl('https://gitlab.com/acme/web/-/issues/12', web)).toEqual({
      repository: 'acme/web',
      number: 12,
    });
    expect(parseGitlabIssueUrl('https://gitlab.com/acme/platform/api/-/issues/3/', web)).toEqual({
      repository: 'acme/platform/api',
      number: 3,
    });
    expect(parseGitlabIssueUrl('https://gitlab.com/acme/web/issues/4', web)?.number).toBe(4);
    expect(parseGitlabIssueUrl('https://gitlab.com/acme/web/-/work_items/5', web)?.number).toBe(5);
    expect(
      parseGitlabIssueUrl('https://example.com/git/acme/web/-/issues/6', 'https://example.com/git'),
    ).toEqual({
      repository: 'acme/web',
      number: 6,
    });
    // Not this instance, not an issue, not a project path.
    expect(parseGitlabIssueUrl('https://gitlab.example.com/acme/web/-/issues/1', web)).toBeNull();
    expect(
      parseGitlabIssueUrl('https://example.com/other/acme/web/-/issues/1', 'https://example.com/git'),
    ).toBeNull();
    expect(parseGitlabIssueUrl('https://gitlab.com/acme/web/-/merge_requests/1', web)).toBeNull();
    expect(parseGitlabIssueUrl('https://gitlab.com/web/-/issues/1', web)).toBeNull();
    expect(parseGitlabIssueUrl('not a url', web)).toBeNull();
  });

  it('reads GitLab’s times in both forms, cut to whole seconds', () => {
    expect(gitlabTime('2026-11-28T12:00:01.250Z')).toBe('2026-11-28T12:00:01.000Z');
    expect(gitlabTime('2026-11-28 12:00:01 UTC')).toBe('2026-11-28T12:00:01.000Z');
    expect(gitlabTime('2026-11-28T13:00:01+01:00')).toBe('2026-11-28T12:00:01.000Z');
    expect(gitlabTime('yesterday')).toBeNull();
  });
});

describe('GitLab’s webhooks', () => {
  const body = JSON.stringify({
    object_kind: 'issue',
    project: { path_with_namespace: 'acme/web' },
    object_attributes: {
      iid: 7,
      title: 'T',
      state: 'closed',
      url: 'https://gitlab.com/acme/web/-/issues/7',
      updated_at: '2026-11-28 12:00:01 UTC',
    },
    assignees: [{ username: 'bo' }],
  });
  const headers = (more: Record<string, string>) =>
    new Headers({ 'X-Gitlab-Event': 'Issue Hook', 'X-Gitlab-Token': 'the-secret', ...more });

  it('checks X-Gitlab-Token against the secret and reads an Issue Hook', () => {
    expect(
      gitlab.readWebhook(headers({ 'X-Gitlab-Token': 'the-secreT' }), body, 'the-secret', GITLAB_COM_API),
    ).toBeNull();
    expect(
      gitlab.readWebhook(headers({ 'X-Gitlab-Token': '' }), body, 'the-secret', GITLAB_COM_API),
    ).toBeNull();
    expect(
      gitlab.readWebhook(headers({ 'Idempotency-Key': 'k1' }), body, 'the-secret', GITLAB_COM_API),
    ).toEqual({
      deliveryId: 'k1',
      issue: {
        repository: 'acme/web',
        number: 7,
        key: 'acme/web#7',
        url: 'https://gitlab.com/acme/web/-/issues/7',
        title: 'T',
        state: 'closed',
        assignee: 'bo',
        updatedAt: '2026-11-28T12:00:01.000Z',
      },
    });
  });

  it('names the delivery by Idempotency-Key, else X-Gitlab-Event-UUID, else the body; other events apply nothing', () => {
    expect(
      gitlab.readWebhook(headers({ 'X-Gitlab-Event-UUID': 'e1' }), body, 'the-secret', GITLAB_COM_API)
        ?.deliveryId,
    ).toBe('e1');
    const hashed = gitlab.readWebhook(headers({}), body, 'the-secret', GITLAB_COM_API)?.deliveryId;
    expect(hashed).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(gitlab.readWebhook(headers({}), `${body} `, 'the-secret', GITLAB_COM_API)?.deliveryId).not.toBe(
      hashed,
    );
    expect(
      gitlab.readWebhook(headers({ 'X-Gitlab-Event': 'Push Hook' }), body, 'the-secret', GITLAB_COM_API)
        ?.issue,
    ).toBeNull();
    expect(gitlab.readWebhook(headers({}), 'not json', 'the-secret', GITLAB_COM_API)?.issue).toBeNull();
  });
});
