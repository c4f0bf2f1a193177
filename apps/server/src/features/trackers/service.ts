import type { AuditAction, AuditChanges } from '@pulsecheck/shared/audit/log';
import { changedFields, recordWorkspaceAudit, type AuditBy } from '../../audit/record';
import { sql } from 'drizzle-orm';
import { NOT_FOUND_MESSAGES } from '@pulsecheck/shared/api/errors';
import { HEALTH_CHECK_NOT_FOUND } from '@pulsecheck/shared/health-checks/rules';
import type { Locale } from '@pulsecheck/shared/i18n/languages';
import {
  createKey,
  TRACKER_LABELS,
  TRACKER_MESSAGES,
  TRACKER_PROBLEMS,
  TRACKER_WORDS,
  type TrackerConnection,
  type TrackerKind,
  type TrackerProblem,
} from '@pulsecheck/shared/trackers/rules';
import type { ActionItem } from '@pulsecheck/shared/results/schemas';
import { healthCheckAccess, organizationRoleSql, type Access, type OversightRole } from '../../auth/access';
import { can } from '../../auth/policy';
import { queryRows, type Db } from '../../db/client';
import { enqueueJob } from '../../jobs/queue';
import { conflict, invalid, notFound } from '../../lib/app-error';
import { translatorFor } from '../../lib/i18n';
import { outboundUrl, refusalOf } from '../../lib/outbound';
import type { AppDeps } from '../../lib/router';
import { TRACKERS } from '../../trackers/modules';
import { newWebhookSecret, openCredential, packCredential, sealCredential } from '../../trackers/secret';
import {
  applyIssue,
  clientOf,
  findConnection,
  schedulePoll,
  trackerPolicy,
  TRACKER_JOBS,
  type ConnectionRow,
} from '../../trackers/sync';
import { TrackerFailure } from '../../trackers/tracker';
import { listActionItems } from '../action-items/service';

/**
 * Trackers as people use them (issue 36, decision 0023): the workspace's connection (its admins and the
 * organisation's owner, `can(…, 'tracker:manage')`; browser sessions only, as the credentials are its business) and
 * the issues of action items (whoever oversees the check; API tokens with action-items:read/write too). Anyone else
 * is answered 404.
 */

type Deps = Pick<AppDeps, 'db' | 'config' | 'realtime' | 'logger'>;

type Row = ConnectionRow & {
  account: string;
  problem: TrackerProblem | null;
  problemAt: string | Date | null;
  createdAt: string | Date;
};

const iso = (value: string | Date | null) => (value === null ? null : new Date(value).toISOString());

const toConnection = (deps: Deps, row: Row): TrackerConnection => ({
  id: row.id,
  kind: row.kind,
  label: TRACKER_LABELS[row.kind],
  account: row.account,
  target: TRACKERS[row.kind].target(row.apiUrl),
  closeMarksDone: row.closeMarksDone,
  webhookUrl: `${deps.config.appUrl}/api/tracker-connections/${row.id}/webhook`,
  webhookSecretSaved: Boolean(openCredential(deps.config.authSecret, row.webhookSecret)),
  problem: row.problem ? TRACKER_PROBLEMS[row.problem] : null,
  problemAt: iso(row.problemAt),
  lastPolledAt: iso(row.lastPolledAt),
  createdAt: iso(row.createdAt)!,
});

async function connectionOfWorkspace(db: Db, workspaceId: string) {
  const [row] = await queryRows<Row>(
    db,
    sql`select id, workspace_id as "workspaceId", kind, api_url as "apiUrl", token, webhook_secret as "webhookSecret",
               close_marks_done as "closeMarksDone", last_polled_at as "lastPolledAt", account, problem,
               problem_at as "problemAt", created_at as "createdAt"
        from tracker_connections where workspace_id = ${workspaceId}`,
  );
  return row;
}

/** The workspace, when the user may manage its tracker; 404 otherwise. */
async function manageableWorkspace(db: Db, userId: string, workspaceId: string) {
  const [row] = await queryRows<{ access: Access | null; role: OversightRole | null }>(
    db,
    sql`select (select m.access from workspace_members m where m.workspace_id = w.id and m.user_id = ${userId}
                  and m.status = 'active') as access,
               ${organizationRoleSql(userId, sql`w.organization_id`)} as role
        from workspaces w where w.id = ${workspaceId}`,
  );
  if (!row || !can({ userId, access: row.access, organizationRole: row.role }, 'tracker:manage'))
    throw notFound(NOT_FOUND_MESSAGES.workspace);
}

export async function getConnection(deps: Deps, input: { userId: string; workspaceId: string }) {
  await manageableWorkspace(deps.db, input.userId, input.workspaceId);
  const row = await connectionOfWorkspace(deps.db, input.workspaceId);
  return { connection: row ? toConnection(deps, row) : null };
}

