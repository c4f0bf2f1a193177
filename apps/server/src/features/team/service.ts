import { createHash, randomBytes } from 'node:crypto';
import {
  INVITATION_DAYS,
  TEAM_MESSAGES,
  type InvitationInfo,
  type Member,
  type MembersResponse,
} from '@pulsecheck/shared/team/schemas';
import { APIError } from 'better-auth/api';
import { eq } from 'drizzle-orm';
import { requireWorkspaceAccess } from '../../auth/access';
import type { Db } from '../../db/client';
import { invitations, workspaceMembers } from '../../db/schema/organizations';
import { AppError, conflict, forbidden, notFound } from '../../lib/app-error';
import type { AppDeps } from '../../lib/router';
import { renderMail } from '../../mail/templates';
import { notify } from '../notifications/service';
import * as q from './queries';

type Deps = Pick<AppDeps, 'db' | 'mailer' | 'config' | 'realtime' | 'auth' | 'logger'>;

const DAY_MS = 24 * 3600_000;
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const iso = (value: string | Date) => new Date(value).toISOString();

function toMember(row: q.MemberRow): Member {
  const expiresAt = row.expires_at ? new Date(row.expires_at) : null;
  return {
    id: row.id,
    userId: row.user_id,
    name: row.name,
    email: row.email,
    role: row.role,
    access: row.access,
    status: row.status,
    department: row.department,
    avatarUrl: row.avatar_id ? `/api/avatars/${row.avatar_id}` : null,
    invitation:
      row.status === 'pending' && row.sent_at && expiresAt
        ? {
            sentAt: iso(row.sent_at),
            expiresAt: expiresAt.toISOString(),
            expired: expiresAt.getTime() < Date.now(),
            delivery: row.delivery,
            deliveryError: row.delivery_error,
          }
        : null,
  };
}

/** Admins manage; members may look (PRODUCT-DECISIONS 3); anyone else gets a 404. */
async function requireManager(db: Db, userId: string, workspaceId: string) {
  const membership = await requireWorkspaceAccess(db, userId, workspaceId, ['admin', 'member']);
  if (membership.access !== 'admin') throw forbidden(TEAM_MESSAGES.manageForbidden);
  return membership;
}

export async function listTeam(
  deps: Pick<Deps, 'db'>,
  options: { userId: string; workspaceId: string },
): Promise<MembersResponse> {
  const membership = await requireWorkspaceAccess(deps.db, options.userId, options.workspaceId, [
    'admin',
    'member',
  ]);
  const workspace = await q.findWorkspace(deps.db, options.workspaceId);
  if (!workspace) throw notFound();
  const rows = await q.listMembers(deps.db, options.workspaceId);
  return { workspace, canManage: membership.access === 'admin', members: rows.map(toMember) };
}

export async function listDepartments(
  deps: Pick<Deps, 'db'>,
  options: { userId: string; workspaceId: string },
) {
  await requireWorkspaceAccess(deps.db, options.userId, options.workspaceId, ['admin', 'member']);
  return q.listDepartments(deps.db, options.workspaceId);
}

async function memberById(db: Db, workspaceId: string, memberId: string) {
  const [row] = await q.listMembers(db, workspaceId, memberId);
  if (!row) throw notFound('Member not found');
  return toMember(row);
}

/** Creates an invitation token for a pending member and queues its e-mail, inside `tx`. */
async function sendInvitation(
  deps: Deps,
  tx: Db,
  options: { memberId: string; email: string; workspaceName: string; invitedBy: string },
) {
  const token = randomBytes(32).toString('base64url');
  await tx.insert(invitations).values({
    memberId: options.memberId,
    tokenHash: hashToken(token),
    invitedBy: options.invitedBy,
    expiresAt: new Date(Date.now() + INVITATION_DAYS * DAY_MS),
  });
  const inviter = await q.findUserName(tx, options.invitedBy);
  const url = `${deps.config.appUrl}/invite/${token}`;
  await deps.mailer.enqueue(
    {
      kind: 'team-invitation',
      to: options.email,
      ...renderMail({
        subject: `You're invited to join ${options.workspaceName} on Pulsecheck`,
        heading: `Join ${options.workspaceName} on Pulsecheck`,
        paragraphs: [
          `${inviter?.name ?? 'A workspace admin'} invited you to join the workspace "${options.workspaceName}" on Pulsecheck, where your team runs its health checks.`,
        ],
        action: { label: 'Accept invitation', url },
        footer: `The invitation expires in ${INVITATION_DAYS} days. If you did not expect it, ignore this email.`,
      }),
    },
    tx,
  );
}

