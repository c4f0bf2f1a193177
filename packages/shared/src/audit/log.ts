import { z } from 'zod';
import type { Translator } from '../i18n/translate';

/**
 * The organisation's audit log (issue 37 item 3, decision 0026): what is recorded, the words of the 'Audit log'
 * screen and its exports, the list's filters and the answers, written once for the server and the screen.
 *
 * An entry says who (a person, an API token, the SCIM token, or Pulsecheck itself), when, from which address, what
 * and to what — never an answer, a rating, a comment or anything that tells who answered what.
 */

/** Every kind of entry, with how the screen names it (a catalogue key: area `audit`, decision 0027). */
export const AUDIT_ACTIONS = {
  'organization.settings-changed': 'audit.action.organization.settings-changed',
  'organization.admin-appointed': 'audit.action.organization.admin-appointed',
  'organization.admin-removed': 'audit.action.organization.admin-removed',
  'organization.handed-over': 'audit.action.organization.handed-over',
  'workspace.created': 'audit.action.workspace.created',
  'workspace.renamed': 'audit.action.workspace.renamed',
  'member.access-changed': 'audit.action.member.access-changed',
  'member.removed': 'audit.action.member.removed',
  'account.deleted': 'audit.action.account.deleted',
  'invitation.sent': 'audit.action.invitation.sent',
  'invitation.revoked': 'audit.action.invitation.revoked',
  'sso.configured': 'audit.action.sso.configured',
  'sso.domain-verified': 'audit.action.sso.domain-verified',
  'scim.token-created': 'audit.action.scim.token-created',
  'scim.user-provisioned': 'audit.action.scim.user-provisioned',
  'scim.user-changed': 'audit.action.scim.user-changed',
  'scim.user-deactivated': 'audit.action.scim.user-deactivated',
  'scim.user-reactivated': 'audit.action.scim.user-reactivated',
  'scim.user-removed': 'audit.action.scim.user-removed',
  'scim.group-changed': 'audit.action.scim.group-changed',
  'api-token.created': 'audit.action.api-token.created',
  'api-token.revoked': 'audit.action.api-token.revoked',
  'webhook.created': 'audit.action.webhook.created',
  'webhook.changed': 'audit.action.webhook.changed',
  'webhook.deleted': 'audit.action.webhook.deleted',
  'tracker.connected': 'audit.action.tracker.connected',
  'tracker.changed': 'audit.action.tracker.changed',
  'tracker.disconnected': 'audit.action.tracker.disconnected',
  'health-check.launched': 'audit.action.health-check.launched',
  'health-check.phase-changed': 'audit.action.health-check.phase-changed',
  'health-check.settings-changed': 'audit.action.health-check.settings-changed',
  'loop.launched': 'audit.action.loop.launched',
  'loop.changed': 'audit.action.loop.changed',
  'loop.status-changed': 'audit.action.loop.status-changed',
  'template.deleted': 'audit.action.template.deleted',
  'results.exported': 'audit.action.results.exported',
  'audit-log.exported': 'audit.action.audit-log.exported',
  'audit-log.retention-changed': 'audit.action.audit-log.retention-changed',
  'admin.signed-in': 'audit.action.admin.signed-in',
  'admin.sign-in-failed': 'audit.action.admin.sign-in-failed',
} as const;
export type AuditAction = keyof typeof AUDIT_ACTIONS;
export const AUDIT_ACTION_KEYS = Object.keys(AUDIT_ACTIONS) as [AuditAction, ...AuditAction[]];

/** Who did it. */
export const AUDIT_ACTOR_KINDS = ['user', 'api-token', 'scim-token', 'system'] as const;
export type AuditActorKind = (typeof AUDIT_ACTOR_KINDS)[number];

/** What changed: for settings, each changed field's value before and after; otherwise facts of the change. */
export type AuditChanges = Record<string, unknown>;

export const AUDIT_RETENTION = { defaultDays: 365, minDays: 30, maxDays: 3650 } as const;
/** A page of the list; the screen asks for the next one with `before` (the last entry's number). */
export const AUDIT_PAGE_SIZE = 50;

/**
 * The screen's words, catalogue keys. With placeholders: `verified` ({count}), `broken` ({seq}), `retentionHelp`
 * ({min}, {max}: AUDIT_RETENTION), `apiToken` ({name}); `retentionInvalid` says AUDIT_RETENTION in its words (a zod
 * message carries no values).
 */
