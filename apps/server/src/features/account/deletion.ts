import { recordAudit, recordAuditWhereUser, type AuditBy } from '../../audit/record';
import {
  DELETION_MESSAGES,
  type DeletionStatus,
  type IdentityProof,
} from '@pulsecheck/shared/account/deletion';
import { NOT_FOUND_MESSAGES } from '@pulsecheck/shared/api/errors';
import { sql } from 'drizzle-orm';
import { authenticatorAccepted, confirmIdentity, proofMethodFor } from '../../auth/confirm-identity';
import { queryRows, type Db } from '../../db/client';
import { conflict, invalid, notFound } from '../../lib/app-error';
import type { AppDeps } from '../../lib/router';
import { accessChanged } from '../../realtime/bus';

/**
 * Leaving (issue 18, docs/security.md "Deleting an account or an organisation"). Deleting rows relies on the
 * foreign keys, so tables that other features add are covered by how they reference their parents: a person's
 * own rows reference `user` with ON DELETE CASCADE (`ownerRef`), rows that outlive them with SET NULL
 * (`userRef`: a check's participants keep their submitted answers, which stay in the figures; an attributed
 * comment then shows 'Former member'); an organisation's rows hang from it through `workspaces` with CASCADE.
 * Only the few rows that name a person or a check without a foreign key are deleted here by name.
 */
type Deps = Pick<AppDeps, 'db' | 'auth' | 'realtime'>;

type Owned = { id: string; name: string };

async function ownedOrganizations(db: Db, userId: string, lock = false): Promise<Owned[]> {
  return queryRows<Owned>(
    db,
    sql`select id, name from organizations where created_by = ${userId} order by name
        ${lock ? sql`for update` : sql``}`,
  );
}

/** The active admins of the organisation's workspaces, other than `except`. */
async function organizationAdmins(db: Db, organizationId: string, except: string) {
  return queryRows<{ userId: string; name: string; email: string }>(
    db,
    sql`select distinct u.id as "userId", u.name, u.email
        from workspace_members m join workspaces w on w.id = m.workspace_id join "user" u on u.id = m.user_id
        where w.organization_id = ${organizationId} and m.access = 'admin' and m.status = 'active'
          and u.id <> ${except}
        order by u.name, u.email`,
  );
}

export async function deletionStatus(deps: Pick<Deps, 'db'>, userId: string): Promise<DeletionStatus> {
  const owned = await ownedOrganizations(deps.db, userId);
  return {
    confirmWith: await proofMethodFor(deps.db, userId),
    authenticatorCode: await authenticatorAccepted(deps.db, userId),
    ownedOrganizations: await Promise.all(
      owned.map(async (org) => ({ ...org, admins: await organizationAdmins(deps.db, org.id, userId) })),
    ),
  };
}

/**
 * Removes a person: their draft answers and the rows that name them without a foreign key (e-mails to them,
 * their e-mail budget, pending verifications), then the `user` row, whose foreign keys take the rest.
 */
async function eraseAccount(tx: Db, userId: string): Promise<void> {
  const [person] = await queryRows<{ email: string }>(tx, sql`select email from "user" where id = ${userId}`);
  if (!person) return;
  await tx.execute(sql`update participants set responses = null where user_id = ${userId}`);
  await tx.execute(sql`delete from mail_outbox where "to" = ${person.email}`);
  await tx.execute(sql`delete from mail_quota where scope = 'user' and subject_id = ${userId}`);
  await tx.execute(sql`delete from verification where identifier = ${person.email}`);
  await tx.execute(sql`delete from "user" where id = ${userId}`);
}

/** Deletes the signed-in person's account, once they proved it is them and own no organisation. */
export async function deleteAccount(
  deps: Deps,
  options: { userId: string; sessionToken: string; proof: IdentityProof; by: AuditBy },
): Promise<void> {
  await confirmIdentity(deps, options);
  await deps.db.transaction(async (tx) => {
    const owned = await ownedOrganizations(tx, options.userId, true);
    if (owned.length > 0)
      throw conflict(DELETION_MESSAGES.ownsOrganizations, undefined, {
        organisations: owned.map((org) => org.name).join(', '),
      });
    // Recorded in every organisation the person was in, while the memberships that say so still exist.
    await recordAuditWhereUser(tx, options.userId, 'member', options.by, {
      action: 'account.deleted',
      targetType: 'person',
      targetId: options.userId,
      targetLabel: options.by.label,
    });
    await eraseAccount(tx, options.userId);
    // Open live streams re-check their session, find it gone, and end (on every process, at commit).
    await accessChanged(deps.realtime, options.userId, tx);
  });
}