export async function inviteMember(
  deps: Deps,
  options: {
    userId: string;
    workspaceId: string;
    email: string;
    role: string;
    department?: string | undefined;
    admin: boolean;
  },
): Promise<Member> {
  await requireManager(deps.db, options.userId, options.workspaceId);
  const workspace = await q.findWorkspace(deps.db, options.workspaceId);
  if (!workspace) throw notFound();
  const memberId = await deps.db.transaction(async (tx) => {
    await q.lockInvitee(tx, options.workspaceId, options.email);
    const existing = await q.findMembershipByEmail(tx, options.workspaceId, options.email);
    if (existing && existing.status === 'pending') throw conflict(TEAM_MESSAGES.alreadyInvited);
    if (existing && existing.access !== 'participant') throw conflict(TEAM_MESSAGES.alreadyMember);
    // A link participant may be invited into the team: accepting upgrades their membership.
    const departmentId = options.department
      ? await q.departmentIdFor(tx, options.workspaceId, options.department)
      : null;
    const [member] = await tx
      .insert(workspaceMembers)
      .values({
        workspaceId: options.workspaceId,
        userId: null,
        access: options.admin ? 'admin' : 'member',
        role: options.role,
        invitationEmail: options.email,
        departmentId,
        status: 'pending',
      })
      .returning({ id: workspaceMembers.id });
    if (!member) throw new Error('member insert returned nothing');
    await sendInvitation(deps, tx, {
      memberId: member.id,
      email: options.email,
      workspaceName: workspace.name,
      invitedBy: options.userId,
    });
    return member.id;
  });
  return memberById(deps.db, options.workspaceId, memberId);
}

async function pendingMember(db: Db, workspaceId: string, memberId: string) {
  const member = await q.findMember(db, workspaceId, memberId);
  if (!member || member.status !== 'pending' || !member.invitationEmail)
    throw notFound('Invitation not found');
  return { ...member, invitationEmail: member.invitationEmail };
}

/** A fresh token and expiry; earlier links stop working. */
export async function resendInvitation(
  deps: Deps,
  options: { userId: string; workspaceId: string; memberId: string },
): Promise<Member> {
  await requireManager(deps.db, options.userId, options.workspaceId);
  const workspace = await q.findWorkspace(deps.db, options.workspaceId);
  if (!workspace) throw notFound();
  await deps.db.transaction(async (tx) => {
    const member = await pendingMember(tx, options.workspaceId, options.memberId);
    await q.revokeOpenInvitations(tx, member.id);
    await sendInvitation(deps, tx, {
      memberId: member.id,
      email: member.invitationEmail,
      workspaceName: workspace.name,
      invitedBy: options.userId,
    });
  });
  return memberById(deps.db, options.workspaceId, options.memberId);
}

/** Revoking removes the pending member; the links it was sent then say the invitation is no longer valid. */
export async function revokeInvitation(
  deps: Deps,
  options: { userId: string; workspaceId: string; memberId: string },
) {
  await requireManager(deps.db, options.userId, options.workspaceId);
  await deps.db.transaction(async (tx) => {
    const member = await pendingMember(tx, options.workspaceId, options.memberId);
    await tx.delete(workspaceMembers).where(eq(workspaceMembers.id, member.id));
  });
}

