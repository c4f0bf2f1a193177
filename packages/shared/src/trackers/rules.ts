import { z } from 'zod';
import { emailAddress, requiredText } from '../api/fields';
import type { Translator } from '../i18n/translate';

/**
 * Action items synced with the tracker a team works in (issue 36, decision 0023): the trackers there are, the words
 * of the Integrations screen and the action item, and the sync rules — what maps to what, which side wins, the
 * idempotency keys — written once for the server and the screens.
 */

/**
 * The trackers the product offers. Only finished ones are listed: a tracker appears on a screen only when connect,
 * create, link, both directions and failures all work for it.
 */
export const TRACKER_KINDS = ['github', 'gitlab', 'linear', 'jira'] as const;
export type TrackerKind = (typeof TRACKER_KINDS)[number];

export const TRACKER_LABELS: Record<TrackerKind, string> = {
  github: 'GitHub',
  gitlab: 'GitLab',
  linear: 'Linear',
  jira: 'Jira',
};

/** github.com's API; a GitHub Enterprise Server's is `<base URL>/api/v3`. */
export const GITHUB_COM_API = 'https://api.github.com';
/** gitlab.com's API; a GitLab Self-Managed instance's is `<base URL>/api/v4`. */
export const GITLAB_COM_API = 'https://gitlab.com/api/v4';
/** Linear's GraphQL API: Linear is a cloud service only (a base URL is for tests on the loopback). */
export const LINEAR_API = 'https://api.linear.app/graphql';

/**
 * The words that differ by tracker, one record per kind (decision 0007: one home each): what its token is, where it
 * lives, what it calls a repository. `secretFromTracker`: the tracker makes the webhook's signing secret itself
 * (Linear shows it once the webhook is added), so it is pasted into Pulsecheck instead of Pulsecheck making one.
 * The words are catalogue keys (packages/shared/messages/<language>/trackers.json); the example addresses
 * (`baseUrlPlaceholder`) are addresses, the same in every language.
 */
export type TrackerWords = {
  tokenHelp: string;
  /** The server address field: its label, hint, example and what is said when it is not one. */
  baseUrlLabel: string;
  baseUrlHelp: string;
  baseUrlPlaceholder: string;
  baseUrlInvalid: string;
  /** The account e-mail field, for trackers that take one (null: no such field): its hint, and when it is missing. */
  email: { help: string; required: string } | null;
  refusedToken: string;
  unreachable: string;
  webhookHelp: string;
  /** What the tracker calls the place an issue lives in. */
  repository: string;
  repositoryRequired: string;
  noRepositories: string;
  /** The label of the field a pasted issue goes in. */
  issueUrl: string;
  issueUrlPlaceholder: string;
  secretFromTracker: boolean;
};