export const AUDIT_MESSAGES = {
  title: 'audit.title',
  notForYou: 'audit.notForYou',
  loadFailed: 'audit.loadFailed',
  verifyFailed: 'audit.verifyFailed',
  saveFailed: 'audit.saveFailed',
  intro: 'audit.intro',
  empty: 'audit.empty',
  emptyAll: 'audit.emptyAll',
  filters: 'audit.filters',
  actor: 'audit.actor',
  actorHint: 'audit.actorHint',
  targetHint: 'audit.targetHint',
  entries: 'audit.entries',
  action: 'audit.action',
  target: 'audit.target',
  from: 'audit.from',
  to: 'audit.to',
  anyAction: 'audit.anyAction',
  apply: 'audit.apply',
  clear: 'audit.clear',
  time: 'audit.time',
  address: 'audit.address',
  changes: 'audit.changes',
  loadMore: 'audit.loadMore',
  exportCsv: 'audit.exportCsv',
  exportJsonl: 'audit.exportJsonl',
  verify: 'audit.verify',
  verifying: 'audit.verifying',
  verified: 'audit.verified',
  broken: 'audit.broken',
  retentionTitle: 'audit.retentionTitle',
  retention: 'audit.retention',
  retentionDays: 'audit.retentionDays',
  retentionHelp: 'audit.retentionHelp',
  retentionOwnerOnly: 'audit.retentionOwnerOnly',
  retentionInvalid: 'audit.retentionInvalid',
  save: 'audit.save',
  saved: 'audit.saved',
  dateInvalid: 'audit.dateInvalid',
  system: 'audit.system',
  /** How the screen names the SCIM token as an actor. */
  scimToken: 'audit.scimToken',
  apiToken: 'audit.apiToken',
  /** A value that was not set, in 'What changed'. */
  noValue: 'audit.noValue',
  yes: 'audit.yes',
  no: 'audit.no',
} as const;

/**
 * The actor label an entry of the SCIM token stores: data of the hashed entry, the same in every language (the
 * screen names the actor with `auditActorName`).
 */
export const SCIM_TOKEN_ACTOR_LABEL = 'SCIM token';

/**
 * A calendar day that exists: `Date.parse` takes 2026-02-31 (as 3 March), which the database refuses, so the day
 * must read back as written; year 0 is not one the database knows either.
 */
const isRealDay = (value: string) => {
  const time = Date.parse(`${value}T00:00:00Z`);
  return (
    !Number.isNaN(time) && !value.startsWith('0000') && new Date(time).toISOString().slice(0, 10) === value
  );
};

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, AUDIT_MESSAGES.dateInvalid)
  .refine(isRealDay, AUDIT_MESSAGES.dateInvalid);

/** The list's filters (all optional); `from`/`to` are whole days, UTC, both included. */
export const auditFilterSchema = z.object({
  actor: z.string().trim().max(320).optional(),
  action: z.enum(AUDIT_ACTION_KEYS).optional(),
  target: z.string().trim().max(200).optional(),
  from: day.optional(),
  to: day.optional(),
});
export type AuditFilter = z.infer<typeof auditFilterSchema>;

export const auditListQuerySchema = auditFilterSchema.extend({
  before: z.coerce.number().int().positive().optional(),
});

export const auditExportQuerySchema = auditFilterSchema.extend({
  format: z.enum(['csv', 'jsonl']).default('csv'),
});

