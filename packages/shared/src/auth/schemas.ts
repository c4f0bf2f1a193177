import { z } from 'zod';
import { languageSchema } from '../i18n/schemas';
import { emailAddress, requiredText } from '../api/fields';
import { AUTH_MESSAGES, COMPANY_SIZES, PASSWORD_MAX, PASSWORD_MIN } from './messages';

const email = emailAddress({ required: AUTH_MESSAGES.emailRequired, invalid: AUTH_MESSAGES.emailInvalid });

const newPassword = z
  .string({ error: AUTH_MESSAGES.passwordRequired })
  .min(1, AUTH_MESSAGES.passwordRequired)
  .min(PASSWORD_MIN, AUTH_MESSAGES.passwordTooShort)
  .max(PASSWORD_MAX, AUTH_MESSAGES.passwordTooLong);

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
    /** 'Also remove my passkeys and sign out everywhere else' (every session ends either way). */
    removePasskeys: z.boolean().default(false),
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
  /** Whether this server sends e-mail (false with MAIL_DISABLED=true): screens then never say "we e-mailed". */
  mailEnabled: z.boolean(),
  /** The organisation requires two-factor sign-in and this user has none yet: enrolment comes before anything. */
  mustEnrolTwoFactor: z.boolean(),
  /** The language they chose (every screen follows it once they sign in), or null to follow the browser. */
  language: languageSchema.nullable().optional(),
});
export type CurrentUser = z.infer<typeof currentUserSchema>;

export const meResponseSchema = z.object({ user: currentUserSchema });
export const signedInSchema = z.object({ user: currentUserSchema });
/** A password sign-in either signs in, or (two-factor on) asks for the second step: POST /login/two-factor. */
export const loginResponseSchema = z.union([
  signedInSchema,
  z.object({ twoFactorRequired: z.literal(true) }),
]);
export type LoginResponse = z.infer<typeof loginResponseSchema>;
export const setupResponseSchema = z.object({ redirectTo: z.string() });
