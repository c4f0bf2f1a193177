/**
 * The auth constants and messages, without zod: the login form paints with them and loads its schema only
 * when it validates (schemas.ts re-exports everything here).
 */

export const COMPANY_SIZES = ['1-10', '11-50', '51-200', '201-500', '501+'] as const;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

/** The spec's wording (sections 5 and 8), written once for the forms and the server. */
export const AUTH_MESSAGES = {
  fullNameRequired: 'Full name is required',
  emailRequired: 'Email is required',
  emailInvalid: 'Email is invalid',
  passwordRequired: 'Password is required',
  passwordTooShort: 'Password must be at least 8 characters',
  passwordTooLong: `Password must be at most ${PASSWORD_MAX} characters`,
  passwordsDoNotMatch: 'Passwords do not match',
  companyNameRequired: 'Company name is required',
  companySizeRequired: 'Company size is required',
  roleRequired: 'Role is required',
  termsRequired: 'You must agree to the terms and conditions',
  forgotEmailRequired: 'Please enter your email address to reset your password',
  signupFailed: 'An error occurred during signup. Please try again.',
  signupSuccess:
    'Please check your email to verify your account. Once verified, you will be guided through setting up your organization.',
  participantSignupSuccess:
    "Please check your email to verify your account. Once verified, you will be automatically added to the health check. If you don't see the email, please check your spam folder.",
  accountExists: 'An account with this email already exists. Please sign in instead.',
  verificationSendFailed: 'Failed to send verification email. Please try again or contact support.',
  /** Admin sign-up when the verification e-mail cannot go out (e-mail switched off). */
  verificationNotSent: 'Verification email could not be sent. Please try again or contact support.',
  verificationSent: 'Verification email sent! Please check your inbox and spam folder.',
  resendFailed: 'Failed to send verification email. Please try again.',
  resetFailed: 'Failed to send reset password email',
  passwordUpdated: 'Password updated successfully! Redirecting to login...',
  invalidCredentials: 'Invalid email or password',
  emailNotConfirmed: 'Email not confirmed. Please verify your email address before signing in.',
  orgExists: 'Organization already exists for this user',
  setupInProgress: 'Setup already in progress. Please try logging in again.',
  noSession: 'No authenticated session',
  tooManyAttempts: 'Too many attempts. Please wait a few minutes and try again.',
  accountLocked:
    'Too many failed sign-in attempts for this account. Sign-in is paused for up to 15 minutes: wait and try again, or reset your password with "Forgot password?" to sign in now.',
  resetLinkInvalid: 'This password reset link is invalid or has expired. Request a new one below.',
  verifyLinkInvalid: 'This verification link is invalid or has expired. Sign in to get a new one.',
} as const;
