import { and, eq, inArray, sql } from 'drizzle-orm';
import { organizationRoleSql, type OversightRole } from '../../auth/access';
import { type Db, first, queryRows } from '../../db/client';
import { user } from '../../db/schema/auth';
import {
  departments,
  invitations,
  organizationAdmins,
  userPreferences,
  workspaceMembers,
  workspaces,
} from '../../db/schema/organizations';

export type MemberRow = {
  id: string;
  user_id: string | null;
  name: string | null;
  email: string;
  role: string | null;
  access: 'admin' | 'member';
  status: 'active' | 'pending';
  department: string | null;
  avatar_id: string | null;
  sent_at: string | Date | null;
  expires_at: string | Date | null;
  delivery: 'pending' | 'sent' | 'failed' | null;
  delivery_error: string | null;
  organization_role: OversightRole | null;
};

/** What the audit log says of a member (any status): their address, role label, access and department. */
export async function memberFacts(db: Db, memberId: string) {
  const [row] = await queryRows<{
    email: string;
    role: string | null;
    access: string;
    department: string | null;
    status: string;
  }>(
    db,
    sql`select coalesce(u.email, m.invitation_email) as email, m.role, m.access, d.name as department, m.status
        from workspace_members m
        left join "user" u on u.id = m.user_id
        left join departments d on d.id = m.department_id
        where m.id = ${memberId}`,
  );
  return row;
}

/**
 * Admins, members and pending invitations of a workspace (not link participants, PRODUCT-DECISIONS 9), with
 * each pending invitation's latest e-mail and how its delivery went. One query.
 */
export async function listMembers(db: Db, workspaceId: string, memberId?: string) {
  return queryRows<MemberRow>(
    db,
    sql`select m.id, m.user_id, u.name, coalesce(u.email, m.invitation_email) as email, m.role, m.access,
               m.status, d.name as department, u.avatar_id,
               inv.created_at as sent_at, inv.expires_at, mail.status as delivery, mail.last_error as delivery_error,
               case when m.status = 'active' then ${organizationRoleSql(sql`m.user_id`, sql`w.organization_id`)}
               end as organization_role
        from workspace_members m
        join workspaces w on w.id = m.workspace_id
        left join "user" u on u.id = m.user_id
        left join departments d on d.id = m.department_id
        left join lateral (
          select i.created_at, i.expires_at from invitations i
          where i.member_id = m.id and i.accepted_at is null and i.revoked_at is null
          order by i.created_at desc limit 1) inv on m.status = 'pending'
        left join lateral (
          select o.status, o.last_error from mail_outbox o
          where o.kind = 'team-invitation' and o."to" = m.invitation_email and o.created_at >= inv.created_at
          order by o.created_at desc limit 1) mail on inv.created_at is not null
        where m.workspace_id = ${workspaceId} and m.access in ('admin', 'member') and m.status <> 'suspended'
          ${memberId ? sql`and m.id = ${memberId}` : sql``}
        order by (m.status = 'pending'), lower(coalesce(u.name, m.invitation_email))`,
  );
}

export async function findWorkspace(db: Db, workspaceId: string) {
  return first(
    db
      .select({ id: workspaces.id, name: workspaces.name, organizationId: workspaces.organizationId })
      .from(workspaces)
      .where(eq(workspaces.id, workspaceId)),
  );
}

export async function listDepartments(db: Db, workspaceId: string) {
  const rows = await db
    .select({ name: departments.name })
    .from(departments)
    .where(eq(departments.workspaceId, workspaceId))
    .orderBy(sql`lower(${departments.name})`);
  return rows.map((r) => r.name);
}

/** The department of that name in the workspace (case-insensitive), created when first used. */
export async function departmentIdFor(db: Db, workspaceId: string, name: string): Promise<string> {
  await db.insert(departments).values({ workspaceId, name }).onConflictDoNothing();
  const row = await first(
    db
      .select({ id: departments.id })
      .from(departments)
      .where(and(eq(departments.workspaceId, workspaceId), sql`lower(${departments.name}) = lower(${name})`)),
  );
  if (!row) throw new Error('department insert returned nothing');
  return row.id;
}

