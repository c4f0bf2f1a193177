import { createHmac, timingSafeEqual } from 'node:crypto';
import { Octokit } from '@octokit/rest';
import { GITHUB_COM_API } from '@pulsecheck/shared/trackers/rules';
import { outboundFetch, type OutboundPolicy } from '../lib/outbound';
import {
  problemOfStatus,
  TrackerFailure,
  type RemoteIssue,
  type Tracker,
  type TrackerModule,
  type WebhookEvent,
  typedAddress,
} from './tracker';

/**
 * GitHub (github.com and GitHub Enterprise Server) through Octokit, GitHub's own client, with its base URL set to the
 * connection's and its fetch going through the outbound request guard (lib/outbound.ts): public addresses only
 * (loopback with WEBHOOKS_ALLOW_LOOPBACK), no redirects, 5 s per request.
 */

/** The web origin of a GitHub API base: api.github.com → github.com; a GHES's `<origin>/api/v3` → `<origin>`. */
export function githubWebOrigin(apiBase: string): string {
  if (apiBase === GITHUB_COM_API) return 'https://github.com';
  return new URL(apiBase).origin;
}

/** `https://github.com/owner/repo/issues/12` (on the connection's web origin) → its repository and number. */
export function parseGithubIssueUrl(
  url: string,
  webOrigin: string,
): { repository: string; number: number } | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.origin !== webOrigin) return null;
  const match = /^\/([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+)\/issues\/(\d{1,9})\/?$/.exec(parsed.pathname);
  if (!match) return null;
  return { repository: `${match[1]}/${match[2]}`, number: Number(match[3]) };
}

type GithubIssue = {
  number: number;
  title: string;
  state: string;
  html_url: string;
  updated_at: string;
  assignee?: { login: string } | null;
  pull_request?: unknown;
};

const toIssue = (repository: string, issue: GithubIssue): RemoteIssue => ({
  repository,
  number: issue.number,
  key: `${repository}#${issue.number}`,
  url: issue.html_url,
  title: issue.title,
  state: issue.state === 'closed' ? 'closed' : 'open',
  assignee: issue.assignee?.login ?? null,
  updatedAt: issue.updated_at,
});

/** 'owner/repo' → its parts; anything else (a GitLab-style nested path) names no GitHub repository. */
const split = (repository: string) => {
  const [owner = '', repo = '', ...rest] = repository.split('/');
  if (!owner || !repo || rest.length > 0)
    throw new TrackerFailure('invalid', `${repository} is not a GitHub repository (owner/repo)`);
  return { owner, repo };
};

/** Octokit's RequestError (a status) or the guard's or the network's failure, as a TrackerFailure. */
function failure(error: unknown): TrackerFailure {
  if (error instanceof TrackerFailure) return error;
  const status =
    typeof error === 'object' && error !== null && 'status' in error && typeof error.status === 'number'
      ? error.status
      : null;
  const message = error instanceof Error ? error.message : String(error);
  return new TrackerFailure(status === null ? 'unreachable' : problemOfStatus(status), message, status);
}

async function call<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw failure(error);
  }
}

function client(options: { apiUrl: string; token: string; policy: OutboundPolicy }): Tracker {
  const octokit = new Octokit({
    auth: options.token,
    baseUrl: options.apiUrl,
    userAgent: 'Pulsecheck',
    request: {
      fetch: (url: string, init: RequestInit) => outboundFetch(options.policy, url, init),
    },
    log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
  });

  /** The login of the only GitHub user whose public e-mail is `email`, or null (GitHub shows no private ones). */
  const loginOf = async (email: string) => {
    try {
      const { data } = await octokit.rest.search.users({ q: `${email} in:email`, per_page: 2 });
      return data.total_count === 1 ? (data.items[0]?.login ?? null) : null;
    } catch {
      return null;
    }
  };

  return {
    whoAmI: () => call(async () => (await octokit.rest.users.getAuthenticated()).data.login),
    repositories: () =>
      call(async () => {
        const { data } = await octokit.rest.repos.listForAuthenticatedUser({
          per_page: 100,
          sort: 'full_name',
        });
        return data
          .filter((repo) => repo.has_issues !== false && !repo.archived)
          .map((repo) => ({ id: repo.full_name, name: repo.full_name }));
      }),
    createIssue: (input) =>
      call(async () => {
        const login = input.assigneeEmail ? await loginOf(input.assigneeEmail) : null;
        // GitHub drops an assignee who may not be assigned in the repository instead of refusing the issue.
        const { data } = await octokit.rest.issues.create({
          ...split(input.repository),
          title: input.title,
          body: input.body,
          ...(login ? { assignees: [login] } : {}),
        });
        return toIssue(input.repository, data);
      }),
    getIssue: (ref) =>
      call(async () => {
        const { data } = await octokit.rest.issues.get({
          ...split(ref.repository),
          issue_number: ref.number,
        });
        return toIssue(ref.repository, data);
      }),
    updateIssue: (ref, change) =>
      call(async () => {
        const { data } = await octokit.rest.issues.update({
          ...split(ref.repository),
          issue_number: ref.number,
          title: change.title,
          body: change.body,
        });
        return toIssue(ref.repository, data);
      }),
    changedSince: (repository, since) =>
      call(async () => {
        const issues = await octokit.paginate(octokit.rest.issues.listForRepo, {
          ...split(repository),
          state: 'all',
          per_page: 100,
          ...(since ? { since: since.toISOString() } : {}),
        });
        return issues.filter((issue) => !issue.pull_request).map((issue) => toIssue(repository, issue));
      }),
  };
}

/** GitHub's documented webhook signature: `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body>`. */
export function githubSignature(secret: string, rawBody: string) {
  return `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;
}

function readWebhook(headers: Headers, rawBody: string, secret: string): WebhookEvent | null {
  const given = headers.get('x-hub-signature-256') ?? '';
  const expected = githubSignature(secret, rawBody);
  if (given.length !== expected.length || !timingSafeEqual(Buffer.from(given), Buffer.from(expected)))
    return null;
  const deliveryId = headers.get('x-github-delivery') ?? '';
  if (!deliveryId) return null;
  if (headers.get('x-github-event') !== 'issues') return { deliveryId, issue: null };
  let payload: { issue?: GithubIssue; repository?: { full_name?: string } };
  try {
    payload = JSON.parse(rawBody) as typeof payload;
  } catch {
    return { deliveryId, issue: null };
  }
  const repository = payload.repository?.full_name;
  if (!payload.issue || !repository || typeof payload.issue.number !== 'number')
    return { deliveryId, issue: null };
  return { deliveryId, issue: toIssue(repository, payload.issue) };
}

export const github: TrackerModule = {
  kind: 'github',
  apiUrl(baseUrl) {
    const typed = baseUrl.trim().replace(/\/+$/, '');
    if (!typed || /^https:\/\/(www\.)?github\.com$/i.test(typed)) return GITHUB_COM_API;
    const url = typedAddress(typed);
    if (!url) return null;
    return `${url.origin}/api/v3`;
  },
  target: (apiUrl) => (apiUrl === GITHUB_COM_API ? 'github.com' : new URL(apiUrl).host),
  client,
  parseIssueUrl: (apiUrl, url) => parseGithubIssueUrl(url, githubWebOrigin(apiUrl)),
  webOrigin: githubWebOrigin,
  readWebhook,
};
