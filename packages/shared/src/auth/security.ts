import { z } from 'zod';
import { emailAddress, requiredText } from '../api/fields';
import { AUTH_MESSAGES, PASSWORD_MAX } from './messages';

/**
 * Two-factor sign-in, passkeys and single sign-on (issue 15): the words and the request shapes, written once for
 * the Security tab, the login page and the server.
 */

/** How many recovery codes enrolment and regeneration hand out. */
export const RECOVERY_CODE_COUNT = 10;
/** How long 'Trust this device' spares the second step. */
export const TRUST_DEVICE_DAYS = 30;

export const SECURITY_MESSAGES = {
  codeRequired: 'Enter the 6-digit code from your authenticator app',
  codeInvalid: 'That code is not right or has expired. Enter the current code from your authenticator app.',
  codeReplayed: 'That code has already been used. Wait for the next code from your authenticator app.',
  recoveryCodeRequired: 'Enter one of your recovery codes',
  recoveryCodeInvalid: 'That recovery code is not right or has already been used.',
  signInExpired: 'Your sign-in took too long. Sign in with your password again.',
  passwordWrong: 'Your password is not right.',
  alreadyEnabled: 'Two-factor sign-in is already on.',
  notEnabled: 'Two-factor sign-in is not on.',
  enrolmentRequired:
    'Your organisation requires two-factor sign-in. Set up an authenticator app to continue using Pulsecheck.',
  passkeyNameRequired: 'Give this passkey a name',
  passkeyFailed: 'The passkey could not be saved. Try again, or use another authenticator.',
  passkeySignInFailed: 'That passkey could not sign you in. Try again, or sign in with your password.',
  passkeyNotFound: 'Passkey not found',
  organizationOnly: 'Only an organisation admin can change this.',
  noOrganization: 'You are not in an organisation.',
  ssoRequired:
    'Your organisation signs in with single sign-on. Use "Sign in with SSO" with your work e-mail address.',
  ssoNotSetUp:
    'Single sign-on is not set up for this e-mail domain. Sign in with your password, or ask your organisation admin.',
  ssoNotConfigured: 'Set up single sign-on and save it first.',
  ssoNotTested:
    "Use 'Test connection' and sign in through your provider once before switching single sign-on on.",
  ssoRequireNeedsEnabled: 'Switch single sign-on on before requiring it.',
  ssoIssuerInvalid:
    'Enter the https:// address of your identity provider (its issuer, e.g. https://login.example.com).',
  ssoIssuerUnreachable:
    'Your identity provider could not be reached, or its /.well-known/openid-configuration is not valid. Check the issuer URL.',
  ssoDomainTaken: 'This domain is already covered by another organisation.',
  ssoDomainNotYours: 'You can only cover the e-mail domain of an organisation admin (yours is {domain}).',
  ssoDomainPublic: 'A public e-mail provider cannot be covered by single sign-on.',
  ssoDomainsRequired: 'Enter at least one e-mail domain',
  ssoDomainInvalid: 'Enter domains like example.com, separated by commas',
  ssoClientIdRequired: 'Client ID is required',
  ssoClientSecretRequired: 'Client secret is required',
} as const;

/**
 * Why a sign-in through the identity provider was refused, as the login page's `sso_error` names it; nothing was
 * created in any of these cases.
 */
export const SSO_ERRORS = {
  state:
    'That sign-in link was already used or does not belong to this browser. Start again with "Sign in with SSO".',
  token:
    "The identity provider's answer could not be verified (issuer, audience or signature). Nothing was changed; ask your organisation admin to check the single sign-on settings.",
  nonce: 'The identity provider\'s answer did not match this sign-in. Start again with "Sign in with SSO".',
  email_unverified:
    'Your identity provider has not verified your e-mail address, so Pulsecheck cannot sign you in with it.',
  domain: "Your e-mail address is not in a domain your organisation's single sign-on covers.",
  unreachable:
    'Your identity provider could not be reached. Try again in a moment, or ask your organisation admin.',
  denied: 'The identity provider did not sign you in.',
  not_enabled: 'Single sign-on is not switched on for your organisation.',
  failed: 'Single sign-on did not work. Try again, or ask your organisation admin.',
} as const;
export type SsoErrorCode = keyof typeof SSO_ERRORS;

const code = z
  .string({ error: SECURITY_MESSAGES.codeRequired })
  .trim()
  .regex(/^\d{6}$/, SECURITY_MESSAGES.codeRequired);
const password = z
  .string({ error: AUTH_MESSAGES.passwordRequired })
  .min(1, AUTH_MESSAGES.passwordRequired)
  .max(PASSWORD_MAX);

