import type { TrackerKind, TrackerProblem } from '@pulsecheck/shared/trackers/rules';
import type { OutboundPolicy } from '../lib/outbound';

/**
 * The one small interface every tracker module implements (issue 36, decision 0023). A module turns these calls
 * into its vendor's client library, configured with the connection's base URL and the outbound request guard; the
 * sync rules (packages/shared/src/trackers/rules.ts) and the jobs (sync.ts) are the same for all of them.
 */

/** An issue as the sync rules see it, whatever the tracker. */
export type RemoteIssue = {
  repository: string;
  number: number;
  /** As the tracker writes it: 'owner/repo#12', 'ENG-12' (shared issueKey). */
  key: string;
  url: string;
  title: string;
  state: 'open' | 'closed';
  assignee: string | null;
  /** The tracker's own last-change time (orders events). */
  updatedAt: string;
};

/** An issue by its repository (or team) and number; `workspace` when a pasted URL named one (Linear's). */
export type IssueRef = { repository: string; number: number; workspace?: string };

/** A webhook the tracker sent, once its signature is checked: an issue's new state, or nothing to apply. */
export type WebhookEvent = { deliveryId: string; issue: RemoteIssue | null };

export type Tracker = {
  /** Tests the credentials: who they act as. */
  whoAmI(): Promise<string>;
  repositories(): Promise<{ id: string; name: string }[]>;
  createIssue(input: {
    repository: string;
    title: string;
    body: string;
    /** 'YYYY-MM-DD': for trackers whose issues have a due date (the body says it for the others). */
    dueDate: string | null;
    assigneeEmail: string | null;
  }): Promise<RemoteIssue>;
  getIssue(ref: IssueRef): Promise<RemoteIssue>;
  updateIssue(
    ref: IssueRef,
    change: { title: string; body: string; dueDate: string | null },
  ): Promise<RemoteIssue>;
  /** The repository's issues changed since `since` (all when null): the poll's one request per repository. */
  changedSince(repository: string, since: Date | null): Promise<RemoteIssue[]>;
};

export type TrackerModule = {
  kind: TrackerKind;
  /** The API base for what people typed ('' for the vendor's cloud), or null when it is not an address. */
  apiUrl(baseUrl: string): string | null;
  /** Where people see it: 'github.com', or the server's host. */
  target(apiUrl: string): string;
  /** `email`: the account e-mail for trackers whose credentials are an e-mail and a token (Jira Cloud). */
  client(options: { apiUrl: string; token: string; email?: string | null; policy: OutboundPolicy }): Tracker;
  /** Whether connecting to this address needs the account e-mail too (Jira Cloud); absent: never. */
  needsEmail?(apiUrl: string): boolean;
  /** The issue a pasted URL names on this connection, or null. */
  parseIssueUrl(apiUrl: string, url: string): IssueRef | null;
  webOrigin(apiUrl: string): string;
  /**
   * Checks the vendor's documented signature over the raw body and reads the event. Null when the signature is
   * missing or wrong.
   */
  readWebhook(headers: Headers, rawBody: string, secret: string, apiUrl: string): WebhookEvent | null;
};

/** A tracker's refusal or absence, with what it means for people (TRACKER_PROBLEMS). */
export class TrackerFailure extends Error {
  constructor(
    readonly problem: TrackerProblem,
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'TrackerFailure';
  }
}

/**
 * A tracker's address as people typed it, as a URL: http(s), without credentials, query or fragment; null when it is
 * not one. Each module then says what its API is below it (trailing slashes are dropped first).
 */
export function typedAddress(typed: string): URL | null {
  let url: URL;
  try {
    url = new URL(typed);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (url.username || url.password || url.search || url.hash) return null;
  return url;
}

/** The problem an HTTP status means. */
export function problemOfStatus(status: number): TrackerProblem {
  if (status === 401) return 'credentials';
  if (status === 403) return 'permission';
  if (status === 404 || status === 410) return 'missing';
  if (status === 422 || status === 400) return 'invalid';
  return 'unreachable';
}
