import { DEFAULT_SETTINGS } from '@pulsecheck/shared/health-checks/schemas';
import type { Responses } from '@pulsecheck/shared/participation/contract';
import type { InterimResponses, HealthCheckSettings } from '../../db/schema/health-checks';
import { sql } from 'drizzle-orm';
import { queryRows, type Database, type Db } from '../../db/client';

/** Counts of a check's participants, as a SQL fragment over the alias `hc`. */
const teamCounts = sql`
  (select count(*)::int from participants tp where tp.health_check_id = hc.id) as team_total,
  (select count(*)::int from participants tp where tp.health_check_id = hc.id and tp.status = 'completed') as team_completed`;

/** The caller's active membership (`wm`) of the check's workspace and participant row (`p`) of check `hc`. */
const callerJoins = (userId: string) => sql`
  left join workspace_members wm
    on wm.workspace_id = hc.workspace_id and wm.user_id = ${userId} and wm.status = 'active'
  left join participants p on p.health_check_id = hc.id and p.user_id = ${userId}`;

/** The ids of the enabled components of check `hc`, as `component_ids`. */
const componentIds = sql`coalesce((select json_agg(c.id) from health_check_components c
  where c.template_id = hc.template_id and c.enabled), '[]'::json) as component_ids`;

/** The ids of the follow-up questions of check `hc` (decision 0019), as `follow_up_ids`. */
const followUpIds = sql`coalesce((select json_agg(q.id) from follow_up_questions q
  where q.health_check_id = hc.id), '[]'::json) as follow_up_ids`;

export type CheckForUser = {
  id: string;
  title: string;
  description: string | null;
  settings: HealthCheckSettings;
  phase: string;
  status: string;
  workspace_id: string;
  workspace_name: string | null;
  template_id: string;
  created_by: string | null;
  /** Active membership of the caller in the check's workspace, if any. */
  access: string | null;
  participant_id: string | null;
  participant_status: string | null;
  responses: Responses | null;
  participant_completed_at: string | Date | null;
  team_total: number;
  team_completed: number;
};

/** The check with the caller's membership, participant row and the team's counts: one round trip. */
export async function findCheckForUser(db: Db, healthCheckId: string, userId: string) {
  const [row] = await queryRows<CheckForUser>(
    db,
    sql`select hc.id, hc.title, hc.description, hc.settings, hc.phase, hc.status, hc.workspace_id,
          w.name as workspace_name, hc.template_id, hc.created_by,
          wm.access, p.id as participant_id, p.status as participant_status, p.responses,
          p.completed_at as participant_completed_at, ${teamCounts}
        from health_checks hc
        left join workspaces w on w.id = hc.workspace_id
        ${callerJoins(userId)}
        where hc.id = ${healthCheckId}`,
  );
  return row;
}

export type ComponentRow = {
  id: string;
  category: string | null;
  title: string;
  description: string | null;
  examples: string[] | null;
};

/** The enabled components of a check's template, in order. */
export async function listComponents(db: Db, templateId: string) {
  return queryRows<ComponentRow>(
    db,
    sql`select id, category, title, description, examples
        from health_check_components
        where template_id = ${templateId} and enabled
        order by order_index, key`,
  );
}

export async function findJoinInfo(db: Db, healthCheckId: string) {
  const [row] = await queryRows<{
    id: string;
    title: string;
    phase: string;
    status: string;
    workspace_id: string;
  }>(db, sql`select id, title, phase, status, workspace_id from health_checks where id = ${healthCheckId}`);
  return row;
}

/**
 * Registers the user in a transaction: a `participant` membership of the workspace unless they already
 * have one (an admin stays an admin), and a pending participant. Both inserts are no-ops when the rows
 * exist, so repeated and concurrent joins register once. `created` says whether this call did it.
 */
export async function insertParticipant(
  tx: Db,
  options: { healthCheckId: string; workspaceId: string; userId: string },
) {
  await tx.execute(
    sql`insert into workspace_members (workspace_id, user_id, access, role, status)
        values (${options.workspaceId}, ${options.userId}, 'participant', 'Participant', 'active')
        on conflict (workspace_id, user_id) do nothing`,
  );
  const inserted = await queryRows<{ id: string }>(
    tx,
    sql`insert into participants (health_check_id, user_id, status)
        values (${options.healthCheckId}, ${options.userId}, 'pending')
        on conflict (health_check_id, user_id) do nothing
        returning id`,
  );
  if (inserted[0]) return { participantId: inserted[0].id, created: true };
  const [existing] = await queryRows<{ id: string }>(
    tx,
    sql`select id from participants where health_check_id = ${options.healthCheckId} and user_id = ${options.userId}`,
  );
  if (!existing) throw new Error('participant vanished after insert conflict');
  return { participantId: existing.id, created: false };
}

export async function clearPendingJoin(tx: Db, userId: string, healthCheckId: string) {
  await tx.execute(
    sql`update "user" set pending_join_health_check_id = null, updated_at = now()
        where id = ${userId} and pending_join_health_check_id = ${healthCheckId}`,
  );
}

