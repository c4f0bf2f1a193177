/**
 * The daily budget of e-mails a signed-in user can have Pulsecheck send to addresses they type in (launch
 * invitations, team invitations and their resends), per user and per organisation. The server multiplies both
 * by RATE_LIMIT_MULTIPLIER. A small team never comes near them: a launch e-mails at most 200 addresses.
 */
export const MAIL_QUOTA = {
  perUserPerDay: 500,
  perOrganizationPerDay: 1000,
} as const;

export type MailQuotaScope = 'user' | 'organization';

/** The 429 message: which limit, how much is left, when it resets and what to do instead. */
export function mailQuotaExceededMessage(options: {
  scope: MailQuotaScope;
  limit: number;
  remaining: number;
  requested: number;
}): string {
  const { scope, limit, remaining, requested } = options;
  const who = scope === 'user' ? 'you' : 'your organization';
  const what = requested === 1 ? 'this needs 1' : `this needs ${requested}`;
  return (
    `Daily email limit reached: ${who} can send up to ${limit.toLocaleString('en-US')} invitation emails a day, ` +
    `${remaining.toLocaleString('en-US')} left today and ${what}. ` +
    'The limit resets at midnight UTC. Send fewer emails, share the join link instead, or try again tomorrow.'
  );
}
