import { z } from 'zod';
import { SECURITY_MESSAGES } from '../auth/security-messages';

/** Leaving Pulsecheck (issue 18): deleting one's account, handing over or deleting one's organisation. */

/**
 * The name an attributed comment (and a participant list) shows once its author deleted their account: a catalogue
 * key the API answers in place of a name, said by the screens in their language, as a missing name's
 * `RESULTS_MESSAGES.anonymous`.
 */
export const FORMER_MEMBER = 'deletion.formerMember';

/** A signed-in session younger than this proves it is the person (for accounts without a password). */
export const RECENT_SIGN_IN_MINUTES = 5;

/**
 * The words of leaving, catalogue keys (area `deletion`, decision 0027). With placeholders: `signInAgain`
 * ({minutes}: RECENT_SIGN_IN_MINUTES), `ownsOrganizations` ({organisations}), `ownsAnother` and `transferred` ({name}).
 */
export const DELETION_MESSAGES = {
  deleteAccount: 'deletion.deleteAccount',
  deleteOrganization: 'deletion.deleteOrganization',
  transferOwnership: 'deletion.transferOwnership',
  passwordRequired: 'deletion.passwordRequired',
  passwordIncorrect: 'deletion.passwordIncorrect',
  signInAgain: 'deletion.signInAgain',
  noPassword: 'deletion.noPassword',
  codeIncorrect: 'deletion.codeIncorrect',
  noAuthenticator: 'deletion.noAuthenticator',
  tooManyAttempts: 'deletion.tooManyAttempts',
  ownsOrganizations: 'deletion.ownsOrganizations',
  nameMismatch: 'deletion.nameMismatch',
  notAnAdmin: 'deletion.notAnAdmin',
  ownsAnother: 'deletion.ownsAnother',
  accountDeleted: 'deletion.accountDeleted',
  organizationDeleted: 'deletion.organizationDeleted',
  transferred: 'deletion.transferred',
  deleteFailed: 'deletion.deleteFailed',
  loadFailed: 'deletion.loadFailed',
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