export const TRACKER_WORDS: Record<TrackerKind, TrackerWords> = {
  github: {
    tokenHelp: 'trackers.github.tokenHelp',
    baseUrlLabel: 'trackers.baseUrlOptional',
    baseUrlHelp: 'trackers.github.baseUrlHelp',
    baseUrlPlaceholder: 'https://github.example.com',
    baseUrlInvalid: 'trackers.github.baseUrlInvalid',
    email: null,
    refusedToken: 'trackers.github.refusedToken',
    unreachable: 'trackers.github.unreachable',
    webhookHelp: 'trackers.github.webhookHelp',
    repository: 'trackers.github.repository',
    repositoryRequired: 'trackers.github.repositoryRequired',
    noRepositories: 'trackers.github.noRepositories',
    issueUrl: 'trackers.issueUrl',
    issueUrlPlaceholder: 'trackers.github.issueUrlPlaceholder',
    secretFromTracker: false,
  },
  gitlab: {
    tokenHelp: 'trackers.gitlab.tokenHelp',
    baseUrlLabel: 'trackers.baseUrlOptional',
    baseUrlHelp: 'trackers.gitlab.baseUrlHelp',
    baseUrlPlaceholder: 'https://gitlab.example.com',
    baseUrlInvalid: 'trackers.gitlab.baseUrlInvalid',
    email: null,
    refusedToken: 'trackers.gitlab.refusedToken',
    unreachable: 'trackers.gitlab.unreachable',
    webhookHelp: 'trackers.gitlab.webhookHelp',
    repository: 'trackers.project',
    repositoryRequired: 'trackers.projectRequired',
    noRepositories: 'trackers.gitlab.noRepositories',
    issueUrl: 'trackers.issueUrl',
    issueUrlPlaceholder: 'trackers.gitlab.issueUrlPlaceholder',
    secretFromTracker: false,
  },
  linear: {
    tokenHelp: 'trackers.linear.tokenHelp',
    baseUrlLabel: 'trackers.baseUrlOptional',
    baseUrlHelp: 'trackers.linear.baseUrlHelp',
    baseUrlPlaceholder: '',
    baseUrlInvalid: 'trackers.linear.baseUrlInvalid',
    email: null,
    refusedToken: 'trackers.linear.refusedToken',
    unreachable: 'trackers.linear.unreachable',
    webhookHelp: 'trackers.linear.webhookHelp',
    repository: 'trackers.linear.repository',
    repositoryRequired: 'trackers.linear.repositoryRequired',
    noRepositories: 'trackers.linear.noRepositories',
    issueUrl: 'trackers.issueUrl',
    issueUrlPlaceholder: 'trackers.linear.issueUrlPlaceholder',
    secretFromTracker: true,
  },
  jira: {
    tokenHelp: 'trackers.jira.tokenHelp',
    baseUrlLabel: 'trackers.jira.baseUrlLabel',
    baseUrlHelp: 'trackers.jira.baseUrlHelp',
    baseUrlPlaceholder: 'https://your-site.atlassian.net',
    baseUrlInvalid: 'trackers.jira.baseUrlInvalid',
    email: { help: 'trackers.jira.emailHelp', required: 'trackers.jira.emailRequired' },
    refusedToken: 'trackers.jira.refusedToken',
    unreachable: 'trackers.jira.unreachable',
    webhookHelp: 'trackers.jira.webhookHelp',
    repository: 'trackers.project',
    repositoryRequired: 'trackers.projectRequired',
    noRepositories: 'trackers.jira.noRepositories',
    issueUrl: 'trackers.jira.issueUrl',
    issueUrlPlaceholder: 'trackers.jira.issueUrlPlaceholder',
    // Pulsecheck makes the secret and Jira's webhook form takes it (X-Hub-Signature).
    secretFromTracker: false,
  },
};

/** An issue's key as its tracker writes it: 'owner/repo#12' on GitHub and GitLab, 'ENG-12' on Linear, 'PROJ-12' on Jira. */
export const issueKey = (kind: TrackerKind, repository: string, number: number) =>
  kind === 'linear' || kind === 'jira' ? `${repository}-${number}` : `${repository}#${number}`;

/** Catalogue keys (packages/shared/messages/<language>/trackers.json). */
export const TRACKER_MESSAGES = {
  title: 'trackers.title',
  intro: 'trackers.intro',
  tokenRequired: 'trackers.tokenRequired',
  tokenTooLong: 'trackers.tokenTooLong',
  baseUrlPrivate: 'trackers.baseUrlPrivate',
  /** `{ account, target }`: who the token acts as, and where. */
  connected: 'trackers.connected',
  disconnected: 'trackers.disconnected',
  saved: 'trackers.saved',
  closeMarksDone: 'trackers.closeMarksDone',
  webhookTitle: 'trackers.webhookTitle',
  webhookSecretOnce: 'trackers.webhookSecretOnce',
  signingSecret: 'trackers.signingSecret',
  signingSecretSave: 'trackers.signingSecretSave',
  signingSecretSaved: 'trackers.signingSecretSaved',
  signingSecretMissing: 'trackers.signingSecretMissing',
  signingSecretRequired: 'trackers.signingSecretRequired',
  signingSecretTooLong: 'trackers.signingSecretTooLong',
  signingSecretOurs: 'trackers.signingSecretOurs',
  notConnected: 'trackers.notConnected',
  /** `{ label }`: the tracker's name. */
  createIssue: 'trackers.createIssue',
  linkIssue: 'trackers.linkIssue',
  unlink: 'trackers.unlink',
  /** An API client that names no place for the issue (the screens ask in the tracker's words, TRACKER_WORDS). */
  placeRequired: 'trackers.placeRequired',
  assignOwner: 'trackers.assignOwner',
  /** `{ label, origin }`: the tracker's name and the address its issues are at. */
  issueUrlInvalid: 'trackers.issueUrlInvalid',
  issueUrlRequired: 'trackers.issueUrlRequired',
  issueNotFound: 'trackers.issueNotFound',
  alreadyLinked: 'trackers.alreadyLinked',
  issueTaken: 'trackers.issueTaken',
  creating: 'trackers.creating',
  notConnectedHere: 'trackers.notConnectedHere',
  connectionNotFound: 'trackers.connectionNotFound',
  emailLabel: 'trackers.emailLabel',
  emailInvalid: 'trackers.emailInvalid',
  /** An issue's body, written in the organisation's language (issueBody): `{ component }`, `{ date }`, `{ check, url }`. */
  issueComponent: 'trackers.issue.component',
  issueDue: 'trackers.issue.due',
  issueFrom: 'trackers.issue.from',
} as const;

