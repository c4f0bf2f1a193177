import { sql, type SQL } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client';

/** A timestamp as ISO 8601 in UTC, the same text on both databases whatever the session's time zone. */
const iso = (column: SQL) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const list = (items: SQL, order: SQL) => sql`coalesce(json_agg(${items} order by ${order}), '[]'::json)`;

/**
 * A check is attributed only while `allowAnonymous` is off: the setting may only go from off to on once anyone has
 * joined (PRODUCT-DECISIONS), so a check that is attributed now always was, and one that is anonymous now may hold
 * answers given under the promise of anonymity. A missing setting counts as anonymous (its default).
 */
const attributed = sql`(coalesce((h.settings ->> 'allowAnonymous')::boolean, true) = false)`;

/** The component's title, for a row with `component_id`. */
const componentTitle = (alias: string) =>
  sql.raw(`(select c.title from health_check_components c where c.id = ${alias}.component_id)`);

/**
 * Everything stored about the person in one statement (one consistent snapshot, aggregated in SQL), by the rule in
 * docs/security.md ("Download my data"): their own rows and the names of the workspaces and checks those rows
 * belong to; never another person's name, e-mail or answers (so of a notification only its type and dates); of a check's answers only those of an attributed check
 * (and never a comment written anonymously); no secret (password hash, session token, invitation token).
 */
