import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import axios, { AxiosError, AxiosHeaders, type AxiosAdapter, type AxiosResponse } from 'axios';
import { HttpException, Version2Client } from 'jira.js';
import { issueKey } from '@pulsecheck/shared/trackers/rules';
import { outboundFetch, refusalOf, type OutboundPolicy } from '../lib/outbound';
import {
  problemOfStatus,
  TrackerFailure,
  type IssueRef,
  type RemoteIssue,
  type Tracker,
  type TrackerModule,
  type WebhookEvent,
  typedAddress,
} from './tracker';

/**
 * Jira (Jira Cloud, and Jira Data Center or Server) through jira.js, the most-used Jira client for JavaScript, with
 * its HTTP going through the outbound request guard (lib/outbound.ts): jira.js sends with axios, and its
 * `baseRequestConfig` takes an axios `adapter`, so every request it makes is handed to `outboundFetch` (public
 * addresses only, loopback with WEBHOOKS_ALLOW_LOOPBACK, no redirects, 5 s) — there is no other transport.
 *
 * - Credentials: Jira Cloud takes the account's e-mail and an API token (basic auth); Data Center and Server take a
 *   personal access token (Bearer). The e-mail decides: with one, the client speaks to Jira Cloud.
 * - REST API version 2 on both, on purpose: Data Center and Server have no version 3, and version 2 takes the
 *   description as plain text (wiki markup) where Cloud's version 3 wants Atlassian Document Format. One code path,
 *   and the body Pulsecheck writes (plain lines and a link) reads the same in both.
 * - Where Cloud and Data Center differ, each gets its own documented endpoint: projects from `GET /project/search`
 *   (Cloud) or `GET /project` (DC), the poll from `GET /search/jql` (Cloud's enhanced search; `/search` is gone there)
 *   or `GET /search` (DC), users by `query` (Cloud, accountId) or `username` (DC, name).
 * - An issue: repository = the project key, number = the number in its key (`PROJ-12`), closed when its status is in
 *   the 'done' category, `updated` orders events.
 */

/** The fields Pulsecheck reads; nothing else is asked for. */
const FIELDS = ['summary', 'status', 'assignee', 'updated', 'project'];

type JiraUser = { accountId?: string; name?: string; displayName?: string };
type JiraIssue = {
  key: string;
  fields?: {
    summary?: string;
    status?: { statusCategory?: { key?: string } };
    assignee?: JiraUser | null;
    updated?: string | number;
  };
};

/** A project key, 'PROJ': anything else (a GitHub 'owner/repo', a GitLab path) names no Jira project. */
function projectKey(repository: string): string {
  if (!/^[A-Z][A-Z0-9_]{0,99}$/.test(repository))
    throw new TrackerFailure('invalid', `${repository} is not a Jira project key (PROJ)`);
  return repository;
}

/** `PROJ-12` → the project and the number; null when it is not an issue key. */
export function parseJiraKey(key: string): IssueRef | null {
  const match = /^([A-Za-z][A-Za-z0-9_]{0,99})-(\d{1,9})$/.exec(key.trim());
  if (!match) return null;
  return { repository: match[1]!.toUpperCase(), number: Number(match[2]) };
}

/** A pasted `https://site/browse/PROJ-12` (on the connection's address) or the bare key `PROJ-12`. */
export function parseJiraIssueUrl(apiUrl: string, text: string): IssueRef | null {
  const typed = text.trim();
  const bare = parseJiraKey(typed);
  if (bare) return bare;
  let url: URL;
  try {
    url = new URL(typed);
  } catch {
    return null;
  }
  const site = new URL(apiUrl);
  if (url.origin !== site.origin) return null;
  const prefix = site.pathname.replace(/\/+$/, '');
  const match = /^\/browse\/([^/]+)\/?$/.exec(url.pathname.slice(prefix.length));
  if (!url.pathname.startsWith(`${prefix}/`) || !match) return null;
  return parseJiraKey(decodeURIComponent(match[1]!));
}

