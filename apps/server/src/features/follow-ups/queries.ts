import { FORMER_MEMBER } from '@pulsecheck/shared/account/deletion';
import { NUDGE_NO_FOLLOW_UP_DAYS, NUDGE_OVERDUE_DAYS } from '@pulsecheck/shared/action-items/nudges';
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client';

/** A done action item of a workspace, as the launch and Configure see it (decision 0019). */
export type DoneActionRow = {
  id: string;
  description: string;
  status: string;
  completedAt: string | Date | null;
  componentKey: string | null;
  componentTitle: string | null;
  ownerName: string | null;
  asked: boolean;
};

/** The workspace's done action items with their component's key and whether a check asked about them: one query. */
export async function doneActionsOfWorkspace(db: Db, workspaceId: string) {
  return queryRows<DoneActionRow>(
    db,
    sql`select a.id, a.description, a.status, a.completed_at as "completedAt",
               c.key as "componentKey", c.title as "componentTitle", u.name as "ownerName",
               exists (select 1 from follow_up_questions q where q.action_item_id = a.id) as asked
        from action_items a
        join health_checks h on h.id = a.health_check_id
        left join health_check_components c on c.id = a.component_id
        left join "user" u on u.id = a.owner_id
        where h.workspace_id = ${workspaceId} and a.status = 'completed'
        order by a.completed_at, a.id`,
  );
}

/** The launch's questions; an action another launch claimed meanwhile is skipped (each is asked once). */
export async function insertQuestions(
  tx: Db,
  healthCheckId: string,
  rows: { actionItemId: string; componentId: string }[],
) {
  if (rows.length === 0) return;
  const values = sql.join(
    rows.map((r) => sql`(${healthCheckId}::uuid, ${r.actionItemId}::uuid, ${r.componentId}::uuid)`),
    sql`, `,
  );
  await tx.execute(
    sql`insert into follow_up_questions (health_check_id, action_item_id, component_id)
        values ${values}
        on conflict (action_item_id) do nothing`,
  );
}

export type QuestionRow = { id: string; componentId: string; componentTitle: string; actionTitle: string };

/** A check's follow-up questions in the order of its components, then of the actions' completion. */
export async function questionsOfCheck(db: Db, healthCheckId: string) {
  return queryRows<QuestionRow>(
    db,
    sql`select q.id, q.component_id as "componentId", c.title as "componentTitle", a.description as "actionTitle"
        from follow_up_questions q
        join action_items a on a.id = q.action_item_id
        join health_check_components c on c.id = q.component_id
        where q.health_check_id = ${healthCheckId}
        order by c.order_index, a.completed_at, q.id`,
  );
}

/** Answers once per participant and question (never twice), with their comments and the anonymity in force. */
export async function insertAnswers(
  tx: Db,
  options: {
    healthCheckId: string;
    participantId: string;
    answers: Record<string, string>;
    comments: Record<string, string>;
    anonymous: boolean;
  },
) {
  const entries = Object.entries(options.answers);
  if (entries.length === 0) return;
  const values = sql.join(
    entries.map(
      ([questionId, answer]) =>
        sql`(${questionId}::uuid, ${answer}::text, ${options.comments[questionId] ?? null}::text)`,
    ),
    sql`, `,
  );
  await tx.execute(
    sql`insert into follow_up_answers (question_id, health_check_id, participant_id, answer, comment, anonymous)
        select v.question_id, ${options.healthCheckId}::uuid, ${options.participantId}::uuid, v.answer, v.comment,
               ${options.anonymous}::boolean
        from (values ${values}) as v(question_id, answer, comment)
        join follow_up_questions q on q.id = v.question_id and q.health_check_id = ${options.healthCheckId}
        on conflict (participant_id, question_id) do nothing`,
  );
}

export type FollowUpResultRow = {
  questionId: string;
  componentId: string;
  actionItemId: string;
  actionTitle: string;
  ownerName: string | null;
  doneAt: string | Date | null;
  yes: number;
  partly: number;
  no: number;
  tooEarly: number;
  comments: { content: string; name?: string | null }[] | null;
  /** The component's ratings in the check the action came from, and whether that check's figures may show. */
  beforeHealthy: number;
  beforeNeedsImprovement: number;
  beforeFireWarning: number;
  beforeReleased: boolean;
};

