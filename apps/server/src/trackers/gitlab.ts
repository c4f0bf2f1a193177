import { createHash, timingSafeEqual } from 'node:crypto';
import { Issues, Projects, Users } from '@gitbeaker/rest';
import {
  createRequesterFn,
  type FormattedResponse,
  type RequestOptions,
  type ResponseBodyTypes,
} from '@gitbeaker/requester-utils';
import { GITLAB_COM_API } from '@pulsecheck/shared/trackers/rules';
import { outboundFetch, refusalOf, type OutboundPolicy } from '../lib/outbound';
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
 * GitLab (gitlab.com and GitLab Self-Managed) through gitbeaker (`@gitbeaker/rest`, the most-used client), with a
 * project or group access token (PRIVATE-TOKEN). gitbeaker's own requester calls the global fetch; here its documented
 * `requesterFn` option is given a requester whose every request goes through the outbound request guard
 * (lib/outbound.ts): public addresses only (loopback with WEBHOOKS_ALLOW_LOOPBACK), no redirects, 5 s, and no
 * retries of its own (the job queue retries).
 *
 * Mapping: repository = the project's path_with_namespace ('group/subgroup/project'), number = the issue's iid, key
 * 'group/project#12', state opened → open and closed → closed, assignee = the first assignee's username. GitLab's
 * issues have a due date: it is written to `due_date` as well as said in the body.
 */

const API_SUFFIX = '/api/v4';

/** The instance's web address for an API base: https://gitlab.com/api/v4 → https://gitlab.com. */
export const gitlabWebOrigin = (apiUrl: string) => apiUrl.slice(0, -API_SUFFIX.length);

const SEGMENT = '[A-Za-z0-9_.-]+';

/**
 * `https://gitlab.com/group/sub/project/-/issues/12` (or `…/issues/12`, or `…/-/work_items/12`) on the connection's
 * instance → its project path and iid.
 */
export function parseGitlabIssueUrl(
  url: string,
  webBase: string,
): { repository: string; number: number } | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const base = new URL(webBase);
  const prefix = base.pathname.replace(/\/+$/, '');
  if (parsed.origin !== base.origin || !parsed.pathname.startsWith(`${prefix}/`)) return null;
  const match = new RegExp(
    `^/(${SEGMENT}(?:/${SEGMENT}){1,20}?)/(?:-/)?(?:issues|work_items)/(\\d{1,9})/?$`,
  ).exec(parsed.pathname.slice(prefix.length));
  if (!match || match[1]!.split('/').includes('-')) return null;
  return { repository: match[1]!, number: Number(match[2]) };
}

/**
 * GitLab's times as one ISO form, cut to whole seconds: the REST API answers milliseconds, its webhooks
 * ('2013-12-03 17:23:34 UTC' in older versions) may carry whole seconds only, and the sync rules order both by the
 * same clock (an equal time is applied, so a change within the same second is still settled by the next report).
 */
export function gitlabTime(value: string): string | null {
  const iso = value.replace(/^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}) UTC$/, '$1T$2Z');
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return null;
  return new Date(Math.floor(at / 1000) * 1000).toISOString();
}

type GitlabIssue = {
  iid: number;
  title: string;
  state: string;
  web_url?: string;
  url?: string;
  updated_at: string;
  assignee?: { username: string } | null;
  assignees?: { username: string }[];
};

function toIssue(repository: string, issue: GitlabIssue): RemoteIssue | null {
  const updatedAt = gitlabTime(issue.updated_at);
  const url = issue.web_url ?? issue.url;
  if (!updatedAt || !url || typeof issue.iid !== 'number') return null;
  return {
    repository,
    number: issue.iid,
    key: `${repository}#${issue.iid}`,
    url,
    title: issue.title,
    state: issue.state === 'closed' ? 'closed' : 'open',
    assignee: issue.assignees?.[0]?.username ?? issue.assignee?.username ?? null,
    updatedAt,
  };
}

const required = (repository: string, issue: GitlabIssue) => {
  const remote = toIssue(repository, issue);
  if (!remote)
    throw new TrackerFailure('invalid', 'GitLab answered an issue without iid, web_url or updated_at');
  return remote;
};

/** A gitbeaker requester that sends every request through the outbound guard and throws a TrackerFailure on refusal. */
function guardedRequester(policy: OutboundPolicy) {
  return createRequesterFn(
    (_, options) => Promise.resolve(options),
    async (endpoint, options): Promise<FormattedResponse> => {
      const request = (options ?? {}) as RequestOptions;
      const prefix = request.prefixUrl ?? '';
      const url = new URL(endpoint, prefix.endsWith('/') ? prefix : `${prefix}/`);
      url.search = request.searchParams ?? '';
      const response = await outboundFetch(policy, url, {
        method: request.method,
        headers: request.headers,
        body: request.body,
        signal: request.signal,
      });
      const text = await response.text();
      if (!response.ok)
        throw new TrackerFailure(
          problemOfStatus(response.status),
          `GitLab answered ${response.status} to ${request.method ?? 'GET'} ${url.pathname}`,
          response.status,
        );
      return {
        body: (text ? JSON.parse(text) : null) as ResponseBodyTypes,
        headers: Object.fromEntries(response.headers.entries()),
        status: response.status,
      };
    },
  );
}

/** The guard's refusal passes as it is (the connect form names it); anything else that is not a status: unreachable. */
async function call<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof TrackerFailure || refusalOf(error)) throw error;
    throw new TrackerFailure('unreachable', error instanceof Error ? error.message : String(error));
  }
}

