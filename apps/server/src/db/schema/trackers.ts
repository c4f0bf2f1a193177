import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { ISSUE_STATES, TRACKER_KINDS } from '@pulsecheck/shared/trackers/rules';
import { createdAt, instant, sqlList, uuidPrimaryKey } from './columns';
import { userRef } from './auth';
import { workspaces } from './organizations';
import { actionItems } from './health-checks';

/**
 * A workspace's tracker (issue 36, decision 0023): one per workspace. The token and the webhook secret are sealed
 * (AES-256-GCM under a key derived from AUTH_SECRET, trackers/secret.ts) and never answered again.
 */
export const trackerConnections = pgTable(
  'tracker_connections',
  {
    id: uuidPrimaryKey(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    /** The API base URL the client calls (https://api.github.com, or a GHES's <origin>/api/v3). */
    apiUrl: text('api_url').notNull(),
    /** The token, sealed. */
    token: text('token').notNull(),
    /** The secret the tracker signs its webhooks with, sealed. */
    webhookSecret: text('webhook_secret').notNull(),
    /** Who the token acts as, when it was tested ('Connected as … to …'). */
    account: text('account').notNull(),
    closeMarksDone: boolean('close_marks_done').notNull().default(true),
    /** The last failure (a TRACKER_PROBLEMS key) and when; null while it works. */
    problem: text('problem'),
    problemAt: instant('problem_at'),
    lastPolledAt: instant('last_polled_at'),
    createdBy: userRef('created_by'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('tracker_connections_workspace_key').on(t.workspaceId),
    check('tracker_connections_kind_check', sql`${t.kind} in ${sqlList(TRACKER_KINDS)}`),
  ],
);

/**
 * An action item's issue: one per action item, one action item per issue of a connection. `pushed_*` is what
 * Pulsecheck last wrote to the issue (an edit is sent only when it differs: no echo, no repeat); `remote_updated_at`
 * is the tracker's `updated_at` of the last applied event (older events are ignored).
 */
export const trackerLinks = pgTable(
  'tracker_links',
  {
    id: uuidPrimaryKey(),
    actionItemId: uuid('action_item_id')
      .notNull()
      .references(() => actionItems.id, { onDelete: 'cascade' }),
    connectionId: uuid('connection_id')
      .notNull()
      .references(() => trackerConnections.id, { onDelete: 'cascade' }),
    repository: text('repository').notNull(),
    /** The issue's number; null while it is being created. */
    number: integer('number'),
    url: text('url'),
    title: text('title'),
    state: text('state').notNull(),
    assignee: text('assignee'),
    /** Whether creating it should assign the action item's owner. */
    assignOwner: boolean('assign_owner').notNull().default(false),
    remoteUpdatedAt: instant('remote_updated_at'),
    pushedTitle: text('pushed_title'),
    pushedBody: text('pushed_body'),
    problem: text('problem'),
    problemAt: instant('problem_at'),
    syncedAt: instant('synced_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('tracker_links_action_item_key').on(t.actionItemId),
    uniqueIndex('tracker_links_issue_key')
      .on(t.connectionId, t.repository, t.number)
      .where(sql`${t.number} is not null`),
    index('tracker_links_connection_idx').on(t.connectionId),
    check('tracker_links_state_check', sql`${t.state} in ${sqlList(ISSUE_STATES)}`),
  ],
);
