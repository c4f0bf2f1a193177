import { z } from 'zod';
import { emailAddress, requiredText } from '../api/fields';

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
    tokenHelp:
      'A fine-grained personal access token with read and write access to Issues (and read access to Metadata) of the repositories to use. It is stored encrypted and never shown again.',
    baseUrlLabel: 'Server address (optional)',
    baseUrlHelp:
      'Leave empty for github.com; for GitHub Enterprise Server, its address (https://github.example.com).',
    baseUrlPlaceholder: 'https://github.example.com',
    baseUrlInvalid: 'Enter the https:// address of your GitHub Enterprise Server, or leave it empty',
    email: null,
    refusedToken: 'GitHub refused this token. Check that it is copied whole and has not expired.',
    unreachable: 'GitHub could not be reached at this address. Check the address and try again.',
    webhookHelp:
      'Add a webhook to each repository (or its organisation) with this payload URL and secret, content type application/json, and the Issues event. Without it, changes still arrive within 15 minutes.',
    repository: 'Repository',
    repositoryRequired: 'Choose a repository',
    noRepositories: 'The token sees no repository. Give it access to the repositories to use.',
    issueUrl: 'Issue URL',
    issueUrlPlaceholder: 'https://github.com/owner/repository/issues/12',
    secretFromTracker: false,
  },
  gitlab: {
    tokenHelp:
      'A project or group access token with the api scope and at least the Reporter role in the projects to use. It is stored encrypted and never shown again.',
    baseUrlLabel: 'Server address (optional)',
    baseUrlHelp:
      'Leave empty for gitlab.com; for GitLab Self-Managed, its address (https://gitlab.example.com).',
    baseUrlPlaceholder: 'https://gitlab.example.com',
    baseUrlInvalid: 'Enter the https:// address of your GitLab Self-Managed instance, or leave it empty',
    email: null,
    refusedToken:
      'GitLab refused this token. Check that it is copied whole, has the api scope and has not expired.',
    unreachable: 'GitLab could not be reached at this address. Check the address and try again.',
    webhookHelp:
      'Add a webhook to each project (or its group) with this URL and this secret token, and the Issues events trigger. Without it, changes still arrive within 15 minutes.',
    repository: 'Project',
    repositoryRequired: 'Choose a project',
    noRepositories: 'The token sees no project with issues. Give it a role in the projects to use.',
    issueUrl: 'Issue URL',
    issueUrlPlaceholder: 'https://gitlab.com/group/project/-/issues/12',
    secretFromTracker: false,
  },
  linear: {
    repository: 'Team',
    repositoryRequired: 'Choose a team',
    noRepositories: 'The API key sees no team. Use the key of someone who is a member of the teams to use.',
    tokenHelp:
      'A personal API key (Linear: Settings → Account → Security & access) of someone in the teams to use, with read and write access. It is stored encrypted and never shown again.',
    baseUrlLabel: 'Server address (optional)',
    baseUrlHelp: 'Leave empty: Linear is at linear.app.',
    baseUrlPlaceholder: '',
    baseUrlInvalid: 'Leave the address empty for Linear',
    email: null,
    refusedToken: 'Linear refused this API key. Check that it is copied whole and has not been revoked.',
    unreachable: 'Linear could not be reached. Try again in a moment.',
    webhookHelp:
      'In Linear, Settings → API → Webhooks: add a webhook with this URL for Issues of the teams to use, then paste the signing secret Linear shows below. Without it, changes still arrive within 15 minutes.',
    issueUrl: 'Issue URL',
    issueUrlPlaceholder: 'https://linear.app/your-workspace/issue/ENG-12 or ENG-12',
    secretFromTracker: true,
  },
  jira: {
    tokenHelp:
      'Jira Cloud: an API token of the account below (id.atlassian.com → Security → API tokens). Jira Data Center or Server: a personal access token (Profile → Personal Access Tokens). The account must be allowed to browse, create and edit issues in the projects to use. It is stored encrypted and never shown again.',
    baseUrlLabel: 'Jira address',
    baseUrlHelp:
      "Your Jira Cloud site (https://your-site.atlassian.net) or your Jira Data Center or Server's address.",
    baseUrlPlaceholder: 'https://your-site.atlassian.net',
    baseUrlInvalid: 'Enter the https:// address of your Jira site or server',
    email: {
      help: 'Jira Cloud only: the e-mail address of the Atlassian account the API token belongs to. Leave it empty for Jira Data Center or Server.',
      required: 'Jira Cloud needs the e-mail address of the account the API token belongs to',
    },
    refusedToken:
      'Jira refused these credentials. Check the e-mail address (Jira Cloud) and that the token is copied whole and has not expired.',
    unreachable: 'Jira could not be reached at this address. Check the address and try again.',
    webhookHelp:
      'In Jira, as an administrator: System → WebHooks → Create a WebHook with this URL and secret, for the events Issue created and Issue updated (a JQL filter such as project = KEY may narrow it). Without it, changes still arrive within 15 minutes.',
    repository: 'Project',
    repositoryRequired: 'Choose a project',
    noRepositories:
      'The account sees no project it may create issues in. Give it access to the projects to use.',
    issueUrl: 'Issue URL or key',
    issueUrlPlaceholder: 'https://your-site.atlassian.net/browse/PROJ-12 or PROJ-12',
    // Pulsecheck makes the secret and Jira's webhook form takes it (X-Hub-Signature).
    secretFromTracker: false,
  },
};

