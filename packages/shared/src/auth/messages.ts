/**
 * The auth constants and messages, without zod: the login form paints with them and loads its schema only
 * when it validates (schemas.ts re-exports everything here).
 */

export const COMPANY_SIZES = ['1-10', '11-50', '51-200', '201-500', '501+'] as const;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

/** The spec's wording (sections 5 and 8), written once for the forms and the server. */
export const AUTH_MESSAGES = {
  fullNameRequired: 'auth.fullNameRequired',
  emailRequired: 'auth.emailRequired',
  emailInvalid: 'auth.emailInvalid',
  passwordRequired: 'auth.passwordRequired',
  passwordTooShort: 'auth.passwordTooShort',
  passwordTooLong: 'auth.passwordTooLong',
  passwordsDoNotMatch: 'auth.passwordsDoNotMatch',
  companyNameRequired: 'auth.companyNameRequired',
  companySizeRequired: 'auth.companySizeRequired',
  roleRequired: 'auth.roleRequired',
  termsRequired: 'auth.termsRequired',
  forgotEmailRequired: 'auth.forgotEmailRequired',
  signupFailed: 'auth.signupFailed',
  signupSuccess: 'auth.signupSuccess',
  participantSignupSuccess: 'auth.participantSignupSuccess',
  accountExists: 'auth.accountExists',
  verificationSendFailed: 'auth.verificationSendFailed',
  /** Admin sign-up when the verification e-mail cannot go out (e-mail switched off). */
  verificationNotSent: 'auth.verificationNotSent',
  verificationSent: 'auth.verificationSent',
  resendFailed: 'auth.resendFailed',
  resetFailed: 'auth.resetFailed',
  passwordUpdated: 'auth.passwordUpdated',
  invalidCredentials: 'auth.invalidCredentials',
  emailNotConfirmed: 'auth.emailNotConfirmed',
  orgExists: 'auth.orgExists',
  setupInProgress: 'auth.setupInProgress',
  noSession: 'auth.noSession',
  tooManyAttempts: 'auth.tooManyAttempts',
  accountLocked: 'auth.accountLocked',
  resetLinkInvalid: 'auth.resetLinkInvalid',
  verifyLinkInvalid: 'auth.verifyLinkInvalid',
} as const;
