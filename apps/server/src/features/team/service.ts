import { NOT_FOUND_MESSAGES } from '@pulsecheck/shared/api/errors';
import { createHash, randomBytes } from 'node:crypto';
import {
  INVITATION_DAYS,
  TEAM_MESSAGES,
  type Member,
  type MembersResponse,
} from '@pulsecheck/shared/team/schemas';
import { eq, sql } from 'drizzle-orm';
import { user } from '../../db/schema/auth';
import {
  dropLapsedOrganizationAdmin,
  organizationRole,
  requireOrganization,
  requireWorkspace,
} from '../../auth/access';
import { changedFields, recordAudit, recordLapsedAdmin, type AuditBy } from '../../audit/record';
import { can } from '../../auth/policy';
import type { Db } from '../../db/client';
import { invitations, workspaceMembers } from '../../db/schema/organizations';
import { conflict, forbidden, notFound } from '../../lib/app-error';
import type { AppDeps } from '../../lib/router';
import { chargeMailQuota } from '../../mail/quota';
import { renderMail } from '../../mail/templates';
import { translatorOfRecipient, workspaceLanguageOf } from '../../mail/language';
import { messageWith } from '@pulsecheck/shared/i18n/message';
import { accessChanged } from '../../realtime/bus';
import { notify } from '../notifications/service';
import * as q from './queries';
import { mailBrandingOfWorkspace } from '../branding/service';

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
    organizationRole: row.organization_role,
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
const requireManager = (db: Db, userId: string, workspaceId: string) =>
  requireWorkspace(db, userId, workspaceId, {
    action: 'workspace:administer',
    refuseMembers: () => forbidden(TEAM_MESSAGES.manageForbidden),
  });

export async function listTeam(
  deps: Pick<Deps, 'db'>,
  options: { userId: string; workspaceId: string },
): Promise<MembersResponse> {
  const membership = await requireWorkspace(deps.db, options.userId, options.workspaceId);
  const workspace = await q.findWorkspace(deps.db, options.workspaceId);
  if (!workspace) throw notFound();
  const [rows, role] = await Promise.all([
    q.listMembers(deps.db, options.workspaceId),
    organizationRole(deps.db, options.userId, workspace.organizationId),
  ]);
  return {
    workspace: { id: workspace.id, name: workspace.name },
    canManage: membership.access === 'admin',
    canAppointOrganizationAdmins: can(
      { userId: options.userId, access: membership.access, organizationRole: role },
      'organization:appoint-admins',
    ),
    members: rows.map(toMember),
  };
}

export async function listDepartments(
  deps: Pick<Deps, 'db'>,
  options: { userId: string; workspaceId: string },
) {
  await requireWorkspace(deps.db, options.userId, options.workspaceId);
  return q.listDepartments(deps.db, options.workspaceId);
}

async function memberById(db: Db, workspaceId: string, memberId: string) {
  const [row] = await q.listMembers(db, workspaceId, memberId);
  if (!row) throw notFound(NOT_FOUND_MESSAGES.member);
  return toMember(row);
}

/**
 * Creates an invitation token for a pending member and queues its e-mail, inside `tx`, after charging it to the
 * inviter's and the organisation's daily e-mail budgets (a 429 past either rolls the whole request back).
 */
