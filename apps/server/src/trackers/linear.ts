import { LinearClient, LinearError, LinearErrorType } from '@linear/sdk';
import { LinearWebhookClient, LINEAR_WEBHOOK_SIGNATURE_HEADER } from '@linear/sdk/webhooks';
import { LINEAR_API, type TrackerProblem } from '@pulsecheck/shared/trackers/rules';
import { guardFetches, type OutboundPolicy } from '../lib/outbound';
import {
  TrackerFailure,
  type IssueRef,
  type RemoteIssue,
  type Tracker,
  type TrackerModule,
  type WebhookEvent,
  typedAddress,
} from './tracker';

/**
 * Linear through its own client, `@linear/sdk`: a `LinearClient` with the personal API key (sent as Linear documents
 * for personal keys, `Authorization: <key>`) and the connection's API URL, every request it makes going through the
 * outbound request guard (`guardFetches`: the SDK calls the global fetch, which the guard takes over for the call;
 * public addresses only, loopback with WEBHOOKS_ALLOW_LOOPBACK, no redirects, 5 s). The SDK's models fetch each
 * relation lazily (one more request for an issue's state, one for its assignee), so each call here is ONE GraphQL
 * document through the SDK's client (`rawRequest`) asking for exactly the fields the sync rules read; the SDK turns
 * Linear's errors into typed LinearErrors. Webhooks are checked by the SDK's `LinearWebhookClient` (the signature
 * and the signed `webhookTimestamp`, at most a minute off).
 *
 * A Linear issue maps onto the interface as: repository = its team's key ('ENG'), number = its number (12), key =
 * its identifier ('ENG-12'); closed = its workflow state's type is 'completed' or 'canceled'.
 */

/** linear.app's web origin; a stand-in's for tests. */
export function linearWebOrigin(apiUrl: string): string {
  return apiUrl === LINEAR_API ? 'https://linear.app' : new URL(apiUrl).origin;
}

const isLoopbackHost = (host: string) => /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i.test(host);

const IDENTIFIER = /^([A-Za-z][A-Za-z0-9]{0,9})-(\d{1,9})$/;

/**
 * 'ENG-12', or `https://linear.app/<workspace>/issue/ENG-12/<slug>` on the connection's web origin. A URL names its
 * workspace: the issue read must be that workspace's (an identifier alone is the API key's workspace's).
 */
export function parseLinearIssue(input: string, webOrigin: string): IssueRef | null {
  const text = input.trim();
  const bare = IDENTIFIER.exec(text);
  if (bare) return { repository: bare[1]!.toUpperCase(), number: Number(bare[2]) };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.origin !== webOrigin) return null;
  const match = /^\/([A-Za-z0-9_-]{1,100})\/issue\/([A-Za-z][A-Za-z0-9]{0,9})-(\d{1,9})(\/[^/]*)?\/?$/.exec(
    url.pathname,
  );
  if (!match) return null;
  return { repository: match[2]!.toUpperCase(), number: Number(match[3]), workspace: match[1]! };
}

type LinearIssue = {
  identifier: string;
  number: number;
  title: string;
  url: string;
  updatedAt: string;
  state: { type: string } | null;
  team: { key: string } | null;
  assignee: { name: string } | null;
};

const ISSUE_FIELDS = `identifier number title url updatedAt state { type } team { key } assignee { name }`;

/** The issue for the sync rules. The assignee by `name`: the one field Linear's webhooks carry too. */
const toIssue = (issue: LinearIssue): RemoteIssue => {
  const repository = issue.team?.key ?? issue.identifier.replace(/-\d+$/, '');
  return {
    repository,
    number: issue.number,
    key: issue.identifier,
    url: issue.url,
    title: issue.title,
    state: issue.state?.type === 'completed' || issue.state?.type === 'canceled' ? 'closed' : 'open',
    assignee: issue.assignee?.name ?? null,
    updatedAt: new Date(issue.updatedAt).toISOString(),
  };
};

/** The problem a LinearError means (the SDK types Linear's GraphQL errors and HTTP statuses). */
function problemOfLinear(error: LinearError): TrackerProblem {
  switch (error.type) {
    case LinearErrorType.AuthenticationError:
      return 'credentials';
    case LinearErrorType.Forbidden:
    case LinearErrorType.FeatureNotAccessible:
      return 'permission';
    case LinearErrorType.InvalidInput:
    case LinearErrorType.UserError:
    case LinearErrorType.GraphqlError:
      return /not found|could not find/i.test(error.message) ? 'missing' : 'invalid';
    default:
      return 'unreachable';
  }
}