/** One question's answers counted as `{ yes, partly, no, 'too-early' }` (index-only on its question index). */
const countAnswers = (questionId: SQL) => sql`
  select jsonb_build_object(
           'yes', count(*) filter (where f.answer = 'yes'),
           'partly', count(*) filter (where f.answer = 'partly'),
           'no', count(*) filter (where f.answer = 'no'),
           'too-early', count(*) filter (where f.answer = 'too-early'))
  from follow_up_answers f where f.question_id = ${questionId}`;

/**
 * Stores the answer counts of the questions of finished checks (`follow_up_questions.counts`), as
 * `storeRatingCounts` does for the ratings (decision 0004, addendum): answers are written only at submit, which is
 * refused outside `collect` under the check's row lock, and a phase change waits for that lock, so once a check is
 * seen past `collect` its answers are all there and never change. A no-op for a check that collects and for
 * questions already counted; concurrent first reads write the same counts. `where` picks the checks: one check
 * for its results, an organisation's for insights.
 */
export async function storeFollowUpCounts(db: Db, checks: SQL) {
  await db.execute(sql`
    update follow_up_questions q set counts = (${countAnswers(sql`q.id`)})
    from health_checks h
    where h.id = q.health_check_id and h.phase <> 'collect' and q.counts is null and ${checks}`);
}

/**
 * Every follow-up question of a check with its answers counted, its comments, and the action's component in the
 * check it came from: one statement for the whole results screen (no query per action), after
 * `storeFollowUpCounts`. The counts are the stored ones once collection has ended, else counted live; comments are
 * read through their partial index, so the answers themselves are never visited. Answers are read as counts only;
 * a comment's name is looked up only when neither the check nor the comment is anonymous (as the ratings'
 * comments, results/queries.ts), and comments are ordered by their text, never by who or when.
 */
export async function followUpResults(db: Db, healthCheckId: string, checkAnonymous: boolean) {
  await storeFollowUpCounts(db, sql`q.health_check_id = ${healthCheckId}`);
  const name = checkAnonymous
    ? sql``
    : sql`, 'name', case when f.anonymous then null
                         else coalesce((select u.name from participants p join "user" u on u.id = p.user_id
                                        where p.id = f.participant_id), ${FORMER_MEMBER}) end`;
  const count = (answer: string) => sql`coalesce((n.counts->>${answer})::int, 0)`;
  const before = (rating: string) => sql`coalesce(sum(r.n) filter (where r.rating = ${rating}), 0)::int`;
  return queryRows<FollowUpResultRow>(
    db,
    sql`with origins as materialized (
          -- Whether each check an action came from may show its figures, counted once per check, not per question.
          select o.id, (o.phase <> 'collect'
                        and (select count(*) from participants p where p.health_check_id = o.id and p.status = 'completed')
                            >= coalesce((o.settings->>'minResponses')::int, 3)) as released
          from health_checks o
          where o.id in (select a.health_check_id from follow_up_questions q
                         join action_items a on a.id = q.action_item_id
                         where q.health_check_id = ${healthCheckId})
        )
        select q.id as "questionId", q.component_id as "componentId", a.id as "actionItemId",
               a.description as "actionTitle", u.name as "ownerName", a.completed_at as "doneAt",
               ${count('yes')} as yes, ${count('partly')} as partly, ${count('no')} as no,
               ${count('too-early')} as "tooEarly", cm.comments,
               coalesce(b.healthy, 0) as "beforeHealthy", coalesce(b.needs, 0) as "beforeNeedsImprovement",
               coalesce(b.fire, 0) as "beforeFireWarning", og.released as "beforeReleased"
        from follow_up_questions q
        join action_items a on a.id = q.action_item_id
        join health_checks o on o.id = a.health_check_id
        join origins og on og.id = o.id
        left join "user" u on u.id = a.owner_id
        cross join lateral (
          select q.counts where q.counts is not null
          union all
          select (${countAnswers(sql`q.id`)}) where q.counts is null
        ) n
        left join lateral (
          select json_agg(json_build_object('content', f.comment${name}) order by md5(f.comment), f.comment)
                   as comments
          from follow_up_answers f
          where f.question_id = q.id and f.comment is not null and length(trim(f.comment)) > 0
        ) cm on true
        left join lateral (
          -- The origin check's stored counts once its collection ended (results/queries.ts), else its ratings.
          select ${before('healthy')} as healthy, ${before('needs-improvement')} as needs,
                 ${before('fire-warning')} as fire
          from (
            select e->>1 as rating, (e->>2)::int as n from jsonb_array_elements(o.rating_counts) e
            where (e->>0)::uuid = a.component_id
            union all
            select r.rating, 1 from health_check_ratings r
            where o.rating_counts is null and r.health_check_id = a.health_check_id
              and r.component_id = a.component_id
          ) r
        ) b on true
        where q.health_check_id = ${healthCheckId}
        order by a.completed_at, q.id`,
  );
}

