import { sql } from 'drizzle-orm';
import {
  AUDIT_CSV_COLUMNS,
  AUDIT_MESSAGES,
  AUDIT_PAGE_SIZE,
  AUDIT_RETENTION,
  type AuditEntry,
  type AuditFilter,
  type AuditList,
  type AuditVerify,
} from '@pulsecheck/shared/audit/log';
import { csvCell } from '@pulsecheck/shared/api/csv';
import type { Locale } from '@pulsecheck/shared/i18n/languages';
import { requireOrganization } from '../../auth/access';
import { can } from '../../auth/policy';
import { forbidden } from '../../lib/app-error';
import { translatorFor } from '../../lib/i18n';
import { checkChain, GENESIS_HASH } from '../../audit/chain';
import { recordAudit, type AuditBy } from '../../audit/record';
import type { Db } from '../../db/client';
import { findChain, findEntries, findEntriesAfter, type EntryRow } from './queries';

/**
 * The 'Audit log' of Organisation settings (issue 37 item 3, decision 0026): reading, exporting and verifying an
 * organisation's entries, and how long they are kept. Its owner and organisation admins (`organization:audit`);
 * anyone else, other organisations included, is answered 404.
 */

type Deps = { db: Db };
type Caller = { userId: string; organizationId: string };

const toEntry = (row: EntryRow): AuditEntry => ({
  seq: Number(row.seq),
  at: new Date(row.at).toISOString(),
  actorKind: row.actor_kind as AuditEntry['actorKind'],
  actorId: row.actor_id,
  actorLabel: row.actor_label,
  ip: row.ip,
  action: row.action as AuditEntry['action'],
  targetType: row.target_type,
  targetId: row.target_id,
  targetLabel: row.target_label,
  changes: row.changes === null ? null : (JSON.parse(row.changes) as Record<string, unknown>),
  hash: row.hash,
});

export const allowed = (deps: Deps, caller: Caller) =>
  requireOrganization(deps.db, caller.userId, caller.organizationId, 'organization:audit');

export async function listAudit(
  deps: Deps,
  input: Caller & AuditFilter & { before?: number },
): Promise<AuditList> {
  await allowed(deps, input);
  const [rows, chain] = await Promise.all([
    findEntries(deps.db, input.organizationId, input, { before: input.before, limit: AUDIT_PAGE_SIZE + 1 }),
    findChain(deps.db, input.organizationId),
  ]);
  const entries = rows.slice(0, AUDIT_PAGE_SIZE).map(toEntry);
  return {
    entries,
    next: rows.length > AUDIT_PAGE_SIZE ? entries[entries.length - 1]!.seq : null,
    retentionDays: chain?.retention_days ?? AUDIT_RETENTION.defaultDays,
  };
}

const EXPORT_BATCH = 2000;

/**
 * The filtered entries as CSV or JSON Lines, newest first, read in batches while they are sent. The export itself
 * is recorded first (who took the log away, and which part of it). The CSV's header is in `locale` (the
 * downloader's language); the entries are as recorded.
 */
export async function exportAudit(
  deps: Deps,
  input: Caller & AuditFilter & { format: 'csv' | 'jsonl'; by: AuditBy; locale: Locale },
) {
  const { name } = await allowed(deps, input);
  const { format, by, locale, userId: _userId, organizationId, ...filter } = input;
  await deps.db.transaction((tx) =>
    recordAudit(tx, organizationId, by, {
      action: 'audit-log.exported',
      targetType: 'organization',
      targetId: organizationId,
      targetLabel: name,
      changes: { format, filter },
    }),
  );
  const encoder = new TextEncoder();
  const line =
    format === 'csv'
      ? (entry: AuditEntry) =>
          AUDIT_CSV_COLUMNS.map(([key]) =>
            csvCell(key === 'changes' ? entry.changes && JSON.stringify(entry.changes) : entry[key]),
          ).join(',') + '\r\n'
      : (entry: AuditEntry) => JSON.stringify(entry) + '\n';
  let before: number | undefined;
  let started = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started && format === 'csv') {
        started = true;
        const words = translatorFor(locale);
        controller.enqueue(
          encoder.encode(AUDIT_CSV_COLUMNS.map(([, title]) => csvCell(words.t(title))).join(',') + '\r\n'),
        );
        return;
      }
      const rows = await findEntries(deps.db, organizationId, filter, { before, limit: EXPORT_BATCH });
      if (rows.length > 0) controller.enqueue(encoder.encode(rows.map((row) => line(toEntry(row))).join('')));
      if (rows.length < EXPORT_BATCH) controller.close();
      else before = Number(rows[rows.length - 1]!.seq);
    },
  });
  const day = new Date().toISOString().slice(0, 10);
  return { body, filename: `audit-log-${day}.${format}` };
}