export async function updateMember(
  deps: Deps,
  options: {
    userId: string;
    workspaceId: string;
    memberId: string;
    role?: string | undefined;
    access?: 'admin' | 'member' | undefined;
    department?: string | undefined;
  },
): Promise<Member> {
  await requireManager(deps.db, options.userId, options.workspaceId);
  await deps.db.transaction(async (tx) => {
    const member = await q.findMember(tx, options.workspaceId, options.memberId);
    if (!member) throw notFound('Member not found');
    const demotes = options.access === 'member' && member.access === 'admin' && member.status === 'active';
    if (demotes && (await q.lockActiveAdmins(tx, options.workspaceId)) <= 1)
      throw conflict(TEAM_MESSAGES.lastAdmin);
    const departmentId =
      options.department === undefined
        ? undefined
        : options.department === ''
          ? null
          : await q.departmentIdFor(tx, options.workspaceId, options.department);
    await tx
      .update(workspaceMembers)
      .set({
        ...(options.role !== undefined ? { role: options.role } : {}),
        ...(options.access !== undefined ? { access: options.access } : {}),
        ...(departmentId !== undefined ? { departmentId } : {}),
        updatedAt: new Date(),
      })
      .where(eq(workspaceMembers.id, member.id));
  });
  return memberById(deps.db, options.workspaceId, options.memberId);
}

export async function removeMember(
  deps: Deps,
  options: { userId: string; workspaceId: string; memberId: string },
) {
  await requireManager(deps.db, options.userId, options.workspaceId);
  const workspace = await q.findWorkspace(deps.db, options.workspaceId);
  await deps.db.transaction(async (tx) => {
    const member = await q.findMember(tx, options.workspaceId, options.memberId);
    if (!member) throw notFound('Member not found');
    if (member.access === 'admin' && member.status === 'active') {
      if ((await q.lockActiveAdmins(tx, options.workspaceId)) <= 1) throw conflict(TEAM_MESSAGES.lastAdmin);
    }
    await tx.delete(workspaceMembers).where(eq(workspaceMembers.id, member.id));
    if (member.userId && member.status === 'active') {
      await q.clearActiveWorkspace(tx, member.userId, options.workspaceId);
      await notify(
        deps,
        {
          userIds: (await q.teamUserIds(tx, options.workspaceId)).filter((id) => id !== member.userId),
          type: 'team-update',
          message: `${member.name ?? 'A member'} left ${workspace?.name ?? 'the workspace'}`,
          link: '/admin/team-management',
        },
        tx,
      );
    }
  });
}

function invitationState(row: q.InvitationRow): InvitationInfo['state'] {
  if (row.accepted_at) return 'accepted';
  if (new Date(row.expires_at).getTime() < Date.now()) return 'expired';
  return 'valid';
}

/** What the accept page shows. Unknown or revoked tokens are a 404 with the same message. */
export async function getInvitation(deps: Pick<Deps, 'db'>, token: string): Promise<InvitationInfo> {
  const row = await q.findInvitationByHash(deps.db, hashToken(token));
  if (!row || row.revoked_at) throw notFound(TEAM_MESSAGES.invitationInvalid);
  return {
    state: invitationState(row),
    email: row.email,
    workspaceName: row.workspace_name,
    invitedBy: row.invited_by,
    role: row.role,
    accountExists: row.account_exists,
  };
}

/**
 * Makes the invited person an active member, inside `tx`. A link participant's existing membership is
 * upgraded instead of duplicated. Accepting again as the same person changes nothing.
 */