/** An action item that may need following up (nudges.ts decides), with where it lives. */
export type NudgeRow = {
  id: string;
  description: string;
  status: string;
  dueDate: string | null;
  completedAt: string | Date | null;
  asked: boolean;
  healthCheckId: string;
  checkTitle: string;
  ownerName: string | null;
  workspaceName: string;
};

/**
 * The action items to follow up at `now` (issue 33 item 6): open ones at least NUDGE_OVERDUE_DAYS past their due
 * date, and done ones NUDGE_NO_FOLLOW_UP_DAYS after they were done that no check asked about; of one workspace (the
 * dashboard), or owned by one user in the workspaces they are still an active admin or member of (their digest).
 * Days are UTC calendar days, as `nudgeOf` counts them; the service applies `nudgeOf` to each row. One query.
 */
export async function actionsToFollowUp(
  db: Db,
  of: { workspaceId: string } | { ownerId: string },
  now: Date,
) {
  const today = sql`(${now.toISOString()}::timestamptz at time zone 'UTC')::date`;
  const scope =
    'workspaceId' in of
      ? sql`h.workspace_id = ${of.workspaceId}`
      : sql`a.owner_id = ${of.ownerId} and exists (
              select 1 from workspace_members m
              where m.workspace_id = h.workspace_id and m.user_id = ${of.ownerId} and m.status = 'active'
                and m.access in ('admin', 'member'))`;
  return queryRows<NudgeRow>(
    db,
    sql`select a.id, a.description, a.status, to_char(a.due_date, 'YYYY-MM-DD') as "dueDate",
               a.completed_at as "completedAt", false as asked, h.id as "healthCheckId", h.title as "checkTitle",
               u.name as "ownerName", w.name as "workspaceName"
        from action_items a
        join health_checks h on h.id = a.health_check_id
        join workspaces w on w.id = h.workspace_id
        left join "user" u on u.id = a.owner_id
        where ${scope}
          and ((a.status <> 'completed' and a.due_date <= ${today} - ${NUDGE_OVERDUE_DAYS}::int)
               or (a.status = 'completed'
                   and (a.completed_at at time zone 'UTC')::date <= ${today} - ${NUDGE_NO_FOLLOW_UP_DAYS}::int
                   and not exists (select 1 from follow_up_questions q where q.action_item_id = a.id)))
        order by coalesce(a.due_date, (a.completed_at at time zone 'UTC')::date), a.id
        limit 100`,
  );
}

// ---------------------------------------------------------------------------------------------------------
// Loop rounds ('Follow-up on actions', issue 33 item 3)

/** A round's questions; an action a check or another round claimed meanwhile is skipped (each is asked once). */
export async function insertRoundQuestions(tx: Db, roundId: string, actionItemIds: string[]) {
  if (actionItemIds.length === 0) return;
  const values = sql.join(
    actionItemIds.map((id) => sql`(${roundId}::uuid, ${id}::uuid)`),
    sql`, `,
  );
  await tx.execute(
    sql`insert into follow_up_questions (loop_round_id, action_item_id)
        values ${values}
        on conflict (action_item_id) do nothing`,
  );
}

