import { sql } from 'drizzle-orm';
import type { Context } from 'hono';
import type { AuditAction, AuditActorKind, AuditChanges } from '@pulsecheck/shared/audit/log';
import { organizationMemberSql, organizationRoleSql } from '../auth/access';
import { queryRows, type Db } from '../db/client';
import { clientIp } from '../lib/client-ip';
import type { AppEnv } from '../lib/router';
import { canonicalJson, entryHash, GENESIS_HASH } from './chain';

/**
 * Writing the audit log (issue 37 item 3, decision 0026). `recordAudit` is called with the transaction of the change
 * it records, so the entry exists exactly when the change does. It locks the organisation's chain row for the rest
 * of that transaction: entries of one organisation are numbered and chained one at a time, and their times never go
 * back (a time earlier than the last entry's, from another process's clock, is raised to it).
 */

/** Who acted, as an entry names them: the person (by e-mail), the API token or the SCIM token, and from where. */
export type AuditBy = { kind: AuditActorKind; id: string | null; label: string; ip: string | null };

export type AuditRecord = {
  action: AuditAction;
  /** What was acted on: 'organization', 'workspace', 'member', 'health-check', … */
  targetType: string;
  targetId?: string | null;
  /** How people know it: a name, a title, an e-mail address. */
  targetLabel?: string | null;
  changes?: AuditChanges | null;
};

/** The caller of a request: its API token when it came with one, otherwise the signed-in person. */
export function auditBy(c: Context<AppEnv>, user: { id: string; email: string }): AuditBy {
  const token = c.get('apiToken');
  const ip = clientIp(c);
  if (!token) return { kind: 'user', id: user.id, label: user.email, ip };
  // A personal token acts as its person: the entry says whose it is (a token's name alone could be anything).
  const label = token.kind === 'personal' ? `${token.name} (${user.email})` : token.name;
  return { kind: 'api-token', id: token.id, label, ip };
}

export const SYSTEM_ACTOR: AuditBy = { kind: 'system', id: null, label: 'Pulsecheck', ip: null };

/** For settings: each field whose value differs, before and after (the unchanged ones are left out). */
export function changedFields(before: Record<string, unknown>, after: Record<string, unknown>): AuditChanges {
  const changes: AuditChanges = {};
  for (const [key, value] of Object.entries(after)) {
    if (value === undefined) continue;
    const was: unknown = before[key] ?? null;
    if (canonicalJson(was) !== canonicalJson(value)) changes[key] = { before: was, after: value };
  }
  return changes;
}

type ChainRow = { last_seq: string | number; last_hash: string; now: string | Date };

/**
 * Text as the database will read it back: a lone UTF-16 surrogate (half of a pair, which JSON can carry) is stored
 * as U+FFFD, so it is replaced before hashing, or the entry would never verify.
 */
const wellFormed = (text: string | null) =>
  text === null
    ? null
    : text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');