/**
 * What went wrong with a tracker, and what to do: shown on the action item and on the Integrations screen (catalogue
 * keys: the answers carry the key, the screens say it).
 */
export const TRACKER_PROBLEMS = {
  credentials: 'trackers.problem.credentials',
  permission: 'trackers.problem.permission',
  missing: 'trackers.problem.missing',
  unreachable: 'trackers.problem.unreachable',
  invalid: 'trackers.problem.invalid',
} as const;
export type TrackerProblem = keyof typeof TRACKER_PROBLEMS;

const baseUrl = z.string().trim().max(500);

/** Connecting (or replacing) the workspace's tracker; the token is tested before it is kept. */
export const trackerConnectSchema = z.strictObject({
  kind: z.enum(TRACKER_KINDS),
  /** '' for the vendor's cloud (github.com, gitlab.com, linear.app); a self-hosted server's https:// address; the Jira site or server (required). */
  baseUrl: baseUrl.default(''),
  // One line: a token never holds a line break (and Jira's is kept with its e-mail, a line apart).
  token: requiredText(TRACKER_MESSAGES.tokenRequired, 500, TRACKER_MESSAGES.tokenTooLong).regex(
    /^[^\r\n]*$/,
    TRACKER_MESSAGES.tokenRequired,
  ),
  /** Jira Cloud's basic auth: the account's e-mail with its API token (sealed with it); absent for a bearer token. */
  email: emailAddress({
    required: TRACKER_MESSAGES.emailInvalid,
    invalid: TRACKER_MESSAGES.emailInvalid,
  }).optional(),
  closeMarksDone: z.boolean().default(true),
});
export type TrackerConnectInput = z.input<typeof trackerConnectSchema>;

/** Whether closing marks done; and, for a tracker that makes its own signing secret (Linear), that secret. */
export const trackerSettingsSchema = z.strictObject({
  closeMarksDone: z.boolean().optional(),
  webhookSecret: requiredText(
    TRACKER_MESSAGES.signingSecretRequired,
    200,
    TRACKER_MESSAGES.signingSecretTooLong,
  ).optional(),
});

export const trackerConnectionSchema = z.object({
  id: z.string(),
  kind: z.enum(TRACKER_KINDS),
  label: z.string(),
  /** Who the token acts as, and where ('github.com', or the server's host). */
  account: z.string(),
  target: z.string(),
  closeMarksDone: z.boolean(),
  /** Where the tracker's webhooks go. */
  webhookUrl: z.string(),
  /** False while a tracker that makes its own signing secret (Linear) has none saved: its webhooks are refused. */
  webhookSecretSaved: z.boolean(),
  /** The last failure and what to do, or null while it works. */
  problem: z.string().nullable(),
  problemAt: z.string().nullable(),
  lastPolledAt: z.string().nullable(),
  createdAt: z.string(),
});
export type TrackerConnection = z.infer<typeof trackerConnectionSchema>;

export const trackerConnectionResponseSchema = z.object({ connection: trackerConnectionSchema.nullable() });
/** The answer to connecting: the webhook secret is in it this once. */
export const trackerConnectedSchema = z.object({
  connection: trackerConnectionSchema,
  /** Null when a new token replaced the old one of the same tracker: the webhooks keep their secret. */
  webhookSecret: z.string().nullable(),
  message: z.string(),
});

/** Which tracker a check's action items can go to (none: the action items show no tracker controls). */
export const checkTrackerSchema = z.object({
  tracker: z.object({ kind: z.enum(TRACKER_KINDS), label: z.string() }).nullable(),
});

export const trackerRepositoriesSchema = z.object({
  kind: z.enum(TRACKER_KINDS),
  label: z.string(),
  repositories: z.array(z.object({ id: z.string(), name: z.string() })),
});

/** The issue an action item is linked to, as the action item shows it. */
export const ISSUE_STATES = ['creating', 'open', 'closed'] as const;
export const trackerIssueSchema = z.object({
  kind: z.enum(TRACKER_KINDS),
  label: z.string(),
  /** 'owner/repo#12', 'ENG-12', 'PROJ-12' (issueKey); null while it is being created. */
  key: z.string().nullable(),
  url: z.string().nullable(),
  title: z.string().nullable(),
  state: z.enum(ISSUE_STATES),
  assignee: z.string().nullable(),
  problem: z.string().nullable(),
  syncedAt: z.string().nullable(),
});
export type TrackerIssue = z.infer<typeof trackerIssueSchema>;