const isLoopbackHost = (host: string) => /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i.test(host);

/** The API URL for what was typed, by the URL rule: https, or http to loopback when WEBHOOKS_ALLOW_LOOPBACK. */
function apiUrlOf(deps: Deps, kind: TrackerKind, baseUrl: string) {
  const apiUrl = TRACKERS[kind].apiUrl(baseUrl);
  const message = TRACKER_WORDS[kind].baseUrlInvalid;
  const bad = () => invalid(message, { baseUrl: message });
  if (!apiUrl) throw bad();
  const url = new URL(apiUrl);
  if (url.protocol !== 'https:' && !(deps.config.allowLoopbackWebhooks && isLoopbackHost(url.hostname)))
    throw bad();
  try {
    outboundUrl(trackerPolicy(deps.config), apiUrl);
  } catch {
    throw invalid(TRACKER_MESSAGES.baseUrlPrivate, { baseUrl: TRACKER_MESSAGES.baseUrlPrivate });
  }
  return apiUrl;
}

/**
 * Connects the workspace's tracker, or replaces its token: the token is tested (who it acts as) before anything is
 * kept, then sealed. A first connection (or one to another tracker, whose links go) gets a new webhook secret,
 * answered this once; a new token for the same tracker keeps the secret the webhooks were set up with. The answer's
 * message is in `locale`, the request's language.
 */
export async function connect(
  deps: Deps,
  input: {
    userId: string;
    workspaceId: string;
    kind: TrackerKind;
    baseUrl: string;
    token: string;
    email?: string;
    closeMarksDone: boolean;
    by: AuditBy;
  },
  locale: Locale,
) {
  await manageableWorkspace(deps.db, input.userId, input.workspaceId);
  const apiUrl = apiUrlOf(deps, input.kind, input.baseUrl);
  const module = TRACKERS[input.kind];
  const words = TRACKER_WORDS[input.kind];
  // An e-mail is kept only for trackers that take one.
  const email = words.email ? (input.email ?? null) : null;
  if (words.email && !email && module.needsEmail?.(apiUrl))
    throw invalid(words.email.required, { email: words.email.required });
  let account: string;
  try {
    account = await module
      .client({ apiUrl, token: input.token, email, policy: trackerPolicy(deps.config) })
      .whoAmI();
  } catch (error) {
    deps.logger.info({ err: error, workspaceId: input.workspaceId }, 'tracker: the connection test failed');
    if (refusalOf(error))
      throw invalid(TRACKER_MESSAGES.baseUrlPrivate, { baseUrl: TRACKER_MESSAGES.baseUrlPrivate });
    if (
      error instanceof TrackerFailure &&
      (error.problem === 'credentials' || error.problem === 'permission')
    )
      throw invalid(words.refusedToken, { token: words.refusedToken });
    throw invalid(words.unreachable, { baseUrl: words.unreachable });
  }
  const existing = await connectionOfWorkspace(deps.db, input.workspaceId);
  const same = existing && existing.kind === input.kind && existing.apiUrl === apiUrl;
  // A tracker that makes its own signing secret (Linear) gets it pasted later; until then none is kept ('').
  const secret = same || words.secretFromTracker ? null : newWebhookSecret();
  const token = sealCredential(deps.config.authSecret, packCredential(input.token, email));
  const id = await deps.db.transaction(async (tx) => {
    // Which tracker and server, as the account it acts as: never the token, the e-mail or the secret.
    await recordTracker(tx, input.workspaceId, input.by, same ? 'tracker.changed' : 'tracker.connected', {
      tracker: TRACKER_LABELS[input.kind],
      server: new URL(apiUrl).host,
      account,
      ...(same ? { token: 'replaced' } : {}),
      ...changedFields(
        { closeMarksDone: existing?.closeMarksDone ?? null },
        { closeMarksDone: input.closeMarksDone },
      ),
    });
    if (same) {
      await tx.execute(
        sql`update tracker_connections set token = ${token}, account = ${account},
              close_marks_done = ${input.closeMarksDone}, problem = null, problem_at = null
            where id = ${existing.id}`,
      );
      // Links that failed on the old token: tried again with the next poll, which comes at once.
      await tx.execute(sql`update tracker_links set problem = null where connection_id = ${existing.id}`);
      return existing.id;
    }
    if (existing) await tx.execute(sql`delete from tracker_connections where id = ${existing.id}`);
    const [row] = await queryRows<{ id: string }>(
      tx,
      sql`insert into tracker_connections
            (workspace_id, kind, api_url, token, webhook_secret, account, close_marks_done, created_by)
          values (${input.workspaceId}, ${input.kind}, ${apiUrl}, ${token},
                  ${sealCredential(deps.config.authSecret, secret ?? '')}, ${account}, ${input.closeMarksDone},
                  ${input.userId})
          returning id`,
    );
    return row!.id;
  });
  await schedulePoll(deps.db, id, same ? 0 : undefined);
  const row = await connectionOfWorkspace(deps.db, input.workspaceId);
  const connection = toConnection(deps, row!);
  return {
    connection,
    webhookSecret: secret,
    message: translatorFor(locale).t(TRACKER_MESSAGES.connected, { account, target: connection.target }),
  };
}

