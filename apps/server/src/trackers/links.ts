import { sql } from 'drizzle-orm';
import {
  issueKey,
  TRACKER_LABELS,
  TRACKER_PROBLEMS,
  type TrackerIssue,
  type TrackerKind,
  type TrackerProblem,
} from '@pulsecheck/shared/trackers/rules';
import { queryRows, type Db } from '../db/client';
import { enqueueJob } from '../jobs/queue';

/** The job that writes an action item's edit to its issue (sync.ts). */
export const PUSH_JOB = 'tracker-push';

const iso = (value: string | Date | null) => (value === null ? null : new Date(value).toISOString());

/** The issues of a check's action items (one query whatever their number), by action item id. */
export async function trackerIssuesOf(
  db: Db,
  healthCheckId: string,
  itemId?: string,
): Promise<Map<string, TrackerIssue>> {
  const rows = await queryRows<{
    actionItemId: string;
    kind: TrackerKind;
    repository: string;
    number: number | null;
    url: string | null;
    title: string | null;
    state: TrackerIssue['state'];
    assignee: string | null;
    problem: TrackerProblem | null;
    syncedAt: string | Date | null;
  }>(
    db,
    sql`select l.action_item_id as "actionItemId", c.kind, l.repository, l.number, l.url, l.title, l.state,
               l.assignee, l.problem, l.synced_at as "syncedAt"
        from tracker_links l
        join tracker_connections c on c.id = l.connection_id
        join action_items a on a.id = l.action_item_id
        where a.health_check_id = ${healthCheckId} ${itemId ? sql`and a.id = ${itemId}` : sql``}`,
  );
  return new Map(
    rows.map((row) => [
      row.actionItemId,
      {
        kind: row.kind,
        label: TRACKER_LABELS[row.kind],
        key: row.number === null ? null : issueKey(row.kind, row.repository, row.number),
        url: row.url,
        title: row.title,
        state: row.state,
        assignee: row.assignee,
        problem: row.problem ? TRACKER_PROBLEMS[row.problem] : null,
        syncedAt: iso(row.syncedAt),
      },
    ]),
  );
}

/**
 * After an edit of an action item (its description, due date or component): a job that writes it to its issue,
 * when it has one, in the caller's transaction. The job compares with what was last written, so edits that change
 * nothing the issue shows send nothing.
 */
export async function queueIssueUpdate(db: Db, actionItemId: string) {
  const [linked] = await queryRows<{ id: string }>(
    db,
    sql`select id from tracker_links where action_item_id = ${actionItemId} and number is not null`,
  );
  if (linked) await enqueueJob(db, { kind: PUSH_JOB, payload: { actionItemId } });
}
