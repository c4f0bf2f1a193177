import { sql } from 'drizzle-orm';
import { LIVE_EVENT, topics } from '@pulsecheck/shared/realtime/topics';
import {
  createKey,
  deliveryKey,
  issueBody,
  issueTitle,
  isNotOlder,
  pollKey,
  POLL_INTERVAL_MINUTES,
  statusAfterIssueChange,
  type TrackerKind,
  type TrackerProblem,
} from '@pulsecheck/shared/trackers/rules';
import type { Config } from '../config';
import { queryRows, type Db } from '../db/client';
import { enqueueJob, recordOnce, type JobHandler } from '../jobs/queue';
import type { OutboundPolicy } from '../lib/outbound';
import type { AppDeps } from '../lib/router';
import { translatorOfRecipient } from '../mail/language';
import { setStatusFromTracker } from '../features/action-items/service';
import { PUSH_JOB } from './links';
import { TRACKERS } from './modules';
import { openCredential, unpackCredential } from './secret';
import { TrackerFailure, type RemoteIssue, type Tracker } from './tracker';

/**
 * Both directions of the sync (issue 36, decision 0023), the same for every tracker:
 * - out: creating an issue and writing an action item's edits are jobs (jobs/queue.ts: retried with backoff, one
 *   process each), never calls made while a page waits; every call goes through the outbound guard.
 * - in: a signed webhook (`receiveWebhook`, each delivery applied once) and, as a fallback, a poll of each
 *   connection every 15 minutes (`pollConnection`), both through `applyIssue`, which ignores stale events.
 * A failure is kept on the link (and on the connection when the token is at fault) with what to do.
 */

export const TRACKER_JOBS = { create: 'tracker-create', push: PUSH_JOB, poll: 'tracker-poll' } as const;

export type SyncDeps = Pick<AppDeps, 'db' | 'realtime' | 'logger'> & {
  config: Pick<Config, 'authSecret' | 'appUrl' | 'dnsServers' | 'allowLoopbackWebhooks'>;
};

/** Trackers are called through the guard like webhooks: public addresses, loopback only with WEBHOOKS_ALLOW_LOOPBACK. */
export const trackerPolicy = (config: SyncDeps['config']): OutboundPolicy => ({
  dnsServers: config.dnsServers,
  allowLoopback: config.allowLoopbackWebhooks,
});

export type ConnectionRow = {
  id: string;
  workspaceId: string;
  kind: TrackerKind;
  apiUrl: string;
  token: string;
  webhookSecret: string;
  closeMarksDone: boolean;
  lastPolledAt: string | Date | null;
};

const connectionColumns = sql`c.id, c.workspace_id as "workspaceId", c.kind, c.api_url as "apiUrl", c.token,
  c.webhook_secret as "webhookSecret", c.close_marks_done as "closeMarksDone", c.last_polled_at as "lastPolledAt"`;

export async function findConnection(db: Db, connectionId: string) {
  const [row] = await queryRows<ConnectionRow>(
    db,
    sql`select ${connectionColumns} from tracker_connections c where c.id = ${connectionId}`,
  );
  return row;
}

/** The connection's client, or a 'credentials' failure when its token cannot be opened (AUTH_SECRET changed). */
export function clientOf(deps: SyncDeps, connection: ConnectionRow): Tracker {
  const sealed = openCredential(deps.config.authSecret, connection.token);
  if (sealed === null)
    throw new TrackerFailure('credentials', 'the token cannot be opened (AUTH_SECRET changed)');
  return TRACKERS[connection.kind].client({
    apiUrl: connection.apiUrl,
    ...unpackCredential(sealed),
    policy: trackerPolicy(deps.config),
  });
}

const problemOf = (error: unknown): TrackerProblem =>
  error instanceof TrackerFailure ? error.problem : 'unreachable';

/** Keeps a failure on the link, and on the connection when the token is at fault; in its own statement. */
async function recordProblem(db: Db, where: { linkId?: string; connectionId: string }, error: unknown) {
  const problem = problemOf(error);
  if (where.linkId)
    await db.execute(
      sql`update tracker_links set problem = ${problem}, problem_at = now() where id = ${where.linkId}`,
    );
  if (!where.linkId || problem === 'credentials')
    await db.execute(
      sql`update tracker_connections set problem = ${problem}, problem_at = now() where id = ${where.connectionId}`,
    );
}

const clearConnectionProblem = (db: Db, connectionId: string) =>
  db.execute(
    sql`update tracker_connections set problem = null, problem_at = null where id = ${connectionId}`,
  );

