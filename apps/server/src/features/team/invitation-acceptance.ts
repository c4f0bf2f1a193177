import { messageWith } from '@pulsecheck/shared/i18n/message';
import { TEAM_MESSAGES, type InvitationInfo } from '@pulsecheck/shared/team/schemas';
import { APIError } from 'better-auth/api';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { invitations, workspaceMembers } from '../../db/schema/organizations';
import { AppError, conflict, forbidden, notFound } from '../../lib/app-error';
import type { AppDeps } from '../../lib/router';
import { notify } from '../notifications/service';
import { rememberActiveWorkspace } from '../workspaces/service';
import * as q from './queries';
import { refuseIfSsoRequired } from '../sso/service';
import { memberJoined } from '../../webhooks/emit';
import { hashToken } from './service';

/** The invited person's side: what the accept page shows, and accepting as a signed-in user or a new one. */

type Deps = Pick<AppDeps, 'db' | 'realtime' | 'auth' | 'logger'>;

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
  await rememberActiveWorkspace(tx, options.userId, row.workspace_id);
  await memberJoined(tx, row.workspace_id, { id: memberId, name: options.name });
  await notify(
    deps,
    {
      userIds: (await q.teamUserIds(tx, row.workspace_id)).filter((id) => id !== options.userId),
      type: 'team-update',
      message: messageWith('mail.notice.memberJoined', { name: options.name, workspace: row.workspace_name }),
      link: '/admin/team-management',
      workspaceId: row.workspace_id,
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
  // A password account is not made at a domain whose organisation requires single sign-on.
  await refuseIfSsoRequired(deps.db, info.email);

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
  if (!created) throw new AppError('internal', 'errors.accountNotCreated');
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
