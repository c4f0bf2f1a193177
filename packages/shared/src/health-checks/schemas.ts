import { z } from 'zod';
import { wholeNumber } from '../api/fields';
import { messageWith } from '../i18n/message';
import { mailStateSchema } from '../mail/contract';
import { HEALTH_CHECK_MESSAGES } from './messages';
import { PHASES, type ProtectiveSetting } from './rules';

/** A new check's title and description, as Configure offers them: catalogue content, in the admin's language. */
export const DEFAULT_TITLE = 'catalogue.newCheck.title';
export const DEFAULT_DESCRIPTION = 'catalogue.newCheck.description';

export const settingsSchema = z.strictObject({
  minResponses: wholeNumber(1, 50, HEALTH_CHECK_MESSAGES.minResponsesRange),
  allowAnonymous: z.boolean(),
  enableComments: z.boolean(),
  votesPerPerson: wholeNumber(1, 10, HEALTH_CHECK_MESSAGES.votesPerPersonRange),
  showResultsAfterVoting: z.boolean(),
});
export type HealthCheckSettings = z.infer<typeof settingsSchema>;

/** Field messages (i18n/message.ts) for the protective settings a change would loosen (see loosenedSettings). */
export function loosenedMessages(before: HealthCheckSettings, fields: ProtectiveSetting[]) {
  const message: Record<ProtectiveSetting, string> = {
    minResponses: messageWith(HEALTH_CHECK_MESSAGES.minResponsesOnlyRises, { count: before.minResponses }),
    allowAnonymous: HEALTH_CHECK_MESSAGES.anonymityStaysOn,
    enableComments: HEALTH_CHECK_MESSAGES.commentsStayOff,
  };
  return Object.fromEntries(fields.map((field) => [field, message[field]]));
}

export const DEFAULT_SETTINGS: HealthCheckSettings = {
  minResponses: 3,
  allowAnonymous: true,
  enableComments: true,
  votesPerPerson: 5,
  showResultsAfterVoting: true,
};

export const launchSchema = z.strictObject({
  workspaceId: z.uuid(HEALTH_CHECK_MESSAGES.selectWorkspace),
  templateId: z.uuid('Unknown template'),
  title: z
    .string({ error: HEALTH_CHECK_MESSAGES.titleRequired })
    .trim()
    .min(1, HEALTH_CHECK_MESSAGES.titleRequired)
    .max(200, 'Title must be at most 200 characters'),
  description: z.string().trim().max(2000, 'Description must be at most 2000 characters').default(''),
  settings: settingsSchema,
  /** The template's components the admin left switched on. */
  enabledComponentIds: z.array(z.uuid()).max(500),
  /** Done action items the facilitator left out of the follow-up questions (decision 0019). */
  leaveOutActionItemIds: z.array(z.uuid()).max(1000).default([]),
  /** Addresses to send the join link to; checked and de-duplicated by the server. */
  teamEmails: z.array(z.string().max(320)).max(200).default([]),
  /** Made once per configure form, so a repeated click returns the first launch instead of a second check. */
  launchKey: z.string().trim().min(8).max(100),
});
export type LaunchInput = z.input<typeof launchSchema>;

export const launchResponseSchema = z.object({
  id: z.string(),
  joinUrl: z.string(),
  /** Team addresses that were not valid e-mail addresses and got nothing. */
  failedEmails: z.array(z.string()),
  /** 'off' when the server sends no e-mail (MAIL_DISABLED=true): the team was not e-mailed the join link. */
  mail: mailStateSchema,
});
export type LaunchResponse = z.infer<typeof launchResponseSchema>;

export const phaseSchema = z.enum(PHASES);

export const changePhaseSchema = z.strictObject({ to: phaseSchema });

export const healthCheckDetailSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  phase: z.string(),
  status: z.string(),
  settings: settingsSchema,
  createdAt: z.string(),
  phaseStartedAt: z.string(),
  completedAt: z.string().nullable(),
  workspace: z.object({ id: z.string(), name: z.string() }),
  participants: z.object({ total: z.number(), completed: z.number() }),
  completionRate: z.number(),
  allCompleted: z.boolean(),
  joinUrl: z.string(),
  /** Whether the user may change phases and settings (workspace admin or the creator). */
  canManage: z.boolean(),
});
export type HealthCheckDetail = z.infer<typeof healthCheckDetailSchema>;
export const healthCheckDetailResponseSchema = z.object({ healthCheck: healthCheckDetailSchema });

export const participantRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  status: z.enum(['pending', 'in_progress', 'completed']),
  progress: z.number(),
  lastActivity: z.string().nullable(),
  completedAt: z.string().nullable(),
});
export type ParticipantRow = z.infer<typeof participantRowSchema>;
export const participantsResponseSchema = z.object({ participants: z.array(participantRowSchema) });

export const settingsResponseSchema = z.object({ settings: settingsSchema });

/** The Share dialog's Slack: whether the caller's Slack card can post (PRODUCT-DECISIONS 9: the user's webhook). */
export const slackShareSchema = z.object({ connected: z.boolean(), channel: z.string() });
export type SlackShare = z.infer<typeof slackShareSchema>;

/** Loose e-mail check for the team list: the server's, the form's. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Trimmed, lower-cased, valid and unique addresses, plus the entries that were not addresses. */
export function cleanEmails(entries: string[]): { valid: string[]; invalid: string[] } {
  const valid = new Set<string>();
  const invalid: string[] = [];
  for (const entry of entries) {
    const email = entry.trim().toLowerCase();
    if (!email) continue;
    if (email.length <= 254 && EMAIL_PATTERN.test(email)) valid.add(email);
    else if (!invalid.includes(entry.trim())) invalid.push(entry.trim());
  }
  return { valid: [...valid], invalid };
}
