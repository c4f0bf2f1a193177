import { createHash } from 'node:crypto';

/**
 * The audit log's tamper evidence (issue 37 item 3, decision 0026): each entry's hash is the SHA-256 of the previous
 * entry's hash and the entry's own fields in a fixed order, so a changed, removed or inserted row breaks every hash
 * after it. The first entry of an organisation chains to GENESIS_HASH.
 */
export const GENESIS_HASH = '0'.repeat(64);

/** The fields an entry's hash covers, as stored. */
export type ChainedFields = {
  organizationId: string;
  seq: number;
  at: Date;
  actorKind: string;
  actorId: string | null;
  actorLabel: string;
  ip: string | null;
  action: string;
  targetType: string;
  targetId: string | null;
  targetLabel: string | null;
  /** The canonical JSON text (canonicalJson), exactly as stored. */
  changes: string | null;
};

/** JSON with every object's keys sorted, at any depth: one text for one value, whatever the key order it came in. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}

export function entryHash(prevHash: string, entry: ChainedFields): string {
  const fields = [
    entry.organizationId,
    entry.seq,
    entry.at.toISOString(),
    entry.actorKind,
    entry.actorId,
    entry.actorLabel,
    entry.ip,
    entry.action,
    entry.targetType,
    entry.targetId,
    entry.targetLabel,
    entry.changes,
  ];
  return createHash('sha256').update(prevHash).update('\n').update(JSON.stringify(fields)).digest('hex');
}

/**
 * Walks entries in order (oldest first) from `prevHash`: the first whose `prev_hash` or `hash` does not match, or
 * whose number does not follow the one before, is broken. Answers the new tail to continue with, or the break.
 */
export function checkChain(
  start: { prevHash: string; seq: number },
  entries: (ChainedFields & { prevHash: string; hash: string })[],
): { prevHash: string; seq: number; brokenSeq: number | null } {
  let { prevHash, seq } = start;
  for (const entry of entries) {
    if (entry.seq !== seq + 1 || entry.prevHash !== prevHash || entryHash(prevHash, entry) !== entry.hash)
      return { prevHash, seq, brokenSeq: entry.seq !== seq + 1 ? seq + 1 : entry.seq };
    prevHash = entry.hash;
    seq = entry.seq;
  }
  return { prevHash, seq, brokenSeq: null };
}