type LinkRow = {
  id: string;
  actionItemId: string;
  connectionId: string;
  repository: string;
  number: number | null;
  state: 'creating' | 'open' | 'closed';
  remoteUpdatedAt: string | Date | null;
  pushedTitle: string | null;
  pushedBody: string | null;
  assignOwner: boolean;
};
const linkColumns = sql`l.id, l.action_item_id as "actionItemId", l.connection_id as "connectionId", l.repository,
  l.number, l.state, l.remote_updated_at as "remoteUpdatedAt", l.pushed_title as "pushedTitle",
  l.pushed_body as "pushedBody", l.assign_owner as "assignOwner"`;

const isoOf = (value: string | Date | null) => (value === null ? null : new Date(value).toISOString());

/**
 * Applies an issue's state as the tracker reported it to its link, in `tx`, with the link locked (a webhook and a
 * poll of one issue wait for each other). Stale reports (older than the last applied) change nothing; a change
 * of state moves the action item's status by the sync rules. True when it applied.
 */
export async function applyIssue(
  deps: Pick<SyncDeps, 'realtime'>,
  tx: Db,
  options: { linkId: string; issue: RemoteIssue; closeMarksDone: boolean },
): Promise<boolean> {
  const [link] = await queryRows<
    LinkRow & { status: 'pending' | 'in-progress' | 'completed'; checkId: string }
  >(
    tx,
    sql`select ${linkColumns}, a.status, a.health_check_id as "checkId"
        from tracker_links l join action_items a on a.id = l.action_item_id
        where l.id = ${options.linkId} for update of l`,
  );
  if (!link || !isNotOlder(isoOf(link.remoteUpdatedAt), options.issue.updatedAt)) return false;
  const { issue } = options;
  await tx.execute(
    sql`update tracker_links set title = ${issue.title}, state = ${issue.state}, assignee = ${issue.assignee},
          url = ${issue.url}, remote_updated_at = ${issue.updatedAt}, synced_at = now(), problem = null,
          problem_at = null
        where id = ${link.id}`,
  );
  const status = statusAfterIssueChange({
    before: link.state,
    after: issue.state,
    status: link.status,
    closeMarksDone: options.closeMarksDone,
  });
  if (status) await setStatusFromTracker(deps, tx, { actionItemId: link.actionItemId, status });
  else
    await deps.realtime.publish(
      { topic: topics.healthCheck(link.checkId), type: LIVE_EVENT.actionItemsChanged },
      tx,
    );
  return true;
}

/**
 * What the issue should say now: the action item's title and body by the sync rules, the body's own words in the
 * organisation's default language (the tracker is read by the whole team, not by one person).
 */
async function wantedIssue(deps: SyncDeps, actionItemId: string) {
  const [row] = await queryRows<{
    description: string;
    dueDate: string | null;
    componentTitle: string | null;
    checkId: string;
    checkTitle: string;
    ownerEmail: string | null;
    organizationLanguage: string | null;
  }>(
    deps.db,
    sql`select a.description, a.due_date::text as "dueDate", c.title as "componentTitle",
               h.id as "checkId", h.title as "checkTitle", u.email as "ownerEmail",
               o.default_language as "organizationLanguage"
        from action_items a
        join health_checks h on h.id = a.health_check_id
        join workspaces w on w.id = h.workspace_id
        join organizations o on o.id = w.organization_id
        left join health_check_components c on c.id = a.component_id
        left join "user" u on u.id = a.owner_id
        where a.id = ${actionItemId}`,
  );
  if (!row) return null;
  return {
    title: issueTitle(row.description),
    body: issueBody(
      {
        description: row.description,
        componentTitle: row.componentTitle,
        dueDate: row.dueDate,
        checkTitle: row.checkTitle,
        resultsUrl: `${deps.config.appUrl}/health-check/${row.checkId}/results`,
      },
      translatorOfRecipient({ organization: row.organizationLanguage }),
    ),
    dueDate: row.dueDate,
    ownerEmail: row.ownerEmail,
    checkId: row.checkId,
  };
}

async function linkOf(db: Db, where: { linkId?: string; actionItemId?: string }) {
  const [row] = await queryRows<LinkRow>(
    db,
    sql`select ${linkColumns} from tracker_links l
        where ${where.linkId ? sql`l.id = ${where.linkId}` : sql`l.action_item_id = ${where.actionItemId ?? ''}`}`,
  );
  return row;
}

/** Only a tracker that did not answer is worth the queue's retries; a refusal waits for people. */
const retryable = (error: unknown) => problemOf(error) === 'unreachable';

