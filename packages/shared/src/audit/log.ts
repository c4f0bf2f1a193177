import { z } from 'zod';

/**
 * The organisation's audit log (issue 37 item 3, decision 0026): what is recorded, the words of the 'Audit log'
 * screen and its exports, the list's filters and the answers, written once for the server and the screen.
 *
 * An entry says who (a person, an API token, the SCIM token, or Pulsecheck itself), when, from which address, what
 * and to what — never an answer, a rating, a comment or anything that tells who answered what.
 */

/** Every kind of entry, with how the screen and the exports name it. */
export const AUDIT_ACTIONS = {
  'organization.settings-changed': 'Organisation settings changed',
  'organization.admin-appointed': 'Organisation admin appointed',
  'organization.admin-removed': 'Organisation admin removed',
  'organization.handed-over': 'Organisation handed over',
  'workspace.created': 'Workspace created',
  'workspace.renamed': 'Workspace renamed',
  'member.access-changed': 'Member access changed',
  'member.removed': 'Member removed',
  'account.deleted': 'Account deleted',
  'invitation.sent': 'Invitation sent',
  'invitation.revoked': 'Invitation revoked',
  'sso.configured': 'Single sign-on configured',
  'sso.domain-verified': 'Domain verified',
  'scim.token-created': 'SCIM token created or rotated',
  'scim.user-provisioned': 'Person provisioned',
  'scim.user-changed': 'Provisioned person changed',
  'scim.user-deactivated': 'Person deactivated',
  'scim.user-reactivated': 'Person reactivated',
  'scim.user-removed': 'Person removed by provisioning',
  'scim.group-changed': 'Workspace members provisioned',
  'api-token.created': 'API token created',
  'api-token.revoked': 'API token revoked',
  'webhook.created': 'Webhook created',
  'webhook.changed': 'Webhook changed',
  'webhook.deleted': 'Webhook deleted',
  'tracker.connected': 'Tracker connected',
  'tracker.changed': 'Tracker settings changed',
  'tracker.disconnected': 'Tracker disconnected',
  'health-check.launched': 'Health check launched',
  'health-check.phase-changed': 'Health check phase changed',
  'health-check.settings-changed': 'Health check settings changed',
  'loop.launched': 'Loop launched',
  'loop.changed': 'Loop settings changed',
  'loop.status-changed': 'Loop paused, resumed or stopped',
  'template.deleted': 'Template deleted',
  'results.exported': 'Results exported',
  'audit-log.exported': 'Audit log exported',
  'audit-log.retention-changed': 'Audit log retention changed',
  'admin.signed-in': 'Admin signed in',
  'admin.sign-in-failed': 'Admin sign-in failed',
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

export const AUDIT_MESSAGES = {
  title: 'Audit log',
  notForYou: "The audit log is for the organisation's owner and organisation admins.",
  loadFailed: 'The audit log could not be loaded',
  verifyFailed: 'The chain could not be verified.',
  saveFailed: 'The retention could not be saved.',
  intro:
    'Who changed what, and when: settings, roles, members, invitations, sign-in and provisioning, tokens, webhooks, launches, exports and deletions. Answers and ratings are never recorded here.',
  empty: 'No entries match.',
  emptyAll: 'Nothing has been recorded yet.',
  filters: 'Filters',
  actor: 'Actor',
  actorHint: 'An e-mail address or an API token’s name, exactly',
  targetHint: 'A name as the list shows it, exactly',
  entries: 'Audit log entries',
  action: 'Action',
  target: 'Target',
  from: 'From',
  to: 'To',
  anyAction: 'Any action',
  apply: 'Apply filters',
  clear: 'Clear filters',
  time: 'Time',
  address: 'IP address',
  changes: 'What changed',
  loadMore: 'Show older entries',
  exportCsv: 'Export CSV',
  exportJsonl: 'Export JSON Lines',
  verify: 'Verify',
  verifying: 'Verifying…',
  verified: (count: number) =>
    `The chain is intact: ${count} ${count === 1 ? 'entry' : 'entries'} checked, none altered.`,
  broken: (seq: number) =>
    `Entry ${seq} does not match the chain: it, or the entry before it, was altered or removed.`,
  retentionTitle: 'Retention',
  retention: 'Keep entries for',
  retentionDays: 'Days',
  retentionHelp: `Older entries are deleted once a day (${AUDIT_RETENTION.minDays} to ${AUDIT_RETENTION.maxDays} days). The chain stays verifiable.`,
  retentionOwnerOnly:
    "Only the organisation's owner can shorten how long entries are kept: it deletes what is older.",
  retentionInvalid: `Enter a number of days from ${AUDIT_RETENTION.minDays} to ${AUDIT_RETENTION.maxDays}`,
  save: 'Save',
  saved: 'Saved',
  dateInvalid: 'Enter a date as YYYY-MM-DD',
  system: 'Pulsecheck',
  scimToken: 'SCIM token',
  apiToken: (name: string) => `API token “${name}”`,
  /** A value that was not set, in 'What changed'. */
  noValue: 'none',
  yes: 'yes',
  no: 'no',
} as const;

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

/** The export's columns, in order (CSV header; JSON Lines uses the entry's own keys). */
export const AUDIT_CSV_COLUMNS = [
  ['seq', 'Entry'],
  ['at', 'Time (UTC)'],
  ['actorKind', 'Actor kind'],
  ['actorLabel', 'Actor'],
  ['ip', 'IP address'],
  ['action', 'Action'],
  ['targetType', 'Target kind'],
  ['targetLabel', 'Target'],
  ['changes', 'What changed'],
  ['hash', 'Hash'],
] as const;

/** Account Settings → 'Audit log' (the organisation's settings; owner and organisation admins). */
export const AUDIT_LOG_PATH = '/admin/account-settings/audit-log';

/** Who did it, as the screen names them: the person's e-mail, the API token by its name, the SCIM token, Pulsecheck. */
export function auditActorName(entry: Pick<AuditEntry, 'actorKind' | 'actorLabel'>): string {
  if (entry.actorKind === 'api-token') return AUDIT_MESSAGES.apiToken(entry.actorLabel);
  if (entry.actorKind === 'scim-token') return AUDIT_MESSAGES.scimToken;
  if (entry.actorKind === 'system') return AUDIT_MESSAGES.system;
  return entry.actorLabel;
}

/** 'retentionDays' → 'Retention days'. */
const fieldName = (key: string) => {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[-_]/g, ' ')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

function valueText(value: unknown): string {
  if (value === null || value === undefined || value === '') return AUDIT_MESSAGES.noValue;
  if (typeof value === 'boolean') return value ? AUDIT_MESSAGES.yes : AUDIT_MESSAGES.no;
  if (typeof value === 'string') return value in AUDIT_ACTIONS ? AUDIT_ACTIONS[value as AuditAction] : value;
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (Array.isArray(value))
    return value.length === 0 ? AUDIT_MESSAGES.noValue : value.map(valueText).join(', ');
  if (typeof value === 'object') {
    const parts = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return parts.length === 0
      ? AUDIT_MESSAGES.noValue
      : parts.map(([key, v]) => `${fieldName(key)} ${valueText(v)}`).join(', ');
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
 * a fact of the change. The exports keep the entry's own JSON.
 */
export function auditChangeLines(changes: AuditChanges | null): string[] {
  if (!changes) return [];
  return Object.entries(changes).map(([key, value]) =>
    isBeforeAfter(value)
      ? `${fieldName(key)}: ${valueText(value.before)} → ${valueText(value.after)}`
      : `${fieldName(key)}: ${valueText(value)}`,
  );
}