async function acceptInTx(
  deps: Deps,
  tx: Db,
  options: { token: string; userId: string; email: string; name: string },
): Promise<string> {
  const row = await q.findInvitationByHash(tx, hashToken(options.token), true);
  if (!row || row.revoked_at) throw notFound(TEAM_MESSAGES.invitationInvalid);
  if (row.accepted_at) {
    if (row.member_user_id === options.userId) return row.workspace_id;
    throw conflict(TEAM_MESSAGES.invitationAccepted);
  }
  if (new Date(row.expires_at).getTime() < Date.now())
    throw new AppError('conflict', TEAM_MESSAGES.invitationExpired);
  if (row.email !== options.email.toLowerCase()) throw forbidden(TEAM_MESSAGES.invitationWrongUser);

  const existing = await q.findMembershipOfUser(tx, row.workspace_id, options.userId);
  let memberId = row.member_id;
  if (existing) {
    if (existing.access === 'participant') {
      await tx
        .update(workspaceMembers)
        .set({
          access: row.access,
          role: row.role,
          departmentId: row.department_id,
          status: 'active',
          updatedAt: new Date(),
        })
        .where(eq(workspaceMembers.id, existing.id));
    }
    await tx.update(invitations).set({ memberId: existing.id }).where(eq(invitations.id, row.invitation_id));
    await tx.delete(workspaceMembers).where(eq(workspaceMembers.id, row.member_id));
    memberId = existing.id;
  } else {
    await tx
      .update(workspaceMembers)
      .set({ userId: options.userId, status: 'active', updatedAt: new Date() })
      .where(eq(workspaceMembers.id, row.member_id));
  }
  await tx
    .update(invitations)
    .set({ acceptedAt: new Date(), memberId })
    .where(eq(invitations.id, row.invitation_id));
  await q.setActiveWorkspace(tx, options.userId, row.workspace_id);
  await notify(
    deps,
    {
      userIds: (await q.teamUserIds(tx, row.workspace_id)).filter((id) => id !== options.userId),
      type: 'team-update',
      message: `${options.name} joined ${row.workspace_name}`,
      link: '/admin/team-management',
    },
    tx,
  );
  return row.workspace_id;
}

/** A signed-in user with the invited address accepts and lands in the workspace. */
export async function acceptInvitation(
  deps: Deps,
  options: { token: string; user: { id: string; email: string; name: string } },
) {
  const workspaceId = await deps.db.transaction((tx) =>
    acceptInTx(deps, tx, {
      token: options.token,
      userId: options.user.id,
      email: options.user.email,
      name: options.user.name,
    }),
  );
  return { workspaceId, redirectTo: '/admin/dashboard' };
}

/**
 * A new person accepts by choosing a name and password. The e-mailed token proves they read that mailbox,
 * so the account starts verified and is signed in at once (no second e-mail to click).
 */
export async function acceptWithSignup(
  deps: Deps,
  options: { token: string; fullName: string; password: string; headers: Headers },
) {
  const info = await getInvitation(deps, options.token);
  if (info.state === 'expired') throw conflict(TEAM_MESSAGES.invitationExpired);
  if (info.state === 'accepted') throw conflict(TEAM_MESSAGES.invitationAccepted);
  if (await q.userExistsWithEmail(deps.db, info.email)) throw conflict(TEAM_MESSAGES.invitationAccountExists);

  const context = await deps.auth.$context;
  const hash = await context.password.hash(options.password);
  const created = await context.internalAdapter.createUser(
    {
      email: info.email,
      name: options.fullName,
      emailVerified: true,
    },
    { method: 'email-password' },
  );
  if (!created) throw new AppError('internal', 'The account could not be created');
  await context.internalAdapter.linkAccount({
    userId: created.id,
    providerId: 'credential',
    accountId: created.id,
    password: hash,
  });
  const workspaceId = await deps.db.transaction((tx) =>
    acceptInTx(deps, tx, {
      token: options.token,
      userId: created.id,
      email: info.email,
      name: options.fullName,
    }),
  );
  try {
    const { headers } = await deps.auth.api.signInEmail({
      body: { email: info.email, password: options.password },
      headers: options.headers,
      returnHeaders: true,
    });
    return { workspaceId, redirectTo: '/admin/dashboard', cookies: headers.getSetCookie() };
  } catch (error) {
    if (error instanceof APIError) {
      deps.logger.warn({ err: error.message }, 'sign-in after invitation sign-up failed');
      return { workspaceId, redirectTo: '/login', cookies: [] };
    }
    throw error;
  }
}
