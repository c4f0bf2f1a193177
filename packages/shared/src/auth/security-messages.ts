/**
 * Two-factor sign-in, passkeys and single sign-on (issue 15): the constants and the words, without zod, so the
 * login page paints with them and loads no schema code (security.ts re-exports everything here).
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
  passkeyProofRequired: 'Confirm it is you again (password or code), then add the passkey.',
  passkeyUserVerification:
    'Your device did not check it is you (PIN, fingerprint or face). Use one that does, or set up its screen lock.',
  /** The password change and reset screens' checkbox: the server also deletes every passkey of the account. */
  alsoRemovePasskeys: 'Also remove my passkeys and sign out everywhere else',
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
  ssoDomainNotVerified:
    "The TXT record was not found on {domain}. Add it to the domain's DNS, wait a few minutes, then choose 'Verify domain' again.",
  ssoDomainUnknown: 'Save this domain in the single sign-on settings first.',
  ssoNoVerifiedDomain: "Verify at least one domain with 'Verify domain' before switching single sign-on on.",
  ssoLinkUnavailable:
    "Your organisation's single sign-on does not cover your e-mail address, so there is nothing to link.",
  ssoDomainPublic: 'A public e-mail provider cannot be covered by single sign-on.',
  ssoDomainsRequired: 'Enter at least one e-mail domain',
  ssoDomainInvalid: 'Enter domains like example.com, separated by commas',
  ssoClientIdRequired: 'Client ID is required',
  ssoClientSecretRequired: 'Client secret is required',
  samlMetadataRequired: "Paste the identity provider's metadata XML or enter its metadata URL",
  samlMetadataBoth: 'Paste the metadata XML or enter its URL, not both',
  samlMetadataInvalid:
    "This is not an identity provider's SAML 2.0 metadata: it needs an entity ID, a single sign-on address (HTTP-Redirect or HTTP-POST) and a signing certificate.",
  samlMetadataUrlInvalid:
    'Enter the metadata URL as https://… (a public address: private and local networks are refused).',
  samlMetadataUnreachable:
    'The metadata could not be fetched from this URL. Check the address and that it answers from the internet.',
  /** The Security tab's warning beside the switch 'Allow sign-in started at the identity provider'. */
  samlIdpInitiatedRisk:
    "Sign-in started at the identity provider cannot be tied to a request of this browser: someone could sign a colleague's browser into their own account, and a captured response is harder to notice. Leave it off unless your identity provider's portal needs it.",
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
  account_exists:
    "An account with this e-mail address already exists and has not linked single sign-on. Nothing was changed: sign in with your password, then use 'Link single sign-on' on the Security tab.",
  link_mismatch:
    "The identity provider signed you in with another e-mail address than your account's. Nothing was linked.",
  replayed: 'This answer of the identity provider was already used. Start again with "Sign in with SSO".',
  expired:
    'The identity provider\'s answer has expired (or this server\'s clock is off). Start again with "Sign in with SSO".',
  relay_state: 'The identity provider asked to send you to another site. Nothing was changed.',
  unsolicited:
    'Your organisation does not accept sign-in started at the identity provider. Use "Sign in with SSO" on this page.',
  failed: 'Single sign-on did not work. Try again, or ask your organisation admin.',
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