export type RoundQuestionRow = {
  id: string;
  actionItemId: string;
  actionTitle: string;
  componentTitle: string | null;
};

/** A round's follow-up questions, in the order the actions were done. */
export async function questionsOfRound(db: Db, roundId: string) {
  return queryRows<RoundQuestionRow>(
    db,
    sql`select q.id, q.action_item_id as "actionItemId", a.description as "actionTitle",
               c.title as "componentTitle"
        from follow_up_questions q
        join action_items a on a.id = q.action_item_id
        left join health_check_components c on c.id = a.component_id
        where q.loop_round_id = ${roundId}
        order by a.completed_at, q.id`,
  );
}

/**
 * A response's follow-up answers, only to questions of its own round; one per question (a later one replaces an
 * earlier, as loop answers do while the round is open).
 */
export async function upsertRoundAnswers(
  tx: Db,
  options: { roundId: string; responseId: string; answers: Record<string, string> },
) {
  const entries = Object.entries(options.answers);
  if (entries.length === 0) return;
  const values = sql.join(
    entries.map(([questionId, answer]) => sql`(${questionId}::uuid, ${answer}::text)`),
    sql`, `,
  );
  await tx.execute(
    sql`insert into loop_follow_up_answers (response_id, question_id, answer)
        select ${options.responseId}::uuid, v.question_id, v.answer
        from (values ${values}) as v(question_id, answer)
        join follow_up_questions q on q.id = v.question_id and q.loop_round_id = ${options.roundId}
        on conflict (response_id, question_id) do update set answer = excluded.answer`,
  );
}

/** One round question's answers counted as `{ yes, partly, no, 'too-early' }`. */
const countRoundAnswers = (questionId: SQL) => sql`
  select jsonb_build_object(
           'yes', count(*) filter (where f.answer = 'yes'),
           'partly', count(*) filter (where f.answer = 'partly'),
           'no', count(*) filter (where f.answer = 'no'),
           'too-early', count(*) filter (where f.answer = 'too-early'))
  from loop_follow_up_answers f where f.question_id = ${questionId}`;

/** Closing a round: its questions' counts stored once (a closed round takes no answer, so they never change). */
export async function storeRoundCounts(tx: Db, roundId: string) {
  await tx.execute(
    sql`update follow_up_questions q set counts = (${countRoundAnswers(sql`q.id`)})
        where q.loop_round_id = ${roundId} and q.counts is null`,
  );
}

export type RoundFollowUpRow = RoundQuestionRow & { counts: FollowUpCountsJson };
type FollowUpCountsJson = { yes: number; partly: number; no: number; 'too-early': number };

/** A round's questions with their counts: stored once closed, counted live while open. One statement. */
export async function roundFollowUpResults(db: Db, roundId: string) {
  return queryRows<RoundFollowUpRow>(
    db,
    sql`select q.id, q.action_item_id as "actionItemId", a.description as "actionTitle",
               c.title as "componentTitle", coalesce(q.counts, n.counts) as counts
        from follow_up_questions q
        join action_items a on a.id = q.action_item_id
        left join health_check_components c on c.id = a.component_id
        left join lateral (${countRoundAnswers(sql`q.id`)}) n(counts) on q.counts is null
        where q.loop_round_id = ${roundId}
        order by a.completed_at, q.id`,
  );
}

/**
 * The stored counts of the follow-up questions of a loop's closed rounds, with each round's respondents and
 * anonymity and minimum, for Loop Insights (one statement; no answer is read).
 */
export async function loopFollowUpCounts(db: Db, loopId: string) {
  return queryRows<{
    counts: FollowUpCountsJson;
    answered: number;
    anonymous: boolean;
    min_responses: number;
  }>(
    db,
    sql`select q.counts, coalesce(r.answered, 0)::int as answered, r.anonymous, r.min_responses
        from loop_rounds r join follow_up_questions q on q.loop_round_id = r.id
        where r.loop_id = ${loopId} and r.status = 'closed' and q.counts is not null`,
  );
}