export async function recordAudit(
  tx: Db,
  organizationId: string,
  by: AuditBy,
  record: AuditRecord,
): Promise<void> {
  // Ids are hashed as the database writes them (a uuid in lower case, whatever case a URL gave it).
  const organization = organizationId.toLowerCase();
  // Inserting or touching the chain row takes its lock until the transaction ends. The time is the database's (one
  // clock for every process), never earlier than the last entry's.
  const [chain] = await queryRows<ChainRow>(
    tx,
    sql`insert into audit_chains (organization_id, last_hash, pruned_hash)
        values (${organization}, ${GENESIS_HASH}, ${GENESIS_HASH})
        on conflict (organization_id) do update set last_seq = audit_chains.last_seq
        returning last_seq, last_hash, greatest(last_at, clock_timestamp()) as now`,
  );
  const entry = {
    organizationId: organization,
    seq: Number(chain!.last_seq) + 1,
    // Milliseconds, as the column keeps them (the hash must read back the same).
    at: new Date(new Date(chain!.now).getTime()),
    actorKind: by.kind,
    actorId: wellFormed(by.id),
    actorLabel: wellFormed(by.label)!,
    ip: wellFormed(by.ip),
    action: record.action,
    targetType: wellFormed(record.targetType)!,
    targetId: wellFormed(record.targetId ?? null),
    targetLabel: wellFormed(record.targetLabel ?? null),
    // JSON.stringify writes a lone surrogate as an escape: the text is stored as hashed.
    changes: record.changes ? canonicalJson(record.changes) : null,
  };
  const hash = entryHash(chain!.last_hash, entry);
  await tx.execute(sql`
    insert into audit_entries (organization_id, seq, at, actor_kind, actor_id, actor_label, ip, action, target_type,
                               target_id, target_label, changes, prev_hash, hash)
    values (${organization}, ${entry.seq}, ${entry.at.toISOString()}, ${entry.actorKind}, ${entry.actorId},
            ${entry.actorLabel}, ${entry.ip}, ${entry.action}, ${entry.targetType}, ${entry.targetId},
            ${entry.targetLabel}, ${entry.changes}, ${chain!.last_hash}, ${hash})`);
  await tx.execute(sql`
    update audit_chains set last_seq = ${entry.seq}, last_hash = ${hash}, last_at = ${entry.at.toISOString()}
    where organization_id = ${organization}`);
}

/** `recordAudit` in the organisation of a workspace: for the features that know the workspace of what changed. */
export async function recordWorkspaceAudit(tx: Db, workspaceId: string, by: AuditBy, record: AuditRecord) {
  const [workspace] = await queryRows<{ organization_id: string }>(
    tx,
    sql`select organization_id from workspaces where id = ${workspaceId}`,
  );
  if (!workspace) throw new Error(`audit: no workspace ${workspaceId}`);
  await recordAudit(tx, workspace.organization_id, by, record);
}

/**
 * The same record in each organisation of the user: where they oversee something ('admin': owner, organisation
 * admin, or admin of one of its workspaces; an admin's sign-in, which belongs to no one organisation), or where they
 * are a member at all ('member': a personal API token, which acts in all of them). In a fixed order, so that two
 * transactions never wait for each other's chain rows.
 */
export async function recordAuditWhereUser(
  tx: Db,
  userId: string,
  as: 'admin' | 'member',
  by: AuditBy,
  record: AuditRecord,
) {
  // Roles that count now (auth/access.ts): an appointment whose person left every workspace no longer does.
  const organizations = await queryRows<{ id: string }>(
    tx,
    as === 'admin'
      ? sql`select o.id from organizations o where ${organizationRoleSql(userId, sql`o.id`)} is not null
            union select w.organization_id from workspace_members m join workspaces w on w.id = m.workspace_id
                  where m.user_id = ${userId} and m.status = 'active' and m.access = 'admin'
            order by 1`
      : sql`select o.id from organizations o where ${organizationMemberSql(userId, sql`o.id`)} order by 1`,
  );
  for (const organization of organizations) await recordAudit(tx, organization.id, by, record);
}

/** An organisation admin's role that lapsed with their last workspace (auth/access.ts: dropLapsedOrganizationAdmin). */
export const recordLapsedAdmin = (
  tx: Db,
  organizationId: string,
  by: AuditBy,
  person: { id: string; email: string | null },
) =>
  recordAudit(tx, organizationId, by, {
    action: 'organization.admin-removed',
    targetType: 'person',
    targetId: person.id,
    targetLabel: person.email,
    changes: { reason: 'no longer in any of its workspaces' },
  });

/** Makes a change and records it, in one transaction; the record may depend on what the change answered. */
export function audited<T>(
  db: Db,
  organizationId: string,
  by: AuditBy,
  record: AuditRecord | ((result: T) => AuditRecord),
  change: (tx: Db) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    const result = await change(tx);
    await recordAudit(tx, organizationId, by, typeof record === 'function' ? record(result) : record);
    return result;
  });
}