export type SaveTarget = {
  phase: string;
  comments_on: boolean;
  access: string | null;
  participant_id: string | null;
  participant_status: string | null;
  component_ids: string[];
  follow_up_ids: string[];
};

/** What autosave needs in one round trip: phase, membership, the caller's participant and the component ids. */
export async function findSaveTarget(db: Db, healthCheckId: string, userId: string) {
  const [row] = await queryRows<SaveTarget>(
    db,
    sql`select hc.phase, coalesce((hc.settings->>'enableComments')::boolean, ${DEFAULT_SETTINGS.enableComments}) as comments_on,
          wm.access, p.id as participant_id, p.status as participant_status,
          ${componentIds}, ${followUpIds}
        from health_checks hc
        ${callerJoins(userId)}
        where hc.id = ${healthCheckId}`,
  );
  return row;
}

export type SubmitTarget = {
  workspace_id: string;
  phase: string;
  title: string;
  settings: HealthCheckSettings;
  created_by: string | null;
  access: string | null;
  participant_id: string | null;
  participant_status: string | null;
  component_ids: string[];
  follow_up_ids: string[];
};

/**
 * The check and the caller's participant, locked until the transaction ends. Locking the check row
 * (without blocking inserts that reference it) makes the submits of one check take turns, so exactly one
 * of them sees the last participant complete; locking the participant row makes a repeated submit wait
 * and then see 'completed'.
 */
export async function lockSubmitTarget(tx: Db, healthCheckId: string, userId: string) {
  const [row] = await queryRows<SubmitTarget>(
    tx,
    sql`select hc.workspace_id, hc.phase, hc.title, hc.settings, hc.created_by, wm.access,
          p.id as participant_id, p.status as participant_status,
          ${componentIds}, ${followUpIds}
        from health_checks hc
        ${callerJoins(userId)}
        where hc.id = ${healthCheckId}
        for no key update of hc`,
  );
  if (row?.participant_id) {
    const [locked] = await queryRows<{ status: string }>(
      tx,
      sql`select status from participants where id = ${row.participant_id} for no key update`,
    );
    if (locked) row.participant_status = locked.status;
  }
  return row;
}

/** Ratings once per participant and component; comments upserted on their rating. */
export async function insertRatingsAndComments(
  tx: Db,
  options: {
    healthCheckId: string;
    participantId: string;
    votes: Record<string, string>;
    comments: Record<string, string>;
    /** The check's anonymity when the comments are written; stored with each (PRODUCT-DECISIONS 3). */
    anonymous: boolean;
  },
) {
  const entries = Object.entries(options.votes);
  if (entries.length > 0) {
    const values = sql.join(
      entries.map(
        ([componentId, rating]) =>
          sql`(${options.healthCheckId}::uuid, ${componentId}::uuid, ${options.participantId}::uuid, ${rating})`,
      ),
      sql`, `,
    );
    await tx.execute(
      sql`insert into health_check_ratings (health_check_id, component_id, participant_id, rating)
          values ${values}
          on conflict (participant_id, component_id) do nothing`,
    );
  }
  const comments = Object.entries(options.comments);
  if (comments.length === 0) return;
  const values = sql.join(
    comments.map(([componentId, content]) => sql`(${componentId}::uuid, ${content}::text)`),
    sql`, `,
  );
  await tx.execute(
    sql`insert into comments
          (participant_id, target_id, target_type, health_check_id, component_id, content, anonymous)
        select r.participant_id, r.id, 'health_check_rating', r.health_check_id, r.component_id, v.content,
               ${options.anonymous}::boolean
        from (values ${values}) as v(component_id, content)
        join health_check_ratings r on r.participant_id = ${options.participantId} and r.component_id = v.component_id
        on conflict (participant_id, target_id) do update
          set content = excluded.content, anonymous = comments.anonymous or excluded.anonymous`,
  );
}

export async function markCompleted(tx: Db, participantId: string) {
  await tx.execute(
    sql`update participants
        set status = 'completed', completed_at = now(), responses = null, progress = 100, last_activity = now()
        where id = ${participantId}`,
  );
}

export async function countTeam(tx: Db, healthCheckId: string) {
  const [row] = await queryRows<{ total: number; completed: number }>(
    tx,
    sql`select count(*)::int as total, (count(*) filter (where status = 'completed'))::int as completed
        from participants where health_check_id = ${healthCheckId}`,
  );
  return { total: row?.total ?? 0, completed: row?.completed ?? 0 };
}

export type MyCheckRow = {
  id: string;
  title: string;
  settings: HealthCheckSettings;
  workspace_name: string | null;
  phase: string;
  status: string;
  participant_status: string;
  progress: number;
  joined_at: string | Date;
  completed_at: string | Date | null;
  team_total: number;
  team_completed: number;
};