const toIssue = (apiUrl: string, issue: JiraIssue): RemoteIssue | null => {
  const ref = parseJiraKey(issue.key);
  const updated = issue.fields?.updated;
  if (!ref || updated === undefined || Number.isNaN(new Date(updated).getTime())) return null;
  const assignee = issue.fields?.assignee;
  return {
    ...ref,
    key: issueKey('jira', ref.repository, ref.number),
    url: `${apiUrl}/browse/${ref.repository}-${ref.number}`,
    title: issue.fields?.summary ?? '',
    state: issue.fields?.status?.statusCategory?.key === 'done' ? 'closed' : 'open',
    assignee: assignee ? (assignee.displayName ?? assignee.accountId ?? assignee.name ?? null) : null,
    // Jira writes `2026-11-28T12:00:00.000+0000`; kept as ISO so it orders with the others.
    updatedAt: new Date(updated).toISOString(),
  };
};

/** jira.js's HttpException (from an answer with a status), or the guard's or the network's failure. */
function failure(error: unknown): Error {
  if (error instanceof TrackerFailure) return error;
  const refusal = refusalOf(error);
  // The guard's refusal as it is: connecting says 'not a public address' for it.
  if (refusal) return refusal;
  const answered =
    error instanceof HttpException && axios.isAxiosError(error.cause) ? error.cause.response : undefined;
  const status = answered?.status ?? null;
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

/** Whether Jira refused a request because of one field (`errors: { duedate: … }`), e.g. one not on its screen. */
function refusedField(error: unknown, field: string): boolean {
  if (!(error instanceof HttpException) || !axios.isAxiosError(error.cause)) return false;
  const data: unknown = error.cause.response?.data;
  if (error.cause.response?.status !== 400 || typeof data !== 'object' || data === null) return false;
  const errors = (data as { errors?: unknown }).errors;
  return typeof errors === 'object' && errors !== null && field in errors;
}

/** The axios adapter that sends jira.js's requests through the outbound guard. */
function guardedAdapter(policy: OutboundPolicy): AxiosAdapter {
  return async (config) => {
    const url = axios.getUri(config);
    const headers = new Headers();
    for (const [name, value] of Object.entries(AxiosHeaders.from(config.headers).toJSON()))
      if (typeof value === 'string') headers.set(name, value);
    let response: Response;
    try {
      response = await outboundFetch(policy, url, {
        method: (config.method ?? 'get').toUpperCase(),
        headers,
        ...(typeof config.data === 'string' ? { body: config.data } : {}),
      });
    } catch (error) {
      const failed = new AxiosError(
        error instanceof Error ? error.message : 'request failed',
        AxiosError.ERR_NETWORK,
        config,
      );
      if (error instanceof Error) failed.cause = error;
      throw failed;
    }
    const text = await response.text();
    const answer: AxiosResponse = {
      data: text,
      status: response.status,
      statusText: response.statusText,
      headers: AxiosHeaders.from(Object.fromEntries(response.headers)),
      config,
    };
    const validate = config.validateStatus;
    if (!validate || validate(response.status)) return answer;
    throw new AxiosError(
      `Request failed with status code ${response.status}`,
      response.status >= 500 ? AxiosError.ERR_BAD_RESPONSE : AxiosError.ERR_BAD_REQUEST,
      config,
      null,
      {
        ...answer,
        data: (() => {
          try {
            return JSON.parse(text) as unknown;
          } catch {
            return text;
          }
        })(),
      },
    );
  };
}

/** The most pages a list or a poll reads (100 each): a bound on what one call of a tracker can cost. */
const MAX_PAGES = 20;

function client(options: {
  apiUrl: string;
  token: string;
  email?: string | null;
  policy: OutboundPolicy;
}): Tracker {
  const cloud = Boolean(options.email);
  const baseRequestConfig = { adapter: guardedAdapter(options.policy), maxRedirects: 0 };
  const jira = options.email
    ? new Version2Client({
        host: options.apiUrl,
        authentication: { basic: { email: options.email, apiToken: options.token } },
        baseRequestConfig,
      })
    : // A Data Center personal access token is a Bearer token, which is what jira.js sends for an OAuth 2.0 one.
      new Version2Client({
        host: options.apiUrl,
        authentication: { oauth2: { accessToken: options.token } },
        baseRequestConfig,
      });
  const get = <T>(url: string, params?: Record<string, string | number>) =>
    jira.sendRequest<T>({ url, method: 'GET', ...(params ? { params } : {}) }, undefined as never);

  const readIssue = async (ref: IssueRef) => {
    const issue = toIssue(
      options.apiUrl,
      await jira.issues.getIssue<JiraIssue>({
        issueIdOrKey: issueKey('jira', ref.repository, ref.number),
        fields: FIELDS,
      }),
    );
    if (!issue) throw new TrackerFailure('invalid', 'Jira answered an issue without its key or updated time');
    return issue;
  };

  /** The one user whose e-mail is `email`, as an assignee; null when Jira finds none or several. */
  const assigneeOf = async (email: string): Promise<{ accountId: string } | { name: string } | null> => {
    try {
      const users = await jira.userSearch.findUsers<(JiraUser & { emailAddress?: string })[]>(
        cloud ? { query: email, maxResults: 2 } : { username: email, maxResults: 2 },
      );
      // Cloud hides most people's e-mail: a match on the address only, never on a name that contains it.
      const found = users.filter((user) => user.emailAddress?.toLowerCase() === email.toLowerCase());
      const only = found.length === 1 ? found[0] : undefined;
      if (cloud) return only?.accountId ? { accountId: only.accountId } : null;
      return only?.name ? { name: only.name } : null;
    } catch {
      return null;
    }
  };

  /** The project's issue type for a piece of work: 'Task' where it has one, else its first that is not a sub-task. */
  const issueTypeOf = async (project: string) => {
    const { issueTypes = [] } = await jira.projects.getProject<{
      issueTypes?: { id: string; name: string; subtask?: boolean }[];
    }>({ projectIdOrKey: project });
    const usable = issueTypes.filter((type) => !type.subtask);
    const type = usable.find((t) => t.name.toLowerCase() === 'task') ?? usable[0];
    if (!type) throw new TrackerFailure('invalid', `project ${project} has no issue type to create`);
    return type.id;
  };

  /** Sends `fields`; a due date or assignee Jira will not take (not on the screen) is dropped, not the change. */
  const withFallback = async (
    send: (fields: Record<string, unknown>) => Promise<unknown>,
    fields: Record<string, unknown>,
  ) => {
    let current = fields;
    for (;;) {
      try {
        return await send(current);
      } catch (error) {
        const dropped = ['duedate', 'assignee'].find(
          (field) => field in current && refusedField(error, field),
        );
        if (!dropped) throw error;
        current = Object.fromEntries(Object.entries(current).filter(([key]) => key !== dropped));
      }
    }
  };

  return {
    whoAmI: () =>
      call(async () => {
        const me = await jira.myself.getCurrentUser<JiraUser>();
        return me.displayName ?? me.accountId ?? me.name ?? 'unknown';
      }),
    repositories: () =>
      call(async () => {
        type Project = { key: string; name: string; archived?: boolean };
        let projects: Project[] = [];
        if (cloud) {
          for (let page = 0; page < MAX_PAGES; page++) {
            const found = await jira.projects.searchProjects<{ values: Project[]; isLast?: boolean }>({
              startAt: page * 100,
              maxResults: 100,
              orderBy: 'key',
              action: 'create',
            });
            projects.push(...found.values);
            if (found.isLast !== false || found.values.length === 0) break;
          }
        } else projects = await get<Project[]>('/rest/api/2/project');
        return projects
          .filter((project) => !project.archived)
          .map((project) => ({ id: project.key, name: `${project.name} (${project.key})` }));
      }),
    createIssue: (input) =>
      call(async () => {
        const project = projectKey(input.repository);
        const assignee = input.assigneeEmail ? await assigneeOf(input.assigneeEmail) : null;
        const created = (await withFallback(
          (fields) => jira.issues.createIssue<{ key: string }>({ fields: fields as never }),
          {
            project: { key: project },
            issuetype: { id: await issueTypeOf(project) },
            summary: input.title,
            description: input.body,
            ...(input.dueDate ? { duedate: input.dueDate } : {}),
            ...(assignee ? { assignee } : {}),
          },
        )) as { key: string };
        const ref = parseJiraKey(created.key);
        if (!ref) throw new TrackerFailure('invalid', `Jira answered the key ${created.key}`);
        return readIssue(ref);
      }),
    getIssue: (ref) => call(() => readIssue(ref)),
    updateIssue: (ref, change) =>
      call(async () => {
        await withFallback(
          (fields) =>
            jira.issues.editIssue({
              issueIdOrKey: issueKey('jira', ref.repository, ref.number),
              fields,
            }),
          { summary: change.title, description: change.body, duedate: change.dueDate },
        );
        return readIssue(ref);
      }),
    changedSince: (project, since) =>
      call(async () => {
        // Relative minutes, not a date: JQL reads dates in the account's own time zone, which the server does not know.
        const window = since
          ? ` AND updated >= "-${Math.ceil((Date.now() - since.getTime()) / 60_000) + 1}m"`
          : '';
        const jql = `project = "${projectKey(project)}"${window} ORDER BY updated ASC`;
        const issues: JiraIssue[] = [];
        if (cloud) {
          let nextPageToken: string | undefined;
          for (let page = 0; page < MAX_PAGES; page++) {
            const found = await jira.issueSearch.searchForIssuesUsingJqlEnhancedSearch<{
              issues?: JiraIssue[];
              nextPageToken?: string;
            }>({ jql, fields: FIELDS, maxResults: 100, ...(nextPageToken ? { nextPageToken } : {}) });
            issues.push(...(found.issues ?? []));
            nextPageToken = found.nextPageToken;
            if (!nextPageToken) break;
          }
        } else {
          for (let page = 0; page < MAX_PAGES; page++) {
            const found = await get<{ issues?: JiraIssue[]; total?: number }>('/rest/api/2/search', {
              jql,
              fields: FIELDS.join(','),
              maxResults: 100,
              startAt: page * 100,
            });
            issues.push(...(found.issues ?? []));
            if (!found.issues?.length || (page + 1) * 100 >= (found.total ?? 0)) break;
          }
        }
        return issues.flatMap((issue) => toIssue(options.apiUrl, issue) ?? []);
      }),
  };
}

/** Jira's webhook signature with a secret (Cloud, and Data Center 10): `X-Hub-Signature: sha256=<hex HMAC-SHA256>`. */
export function jiraSignature(secret: string, rawBody: string) {
  return `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;
}

const ISSUE_EVENTS = new Set(['jira:issue_created', 'jira:issue_updated']);

function readWebhook(headers: Headers, rawBody: string, secret: string, apiUrl: string): WebhookEvent | null {
  const given = headers.get('x-hub-signature') ?? '';
  const expected = jiraSignature(secret, rawBody);
  if (given.length !== expected.length || !timingSafeEqual(Buffer.from(given), Buffer.from(expected)))
    return null;
  // Jira Cloud names each delivery; where a server does not, the signed body (it holds the event's own timestamp)
  // names it, so the same delivery sent twice is still applied once.
  const deliveryId =
    headers.get('x-atlassian-webhook-identifier') ??
    `body-${createHash('sha256').update(rawBody).digest('hex')}`;
  let payload: { webhookEvent?: string; issue?: JiraIssue };
  try {
    payload = JSON.parse(rawBody) as typeof payload;
  } catch {
    return { deliveryId, issue: null };
  }
  if (
    !payload.webhookEvent ||
    !ISSUE_EVENTS.has(payload.webhookEvent) ||
    typeof payload.issue?.key !== 'string'
  )
    return { deliveryId, issue: null };
  return { deliveryId, issue: toIssue(apiUrl, payload.issue) };
}

export const jira: TrackerModule = {
  kind: 'jira',
  apiUrl(baseUrl) {
    const typed = baseUrl.trim().replace(/\/+$/, '');
    if (!typed) return null;
    const url = typedAddress(typed);
    if (!url) return null;
    // Data Center may live under a path (https://example.com/jira); its REST API and /browse are below it.
    return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  },
  target: (apiUrl) => {
    const url = new URL(apiUrl);
    return `${url.host}${url.pathname === '/' ? '' : url.pathname}`;
  },
  client,
  needsEmail: (apiUrl) => new URL(apiUrl).hostname.toLowerCase().endsWith('.atlassian.net'),
  parseIssueUrl: parseJiraIssueUrl,
  webOrigin: (apiUrl) => apiUrl,
  readWebhook,
};