function failure(error: unknown): TrackerFailure {
  if (error instanceof TrackerFailure) return error;
  if (error instanceof LinearError)
    return new TrackerFailure(problemOfLinear(error), error.message, error.status ?? null);
  const failed = new TrackerFailure('unreachable', error instanceof Error ? error.message : String(error));
  // The guard's refusal stays findable (refusalOf walks the causes).
  failed.cause = error;
  return failed;
}

function client(options: { apiUrl: string; token: string; policy: OutboundPolicy }): Tracker {
  const linear = new LinearClient({ apiKey: options.token, apiUrl: options.apiUrl });

  async function run<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
    try {
      const { data } = await guardFetches(options.policy, () =>
        linear.client.rawRequest<T, Record<string, unknown>>(query, variables),
      );
      if (!data) throw new TrackerFailure('unreachable', 'Linear answered no data');
      return data;
    } catch (error) {
      throw failure(error);
    }
  }

  const identifier = (ref: IssueRef) => `${ref.repository}-${ref.number}`;

  async function teamId(key: string) {
    const data = await run<{ teams: { nodes: { id: string; key: string }[] } }>(
      `query PulsecheckTeam($key: String!) { teams(filter: { key: { eq: $key } }, first: 1) { nodes { id key } } }`,
      { key },
    );
    const team = data.teams.nodes.find((t) => t.key === key);
    if (!team) throw new TrackerFailure('missing', `no team ${key}`);
    return team.id;
  }

  /** The id of the only active member of the Linear workspace with this e-mail address, or null. */
  async function userIdOf(email: string) {
    try {
      const data = await run<{ users: { nodes: { id: string; active: boolean }[] } }>(
        `query PulsecheckUser($email: String!) { users(filter: { email: { eq: $email } }, first: 2) { nodes { id active } } }`,
        { email },
      );
      const active = data.users.nodes.filter((u) => u.active);
      return active.length === 1 ? active[0]!.id : null;
    } catch {
      return null;
    }
  }

  async function getIssue(ref: IssueRef) {
    const data = await run<{ issue: LinearIssue }>(
      `query PulsecheckIssue($id: String!) { issue(id: $id) { ${ISSUE_FIELDS} } }`,
      { id: identifier(ref) },
    );
    const issue = toIssue(data.issue);
    // A pasted URL names a workspace: an issue of the key's workspace with the same identifier is not it.
    if (ref.workspace && !issue.url.startsWith(`${linearWebOrigin(options.apiUrl)}/${ref.workspace}/`))
      throw new TrackerFailure('missing', `${identifier(ref)} is not an issue of ${ref.workspace}`);
    return issue;
  }

  return {
    whoAmI: async () => {
      const data = await run<{ viewer: { name: string; email: string }; organization: { name: string } }>(
        `query PulsecheckViewer { viewer { name email } organization { name } }`,
      );
      return `${data.viewer.name} (${data.organization.name})`;
    },
    repositories: async () => {
      const data = await run<{ viewer: { teams: { nodes: { key: string; name: string }[] } } }>(
        `query PulsecheckTeams { viewer { teams(first: 100) { nodes { key name } } } }`,
      );
      return data.viewer.teams.nodes
        .map((team) => ({ id: team.key, name: `${team.name} (${team.key})` }))
        .sort((a, b) => a.name.localeCompare(b.name));
    },
    createIssue: async (input) => {
      const id = await teamId(input.repository);
      const assigneeId = input.assigneeEmail ? await userIdOf(input.assigneeEmail) : null;
      const data = await run<{ issueCreate: { success: boolean; issue: LinearIssue | null } }>(
        `mutation PulsecheckCreate($input: IssueCreateInput!) { issueCreate(input: $input) { success issue { ${ISSUE_FIELDS} } } }`,
        {
          input: {
            teamId: id,
            title: input.title,
            description: input.body,
            ...(input.dueDate ? { dueDate: input.dueDate } : {}),
            ...(assigneeId ? { assigneeId } : {}),
          },
        },
      );
      if (!data.issueCreate.success || !data.issueCreate.issue)
        throw new TrackerFailure('invalid', 'Linear did not create the issue');
      return toIssue(data.issueCreate.issue);
    },
    getIssue,
    updateIssue: async (ref, change) => {
      const data = await run<{ issueUpdate: { success: boolean; issue: LinearIssue | null } }>(
        `mutation PulsecheckUpdate($id: String!, $input: IssueUpdateInput!) { issueUpdate(id: $id, input: $input) { success issue { ${ISSUE_FIELDS} } } }`,
        {
          id: identifier(ref),
          input: { title: change.title, description: change.body, dueDate: change.dueDate },
        },
      );
      if (!data.issueUpdate.success || !data.issueUpdate.issue)
        throw new TrackerFailure('invalid', 'Linear did not update the issue');
      return toIssue(data.issueUpdate.issue);
    },
    changedSince: async (repository, since) => {
      const issues: RemoteIssue[] = [];
      let after: string | null = null;
      // 100 a page; at most 20 pages a poll (2,000 issues of one team changed within 15 minutes is not a team).
      for (let page = 0; page < 20; page++) {
        const data: {
          issues: { nodes: LinearIssue[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } };
        } = await run(
          `query PulsecheckChanged($filter: IssueFilter, $after: String) { issues(filter: $filter, first: 100, after: $after) { nodes { ${ISSUE_FIELDS} } pageInfo { hasNextPage endCursor } } }`,
          {
            filter: {
              team: { key: { eq: repository } },
              ...(since ? { updatedAt: { gt: since.toISOString() } } : {}),
            },
            after,
          },
        );
        issues.push(...data.issues.nodes.map(toIssue));
        if (!data.issues.pageInfo.hasNextPage || !data.issues.pageInfo.endCursor) break;
        after = data.issues.pageInfo.endCursor;
      }
      return issues;
    },
  };
}

