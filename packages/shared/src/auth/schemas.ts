import { z } from 'zod';

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
  resetLinkInvalid: 'This password reset link is invalid or has expired. Request a new one below.',
  verifyLinkInvalid: 'This verification link is invalid or has expired. Sign in to get a new one.',
} as const;

const email = z
  .string({ error: AUTH_MESSAGES.emailRequired })
  .trim()
  .min(1, AUTH_MESSAGES.emailRequired)
  .max(254, AUTH_MESSAGES.emailInvalid)
  .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, AUTH_MESSAGES.emailInvalid)
  .transform((value) => value.toLowerCase());

const newPassword = z
  .string({ error: AUTH_MESSAGES.passwordRequired })
  .min(1, AUTH_MESSAGES.passwordRequired)
  .min(PASSWORD_MIN, AUTH_MESSAGES.passwordTooShort)
  .max(PASSWORD_MAX, AUTH_MESSAGES.passwordTooLong);

const requiredText = (message: string, max = 200) =>
  z.string({ error: message }).trim().min(1, message).max(max, `Must be at most ${max} characters`);

export const emailSchema = email;
export const newPasswordSchema = newPassword;

export const adminSignupSchema = z
  .strictObject({
    fullName: requiredText(AUTH_MESSAGES.fullNameRequired, 120),
    email,
    password: newPassword,
    confirmPassword: z.string({ error: AUTH_MESSAGES.passwordsDoNotMatch }),
    companyName: requiredText(AUTH_MESSAGES.companyNameRequired, 120),
    companySize: z
      .string({ error: AUTH_MESSAGES.companySizeRequired })
      .refine(
        (value) => (COMPANY_SIZES as readonly string[]).includes(value),
        AUTH_MESSAGES.companySizeRequired,
      ),
    role: requiredText(AUTH_MESSAGES.roleRequired, 80),
    acceptTerms: z
      .boolean({ error: AUTH_MESSAGES.termsRequired })
      .refine((value) => value, AUTH_MESSAGES.termsRequired),
  })
  .refine((value) => value.password === value.confirmPassword, {
    message: AUTH_MESSAGES.passwordsDoNotMatch,
    path: ['confirmPassword'],
  });
export type AdminSignupInput = z.input<typeof adminSignupSchema>;

export const participantSignupSchema = z.strictObject({
  fullName: requiredText(AUTH_MESSAGES.fullNameRequired, 120),
  email,
  password: newPassword,
  healthCheckId: z.uuid('Invalid health check link'),
});
export type ParticipantSignupInput = z.input<typeof participantSignupSchema>;

export const loginSchema = z.strictObject({
  email,
  password: z
    .string({ error: AUTH_MESSAGES.passwordRequired })
    .min(1, AUTH_MESSAGES.passwordRequired)
    .max(PASSWORD_MAX),
  rememberMe: z.boolean().default(false),
});
export type LoginInput = z.input<typeof loginSchema>;

export const forgotPasswordSchema = z.strictObject({
  email: z
    .string({ error: AUTH_MESSAGES.forgotEmailRequired })
    .trim()
    .min(1, AUTH_MESSAGES.forgotEmailRequired)
    .pipe(email),
});

export const resendVerificationSchema = z.strictObject({ email });

export const resetPasswordSchema = z
  .strictObject({
    token: z.string().min(1, AUTH_MESSAGES.resetLinkInvalid).max(200),
    password: newPassword,
    confirmPassword: z
      .string({ error: AUTH_MESSAGES.passwordsDoNotMatch })
      .min(1, 'Please confirm your new password'),
  })
  .refine((value) => value.password === value.confirmPassword, {
    message: AUTH_MESSAGES.passwordsDoNotMatch,
    path: ['confirmPassword'],
  });

export const okSchema = z.object({ ok: z.literal(true) });

export const currentUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: z.string().nullable(),
  setupStatus: z.string().nullable(),
  pendingJoinHealthCheckId: z.string().nullable(),
  activeWorkspaceId: z.string().nullable(),
  canAdmin: z.boolean(),
  avatarUrl: z.string().nullable(),
  /** Where this user goes after signing in (PRODUCT-DECISIONS 9). */
  home: z.string(),
});
export type CurrentUser = z.infer<typeof currentUserSchema>;

export const meResponseSchema = z.object({ user: currentUserSchema });
export const loginResponseSchema = z.object({ user: currentUserSchema });
export const setupResponseSchema = z.object({ redirectTo: z.string() });