/**
 * Whether closing marks done; and the signing secret of a tracker that makes its own (Linear shows it when the
 * webhook is added). Pulsecheck's own secrets (GitHub's) are never replaced this way: they are made, not typed.
 */
export async function updateSettings(
  deps: Deps,
  input: {
    userId: string;
    workspaceId: string;
    closeMarksDone?: boolean;
    webhookSecret?: string;
    by: AuditBy;
  },
) {
  await manageableWorkspace(deps.db, input.userId, input.workspaceId);
  const row = await connectionOfWorkspace(deps.db, input.workspaceId);
  if (!row) throw conflict(TRACKER_MESSAGES.notConnectedHere);
  if (input.webhookSecret !== undefined && !TRACKER_WORDS[row.kind].secretFromTracker)
    throw invalid(TRACKER_MESSAGES.signingSecretOurs, { webhookSecret: TRACKER_MESSAGES.signingSecretOurs });
  const closeMarksDone = input.closeMarksDone ?? row.closeMarksDone;
  const webhookSecret =
    input.webhookSecret === undefined
      ? row.webhookSecret
      : sealCredential(deps.config.authSecret, input.webhookSecret);
  const changes = {
    ...changedFields({ closeMarksDone: row.closeMarksDone }, { closeMarksDone }),
    ...(input.webhookSecret !== undefined ? { signingSecret: 'saved' } : {}),
  };
  await deps.db.transaction(async (tx) => {
    await tx.execute(
      sql`update tracker_connections set close_marks_done = ${closeMarksDone}, webhook_secret = ${webhookSecret}
          where id = ${row.id}`,
    );
    if (Object.keys(changes).length > 0)
      await recordTracker(tx, input.workspaceId, input.by, 'tracker.changed', {
        tracker: TRACKER_LABELS[row.kind],
        ...changes,
      });
  });
  return { connection: toConnection(deps, { ...row, closeMarksDone, webhookSecret }) };
}

/** Disconnects: the credentials and the links go; the action items stay as they are. */
export async function disconnect(deps: Deps, input: { userId: string; workspaceId: string; by: AuditBy }) {
  await manageableWorkspace(deps.db, input.userId, input.workspaceId);
  await deps.db.transaction(async (tx) => {
    const [gone] = await queryRows<{ kind: TrackerKind; api_url: string }>(
      tx,
      sql`delete from tracker_connections where workspace_id = ${input.workspaceId} returning kind, api_url`,
    );
    if (gone)
      await recordTracker(tx, input.workspaceId, input.by, 'tracker.disconnected', {
        tracker: TRACKER_LABELS[gone.kind],
        server: new URL(gone.api_url).host,
      });
  });
}

/** A change of the workspace's tracker connection, in the audit log (the workspace is its target). */
async function recordTracker(
  tx: Db,
  workspaceId: string,
  by: AuditBy,
  action: AuditAction,
  changes: AuditChanges,
) {
  const [workspace] = await queryRows<{ name: string }>(
    tx,
    sql`select name from workspaces where id = ${workspaceId}`,
  );
  await recordWorkspaceAudit(tx, workspaceId, by, {
    action,
    targetType: 'workspace',
    targetId: workspaceId,
    targetLabel: workspace?.name ?? null,
    changes,
  });
}

/** The action item and its check, when the user oversees the check; 404 otherwise. */
async function overseenItem(db: Db, userId: string, actionItemId: string) {
  const [item] = await queryRows<{ id: string; healthCheckId: string; workspaceId: string }>(
    db,
    sql`select a.id, a.health_check_id as "healthCheckId", h.workspace_id as "workspaceId"
        from action_items a join health_checks h on h.id = a.health_check_id where a.id = ${actionItemId}`,
  );
  const access = item ? await healthCheckAccess(db, userId, item.healthCheckId) : null;
  if (!item || !access?.manages) throw notFound(NOT_FOUND_MESSAGES.actionItem);
  return item;
}

async function connectionFor(db: Db, workspaceId: string) {
  const row = await connectionOfWorkspace(db, workspaceId);
  if (!row) throw conflict(TRACKER_MESSAGES.notConnectedHere);
  return row;
}

/** A problem of the tracker as an answer: what to do, as on the screens. */
const refused = (error: unknown) => {
  if (error instanceof TrackerFailure) {
    const message =
      error.problem === 'missing' ? TRACKER_MESSAGES.issueNotFound : TRACKER_PROBLEMS[error.problem];
    return conflict(message);
  }
  return error;
};

