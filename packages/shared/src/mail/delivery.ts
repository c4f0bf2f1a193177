/**
 * What an action that e-mails someone tells the screen about the e-mail (no zod: the sign-in screens paint with
 * these; the schemas are in contract.ts): 'sending' (it is queued and goes out), or 'off' (the server runs with
 * MAIL_DISABLED=true, so none was sent, and the screen must not say "we sent").
 */
export const MAIL_STATES = ['sending', 'off'] as const;
export type MailState = (typeof MAIL_STATES)[number];

/** The answer of the public actions that e-mail (sign-ups, password reset, resend): the same for every address. */
export type Mailed = { ok: true; mail: MailState };

/** Catalogue keys (packages/shared/messages/<language>/delivery.json). */
export const MAIL_MESSAGES = {
  /** Said beside the spec's failure wording wherever an e-mail would have gone out. */
  off: 'delivery.off',
  /** Before an action whose e-mails will not go out. */
  offNotice: 'delivery.offNotice',
  /** Above the e-mail settings while e-mail is off. */
  settingsOff: 'delivery.settingsOff',
} as const;