const VERIFY_BATCH = 5000;

/**
 * Re-computes the chain from the oldest kept entry (which must carry the hash retention recorded for the entries
 * before it) to the newest (which must be the chain's recorded last): the first entry that does not match is named.
 * One snapshot (a read-only, repeatable-read transaction): entries added or pruned meanwhile are not mistaken for
 * tampering.
 */
export async function verifyAudit(deps: Deps, input: Caller): Promise<AuditVerify> {
  await allowed(deps, input);
  const organizationId = input.organizationId.toLowerCase();
  return deps.db.transaction(
    async (tx) => {
      const chain = await findChain(tx, organizationId);
      if (!chain) {
        // No chain row: there may be no entry either, or a chain row was removed under its entries.
        const [any] = await findEntriesAfter(tx, organizationId, 0, 1);
        return any
          ? { ok: false, checked: 0, brokenSeq: Number(any.seq) }
          : { ok: true, checked: 0, brokenSeq: null };
      }
      let tail = { prevHash: chain.pruned_hash, seq: Number(chain.pruned_seq) };
      let checked = 0;
      for (;;) {
        const rows = await findEntriesAfter(tx, organizationId, tail.seq, VERIFY_BATCH);
        const result = checkChain(
          tail,
          rows.map((row) => ({
            organizationId,
            seq: Number(row.seq),
            at: new Date(row.at),
            actorKind: row.actor_kind,
            actorId: row.actor_id,
            actorLabel: row.actor_label,
            ip: row.ip,
            action: row.action,
            targetType: row.target_type,
            targetId: row.target_id,
            targetLabel: row.target_label,
            changes: row.changes,
            prevHash: row.prev_hash,
            hash: row.hash,
          })),
        );
        if (result.brokenSeq !== null)
          return { ok: false, checked: checked + result.seq - tail.seq, brokenSeq: result.brokenSeq };
        checked += rows.length;
        tail = result;
        if (rows.length < VERIFY_BATCH) break;
      }
      // The newest entries removed: the chain's record of its last entry is ahead of what is left.
      if (tail.seq !== Number(chain.last_seq) || tail.prevHash !== chain.last_hash)
        return { ok: false, checked, brokenSeq: tail.seq + 1 };
      return { ok: true, checked, brokenSeq: null };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

export async function setAuditRetention(
  deps: Deps,
  input: Caller & { retentionDays: number; by: AuditBy },
): Promise<{ retentionDays: number }> {
  const { name, role } = await allowed(deps, input);
  await deps.db.transaction(async (tx) => {
    const before = (await findChain(tx, input.organizationId))?.retention_days ?? AUDIT_RETENTION.defaultDays;
    if (before === input.retentionDays) return;
    if (
      input.retentionDays < before &&
      !can(
        { userId: input.userId, access: null, organizationRole: role },
        'organization:shorten-audit-retention',
      )
    )
      throw forbidden(AUDIT_MESSAGES.retentionOwnerOnly);
    await tx.execute(sql`
      insert into audit_chains (organization_id, last_hash, pruned_hash, retention_days)
      values (${input.organizationId}, ${GENESIS_HASH}, ${GENESIS_HASH}, ${input.retentionDays})
      on conflict (organization_id) do update set retention_days = excluded.retention_days`);
    await recordAudit(tx, input.organizationId, input.by, {
      action: 'audit-log.retention-changed',
      targetType: 'organization',
      targetId: input.organizationId,
      targetLabel: name,
      changes: { retentionDays: { before, after: input.retentionDays } },
    });
  });
  return { retentionDays: input.retentionDays };
}