async function sendInvitation(
  deps: Deps,
  tx: Db,
  options: { memberId: string; workspaceId: string; email: string; workspaceName: string; invitedBy: string },
) {
  await chargeMailQuota(tx, deps.config, {
    userId: options.invitedBy,
    workspaceId: options.workspaceId,
    count: 1,
  });
  const token = randomBytes(32).toString('base64url');
  await tx.insert(invitations).values({
    memberId: options.memberId,
    tokenHash: hashToken(token),
    invitedBy: options.invitedBy,
    expiresAt: new Date(Date.now() + INVITATION_DAYS * DAY_MS),
  });
  const inviter = await q.findUserName(tx, options.invitedBy);
  const branding = await mailBrandingOfWorkspace({ db: tx, config: deps.config }, options.workspaceId);
  const url = `${deps.config.appUrl}/invite/${token}`;
  // In the language the address's account chose, if it has one, else the organisation's (mail/language.ts).
  const [account] = await tx
    .select({ language: user.language })
    .from(user)
    .where(sql`lower(${user.email}) = lower(${options.email})`);
  const t = translatorOfRecipient({
    language: account?.language,
    organization: await workspaceLanguageOf(tx, options.workspaceId),
  });
  const workspace = options.workspaceName;
  await deps.mailer.enqueue(
    {
      kind: 'team-invitation',
      to: options.email,
      ...renderMail({
        subject: t.t('mail.teamInvitation.subject', { workspace }),
        heading: t.t('mail.teamInvitation.heading', { workspace }),
        paragraphs: [
          inviter?.name
            ? t.t('mail.teamInvitation.body', { inviter: inviter.name, workspace })
            : t.t('mail.teamInvitation.bodyByAdmin', { workspace }),
        ],
        action: { label: t.t('mail.teamInvitation.action'), url },
        footer: t.t('mail.teamInvitation.footer', { days: INVITATION_DAYS }),
        branding,
        translator: t,
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
    by: AuditBy;
  },
): Promise<Member> {
  await requireManager(deps.db, options.userId, options.workspaceId);
  const workspace = await q.findWorkspace(deps.db, options.workspaceId);
  if (!workspace) throw notFound();
  const memberId = await deps.db.transaction(async (tx) => {
    await q.lockInvitee(tx, options.workspaceId, options.email);
    const existing = await q.findMembershipByEmail(tx, options.workspaceId, options.email);
    if (existing && existing.status === 'pending') throw conflict(TEAM_MESSAGES.alreadyInvited);
    // Deactivated by the organisation's SCIM provisioning: only the identity provider brings them back.
    if (existing && existing.status === 'suspended') throw conflict(TEAM_MESSAGES.suspended);
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
      workspaceId: options.workspaceId,
      email: options.email,
      workspaceName: workspace.name,
      invitedBy: options.userId,
    });
    await recordAudit(tx, workspace.organizationId, options.by, {
      action: 'invitation.sent',
      targetType: 'invitation',
      targetId: member.id,
      targetLabel: options.email,
      changes: {
        workspace: workspace.name,
        access: options.admin ? 'admin' : 'member',
        role: options.role,
        department: options.department ?? null,
      },
    });
    return member.id;
  });
  return memberById(deps.db, options.workspaceId, memberId);
}

async function pendingMember(db: Db, workspaceId: string, memberId: string) {
  const member = await q.findMember(db, workspaceId, memberId);
  if (!member || member.status !== 'pending' || !member.invitationEmail)
    throw notFound('errors.invitationNotFound');
  return { ...member, invitationEmail: member.invitationEmail };
}

/** A fresh token and expiry; earlier links stop working. Recorded in the audit log as an invitation sent again. */
export async function resendInvitation(
  deps: Deps,
  options: { userId: string; workspaceId: string; memberId: string; by: AuditBy },
): Promise<Member> {
  await requireManager(deps.db, options.userId, options.workspaceId);
  const workspace = await q.findWorkspace(deps.db, options.workspaceId);
  if (!workspace) throw notFound();
  await deps.db.transaction(async (tx) => {
    const member = await pendingMember(tx, options.workspaceId, options.memberId);
    await q.revokeOpenInvitations(tx, member.id);
    await sendInvitation(deps, tx, {
      memberId: member.id,
      workspaceId: options.workspaceId,
      email: member.invitationEmail,
      workspaceName: workspace.name,
      invitedBy: options.userId,
    });
    await recordAudit(tx, workspace.organizationId, options.by, {
      action: 'invitation.sent',
      targetType: 'invitation',
      targetId: member.id,
      targetLabel: member.invitationEmail,
      changes: { workspace: workspace.name, resent: true },
    });
  });
  return memberById(deps.db, options.workspaceId, options.memberId);
}

/** Revoking removes the pending member; the links it was sent then say the invitation is no longer valid. */
export async function revokeInvitation(
  deps: Deps,
  options: { userId: string; workspaceId: string; memberId: string; by: AuditBy },
) {
  await requireManager(deps.db, options.userId, options.workspaceId);
  const workspace = await q.findWorkspace(deps.db, options.workspaceId);
  if (!workspace) throw notFound();
  await deps.db.transaction(async (tx) => {
    const member = await pendingMember(tx, options.workspaceId, options.memberId);
    await tx.delete(workspaceMembers).where(eq(workspaceMembers.id, member.id));
    await recordAudit(tx, workspace.organizationId, options.by, {
      action: 'invitation.revoked',
      targetType: 'invitation',
      targetId: member.id,
      targetLabel: member.invitationEmail,
      changes: { workspace: workspace.name },
    });
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
    by: AuditBy;
  },
): Promise<Member> {
  await requireManager(deps.db, options.userId, options.workspaceId);
  const workspace = await q.findWorkspace(deps.db, options.workspaceId);
  if (!workspace) throw notFound();
  await deps.db.transaction(async (tx) => {
    const member = await q.findMember(tx, options.workspaceId, options.memberId);
    if (!member) throw notFound(NOT_FOUND_MESSAGES.member);
    const before = await q.memberFacts(tx, member.id);
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
    const after = await q.memberFacts(tx, member.id);
    const fields = ({ role, access, department }: NonNullable<typeof before>) => ({
      role,
      access,
      department,
    });
    const changes = before && after ? changedFields(fields(before), fields(after)) : {};
    if (after && Object.keys(changes).length > 0) {
      await recordAudit(tx, workspace.organizationId, options.by, {
        action: 'member.access-changed',
        targetType: 'member',
        targetId: member.id,
        targetLabel: after.email,
        changes: { ...changes, workspace: workspace.name },
      });
    }
  });
  return memberById(deps.db, options.workspaceId, options.memberId);
}

export async function removeMember(
  deps: Deps,
  options: { userId: string; workspaceId: string; memberId: string; by: AuditBy },
) {
  await requireManager(deps.db, options.userId, options.workspaceId);
  const workspace = await q.findWorkspace(deps.db, options.workspaceId);
  if (!workspace) throw notFound();
  await deps.db.transaction(async (tx) => {
    const member = await q.findMember(tx, options.workspaceId, options.memberId);
    if (!member) throw notFound(NOT_FOUND_MESSAGES.member);
    if (member.access === 'admin' && member.status === 'active') {
      if ((await q.lockActiveAdmins(tx, options.workspaceId)) <= 1) throw conflict(TEAM_MESSAGES.lastAdmin);
    }
    const facts = await q.memberFacts(tx, member.id);
    await tx.delete(workspaceMembers).where(eq(workspaceMembers.id, member.id));
    await recordAudit(tx, workspace.organizationId, options.by, {
      action: 'member.removed',
      targetType: 'member',
      targetId: member.id,
      targetLabel: facts?.email ?? member.name,
      changes: { workspace: workspace.name, access: member.access, status: member.status },
    });
    if (member.userId && member.status === 'active') {
      if (await dropLapsedOrganizationAdmin(tx, member.userId, options.workspaceId))
        await recordLapsedAdmin(tx, workspace.organizationId, options.by, {
          id: member.userId,
          email: facts?.email ?? null,
        });
      await q.clearActiveWorkspace(tx, member.userId, options.workspaceId);
      // Their open live streams of the workspace close (they re-check on this event).
      await accessChanged(deps.realtime, member.userId, tx);
      await notify(
        deps,
        {
          userIds: (await q.teamUserIds(tx, options.workspaceId)).filter((id) => id !== member.userId),
          type: 'team-update',
          // Said in each recipient's language by notify.
          message: member.name
            ? messageWith('mail.notice.memberLeft', { name: member.name, workspace: workspace.name })
            : messageWith('mail.notice.someoneLeft', { workspace: workspace.name }),
          link: '/admin/team-management',
          workspaceId: options.workspaceId,
        },
        tx,
      );
    }
  });
}

/**
 * The owner's 'Organisation admin' choice (issue 16): appoints an active admin or member of one of the organisation's
 * workspaces as an organisation admin, or removes them. Anyone but the organisation's owner gets a 404.
 */
export async function setOrganizationAdmin(
  deps: Pick<Deps, 'db'>,
  options: { userId: string; workspaceId: string; memberId: string; organizationAdmin: boolean; by: AuditBy },
): Promise<Member> {
  const workspace = await q.findWorkspace(deps.db, options.workspaceId);
  if (!workspace) throw notFound(NOT_FOUND_MESSAGES.organization);
  await requireOrganization(deps.db, options.userId, workspace.organizationId, 'organization:appoint-admins');
  const member = await q.findMember(deps.db, options.workspaceId, options.memberId);
  if (!member) throw notFound(NOT_FOUND_MESSAGES.member);
  if (member.status !== 'active' || !member.userId)
    throw conflict(TEAM_MESSAGES.organizationAdminNeedsMember);
  if (member.userId === options.userId) throw conflict(TEAM_MESSAGES.organizationAdminIsOwner);
  const appointee = member.userId;
  await deps.db.transaction(async (tx) => {
    const changed = await q.setOrganizationAdmin(tx, {
      organizationId: workspace.organizationId,
      userId: appointee,
      appointedBy: options.userId,
      appoint: options.organizationAdmin,
    });
    if (changed)
      await recordAudit(tx, workspace.organizationId, options.by, {
        action: options.organizationAdmin ? 'organization.admin-appointed' : 'organization.admin-removed',
        targetType: 'person',
        targetId: appointee,
        targetLabel: member.email ?? member.invitationEmail,
      });
  });
  return memberById(deps.db, options.workspaceId, options.memberId);
}