/**
 * 'owner/repo' (GitHub), 'group/subgroup/project' (GitLab's namespaces nest, up to 20 levels), a team key ('ENG',
 * Linear) or a project key ('PROJ', Jira); each module refuses the forms that are not its own.
 */
const REPOSITORY = /^[A-Za-z0-9_.-]{1,100}(\/[A-Za-z0-9_.-]{1,100}){0,20}$/;
export const createTrackerIssueSchema = z.strictObject({
  repository: z
    .string({ error: TRACKER_MESSAGES.placeRequired })
    .regex(REPOSITORY, TRACKER_MESSAGES.placeRequired),
  assignOwner: z.boolean().default(true),
});
export const linkTrackerIssueSchema = z.strictObject({
  url: z.string().trim().min(1, TRACKER_MESSAGES.issueUrlRequired).max(500),
});

// ---- The sync rules (decision 0023) ----

/** The most of an action item's description an issue title takes: the shortest limit of the trackers (Jira's 255). */
export const ISSUE_TITLE_MAX = 255;

/** Pulsecheck wins on the title: the action item's description, on one line, cut at ISSUE_TITLE_MAX. */
export function issueTitle(description: string): string {
  const line = description.replace(/\s+/g, ' ').trim();
  return line.length > ISSUE_TITLE_MAX ? `${line.slice(0, ISSUE_TITLE_MAX - 1)}…` : line;
}

/**
 * Pulsecheck wins on the body too: the action, its component, its due date and a link back to the results. Nothing
 * else: no rating, no comment (released or not, anonymous or not), no participant — the tracker is outside the
 * release rules. Its words are in the language of `words` (the server's: the organisation's default language).
 */
export function issueBody(
  input: {
    description: string;
    componentTitle: string | null;
    dueDate: string | null;
    resultsUrl: string;
    checkTitle: string;
  },
  words: Pick<Translator, 't'>,
): string {
  return [
    input.description,
    '',
    ...(input.componentTitle
      ? [words.t(TRACKER_MESSAGES.issueComponent, { component: input.componentTitle })]
      : []),
    ...(input.dueDate ? [words.t(TRACKER_MESSAGES.issueDue, { date: input.dueDate })] : []),
    words.t(TRACKER_MESSAGES.issueFrom, { check: input.checkTitle, url: input.resultsUrl }),
  ].join('\n');
}

/**
 * The tracker wins on the issue's state, title and assignee: they are shown on the action item as the tracker says.
 * A report older than the one applied is stale and ignored, so events out of order never undo a later one (the
 * tracker's own `updated_at` orders them). One as old is applied: GitHub's times have whole seconds, so two changes
 * within a second carry the same time, and the poll, which reads the issue as it is now, must be able to settle it.
 */
export function isNotOlder(applied: string | null, incoming: string): boolean {
  if (applied === null) return true;
  return Date.parse(incoming) >= Date.parse(applied);
}

/**
 * The action item's status after the issue moved from `before` to `after`: closed marks it done, reopened sets it
 * back to pending — only on a change of the issue's state and when the workspace lets closing mark done, so an
 * action someone marked done in Pulsecheck is not undone by an open issue, and a replayed event changes nothing.
 */
export function statusAfterIssueChange(input: {
  before: 'creating' | 'open' | 'closed';
  after: 'open' | 'closed';
  status: 'pending' | 'in-progress' | 'completed';
  closeMarksDone: boolean;
}): 'pending' | 'completed' | null {
  if (!input.closeMarksDone || input.before === input.after) return null;
  if (input.after === 'closed' && input.status !== 'completed') return 'completed';
  if (input.after === 'open' && input.before === 'closed' && input.status === 'completed') return 'pending';
  return null;
}

/** Idempotency keys: a webhook delivery is applied once per connection, whatever process receives it. */
export const deliveryKey = (connectionId: string, deliveryId: string) =>
  `tracker-delivery:${connectionId}:${deliveryId}`;
/** One poll per connection per 15-minute slot, whatever number of processes schedule it. */
export const POLL_INTERVAL_MINUTES = 15;
export const pollKey = (connectionId: string, at: Date) =>
  `tracker-poll:${connectionId}:${Math.floor(at.getTime() / (POLL_INTERVAL_MINUTES * 60_000))}`;
/** One creation per link. */
export const createKey = (linkId: string) => `tracker-create:${linkId}`;
