import { z } from 'zod';

/**
 * Every error code the API answers, with its HTTP status. Clients tell errors apart by code, never by message
 * text: a code names what happened precisely enough to act on it.
 */
export const ERROR_STATUS = {
  invalid: 400,
  unauthenticated: 401,
  /** An `Authorization: Bearer` API token that is unknown, malformed, revoked or expired. */
  invalid_token: 401,
  forbidden: 403,
  email_not_confirmed: 403,
  /** The organisation requires two-factor sign-in and the caller has not set it up yet. */
  two_factor_required: 403,
  /** The address's organisation signs in with SSO only: no password sign-in, sign-up or reset. */
  sso_required: 403,
  /** The API token lacks the scope the route needs (the route's scope is in the OpenAPI document). */
  insufficient_scope: 403,
  /** An API token on a route that only a signed-in browser session may call (sign-in, account, tokens, …). */
  session_required: 403,
  not_found: 404,
  /** The workspace does not exist or the caller is not (or no longer) a member with the needed access. */
  workspace_not_found: 404,
  template_not_found: 404,
  conflict: 409,
  /** The participant has already submitted their ratings. */
  already_submitted: 409,
  /** Rating is closed: the check no longer collects. */
  rating_closed: 409,
  /** The signed-in admin's organisation is already set up. */
  organization_exists: 409,
  /** Loops: the member has answered this round already (one answer per member and round). */
  already_answered: 409,
  /** Loops: the round has closed. */
  round_closed: 409,
  /** Loops: the loop is paused; its open round takes answers again when it resumes. */
  loop_paused: 409,
  /** Loops: the loop was stopped for good. */
  loop_ended: 409,
  payload_too_large: 413,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
  /**
   * The database cannot serve the request now: it does not answer, refuses connections, or a lock held the
   * statement too long. Answered at once with `Retry-After`; the same request succeeds once it is back.
   */
  database_unavailable: 503,
  /** The embedded database's disk is (nearly) full: writes are refused until space is freed; reads go on. */
  storage_full: 507,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** What a 404 says for each kind of thing; the path parameters and the services answer in these words. */
export const NOT_FOUND_MESSAGES = {
  workspace: 'notFound.workspace',
  member: 'notFound.member',
  template: 'notFound.template',
  actionItem: 'notFound.actionItem',
  notification: 'notFound.notification',
  photo: 'notFound.photo',
  logo: 'notFound.logo',
  loop: 'notFound.loop',
  round: 'notFound.round',
  /** A personal answer link that is forged, mistyped, or of a member no longer in the workspace. */
  answerLink: 'notFound.answerLink',
  organization: 'notFound.organization',
  passkey: 'notFound.passkey',
  apiToken: 'notFound.apiToken',
} as const;

export const errorBodySchema = z.object({
  error: z.object({
    code: z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]),
    message: z.string(),
    fields: z.record(z.string(), z.string()).optional(),
  }),
});

export type ErrorBody = z.infer<typeof errorBodySchema>;

/** Field errors of a zod error as `{ path: first message }`, the shape forms and the API share. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.join('.') || '_';
    fields[key] ??= issue.message;
  }
  return fields;
}