/** The organisation, locked, if `userId` owns it; anyone else gets the same 404 as for an unknown id. */
async function lockOwned(tx: Db, organizationId: string, userId: string): Promise<Owned> {
  const [org] = await queryRows<Owned & { createdBy: string | null }>(
    tx,
    sql`select id, name, created_by as "createdBy" from organizations where id = ${organizationId}
        for no key update`,
  );
  if (!org || org.createdBy !== userId) throw notFound(NOT_FOUND_MESSAGES.organization);
  return org;
}

/**
 * Hands the organisation to another of its active admins (who owns no other organisation), once the owner proved it
 * is them as for deleting it: the new owner can delete it.
 */
export async function transferOwnership(
  deps: Deps,
  options: {
    userId: string;
    sessionToken: string;
    organizationId: string;
    newOwnerId: string;
    proof: IdentityProof;
    by: AuditBy;
  },
): Promise<{ name: string }> {
  return deps.db.transaction(async (tx) => {
    const org = await lockOwned(tx, options.organizationId, options.userId);
    await confirmIdentity({ db: tx, auth: deps.auth }, options);
    const admins = await organizationAdmins(tx, options.organizationId, options.userId);
    const heir = admins.find((admin) => admin.userId === options.newOwnerId);
    if (!heir) throw invalid(DELETION_MESSAGES.notAnAdmin, { newOwnerId: DELETION_MESSAGES.notAnAdmin });
    if ((await ownedOrganizations(tx, heir.userId)).length > 0)
      throw conflict(DELETION_MESSAGES.ownsAnother, undefined, { name: heir.name });
    await tx.execute(
      sql`update organizations set created_by = ${heir.userId} where id = ${options.organizationId}`,
    );
    await recordAudit(tx, org.id, options.by, {
      action: 'organization.handed-over',
      targetType: 'organization',
      targetId: org.id,
      targetLabel: org.name,
      changes: { owner: { before: options.by.label, after: heir.email } },
    });
    await accessChanged(deps.realtime, options.userId, tx);
    await accessChanged(deps.realtime, heir.userId, tx);
    return { name: heir.name };
  });
}

/**
 * Deletes the organisation and every row of it: its workspaces and all that hangs from them (checks and their
 * answers, loops and their rounds, templates, members, invitations, departments), the notifications about them, its
 * jobs and its e-mail budget. Members whose only membership was here lose their account too (they have nothing left to sign
 * in to); members who belong elsewhere keep theirs. The owner keeps their account and starts again at the
 * organisation set-up (a new, empty organisation).
 */
export async function deleteOrganization(
  deps: Deps,
  options: {
    userId: string;
    sessionToken: string;
    organizationId: string;
    name: string;
    proof: IdentityProof;
  },
): Promise<void> {
  const affected = await deps.db.transaction(async (tx) => {
    const org = await lockOwned(tx, options.organizationId, options.userId);
    if (options.name.trim() !== org.name)
      throw invalid(DELETION_MESSAGES.nameMismatch, { name: DELETION_MESSAGES.nameMismatch });
    await confirmIdentity({ db: tx, auth: deps.auth }, options);
    const members = await queryRows<{ userId: string }>(
      tx,
      sql`select distinct m.user_id as "userId" from workspace_members m join workspaces w on w.id = m.workspace_id
          where w.organization_id = ${org.id} and m.user_id is not null and m.user_id <> ${options.userId}`,
    );
    const checks = sql`(select c.id from health_checks c join workspaces w on w.id = c.workspace_id
                        where w.organization_id = ${org.id})`;
    await tx.execute(sql`delete from notifications where health_check_id in ${checks}`);
    await tx.execute(
      sql`delete from jobs where payload->>'healthCheckId' in (select id::text from ${checks} ids)`,
    );
    const loops = sql`(select l.id from loops l join workspaces w on w.id = l.workspace_id
                       where w.organization_id = ${org.id})`;
    await tx.execute(
      sql`delete from jobs where payload->>'loopId' in (select id::text from ${loops} ids)
            or payload->>'roundId' in (select r.id::text from loop_rounds r where r.loop_id in ${loops})`,
    );
    await tx.execute(sql`delete from mail_quota where scope = 'organization' and subject_id = ${org.id}`);
    // Checks first: their templates may not go while a check uses them (ON DELETE RESTRICT).
    await tx.execute(sql`delete from health_checks where id in ${checks}`);
    await tx.execute(sql`delete from organizations where id = ${org.id}`);
    for (const { userId } of members) {
      const [elsewhere] = await queryRows<{ one: number }>(
        tx,
        sql`select 1 as one from workspace_members where user_id = ${userId} limit 1`,
      );
      if (!elsewhere) await eraseAccount(tx, userId);
    }
    // The owner starts over at the organisation set-up.
    await tx.execute(
      sql`update "user" set setup_status = 'pending_setup', setup_started_at = null where id = ${options.userId}`,
    );
    return [options.userId, ...members.map((m) => m.userId)];
  });
  for (const userId of affected) await accessChanged(deps.realtime, userId);
}
