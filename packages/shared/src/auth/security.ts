import { z } from 'zod';
import { emailAddress, requiredText } from '../api/fields';
import { AUTH_MESSAGES, PASSWORD_MAX } from './messages';
import { DELETION_MESSAGES, identityProofSchema } from '../account/deletion';
import { SECURITY_MESSAGES } from './security-messages';

/**
 * Two-factor sign-in, passkeys and single sign-on (issue 15): the request and answer shapes, written once for the
 * Security tab, the login page and the server (the words, without zod, are in security-messages.ts).
 */

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
export const passkeyNameSchema = requiredText(
  SECURITY_MESSAGES.passkeyNameRequired,
  60,
  SECURITY_MESSAGES.passkeyNameTooLong,
);
/** A WebAuthn ceremony's options or the browser's answer, as @simplewebauthn passes them (JSON). */
export const webAuthnJsonSchema = z.record(z.string(), z.unknown());
/** A passkey's creation options are handed out only for the proof that deleting the account asks. */
export const passkeyOptionsSchema = z.strictObject({ confirm: identityProofSchema });
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
  clientId: requiredText(SECURITY_MESSAGES.ssoClientIdRequired, 300, SECURITY_MESSAGES.ssoClientIdTooLong),
  /** Empty keeps the secret already saved. */
  clientSecret: z.string().max(1000).default(''),
  domains: ssoDomainsSchema,
});
export type SsoSettingsInput = z.input<typeof ssoSettingsInputSchema>;

export const ssoSwitchSchema = z.strictObject({ enabled: z.boolean(), required: z.boolean() });

export const ssoSettingsSchema = z.object({
  configured: z.boolean(),
  /** Which of the two the organisation signs in with (decision 0024): OpenID Connect or SAML 2.0. */
  protocol: z.enum(['oidc', 'saml']).nullable(),
  issuer: z.string().nullable(),
  clientId: z.string().nullable(),
  /** Whether a client secret is saved (it is never sent back). */
  hasClientSecret: z.boolean(),
  domains: z.array(z.string()),
  /** The redirect URI to register at the identity provider. */
  redirectUri: z.string(),
  /** Each domain's proof of ownership: the TXT record to publish and whether it was found. */
  verification: z.array(
    z.object({
      domain: z.string(),
      record: z.string(),
      status: z.enum(['pending', 'verified', 'failed']),
      checkedAt: z.string().nullable(),
    }),
  ),
  testedAt: z.string().nullable(),
  enabled: z.boolean(),
  required: z.boolean(),
});
export type SsoSettings = z.infer<typeof ssoSettingsSchema>;

/**
 * SAML 2.0 instead of OpenID Connect (decision 0024): the identity provider's metadata, pasted or by URL (fetched
 * by the server through its outbound guard); empty both keeps the metadata saved.
 */
export const samlSettingsInputSchema = z.strictObject({
  metadataXml: z.string().trim().max(200_000).default(''),
  metadataUrl: z.string().trim().max(500).default(''),
  domains: ssoDomainsSchema,
  /** Whether a response the identity provider sends unasked (sign-in started at its portal) is accepted. */
  allowIdpInitiated: z.boolean().default(false),
});
export type SamlSettingsInput = z.input<typeof samlSettingsInputSchema>;

export const samlSettingsSchema = z.object({
  /** Whether the organisation's single sign-on is SAML (saved metadata); the switches are those of `SsoSettings`. */
  configured: z.boolean(),
  idpEntityId: z.string().nullable(),
  idpSsoUrl: z.string().nullable(),
  /** SHA-256 fingerprints of the identity provider's signing certificates, and when each expires. */
  certificates: z.array(z.object({ fingerprint: z.string(), expiresAt: z.string() })),
  metadataUrl: z.string().nullable(),
  allowIdpInitiated: z.boolean(),
  /** What to register at the identity provider. */
  spEntityId: z.string(),
  spAcsUrl: z.string(),
  spMetadataUrl: z.string(),
});
export type SamlSettings = z.infer<typeof samlSettingsSchema>;

export const ssoVerifyDomainSchema = z.strictObject({ domain: z.string().trim().toLowerCase().max(253) });

/** 'Link single sign-on' on the Security tab: whether the signed-in person's organisation offers it, and if done. */
export const ssoLinkStatusSchema = z.object({ available: z.boolean(), linked: z.boolean() });
export type SsoLinkStatus = z.infer<typeof ssoLinkStatusSchema>;
/** Linking asks for the password or an authenticator code (never only a recent sign-in). */
export const ssoLinkSchema = z.strictObject({
  confirm: identityProofSchema.refine((proof) => proof.method !== 'recent-sign-in', {
    message: DELETION_MESSAGES.passwordRequired,
  }),
});

export const ssoStartSchema = z.strictObject({
  email: emailAddress({ required: AUTH_MESSAGES.emailRequired, invalid: AUTH_MESSAGES.emailInvalid }),
});
export const redirectSchema = z.object({ url: z.string() });