/** An issue's key as its tracker writes it: 'owner/repo#12' on GitHub and GitLab, 'ENG-12' on Linear, 'PROJ-12' on Jira. */
export const issueKey = (kind: TrackerKind, repository: string, number: number) =>
  kind === 'linear' || kind === 'jira' ? `${repository}-${number}` : `${repository}#${number}`;

export const TRACKER_MESSAGES = {
  title: 'Integrations',
  intro:
    'Connect the tracker your team works in. Action items can then become issues there, and an issue closed there marks its action item done.',
  tokenRequired: 'Enter a token',
  baseUrlPrivate: 'This address is not reachable from the server (not a public address)',
  connected: (account: string, target: string) => `Connected as ${account} to ${target}`,
  disconnected: 'Disconnected',
  saved: 'Saved',
  closeMarksDone: 'An issue closed in the tracker marks its action item done (reopened: not done)',
  webhookTitle: 'Updates within a minute',
  webhookSecretOnce: 'Copy the secret now: it is shown only this once.',
  signingSecret: 'Signing secret',
  signingSecretSave: 'Save signing secret',
  signingSecretSaved: 'Signing secret saved: webhooks are checked with it.',
  signingSecretMissing: 'No signing secret saved yet: webhooks are refused until it is.',
  signingSecretRequired: 'Paste the signing secret',
  signingSecretOurs: "This tracker's webhooks are signed with the secret Pulsecheck made when connecting",
  notConnected: 'No tracker is connected to this workspace.',
  createIssue: (label: string) => `Create issue in ${label}`,
  linkIssue: 'Link existing issue',
  unlink: 'Unlink issue',
  /** An API client that names no place for the issue (the screens ask in the tracker's words, TRACKER_WORDS). */
  placeRequired: 'Choose where to create the issue',
  assignOwner: "Assign it to the action item's owner (matched by e-mail, where the tracker finds them)",
  issueUrlInvalid: (label: string, origin: string) => `Paste the address of a ${label} issue on ${origin}`,
  issueNotFound: 'The tracker has no such issue, or the token cannot see it',
  alreadyLinked: 'This action item is already linked to an issue',
  issueTaken: 'This issue is already linked to another action item',
  creating: 'Creating the issue…',
  notConnectedHere: 'Connect a tracker in Workspace Settings → Integrations first',
  connectionNotFound: 'Integration not found',
  emailLabel: 'Account e-mail',
  emailInvalid: 'Enter a valid e-mail address',
} as const;

/** What went wrong with a tracker, and what to do: shown on the action item and on the Integrations screen. */
export const TRACKER_PROBLEMS = {
  credentials:
    'The tracker refused the token (expired or revoked). An admin can save a new one in Workspace Settings → Integrations.',
  permission:
    'The token may not do this. Give it write access to Issues of this repository, then save it again.',
  missing:
    'The issue or repository is gone, or the token no longer sees it. Link another issue or unlink it.',
  unreachable: 'The tracker did not answer. Pulsecheck tries again by itself; nothing is lost.',
  invalid: 'The tracker did not accept the change. Pulsecheck tries again with the next edit.',
} as const;
export type TrackerProblem = keyof typeof TRACKER_PROBLEMS;

const baseUrl = z.string().trim().max(500);

/** Connecting (or replacing) the workspace's tracker; the token is tested before it is kept. */
export const trackerConnectSchema = z.strictObject({
  kind: z.enum(TRACKER_KINDS),
  /** '' for the vendor's cloud (github.com, gitlab.com, linear.app); a self-hosted server's https:// address; the Jira site or server (required). */
  baseUrl: baseUrl.default(''),
  // One line: a token never holds a line break (and Jira's is kept with its e-mail, a line apart).
  token: requiredText(TRACKER_MESSAGES.tokenRequired, 500).regex(
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
  webhookSecret: requiredText(TRACKER_MESSAGES.signingSecretRequired, 200).optional(),
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
  url: z.string().trim().min(1, 'Paste the issue URL').max(500),
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
 * release rules.
 */
export function issueBody(input: {
  description: string;
  componentTitle: string | null;
  dueDate: string | null;
  resultsUrl: string;
  checkTitle: string;
}): string {
  return [
    input.description,
    '',
    ...(input.componentTitle ? [`Component: ${input.componentTitle}`] : []),
    ...(input.dueDate ? [`Due: ${input.dueDate}`] : []),
    `From the health check "${input.checkTitle}" in Pulsecheck: ${input.resultsUrl}`,
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
