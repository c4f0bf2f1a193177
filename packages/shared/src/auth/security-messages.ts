/**
 * Two-factor sign-in, passkeys and single sign-on (issue 15): the constants and the words, without zod, so the
 * login page paints with them and loads no schema code (security.ts re-exports everything here). The words are
 * catalogue keys (area `security`, packages/shared/messages/<language>/security.json; decision 0027).
 */

/** How many recovery codes enrolment and regeneration hand out. */
export const RECOVERY_CODE_COUNT = 10;
/** How long 'Trust this device' spares the second step. */
export const TRUST_DEVICE_DAYS = 30;

export const SECURITY_MESSAGES = {
  codeRequired: 'security.codeRequired',
  codeInvalid: 'security.codeInvalid',
  codeReplayed: 'security.codeReplayed',
  recoveryCodeRequired: 'security.recoveryCodeRequired',
  recoveryCodeInvalid: 'security.recoveryCodeInvalid',
  signInExpired: 'security.signInExpired',
  passwordWrong: 'security.passwordWrong',
  alreadyEnabled: 'security.alreadyEnabled',
  notEnabled: 'security.notEnabled',
  enrolmentRequired: 'security.enrolmentRequired',
  passkeyNameRequired: 'security.passkeyNameRequired',
  passkeyNameTooLong: 'security.passkeyNameTooLong',
  passkeyFailed: 'security.passkeyFailed',
  passkeySignInFailed: 'security.passkeySignInFailed',
  passkeyProofRequired: 'security.passkeyProofRequired',
  passkeyUserVerification: 'security.passkeyUserVerification',
  /** The password change and reset screens' checkbox: the server also deletes every passkey of the account. */
  alsoRemovePasskeys: 'security.alsoRemovePasskeys',
  organizationOnly: 'security.organizationOnly',
  noOrganization: 'security.noOrganization',
  ssoRequired: 'security.ssoRequired',
  ssoNotSetUp: 'security.ssoNotSetUp',
  ssoNotConfigured: 'security.ssoNotConfigured',
  ssoNotTested: 'security.ssoNotTested',
  ssoRequireNeedsEnabled: 'security.ssoRequireNeedsEnabled',
  ssoIssuerInvalid: 'security.ssoIssuerInvalid',
  ssoIssuerUnreachable: 'security.ssoIssuerUnreachable',
  ssoDomainTaken: 'security.ssoDomainTaken',
  ssoDomainNotVerified: 'security.ssoDomainNotVerified',
  ssoDomainUnknown: 'security.ssoDomainUnknown',
  ssoNoVerifiedDomain: 'security.ssoNoVerifiedDomain',
  ssoLinkUnavailable: 'security.ssoLinkUnavailable',
  ssoDomainPublic: 'security.ssoDomainPublic',
  ssoDomainsRequired: 'security.ssoDomainsRequired',
  ssoDomainInvalid: 'security.ssoDomainInvalid',
  ssoClientIdRequired: 'security.ssoClientIdRequired',
  ssoClientIdTooLong: 'security.ssoClientIdTooLong',
  ssoClientSecretRequired: 'security.ssoClientSecretRequired',
  samlMetadataRequired: 'security.samlMetadataRequired',
  samlMetadataBoth: 'security.samlMetadataBoth',
  samlMetadataInvalid: 'security.samlMetadataInvalid',
  samlMetadataUrlInvalid: 'security.samlMetadataUrlInvalid',
  samlMetadataUnreachable: 'security.samlMetadataUnreachable',
  /** The Security tab's warning beside the switch 'Allow sign-in started at the identity provider'. */
  samlIdpInitiatedRisk: 'security.samlIdpInitiatedRisk',
} as const;

/**
 * Why a sign-in through the identity provider was refused, as the login page's `sso_error` names it; nothing was
 * created in any of these cases.
 */
export const SSO_ERRORS = {
  state: 'security.ssoError.state',
  token: 'security.ssoError.token',
  nonce: 'security.ssoError.nonce',
  email_unverified: 'security.ssoError.email_unverified',
  domain: 'security.ssoError.domain',
  unreachable: 'security.ssoError.unreachable',
  denied: 'security.ssoError.denied',
  not_enabled: 'security.ssoError.not_enabled',
  account_exists: 'security.ssoError.account_exists',
  link_mismatch: 'security.ssoError.link_mismatch',
  replayed: 'security.ssoError.replayed',
  expired: 'security.ssoError.expired',
  relay_state: 'security.ssoError.relay_state',
  unsolicited: 'security.ssoError.unsolicited',
  failed: 'security.ssoError.failed',
} as const;
export type SsoErrorCode = keyof typeof SSO_ERRORS;

/** The TXT record that proves an organisation controls a domain (features/sso/domains.ts), exactly as to publish it. */
export const ssoVerificationRecord = (token: string) => `pulsecheck-verification=${token}`;

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
