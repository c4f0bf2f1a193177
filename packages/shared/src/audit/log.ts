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
  'invitation.sent': 'Invitation sent',
  'invitation.revoked': 'Invitation revoked',
  'sso.configured': 'Single sign-on configured',
  'sso.removed': 'Single sign-on removed',
  'sso.domain-added': 'Domain added',
  'sso.domain-verified': 'Domain verified',
  'sso.domain-removed': 'Domain removed',
  'scim.token-created': 'SCIM token created',
  'scim.token-revoked': 'SCIM token revoked',
  'scim.user-provisioned': 'Person provisioned',
  'scim.user-changed': 'Provisioned person changed',
  'scim.user-deactivated': 'Person deactivated',
  'scim.user-reactivated': 'Person reactivated',
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
  'health-check.deleted': 'Health check deleted',
  'loop.launched': 'Loop launched',
  'loop.changed': 'Loop settings changed',
  'loop.status-changed': 'Loop paused, resumed or stopped',
  'loop.deleted': 'Loop deleted',
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
  intro:
    'Who changed what, and when: settings, roles, members, invitations, sign-in and provisioning, tokens, webhooks, launches, exports and deletions. Answers and ratings are never recorded here.',
  empty: 'No entries match.',
  emptyAll: 'Nothing has been recorded yet.',
  filters: 'Filters',
  actor: 'Actor',
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
  retention: 'Keep entries for',
  retentionDays: 'Days',
  retentionHelp: `Older entries are deleted once a day (${AUDIT_RETENTION.minDays} to ${AUDIT_RETENTION.maxDays} days). The chain stays verifiable.`,
  retentionInvalid: `Enter a number of days from ${AUDIT_RETENTION.minDays} to ${AUDIT_RETENTION.maxDays}`,
  save: 'Save',
  saved: 'Saved',
  dateInvalid: 'Enter a date as YYYY-MM-DD',
  system: 'Pulsecheck',
  scimToken: 'SCIM token',
  apiToken: (name: string) => `API token “${name}”`,
} as const;

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, AUDIT_MESSAGES.dateInvalid)
  .refine((value) => !Number.isNaN(Date.parse(value)), AUDIT_MESSAGES.dateInvalid);

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

export const auditExportQuerySchema = auditFilterSchema.extend({ format: z.enum(['csv', 'jsonl']) });

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