function client(options: { apiUrl: string; token: string; policy: OutboundPolicy }): Tracker {
  const settings = {
    host: gitlabWebOrigin(options.apiUrl),
    token: options.token,
    requesterFn: guardedRequester(options.policy),
    // The guard bounds each request (5 s); gitbeaker's rate limiters are for its own requester.
    queryTimeout: null,
    rateLimits: {},
  };
  const issues = new Issues(settings);
  const projects = new Projects(settings);
  const users = new Users(settings);

  /**
   * The id of the only GitLab user `GET /users?search=<email>` finds: GitLab matches public e-mails for everyone
   * and every e-mail for administrators. None, several, or a refusal: unassigned.
   */
  const userIdOf = async (email: string) => {
    try {
      const found = (await users.all({ search: email, perPage: 2, maxPages: 1 })) as { id: number }[];
      return found.length === 1 ? (found[0]?.id ?? null) : null;
    } catch {
      return null;
    }
  };

  return {
    whoAmI: () => call(async () => String((await users.showCurrentUser()).username)),
    repositories: () =>
      call(async () => {
        const list = (await projects.all({
          membership: true,
          withIssuesEnabled: true,
          archived: false,
          simple: true,
          perPage: 100,
          maxPages: 10,
        })) as { path_with_namespace: string }[];
        return list
          .map((project) => project.path_with_namespace)
          .sort((a, b) => a.localeCompare(b))
          .map((name) => ({ id: name, name }));
      }),
    createIssue: (input) =>
      call(async () => {
        const assignee = input.assigneeEmail ? await userIdOf(input.assigneeEmail) : null;
        const issue = await issues.create(input.repository, input.title, {
          description: input.body,
          ...(input.dueDate ? { dueDate: input.dueDate } : {}),
          ...(assignee !== null ? { assigneeIds: [assignee] } : {}),
        });
        return required(input.repository, issue);
      }),
    getIssue: (ref) =>
      call(async () =>
        required(
          ref.repository,
          (await issues.show(ref.number, { projectId: ref.repository })) as GitlabIssue,
        ),
      ),
    updateIssue: (ref, change) =>
      call(async () => {
        // An empty due_date clears it (GitLab's API stores a blank date as none).
        const issue = await issues.edit(ref.repository, ref.number, {
          title: change.title,
          description: change.body,
          dueDate: change.dueDate ?? '',
        });
        return required(ref.repository, issue);
      }),
    changedSince: (repository, since) =>
      call(async () => {
        const list = (await issues.all({
          projectId: repository,
          scope: 'all',
          perPage: 100,
          maxPages: 50,
          ...(since ? { updatedAfter: since.toISOString() } : {}),
        })) as GitlabIssue[];
        return list.flatMap((issue) => toIssue(repository, issue) ?? []);
      }),
  };
}

const ISSUE_EVENTS = new Set(['Issue Hook', 'Confidential Issue Hook']);

/**
 * GitLab's documented webhook check: `X-Gitlab-Token` carries the secret token as it was typed (no HMAC), compared
 * here in constant time. The delivery is named by `Idempotency-Key` (the same on GitLab's retries, GitLab 17.4 on),
 * else `X-Gitlab-Event-UUID`, else the body's hash (an older GitLab retries the same body).
 */
function readWebhook(headers: Headers, rawBody: string, secret: string): WebhookEvent | null {
  const given = Buffer.from(headers.get('x-gitlab-token') ?? '');
  const expected = Buffer.from(secret);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const deliveryId =
    headers.get('idempotency-key') ??
    headers.get('x-gitlab-event-uuid') ??
    `sha256:${createHash('sha256').update(rawBody).digest('hex')}`;
  if (!ISSUE_EVENTS.has(headers.get('x-gitlab-event') ?? '')) return { deliveryId, issue: null };
  let payload: {
    object_kind?: string;
    project?: { path_with_namespace?: string };
    object_attributes?: GitlabIssue;
    assignees?: { username: string }[];
  };
  try {
    payload = JSON.parse(rawBody) as typeof payload;
  } catch {
    return { deliveryId, issue: null };
  }
  const repository = payload.project?.path_with_namespace;
  const attributes = payload.object_attributes;
  if (payload.object_kind !== 'issue' || !repository || !attributes) return { deliveryId, issue: null };
  // The hook's object_attributes hold assignee ids; the usernames are in the top-level `assignees` (absent: none).
  const issue = toIssue(repository, { ...attributes, assignees: payload.assignees ?? [], assignee: null });
  return { deliveryId, issue };
}

export const gitlab: TrackerModule = {
  kind: 'gitlab',
  apiUrl(baseUrl) {
    const typed = baseUrl.trim().replace(/\/+$/, '');
    if (!typed || /^https:\/\/(www\.)?gitlab\.com$/i.test(typed)) return GITLAB_COM_API;
    const url = typedAddress(typed);
    if (!url) return null;
    // A relative URL root (https://example.com/gitlab) is kept; a typed API path is taken as its instance.
    const path = url.pathname.replace(/\/+$/, '').replace(/\/api\/v4$/, '');
    return `${url.origin}${path}${API_SUFFIX}`;
  },
  target(apiUrl) {
    if (apiUrl === GITLAB_COM_API) return 'gitlab.com';
    const web = new URL(gitlabWebOrigin(apiUrl));
    return `${web.host}${web.pathname.replace(/\/+$/, '')}`;
  },
  client,
  parseIssueUrl: (apiUrl, url) => parseGitlabIssueUrl(url, gitlabWebOrigin(apiUrl)),
  webOrigin: gitlabWebOrigin,
  readWebhook,
};
