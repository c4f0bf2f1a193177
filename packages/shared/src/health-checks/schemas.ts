import { z } from 'zod';
import { wholeNumber } from '../api/fields';
import { mailStateSchema } from '../mail/contract';
import { PHASES, type ProtectiveSetting } from './rules';

/** The spec's wording (sections 5, 8 and 9) and PRODUCT-DECISIONS 1, written once. */
export const HEALTH_CHECK_MESSAGES = {
  titleRequired: 'Title is required',
  noEnabledComponents: 'No enabled components found in the template',
  minResponsesRange: 'Minimum responses must be a number from 1 to 50',
  votesPerPersonRange: 'Votes per person must be a number from 1 to 10',
  selectWorkspace: 'Please select a workspace before launching the health check',
  selectWorkspaceFirst: 'Please select a workspace first',
  selectWorkspaceConfigure: 'Please select a workspace before configuring a health check',
  membershipRequired: 'You must be a workspace member to create a health check',
  /** Launch: the launcher's membership of the workspace could not be verified (spec section 5). */
  membershipNotVerified: 'Failed to verify workspace membership',
  launchFailed: 'Failed to create health check. Please try again.',
  loadingTemplate: 'Loading health check template...',
  loadFailed: 'Failed to load health check',
  changePhaseFailed: 'Failed to change phase',
  completeFailed: 'Failed to complete health check',
  movedToVote: 'Successfully moved to vote phase',
  completed: 'Health check completed',
  linkCopied: 'Link copied to clipboard',
  allCompleted: 'All participants have completed',
  confirmTitle: 'Confirm Action',
  confirmText: 'Are you sure you want to proceed? This action cannot be undone.',
  settingsSaved: 'Settings saved',
  settingsLocked: 'Settings can only be changed during the collection phase',
  settingsOnlyStricter:
    'People have joined this health check, so the settings that protect them can only get stricter',
  minResponsesOnlyRises: (n: number) =>
    `Minimum responses can only rise now that people have joined (it is ${n})`,
  anonymityStaysOn: 'Anonymous responses cannot be turned off once people have joined',
  commentsStayOff: 'Comments cannot be turned back on once people have joined',
  notAllowed: 'Only workspace admins and the creator of this health check can manage it',
  invitationSubject: 'Health Check Invitation',
  /** Launch with team e-mails while the server sends no e-mail (MAIL_DISABLED=true). */
  teamNotEmailed:
    'The join link was not e-mailed to the team: e-mail is switched off on this server. Share the link yourself.',
  teamMailOff:
    'E-mail is switched off on this server: nobody listed here is e-mailed. Share the join link yourself after launch.',
  minResponsesForVoting: (n: number) => `At least ${n} completed responses are needed before voting`,
  wrongTransition: (from: string, to: string) => `A health check in the ${from} phase cannot move to ${to}`,
} as const;

export const DEFAULT_TITLE = 'New Health Check';
export const DEFAULT_DESCRIPTION = "A collaborative assessment of our organization's health";

export const settingsSchema = z.strictObject({
  minResponses: wholeNumber(1, 50, HEALTH_CHECK_MESSAGES.minResponsesRange),
  allowAnonymous: z.boolean(),
  enableComments: z.boolean(),
  votesPerPerson: wholeNumber(1, 10, HEALTH_CHECK_MESSAGES.votesPerPersonRange),
  showResultsAfterVoting: z.boolean(),
});
export type HealthCheckSettings = z.infer<typeof settingsSchema>;

/** Field messages for the protective settings a change would loosen (see loosenedSettings). */
export function loosenedMessages(before: HealthCheckSettings, fields: ProtectiveSetting[]) {
  const message: Record<ProtectiveSetting, string> = {
    minResponses: HEALTH_CHECK_MESSAGES.minResponsesOnlyRises(before.minResponses),
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