/**
 * Calls the tracker about a link's issue. A failure is recorded on the link and its connection and shown on live
 * screens; a tracker that did not answer is thrown again for the queue's retries (`rethrow`). Undefined on failure.
 */
async function callForLink(
  deps: SyncDeps,
  context: { link: LinkRow; connection: ConnectionRow; checkId: string; rethrow: boolean },
  call: (tracker: Tracker) => Promise<RemoteIssue>,
): Promise<RemoteIssue | undefined> {
  try {
    return await call(clientOf(deps, context.connection));
  } catch (error) {
    await recordProblem(deps.db, { linkId: context.link.id, connectionId: context.connection.id }, error);
    await deps.realtime.publish({
      topic: topics.healthCheck(context.checkId),
      type: LIVE_EVENT.actionItemsChanged,
    });
    if (context.rethrow && retryable(error)) throw error;
    return undefined;
  }
}

/** The job that creates a link's issue. Creating twice is prevented by the link: once it has a number, never again. */
export async function createIssueJob(deps: SyncDeps, payload: { linkId: string }, rethrow = true) {
  const link = await linkOf(deps.db, { linkId: payload.linkId });
  if (!link || link.number !== null) return;
  const connection = await findConnection(deps.db, link.connectionId);
  const wanted = await wantedIssue(deps, link.actionItemId);
  if (!connection || !wanted) return;
  const issue = await callForLink(deps, { link, connection, checkId: wanted.checkId, rethrow }, (tracker) =>
    tracker.createIssue({
      repository: link.repository,
      title: wanted.title,
      body: wanted.body,
      dueDate: wanted.dueDate,
      assigneeEmail: link.assignOwner ? wanted.ownerEmail : null,
    }),
  );
  if (!issue) return;
  await deps.db.transaction(async (tx) => {
    await tx.execute(
      sql`update tracker_links set number = ${issue.number}, url = ${issue.url}, title = ${issue.title},
            state = ${issue.state}, assignee = ${issue.assignee}, remote_updated_at = ${issue.updatedAt},
            pushed_title = ${wanted.title}, pushed_body = ${wanted.body}, synced_at = now(), problem = null,
            problem_at = null
          where id = ${link.id} and number is null`,
    );
    await deps.realtime.publish(
      { topic: topics.healthCheck(wanted.checkId), type: LIVE_EVENT.actionItemsChanged },
      tx,
    );
  });
}

/**
 * Writes an action item's title and body to its issue when they differ from what was last written: the job after an
 * edit, and the poll's catch-up for edits whose job gave up. Its own answer is applied like any other report.
 */
export async function pushIssue(deps: SyncDeps, payload: { actionItemId: string }, rethrow = true) {
  const link = await linkOf(deps.db, { actionItemId: payload.actionItemId });
  if (!link || link.number === null) return;
  const wanted = await wantedIssue(deps, link.actionItemId);
  const connection = await findConnection(deps.db, link.connectionId);
  if (!wanted || !connection) return;
  if (wanted.title === link.pushedTitle && wanted.body === link.pushedBody) return;
  const number = link.number;
  const issue = await callForLink(deps, { link, connection, checkId: wanted.checkId, rethrow }, (tracker) =>
    tracker.updateIssue(
      { repository: link.repository, number },
      { title: wanted.title, body: wanted.body, dueDate: wanted.dueDate },
    ),
  );
  if (!issue) return;
  await deps.db.transaction(async (tx) => {
    await tx.execute(
      sql`update tracker_links set pushed_title = ${wanted.title}, pushed_body = ${wanted.body}, problem = null,
            problem_at = null
          where id = ${link.id}`,
    );
    await applyIssue(deps, tx, { linkId: link.id, issue, closeMarksDone: connection.closeMarksDone });
  });
}

export type WebhookOutcome = 'unknown' | 'refused' | 'duplicate' | 'applied' | 'ignored';

/**
 * A webhook from the tracker: its signature checked as the vendor documents, each delivery applied once (its id
 * recorded in the same transaction as its effect, so a replay or a second process finds it), older news ignored.
 */