/**
 * Linear's webhook, checked by the SDK's LinearWebhookClient as Linear documents: `Linear-Signature` is the hex
 * HMAC-SHA256 of the raw body with the webhook's signing secret, and the signed body's `webhookTimestamp` (ms) must be
 * within a minute of now (so a captured delivery cannot be replayed later). The delivery id is `Linear-Delivery`.
 */
function readWebhook(headers: Headers, rawBody: string, secret: string): WebhookEvent | null {
  const signature = headers.get(LINEAR_WEBHOOK_SIGNATURE_HEADER) ?? '';
  const deliveryId = headers.get('linear-delivery') ?? '';
  if (!secret || !signature || !deliveryId) return null;
  let payload: { type?: string; action?: string; data?: Partial<LinearIssue> & { team?: { key: string } } };
  try {
    payload = new LinearWebhookClient(secret).parseData(Buffer.from(rawBody), signature) as typeof payload;
  } catch {
    return null;
  }
  const data = payload.data;
  if (
    payload.type !== 'Issue' ||
    payload.action === 'remove' ||
    !data ||
    typeof data.number !== 'number' ||
    typeof data.identifier !== 'string' ||
    typeof data.updatedAt !== 'string'
  )
    return { deliveryId, issue: null };
  return {
    deliveryId,
    issue: toIssue({
      identifier: data.identifier,
      number: data.number,
      title: data.title ?? '',
      url: data.url ?? '',
      updatedAt: data.updatedAt,
      state: data.state ?? null,
      team: data.team ?? null,
      assignee: data.assignee ?? null,
    }),
  };
}

export const linear: TrackerModule = {
  kind: 'linear',
  apiUrl(baseUrl) {
    const typed = baseUrl.trim().replace(/\/+$/, '');
    if (!typed || /^https:\/\/(api\.)?linear\.app(\/graphql)?$/i.test(typed)) return LINEAR_API;
    // Linear is a cloud service; another address is only a stand-in on this machine (tests, local trials), which
    // the service admits only with WEBHOOKS_ALLOW_LOOPBACK.
    const url = typedAddress(typed);
    if (!url || !isLoopbackHost(url.hostname)) return null;
    return `${url.origin}/graphql`;
  },
  target: (apiUrl) => (apiUrl === LINEAR_API ? 'linear.app' : new URL(apiUrl).host),
  client,
  parseIssueUrl: (apiUrl, url) => parseLinearIssue(url, linearWebOrigin(apiUrl)),
  webOrigin: linearWebOrigin,
  readWebhook,
};