/** The checks a user takes part in, in workspaces they still belong to, with team counts: one query. */
export async function listMyChecks(db: Db, userId: string) {
  return queryRows<MyCheckRow>(
    db,
    sql`select hc.id, hc.title, hc.settings, w.name as workspace_name, hc.phase, hc.status,
          p.status as participant_status, p.progress, p.created_at as joined_at, p.completed_at,
          t.team_total, t.team_completed
        from participants p
        join health_checks hc on hc.id = p.health_check_id
        join workspaces w on w.id = hc.workspace_id
        join workspace_members wm on wm.workspace_id = hc.workspace_id and wm.user_id = p.user_id and wm.status = 'active'
        cross join lateral (
          select count(*)::int as team_total, (count(*) filter (where tp.status = 'completed'))::int as team_completed
          from participants tp where tp.health_check_id = hc.id
        ) t
        where p.user_id = ${userId}
        order by (p.status = 'completed'), p.created_at desc`,
  );
}

export type AutosaveItem = { sessionToken: string; healthCheckId: string; responses: InterimResponses };
export type AutosaveRow = { status: string; progress: number; last_activity: string | Date };

/**
 * Autosave for the hot path, many callers in one statement (see lib/batcher): for each item, the session, the
 * caller's participant row (not completed), its workspace membership, the check in 'collect', and every
 * answered component being one of the check's enabled components are all conditions of a single UPDATE. An
 * item answers null when any condition fails; its caller then runs the step-by-step checks to say which.
 * Items of the same session and check are written once, with the last of them (each is the whole state). The
 * statement's text never changes (the items are one parameter), so each connection prepares it once.
 */
export async function saveInterimResponsesBatch(
  database: Database,
  items: AutosaveItem[],
): Promise<(AutosaveRow | null)[]> {
  const keyOf = (item: AutosaveItem) => `${item.sessionToken} ${item.healthCheckId}`;
  const last = new Map(items.map((item, n) => [keyOf(item), n]));
  const input = [...last.values()].map((n) => {
    const { sessionToken, healthCheckId, responses } = items[n] as AutosaveItem;
    return {
      n,
      token: sessionToken,
      check_id: healthCheckId,
      votes: responses.votes,
      comments: responses.comments,
      last_index: responses.last_component_index,
      follow_ups: responses.follow_ups ?? {},
      follow_up_comments: responses.follow_up_comments ?? {},
    };
  });
  const rows = await database.queryPrepared<AutosaveRow & { n: number }>(
    sql`with input as (
          select * from jsonb_to_recordset(${JSON.stringify(input)}::jsonb)
            as x(n int, token text, check_id uuid, votes jsonb, comments jsonb, last_index int,
                 follow_ups jsonb, follow_up_comments jsonb)
        ),
        target as (
          select i.*, p.id as participant_id, hc.template_id,
                 coalesce((hc.settings->>'enableComments')::boolean, ${DEFAULT_SETTINGS.enableComments}) as comments_on
          from input i
          join session s on s.token = i.token and s.expires_at > now()
          join participants p
            on p.user_id = s.user_id and p.health_check_id = i.check_id and p.status <> 'completed'
          join health_checks hc on hc.id = i.check_id and hc.phase = 'collect'
          join workspace_members wm
            on wm.workspace_id = hc.workspace_id and wm.user_id = p.user_id and wm.status = 'active'
        ),
        components as (
          select template_id, array_agg(id::text) as ids
          from health_check_components
          where template_id in (select template_id from target) and enabled
          group by template_id
        ),
        questions as (
          select health_check_id, array_agg(id::text) as ids
          from follow_up_questions
          where health_check_id in (select check_id from target)
          group by health_check_id
        )
        update participants p
        set responses = jsonb_build_object(
              'votes', t.votes,
              'comments', case when t.comments_on then t.comments else '{}'::jsonb end,
              'last_component_index', least(t.last_index, cardinality(c.ids) - 1))
            -- Follow-up answers (decision 0019) only when there are any, so a draft without them keeps its shape.
            || case when t.follow_ups = '{}'::jsonb and t.follow_up_comments = '{}'::jsonb then '{}'::jsonb
                    else jsonb_build_object(
                      'follow_ups', t.follow_ups,
                      'follow_up_comments', case when t.comments_on then t.follow_up_comments else '{}'::jsonb end)
               end,
            progress = round(100.0 * (select count(*) from jsonb_object_keys(t.votes) k where k = any(c.ids))
                             / cardinality(c.ids))::int,
            status = 'in_progress',
            last_activity = now()
        from target t
        join components c on c.template_id = t.template_id
        left join questions fq on fq.health_check_id = t.check_id
        where p.id = t.participant_id
          and array(select jsonb_object_keys(t.votes || t.comments)) <@ c.ids
          and array(select jsonb_object_keys(t.follow_ups || t.follow_up_comments))
              <@ coalesce(fq.ids, '{}'::text[])
        returning t.n, p.status, p.progress, p.last_activity`,
  );
  const byN = new Map(rows.map(({ n, ...row }) => [n, row]));
  return items.map((item) => byN.get(last.get(keyOf(item)) as number) ?? null);
}