export async function personalData(db: Db, userId: string) {
  const [row] = await queryRows<{ data: PersonalData | null }>(
    db,
    sql`select json_build_object(
      'profile', json_build_object(
        'fullName', u.name, 'email', u.email, 'emailVerified', u.email_verified, 'role', u.role,
        'department', u.department, 'bio', u.bio, 'companyName', u.company_name, 'companySize', u.company_size,
        'createdAt', ${iso(sql`u.created_at`)}, 'updatedAt', ${iso(sql`u.updated_at`)},
        'photo', (select json_build_object('id', a.id, 'url', '/api/avatars/' || a.id, 'contentType', a.content_type,
                                            'bytes', a.size, 'uploadedAt', ${iso(sql`a.created_at`)})
                  from avatars a where a.id = u.avatar_id and a.user_id = u.id)),
      'signInMethods', (select ${list(
        sql`json_build_object('provider', ac.provider_id, 'createdAt', ${iso(sql`ac.created_at`)})`,
        sql`ac.created_at`,
      )} from account ac where ac.user_id = u.id),
      'sessions', (select ${list(
        sql`json_build_object('createdAt', ${iso(sql`s.created_at`)}, 'expiresAt', ${iso(sql`s.expires_at`)},
                              'ipAddress', s.ip_address, 'userAgent', s.user_agent)`,
        sql`s.created_at`,
      )} from session s where s.user_id = u.id and s.expires_at > now()),
      'memberships', (select ${list(
        sql`json_build_object('organization', o.name, 'workspace', w.name, 'access', m.access, 'role', m.role,
                              'department', d.name, 'status', m.status, 'joinedAt', ${iso(sql`m.created_at`)})`,
        sql`m.created_at, m.id`,
      )} from workspace_members m
           join workspaces w on w.id = m.workspace_id
           join organizations o on o.id = w.organization_id
           left join departments d on d.id = m.department_id
         where m.user_id = u.id),
      'invitations', (select ${list(
        sql`json_build_object('organization', o.name, 'workspace', w.name, 'sentAt', ${iso(sql`i.created_at`)},
                              'expiresAt', ${iso(sql`i.expires_at`)}, 'acceptedAt', ${iso(sql`i.accepted_at`)},
                              'revokedAt', ${iso(sql`i.revoked_at`)})`,
        sql`i.created_at`,
      )} from invitations i
           join workspace_members m on m.id = i.member_id
           join workspaces w on w.id = m.workspace_id
           join organizations o on o.id = w.organization_id
         where m.user_id = u.id or lower(m.invitation_email) = lower(u.email)),
      'healthChecks', (select ${list(
        sql`json_build_object(
              'title', h.title, 'workspace', w.name, 'checkStatus', h.status, 'anonymous', not (${attributed}),
              'participantStatus', p.status, 'progress', p.progress, 'joinedAt', ${iso(sql`p.created_at`)},
              'lastActivityAt', ${iso(sql`p.last_activity`)}, 'completedAt', ${iso(sql`p.completed_at`)},
              'ratings', case when ${attributed} then (select ${list(
                sql`json_build_object('component', ${componentTitle('r')}, 'rating', r.rating,
                                      'ratedAt', ${iso(sql`r.created_at`)})`,
                sql`r.created_at, r.id`,
              )} from health_check_ratings r where r.participant_id = p.id) end,
              'comments', case when ${attributed} then (select ${list(
                sql`json_build_object('component', ${componentTitle('co')}, 'comment', co.content,
                                      'writtenAt', ${iso(sql`co.created_at`)})`,
                sql`co.created_at, co.id`,
              )} from comments co where co.participant_id = p.id and not co.anonymous) end,
              'dots', case when ${attributed} then (select ${list(
                sql`json_build_object('component', ${componentTitle('v')}, 'dots', v.count)`,
                sql`v.count desc, v.id`,
              )} from health_check_votes v where v.participant_id = p.id) end,
              'unsubmittedAnswers', case when ${attributed} and p.responses is not null then (select ${list(
                sql`json_build_object('component', c.title,
                                      'rating', p.responses -> 'votes' ->> k.key,
                                      'comment', p.responses -> 'comments' ->> k.key)`,
                sql`c.order_index, k.key`,
              )} from (select jsonb_object_keys(coalesce(p.responses -> 'votes', '{}'::jsonb)) as key
                       union select jsonb_object_keys(coalesce(p.responses -> 'comments', '{}'::jsonb))) k
                     left join health_check_components c on c.id::text = k.key) end)`,
        sql`p.created_at, p.id`,
      )} from participants p
           join health_checks h on h.id = p.health_check_id
           join workspaces w on w.id = h.workspace_id
         where p.user_id = u.id),
      'actionItems', (select ${list(
        sql`json_build_object('description', ai.description, 'status', ai.status, 'dueDate', ai.due_date,
                              'healthCheck', h.title, 'component', ${componentTitle('ai')},
                              'youOwnIt', ai.owner_id is not distinct from u.id,
                              'youCreatedIt', ai.created_by is not distinct from u.id,
                              'youAreMentioned', exists (select 1 from action_item_mentions am
                                                         where am.action_item_id = ai.id and am.user_id = u.id),
                              'createdAt', ${iso(sql`ai.created_at`)}, 'updatedAt', ${iso(sql`ai.updated_at`)})`,
        sql`ai.created_at, ai.id`,
      )} from action_items ai join health_checks h on h.id = ai.health_check_id
         where ai.owner_id = u.id or ai.created_by = u.id
            or exists (select 1 from action_item_mentions am where am.action_item_id = ai.id and am.user_id = u.id)),
      'loopRounds', (select ${list(
        sql`json_build_object(
              'loop', l.title, 'workspace', w.name, 'round', r.number, 'anonymous', r.anonymous,
              'roundStatus', r.status, 'openedAt', ${iso(sql`r.opened_at`)}, 'closesAt', ${iso(sql`r.closes_at`)},
              'closedAt', ${iso(sql`r.closed_at`)},
              'youAnswered', exists (select 1 from loop_round_ledger g
                                     where g.round_id = r.id and g.member_id = rc.member_id),
              'answers', case when not r.anonymous then (select ${list(
                sql`json_build_object('question', lq.text, 'kind', lq.kind, 'score', la.score, 'text', la.text)`,
                sql`array_position(r.question_ids, lq.id), lq.id`,
              )} from loop_responses lr
                   join loop_answers la on la.response_id = lr.id
                   join loop_questions lq on lq.id = la.question_id
                 where lr.round_id = r.id and lr.member_id = rc.member_id and not lr.anonymous) end)`,
        sql`r.opened_at, r.id`,
      )} from loop_round_recipients rc
           join workspace_members m on m.id = rc.member_id
           join loop_rounds r on r.id = rc.round_id
           join loops l on l.id = r.loop_id
           join workspaces w on w.id = l.workspace_id
         where m.user_id = u.id),
      'notifications', (select ${list(
        sql`json_build_object('type', n.type, 'createdAt', ${iso(sql`n.created_at`)},
                              'readAt', ${iso(sql`n.read_at`)})`,
        sql`n.created_at, n.id`,
      )} from notifications n where n.user_id = u.id),
      'provisioning', (select ${list(
        sql`json_build_object('organization', o.name, 'userName', sp.user_name, 'externalId', sp.external_id,
                              'givenName', sp.given_name, 'familyName', sp.family_name,
                              'displayName', sp.display_name, 'emails', sp.emails, 'active', sp.active,
                              'createdByProvisioning', sp.created_account,
                              'provisionedAt', ${iso(sql`sp.created_at`)}, 'updatedAt', ${iso(sql`sp.updated_at`)})`,
        sql`sp.created_at, sp.id`,
      )} from scim_users sp join organizations o on o.id = sp.organization_id where sp.user_id = u.id),
      'storedNotificationPreferences', u.notification_preferences,
      'activeWorkspace', (select w.name from user_preferences up join workspaces w on w.id = up.active_workspace_id
                          where up.user_id = u.id)
    ) as data
    from "user" u where u.id = ${userId}`,
  );
  return row?.data ?? null;
}