/** The tracker of a check's workspace, for those who oversee the check (whether to offer 'Create issue in …'). */
export async function checkTracker(deps: Deps, input: { userId: string; healthCheckId: string }) {
  const access = await healthCheckAccess(deps.db, input.userId, input.healthCheckId);
  if (!access?.manages) throw notFound(HEALTH_CHECK_NOT_FOUND);
  const row = await connectionOfWorkspace(deps.db, access.workspaceId);
  return { tracker: row ? { kind: row.kind, label: TRACKER_LABELS[row.kind] } : null };
}

/** The repositories an issue may be created in, as the tracker lists them for the token. */
export async function listRepositories(deps: Deps, input: { userId: string; actionItemId: string }) {
  const item = await overseenItem(deps.db, input.userId, input.actionItemId);
  const connection = await connectionFor(deps.db, item.workspaceId);
  try {
    const repositories = await clientOf(deps, connection).repositories();
    return { kind: connection.kind, label: TRACKER_LABELS[connection.kind], repositories };
  } catch (error) {
    throw refused(error);
  }
}

async function itemAnswer(db: Db, item: { id: string; healthCheckId: string }): Promise<ActionItem> {
  const [current] = await listActionItems(db, item.healthCheckId, item.id);
  return current!;
}

/**
 * 'Create issue in …': the link is kept at once (state 'creating') and a job creates the issue, so the page never
 * waits for the tracker and a tracker that is down delays the issue, never loses it.
 */
export async function createIssue(
  deps: Deps,
  input: { userId: string; actionItemId: string; repository: string; assignOwner: boolean },
) {
  const item = await overseenItem(deps.db, input.userId, input.actionItemId);
  const connection = await connectionFor(deps.db, item.workspaceId);
  await deps.db.transaction(async (tx) => {
    const [link] = await queryRows<{ id: string }>(
      tx,
      sql`insert into tracker_links (action_item_id, connection_id, repository, state, assign_owner)
          values (${item.id}, ${connection.id}, ${input.repository}, 'creating', ${input.assignOwner})
          on conflict (action_item_id) do nothing returning id`,
    );
    if (!link) throw conflict(TRACKER_MESSAGES.alreadyLinked);
    await enqueueJob(tx, {
      kind: TRACKER_JOBS.create,
      payload: { linkId: link.id },
      uniqueKey: createKey(link.id),
    });
  });
  return itemAnswer(deps.db, item);
}

/** 'Link existing issue': the pasted URL must name an issue of the connected tracker that the token sees. */
export async function linkIssue(deps: Deps, input: { userId: string; actionItemId: string; url: string }) {
  const item = await overseenItem(deps.db, input.userId, input.actionItemId);
  const connection = await connectionFor(deps.db, item.workspaceId);
  const module = TRACKERS[connection.kind];
  const ref = module.parseIssueUrl(connection.apiUrl, input.url);
  if (!ref) {
    const message = TRACKER_MESSAGES.issueUrlInvalid;
    throw invalid(
      message,
      { url: message },
      { label: TRACKER_LABELS[connection.kind], origin: module.webOrigin(connection.apiUrl) },
    );
  }
  let issue;
  try {
    issue = await clientOf(deps, connection).getIssue(ref);
  } catch (error) {
    throw refused(error);
  }
  await deps.db.transaction(async (tx) => {
    const [link] = await queryRows<{ id: string }>(
      tx,
      sql`insert into tracker_links (action_item_id, connection_id, repository, number, state)
          values (${item.id}, ${connection.id}, ${ref.repository}, ${ref.number}, 'open')
          on conflict do nothing returning id`,
    );
    if (!link) {
      const [mine] = await queryRows<{ id: string }>(
        tx,
        sql`select id from tracker_links where action_item_id = ${item.id}`,
      );
      throw conflict(mine ? TRACKER_MESSAGES.alreadyLinked : TRACKER_MESSAGES.issueTaken);
    }
    // Linked as it is now: a closed issue marks the item done as closing it would.
    await applyIssue(deps, tx, { linkId: link.id, issue, closeMarksDone: connection.closeMarksDone });
  });
  return itemAnswer(deps.db, item);
}

/** Unlinks: the issue stays in the tracker as it is; Pulsecheck stops syncing it. */
export async function unlinkIssue(deps: Deps, input: { userId: string; actionItemId: string }) {
  const item = await overseenItem(deps.db, input.userId, input.actionItemId);
  await deps.db.execute(sql`delete from tracker_links where action_item_id = ${item.id}`);
  return itemAnswer(deps.db, item);
}

export { findConnection };
export const CONNECTION_NOT_FOUND = TRACKER_MESSAGES.connectionNotFound;