/** Serialises invitations of one address to one workspace until the transaction ends. */
export async function lockInvitee(db: Db, workspaceId: string, email: string) {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`invite:${workspaceId}:${email}`}))`);
}

export async function findMembershipByEmail(db: Db, workspaceId: string, email: string) {
  const [row] = await queryRows<{ id: string; access: string; status: string; user_id: string | null }>(
    db,
    sql`select m.id, m.access, m.status, m.user_id from workspace_members m
        left join "user" u on u.id = m.user_id
        where m.workspace_id = ${workspaceId}
          and (lower(u.email) = ${email} or (m.user_id is null and lower(m.invitation_email) = ${email}))
        order by (m.user_id is null) limit 1`,
  );
  return row;
}

export async function findMember(db: Db, workspaceId: string, memberId: string) {
  return first(
    db
      .select({
        id: workspaceMembers.id,
        userId: workspaceMembers.userId,
        access: workspaceMembers.access,
        status: workspaceMembers.status,
        invitationEmail: workspaceMembers.invitationEmail,
        name: user.name,
        email: user.email,
      })
      .from(workspaceMembers)
      .leftJoin(user, eq(user.id, workspaceMembers.userId))
      .where(
        and(
          eq(workspaceMembers.id, memberId),
          eq(workspaceMembers.workspaceId, workspaceId),
          inArray(workspaceMembers.access, ['admin', 'member']),
        ),
      ),
  );
}

/** Locks the workspace's active admins for the rest of the transaction and says how many there are. */
export async function lockActiveAdmins(db: Db, workspaceId: string): Promise<number> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`select id from workspace_members
        where workspace_id = ${workspaceId} and access = 'admin' and status = 'active' for update`,
  );
  return rows.length;
}

/** Active admins and members of a workspace, for team updates. */
export async function teamUserIds(db: Db, workspaceId: string): Promise<string[]> {
  const rows = await db
    .select({ userId: workspaceMembers.userId })
    .from(workspaceMembers)
    .where(
      and(
        eq(workspaceMembers.workspaceId, workspaceId),
        eq(workspaceMembers.status, 'active'),
        inArray(workspaceMembers.access, ['admin', 'member']),
      ),
    );
  return rows.flatMap((r) => (r.userId ? [r.userId] : []));
}

export type InvitationRow = {
  invitation_id: string;
  member_id: string;
  workspace_id: string;
  workspace_name: string;
  email: string;
  role: string | null;
  access: 'admin' | 'member';
  member_user_id: string | null;
  department_id: string | null;
  expires_at: string | Date;
  accepted_at: string | Date | null;
  revoked_at: string | Date | null;
  invited_by: string | null;
  account_exists: boolean;
};

/** An invitation by the hash of its token, with its member row (locked when `forUpdate`). */
export async function findInvitationByHash(db: Db, tokenHash: string, forUpdate = false) {
  const [row] = await queryRows<InvitationRow>(
    db,
    sql`select i.id as invitation_id, m.id as member_id, m.workspace_id, w.name as workspace_name,
               lower(m.invitation_email) as email, m.role, m.access, m.user_id as member_user_id, m.department_id,
               i.expires_at, i.accepted_at, i.revoked_at, inviter.name as invited_by,
               exists (select 1 from "user" x where lower(x.email) = lower(m.invitation_email)) as account_exists
        from invitations i
        join workspace_members m on m.id = i.member_id
        join workspaces w on w.id = m.workspace_id
        left join "user" inviter on inviter.id = i.invited_by
        where i.token_hash = ${tokenHash}
        ${forUpdate ? sql`for update of i, m` : sql``}`,
  );
  return row;
}

export async function findMembershipOfUser(db: Db, workspaceId: string, userId: string) {
  return first(
    db
      .select({ id: workspaceMembers.id, access: workspaceMembers.access })
      .from(workspaceMembers)
      .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId))),
  );
}

export async function clearActiveWorkspace(db: Db, userId: string, workspaceId: string) {
  await db
    .update(userPreferences)
    .set({ activeWorkspaceId: null, updatedAt: new Date() })
    .where(and(eq(userPreferences.userId, userId), eq(userPreferences.activeWorkspaceId, workspaceId)));
}

export async function revokeOpenInvitations(db: Db, memberId: string) {
  await db
    .update(invitations)
    .set({ revokedAt: new Date() })
    .where(
      and(
        eq(invitations.memberId, memberId),
        sql`${invitations.acceptedAt} is null`,
        sql`${invitations.revokedAt} is null`,
      ),
    );
}

export async function findUserName(db: Db, userId: string) {
  const [row] = await db.select({ name: user.name, email: user.email }).from(user).where(eq(user.id, userId));
  return row;
}

export async function userExistsWithEmail(db: Db, email: string) {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`select id from "user" where lower(email) = ${email} limit 1`,
  );
  return rows.length > 0;
}

/** Appoints (or, with `appoint` false, removes) an organisation admin. */
/** Appoints or removes an organisation admin; whether anything changed. */
export async function setOrganizationAdmin(
  db: Db,
  options: { organizationId: string; userId: string; appointedBy: string; appoint: boolean },
): Promise<boolean> {
  const changed = options.appoint
    ? await db
        .insert(organizationAdmins)
        .values({
          organizationId: options.organizationId,
          userId: options.userId,
          appointedBy: options.appointedBy,
        })
        .onConflictDoNothing()
        .returning({ userId: organizationAdmins.userId })
    : await db
        .delete(organizationAdmins)
        .where(
          and(
            eq(organizationAdmins.organizationId, options.organizationId),
            eq(organizationAdmins.userId, options.userId),
          ),
        )
        .returning({ userId: organizationAdmins.userId });
  return changed.length > 0;
}