export async function receiveWebhook(
  deps: SyncDeps,
  options: { connectionId: string; headers: Headers; rawBody: string },
): Promise<WebhookOutcome> {
  const connection = await findConnection(deps.db, options.connectionId);
  if (!connection) return 'unknown';
  const secret = openCredential(deps.config.authSecret, connection.webhookSecret);
  const event = secret
    ? TRACKERS[connection.kind].readWebhook(options.headers, options.rawBody, secret, connection.apiUrl)
    : null;
  if (!event) return 'refused';
  return deps.db.transaction(async (tx) => {
    const first = await recordOnce(tx, {
      kind: 'tracker-delivery',
      uniqueKey: deliveryKey(connection.id, event.deliveryId),
    });
    if (!first) return 'duplicate';
    if (!event.issue) return 'ignored';
    const [link] = await queryRows<{ id: string }>(
      tx,
      sql`select id from tracker_links where connection_id = ${connection.id}
            and repository = ${event.issue.repository} and number = ${event.issue.number}`,
    );
    if (!link) return 'ignored';
    const applied = await applyIssue(deps, tx, {
      linkId: link.id,
      issue: event.issue,
      closeMarksDone: connection.closeMarksDone,
    });
    return applied ? 'applied' : 'ignored';
  });
}

/** Schedules a connection's poll `delayMinutes` from now; once per slot across processes. */
export async function schedulePoll(db: Db, connectionId: string, delayMinutes = POLL_INTERVAL_MINUTES) {
  const runAt = new Date(Date.now() + delayMinutes * 60_000);
  await enqueueJob(db, {
    kind: TRACKER_JOBS.poll,
    payload: { connectionId },
    runAt,
    uniqueKey: pollKey(connectionId, runAt),
  });
}

/** How far back a poll looks before the last one began: reports that were late to show in the tracker's list. */
const POLL_OVERLAP_MS = 5 * 60_000;

/**
 * The fallback for trackers that cannot reach this server: one request per linked repository for the issues changed
 * since the last poll, each applied like a webhook (stale ones ignored); then the edits whose job gave up are
 * written again. Always schedules the next poll.
 */
export async function pollConnection(deps: SyncDeps, payload: { connectionId: string }) {
  const connection = await findConnection(deps.db, payload.connectionId);
  if (!connection) return;
  const startedAt = new Date();
  try {
    const client = clientOf(deps, connection);
    const links = await queryRows<{ id: string; actionItemId: string; repository: string; number: number }>(
      deps.db,
      sql`select id, action_item_id as "actionItemId", repository, number from tracker_links
          where connection_id = ${connection.id} and number is not null order by repository, number`,
    );
    const since =
      connection.lastPolledAt === null
        ? null
        : new Date(new Date(connection.lastPolledAt).getTime() - POLL_OVERLAP_MS);
    for (const repository of [...new Set(links.map((l) => l.repository))]) {
      const issues = new Map(
        (await client.changedSince(repository, since)).map((issue) => [issue.number, issue]),
      );
      for (const link of links.filter((l) => l.repository === repository)) {
        const issue = issues.get(link.number);
        if (issue)
          await deps.db.transaction((tx) =>
            applyIssue(deps, tx, { linkId: link.id, issue, closeMarksDone: connection.closeMarksDone }),
          );
      }
    }
    for (const link of links) await pushIssue(deps, { actionItemId: link.actionItemId }, false);
    // Issues still to create whose job gave up (a refusal, or retries spent): tried again, never beside a live job.
    const uncreated = await queryRows<{ id: string }>(
      deps.db,
      sql`select l.id from tracker_links l
          where l.connection_id = ${connection.id} and l.number is null
            and not exists (select 1 from jobs j where j.unique_key = 'tracker-create:' || l.id::text
                              and j.status = 'pending')`,
    );
    for (const link of uncreated) await createIssueJob(deps, { linkId: link.id }, false);
    await deps.db.execute(
      sql`update tracker_connections set last_polled_at = ${startedAt.toISOString()}, problem = null,
            problem_at = null
          where id = ${connection.id}`,
    );
  } catch (error) {
    deps.logger.warn({ err: error, connectionId: connection.id }, 'tracker poll failed');
    await recordProblem(deps.db, { connectionId: connection.id }, error);
  } finally {
    await schedulePoll(deps.db, connection.id);
  }
}

/** At start-up: a poll for every connection (the unique key makes it one per slot across processes). */
export async function startTrackerPolls(db: Db) {
  const rows = await queryRows<{ id: string }>(db, sql`select id from tracker_connections`);
  for (const row of rows) await schedulePoll(db, row.id);
}

export function trackerJobHandlers(deps: SyncDeps): Record<string, JobHandler> {
  return {
    [TRACKER_JOBS.create]: (payload) => createIssueJob(deps, { linkId: String(payload.linkId) }),
    [TRACKER_JOBS.push]: (payload) => pushIssue(deps, { actionItemId: String(payload.actionItemId) }),
    [TRACKER_JOBS.poll]: (payload) => pollConnection(deps, { connectionId: String(payload.connectionId) }),
  };
}

export { clearConnectionProblem, createKey };