/** The second step of a sign-in: a current code, or one of the recovery codes. */
export const twoFactorSignInSchema = z.strictObject({
  code,
  trustDevice: z.boolean().default(false),
});
export const recoverySignInSchema = z.strictObject({
  code: z
    .string({ error: SECURITY_MESSAGES.recoveryCodeRequired })
    .trim()
    .min(1, SECURITY_MESSAGES.recoveryCodeRequired)
    .max(64, SECURITY_MESSAGES.recoveryCodeInvalid),
  trustDevice: z.boolean().default(false),
});
export const passwordOnlySchema = z.strictObject({ password });
export const codeOnlySchema = z.strictObject({ code });
export const passwordAndCodeSchema = z.strictObject({ password, code });

export const enrolmentSchema = z.object({
  /** The otpauth:// URI the QR code shows. */
  totpUri: z.string(),
  /** The same key as text (base32), for typing into an app. */
  key: z.string(),
});
export const recoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()) });

export const passkeySchema = z.object({ id: z.string(), name: z.string(), createdAt: z.string().nullable() });
export type Passkey = z.infer<typeof passkeySchema>;
export const passkeyNameSchema = requiredText(SECURITY_MESSAGES.passkeyNameRequired, 60);
/** A WebAuthn ceremony's options or the browser's answer, as @simplewebauthn passes them (JSON). */
export const webAuthnJsonSchema = z.record(z.string(), z.unknown());
export const addPasskeySchema = z.strictObject({ name: passkeyNameSchema, response: webAuthnJsonSchema });
export const passkeySignInSchema = z.strictObject({ response: webAuthnJsonSchema });

/** The Security tab: this person's factors, and their organisation's rules. */
export const securityStatusSchema = z.object({
  twoFactorEnabled: z.boolean(),
  recoveryCodesLeft: z.number().int().nullable(),
  hasPassword: z.boolean(),
  passkeys: z.array(passkeySchema),
  organization: z
    .object({
      name: z.string(),
      requireTwoFactor: z.boolean(),
      /** Whether this person may change the organisation's sign-in rules. */
      administers: z.boolean(),
    })
    .nullable(),
});
export type SecurityStatus = z.infer<typeof securityStatusSchema>;

export const organizationSecuritySchema = z.strictObject({ requireTwoFactor: z.boolean() });

const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
/** Domains as an admin types them: comma- or space-separated, lower-cased, without duplicates. */
export const ssoDomainsSchema = z
  .string({ error: SECURITY_MESSAGES.ssoDomainsRequired })
  .transform((text) => [
    ...new Set(
      text
        .split(/[\s,]+/)
        .map((domain) => domain.trim().toLowerCase().replace(/^@/, ''))
        .filter(Boolean),
    ),
  ])
  .pipe(
    z
      .array(z.string().regex(DOMAIN, SECURITY_MESSAGES.ssoDomainInvalid))
      .min(1, SECURITY_MESSAGES.ssoDomainsRequired)
      .max(20, SECURITY_MESSAGES.ssoDomainInvalid),
  );

export const ssoSettingsInputSchema = z.strictObject({
  issuer: z
    .string()
    .trim()
    .min(1, SECURITY_MESSAGES.ssoIssuerInvalid)
    .max(500)
    .url(SECURITY_MESSAGES.ssoIssuerInvalid),
  clientId: requiredText(SECURITY_MESSAGES.ssoClientIdRequired, 300),
  /** Empty keeps the secret already saved. */
  clientSecret: z.string().max(1000).default(''),
  domains: ssoDomainsSchema,
});
export type SsoSettingsInput = z.input<typeof ssoSettingsInputSchema>;

export const ssoSwitchSchema = z.strictObject({ enabled: z.boolean(), required: z.boolean() });

export const ssoSettingsSchema = z.object({
  configured: z.boolean(),
  issuer: z.string().nullable(),
  clientId: z.string().nullable(),
  /** Whether a client secret is saved (it is never sent back). */
  hasClientSecret: z.boolean(),
  domains: z.array(z.string()),
  /** The redirect URI to register at the identity provider. */
  redirectUri: z.string(),
  testedAt: z.string().nullable(),
  enabled: z.boolean(),
  required: z.boolean(),
});
export type SsoSettings = z.infer<typeof ssoSettingsSchema>;

export const ssoStartSchema = z.strictObject({
  email: emailAddress({ required: AUTH_MESSAGES.emailRequired, invalid: AUTH_MESSAGES.emailInvalid }),
});
export const redirectSchema = z.object({ url: z.string() });

/** A handful of public mailbox providers whose domains no organisation may claim. */
export const PUBLIC_EMAIL_DOMAINS = [
  'gmail.com',
  'googlemail.com',
  'outlook.com',
  'hotmail.com',
  'live.com',
  'yahoo.com',
  'icloud.com',
  'me.com',
  'aol.com',
  'proton.me',
  'protonmail.com',
  'gmx.com',
  'gmx.de',
  'web.de',
  'mail.com',
  'yandex.ru',
] as const;

/** The domain of an e-mail address, lower-cased. */
export const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();