export const auditEntrySchema = z.object({
  seq: z.number().int(),
  at: z.string(),
  actorKind: z.enum(AUDIT_ACTOR_KINDS),
  actorId: z.string().nullable(),
  actorLabel: z.string(),
  ip: z.string().nullable(),
  action: z.enum(AUDIT_ACTION_KEYS),
  targetType: z.string(),
  targetId: z.string().nullable(),
  targetLabel: z.string().nullable(),
  changes: z.record(z.string(), z.unknown()).nullable(),
  hash: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const auditListSchema = z.object({
  entries: z.array(auditEntrySchema),
  /** `before` for the next page, or null at the oldest entry. */
  next: z.number().int().nullable(),
  retentionDays: z.number().int(),
});
export type AuditList = z.infer<typeof auditListSchema>;

export const auditVerifySchema = z.object({
  ok: z.boolean(),
  checked: z.number().int(),
  /** The first entry that does not match the chain, when one does not. */
  brokenSeq: z.number().int().nullable(),
});
export type AuditVerify = z.infer<typeof auditVerifySchema>;

export const auditRetentionSchema = z.strictObject({
  retentionDays: z.coerce
    .number({ error: AUDIT_MESSAGES.retentionInvalid })
    .int(AUDIT_MESSAGES.retentionInvalid)
    .min(AUDIT_RETENTION.minDays, AUDIT_MESSAGES.retentionInvalid)
    .max(AUDIT_RETENTION.maxDays, AUDIT_MESSAGES.retentionInvalid),
});

/**
 * The export's columns, in order, with their CSV header (catalogue keys: the header is in the language of whoever
 * downloads it; JSON Lines uses the entry's own keys).
 */
export const AUDIT_CSV_COLUMNS = [
  ['seq', 'audit.column.entry'],
  ['at', 'audit.column.time'],
  ['actorKind', 'audit.column.actorKind'],
  ['actorLabel', AUDIT_MESSAGES.actor],
  ['ip', AUDIT_MESSAGES.address],
  ['action', AUDIT_MESSAGES.action],
  ['targetType', 'audit.column.targetKind'],
  ['targetLabel', AUDIT_MESSAGES.target],
  ['changes', AUDIT_MESSAGES.changes],
  ['hash', 'audit.column.hash'],
] as const;

/** Account Settings → 'Audit log' (the organisation's settings; owner and organisation admins). */
export const AUDIT_LOG_PATH = '/admin/account-settings/audit-log';

/** What says the audit log's words: a language's translator (the web's `formats()`, the server's `translatorFor`). */
export type AuditWords = Pick<Translator, 't' | 'has'>;

/** Who did it, as the screen names them: the person's e-mail, the API token by its name, the SCIM token, Pulsecheck. */
export function auditActorName(
  entry: Pick<AuditEntry, 'actorKind' | 'actorLabel'>,
  words: AuditWords,
): string {
  if (entry.actorKind === 'api-token') return words.t(AUDIT_MESSAGES.apiToken, { name: entry.actorLabel });
  if (entry.actorKind === 'scim-token') return words.t(AUDIT_MESSAGES.scimToken);
  if (entry.actorKind === 'system') return words.t(AUDIT_MESSAGES.system);
  return entry.actorLabel;
}

/** 'retentionDays' → 'Retention days': a field no catalogue names (the catalogue's `audit.field.*` name the known ones). */
const derivedName = (key: string) => {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[-_]/g, ' ')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

const fieldName = (key: string, words: AuditWords) => {
  const named = `audit.field.${key}`;
  return words.has(named) ? words.t(named) : derivedName(key);
};

function valueText(value: unknown, words: AuditWords): string {
  if (value === null || value === undefined || value === '') return words.t(AUDIT_MESSAGES.noValue);
  if (typeof value === 'boolean') return words.t(value ? AUDIT_MESSAGES.yes : AUDIT_MESSAGES.no);
  if (typeof value === 'string')
    return value in AUDIT_ACTIONS ? words.t(AUDIT_ACTIONS[value as AuditAction]) : value;
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (Array.isArray(value))
    return value.length === 0
      ? words.t(AUDIT_MESSAGES.noValue)
      : value.map((item) => valueText(item, words)).join(', ');
  if (typeof value === 'object') {
    const parts = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return parts.length === 0
      ? words.t(AUDIT_MESSAGES.noValue)
      : parts
          .map(([key, v]) =>
            words.t('audit.nestedValue', { field: fieldName(key, words), value: valueText(v, words) }),
          )
          .join(', ');
  }
  return JSON.stringify(value);
}

const isBeforeAfter = (value: unknown): value is { before: unknown; after: unknown } =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  Object.keys(value).length === 2 &&
  'before' in value &&
  'after' in value;

/**
 * 'What changed' in words, one line per field: `Name: Old → New` for a setting (before → after), `Format: csv` for
 * a fact of the change, in the language of `words`: the fields' names and yes, no, none and the actions are
 * translated, recorded values (names, addresses, settings' values) are shown as recorded. The exports keep the
 * entry's own JSON.
 */
export function auditChangeLines(changes: AuditChanges | null, words: AuditWords): string[] {
  if (!changes) return [];
  return Object.entries(changes).map(([key, value]) =>
    isBeforeAfter(value)
      ? words.t('audit.changeLine', {
          field: fieldName(key, words),
          before: valueText(value.before, words),
          after: valueText(value.after, words),
        })
      : words.t('audit.factLine', { field: fieldName(key, words), value: valueText(value, words) }),
  );
}
