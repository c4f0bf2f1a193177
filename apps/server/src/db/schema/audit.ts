import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './organizations';

/**
 * The organisation's audit log (issue 37 item 3, decision 0026). Entries are numbered per organisation (`seq`) and
 * chained: `hash` is the SHA-256 of the previous entry's hash and this entry's fields (audit/chain.ts), so changing,
 * removing or inserting a row breaks the chain from there on. `changes` is kept as the exact canonical JSON text
 * that was hashed. Entries go with their organisation when it is deleted.
 */
export const auditEntries = pgTable(
  'audit_entries',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    seq: bigint('seq', { mode: 'number' }).notNull(),
    at: timestamp('at', { withTimezone: true, precision: 3 }).notNull(),
    actorKind: text('actor_kind').notNull(),
    /** The user's id, or the API token's; null for the SCIM token and for Pulsecheck itself. */
    actorId: text('actor_id'),
    /** The person's e-mail address at the time, or the token's name. */
    actorLabel: text('actor_label').notNull(),
    ip: text('ip'),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id'),
    targetLabel: text('target_label'),
    changes: text('changes'),
    prevHash: text('prev_hash').notNull(),
    hash: text('hash').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.seq] }),
    // The filters: each one probe of an index in the list's order (newest first).
    index('audit_entries_action_idx').on(t.organizationId, t.action, t.seq),
    index('audit_entries_actor_idx').on(t.organizationId, sql`lower(${t.actorLabel})`, t.seq),
    index('audit_entries_target_idx').on(t.organizationId, sql`lower(${t.targetLabel})`, t.seq),
    // A date range becomes a range of numbers: times never go back within an organisation (audit/record.ts).
    index('audit_entries_at_idx').on(t.organizationId, t.at, t.seq),
  ],
);

/**
 * Each organisation's chain: its last entry (locked while an entry is added, so entries of one organisation are
 * added one at a time and in order), how long entries are kept, and where retention cut the chain: the hash of the
 * last entry deleted, which the oldest kept entry must carry as its `prev_hash`.
 */
export const auditChains = pgTable('audit_chains', {
  organizationId: uuid('organization_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  lastSeq: bigint('last_seq', { mode: 'number' }).notNull().default(0),
  lastHash: text('last_hash').notNull(),
  /** The last entry's time: the next one is never earlier, so entries are in time order as in number order. */
  lastAt: timestamp('last_at', { withTimezone: true, precision: 3 }),
  retentionDays: integer('retention_days').notNull().default(365),
  prunedSeq: bigint('pruned_seq', { mode: 'number' }).notNull().default(0),
  prunedHash: text('pruned_hash').notNull(),
});