type Instant = string | null;
type Component = string | null;
export type PersonalData = {
  profile: {
    fullName: string;
    email: string;
    emailVerified: boolean;
    role: string | null;
    department: string | null;
    bio: string | null;
    companyName: string | null;
    companySize: string | null;
    createdAt: string;
    updatedAt: string;
    photo: { id: string; url: string; contentType: string; bytes: number; uploadedAt: string } | null;
  };
  signInMethods: { provider: string; createdAt: string }[];
  sessions: { createdAt: string; expiresAt: string; ipAddress: string | null; userAgent: string | null }[];
  memberships: {
    organization: string;
    workspace: string;
    access: string;
    role: string | null;
    department: string | null;
    status: string;
    joinedAt: string;
  }[];
  invitations: {
    organization: string;
    workspace: string;
    sentAt: string;
    expiresAt: string;
    acceptedAt: Instant;
    revokedAt: Instant;
  }[];
  healthChecks: {
    title: string;
    workspace: string;
    checkStatus: string;
    anonymous: boolean;
    participantStatus: string;
    progress: number;
    joinedAt: string;
    lastActivityAt: Instant;
    completedAt: Instant;
    ratings: { component: Component; rating: string; ratedAt: string }[] | null;
    comments: { component: Component; comment: string; writtenAt: string }[] | null;
    dots: { component: Component; dots: number }[] | null;
    unsubmittedAnswers: { component: Component; rating: string | null; comment: string | null }[] | null;
  }[];
  actionItems: {
    description: string;
    status: string;
    dueDate: string | null;
    healthCheck: string;
    component: Component;
    youOwnIt: boolean;
    youCreatedIt: boolean;
    youAreMentioned: boolean;
    createdAt: string;
    updatedAt: string;
  }[];
  /**
   * Loop rounds sent to the person: whether they answered (the ledger, which is linked to them), and their answers
   * only in a round that is not anonymous (null in an anonymous one: those answers cannot be linked to them).
   */
  loopRounds: {
    loop: string;
    workspace: string;
    round: number;
    anonymous: boolean;
    roundStatus: string;
    openedAt: string;
    closesAt: string;
    closedAt: Instant;
    youAnswered: boolean;
    answers: { question: string; kind: string; score: number | null; text: string | null }[] | null;
  }[];
  /**
   * In-app notifications by type and date only: their texts were written for the bell and name other people
   * ('Ada Admin assigned you an action item …'), and none of it is the person's own words.
   */
  notifications: { type: string; createdAt: string; readAt: Instant }[];
  /** What organisations' identity providers keep about the person here (SCIM, decision 0025). */
  provisioning: {
    organization: string;
    userName: string;
    externalId: string | null;
    givenName: string | null;
    familyName: string | null;
    displayName: string | null;
    emails: { value: string; type?: string; primary?: boolean }[] | null;
    active: boolean;
    createdByProvisioning: boolean;
    provisionedAt: string;
    updatedAt: string;
  }[];
  storedNotificationPreferences: unknown;
  activeWorkspace: string | null;
};
