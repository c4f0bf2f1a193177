import { z } from 'zod';
import { SECURITY_MESSAGES } from '../auth/security-messages';

/** Leaving Pulsecheck (issue 18): deleting one's account, handing over or deleting one's organisation. */

/** The name an attributed comment shows once its author deleted their account. */
export const FORMER_MEMBER = 'Former member';

/** A signed-in session younger than this proves it is the person (for accounts without a password). */
export const RECENT_SIGN_IN_MINUTES = 5;

export const DELETION_MESSAGES = {
  deleteAccount: 'Delete my account',
  deleteOrganization: 'Delete organisation',
  transferOwnership: 'Transfer ownership',
  passwordRequired: 'Enter your password to confirm',
  passwordIncorrect: 'Password is incorrect',
  signInAgain: `Sign in again, then confirm within ${RECENT_SIGN_IN_MINUTES} minutes`,
  noPassword: 'This account has no password: sign in again, then confirm',
  codeIncorrect: 'The code is wrong or was used already: enter the current one',
  noAuthenticator: 'Two-factor sign-in is not on for this account: confirm with your password',
  tooManyAttempts:
    'Too many wrong passwords or codes for this account. Confirming is paused for up to 15 minutes: wait and try again.',
  ownsOrganizations: (names: string[]) =>
    `You own ${names.join(', ')}. Transfer ownership to another admin or delete the organisation first.`,
  nameMismatch: 'Type the organisation name exactly as it is shown',
  notAnAdmin: 'Choose an admin of this organisation',
  ownsAnother: (name: string) => `${name} already owns another organisation and cannot take this one over`,
  accountDeleted: 'Your account has been deleted',
  organizationDeleted: 'The organisation has been deleted',
  transferred: (name: string) => `${name} now owns the organisation`,
  deleteFailed: 'Failed to delete',
  loadFailed: 'Failed to load what deleting your account involves',
} as const;

/**
 * How a person proves it is them before something that cannot be undone, by `method`: their password; or, with
 * two-factor sign-in on, a fresh code of their authenticator app instead; or a sign-in of the last few minutes
 * (only for accounts without a password, such as single sign-on). Checked in `confirmIdentity`
 * (apps/server/src/auth/confirm-identity.ts).
 */
export const identityProofSchema = z.discriminatedUnion('method', [
  z.strictObject({
    method: z.literal('password'),
    password: z.string().min(1, DELETION_MESSAGES.passwordRequired).max(128),
  }),
  z.strictObject({ method: z.literal('recent-sign-in') }),
  z.strictObject({
    method: z.literal('authenticator'),
    code: z.string().regex(/^\d{6}$/, SECURITY_MESSAGES.codeRequired),
  }),
]);
export type IdentityProof = z.infer<typeof identityProofSchema>;
export type ProofMethod = IdentityProof['method'];
/** What the screens ask for by default: the password, or a recent sign-in for accounts without one. */
export type PrimaryProofMethod = Exclude<ProofMethod, 'authenticator'>;

const person = z.object({ userId: z.string(), name: z.string(), email: z.string() });

/**
 * What deleting the account involves: how to confirm (`confirmWith`, and with `authenticatorCode` a code of the
 * authenticator app instead, where two-factor sign-in is on), and the organisations to hand over or delete first.
 */
export const deletionStatusSchema = z.object({
  confirmWith: z.enum(['password', 'recent-sign-in']),
  authenticatorCode: z.boolean(),
  ownedOrganizations: z.array(z.object({ id: z.string(), name: z.string(), admins: z.array(person) })),
});
export type DeletionStatus = z.infer<typeof deletionStatusSchema>;

export const deleteAccountSchema = z.strictObject({ confirm: identityProofSchema });
export const transferOwnershipSchema = z.strictObject({
  newOwnerId: z.string().min(1).max(64),
  confirm: identityProofSchema,
});
export const deleteOrganizationSchema = z.strictObject({
  name: z.string().max(200),
  confirm: identityProofSchema,
});
