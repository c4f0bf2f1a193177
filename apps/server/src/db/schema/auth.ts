import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
  uuid,
  type PgColumnBuilderBase,
} from 'drizzle-orm/pg-core';
import { LANGUAGES } from '@pulsecheck/shared/i18n/languages';
import { uuidPrimaryKey, createdAt, updatedAt, instant, sqlList } from './columns';

/** Tables of better-auth (field names as its Drizzle adapter expects), plus our profile columns on `user`. */
export const user = pgTable(
  'user',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    email: text('email').notNull().unique(),
    emailVerified: boolean('email_verified').notNull().default(false),
    image: text('image'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** Job title; never decides access. */
    role: text('role'),
    companyName: text('company_name'),
    companySize: text('company_size'),
    /** 'pending_setup' for an admin until the organisation exists, then 'completed'; null for others. */
    setupStatus: text('setup_status'),
    setupStartedAt: instant('setup_started_at'),
    /** The health check a participant signed up for, registered after verification and then cleared. */
    pendingJoinHealthCheckId: uuid('pending_join_health_check_id'),
    department: text('department'),
    bio: text('bio'),
    avatarId: uuid('avatar_id'),
    notificationPreferences: jsonb('notification_preferences'),
    /** better-auth two-factor: true once an authenticator app is confirmed. */
    twoFactorEnabled: boolean('two_factor_enabled').notNull().default(false),
    /**
     * The language the person chose (shared/i18n/languages.ts), for every screen and e-mail; null until they choose
     * (their browser's then, and their organisation's default in e-mails). Checked by `user_language_check`.
     */
    language: text('language'),
  },
  (t) => [check('user_language_check', sql`${t.language} IN ${sqlList(LANGUAGES)}`)],
);

/** The column that makes a row a person's own: required, and deleted with them. */
export const ownerRef = (name = 'user_id') =>
  text(name)
    .notNull()
    .references(() => user.id, { onDelete: 'cascade' });
/** A column that names a person in a row that outlives them: it forgets them when they go. */
export const userRef = (name: string) => text(name).references(() => user.id, { onDelete: 'set null' });

export const session = pgTable(
  'session',
  {
    id: text('id').primaryKey(),
    expiresAt: instant('expires_at').notNull(),
    token: text('token').notNull().unique(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    userId: ownerRef(),
  },
  (t) => [index('session_user_id_idx').on(t.userId)],
);

export const account = pgTable(
  'account',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    providerId: text('provider_id').notNull(),
    userId: ownerRef(),
    accessToken: text('access_token'),
    refreshToken: text('refresh_token'),
    idToken: text('id_token'),
    accessTokenExpiresAt: instant('access_token_expires_at'),
    refreshTokenExpiresAt: instant('refresh_token_expires_at'),
    scope: text('scope'),
    password: text('password'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('account_user_id_idx').on(t.userId)],
);

export const verification = pgTable(
  'verification',
  {
    id: text('id').primaryKey(),
    identifier: text('identifier').notNull(),
    value: text('value').notNull(),
    expiresAt: instant('expires_at').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('verification_identifier_idx').on(t.identifier)],
);

export const rateLimit = pgTable('rate_limit', {
  id: text('id').primaryKey(),
  key: text('key').notNull().unique(),
  count: integer('count').notNull(),
  lastRequest: bigint('last_request', { mode: 'number' }).notNull(),
});

/**
 * One row per sign-up on an address that is not verified yet: the password hash (better-auth's hasher) and profile
 * that sign-up chose, bound to the single-use token in that sign-up's own verification link. Following that link
 * makes them the account's only credentials (features/auth, docs/security.md); verification
 * deletes every row of the user.
 */
export const signupCredentials = pgTable(
  'signup_credentials',
  {
    id: uuidPrimaryKey(),
    userId: ownerRef(),
    /** SHA-256 of the link's random token; the token itself is only in the e-mail. */
    tokenHash: text('token_hash').notNull().unique(),
    passwordHash: text('password_hash').notNull(),
    name: text('name').notNull(),
    profile: jsonb('profile').$type<SignupProfile>().notNull(),
    /** True for the sign-up that created the account (its hash is the account's password until verification). */
    createdAccount: boolean('created_account').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index('signup_credentials_user_id_idx').on(t.userId)],
);

export type SignupProfile = {
  role: string | null;
  companyName: string | null;
  companySize: string | null;
  setupStatus: string | null;
  pendingJoinHealthCheckId: string | null;
};

/** better-auth two-factor: the authenticator key and recovery codes, both encrypted by better-auth with AUTH_SECRET. */
export const twoFactor = pgTable(
  'two_factor',
  {
    id: text('id').primaryKey(),
    secret: text('secret').notNull(),
    backupCodes: text('backup_codes').notNull(),
    userId: ownerRef(),
    verified: boolean('verified').notNull().default(true),
    failedVerificationCount: integer('failed_verification_count').notNull().default(0),
    lockedUntil: instant('locked_until'),
    /** Ours: the last TOTP time step accepted, so a code is never accepted twice (auth/two-factor.ts). */
    lastTotpStep: bigint('last_totp_step', { mode: 'number' }),
  },
  (t) => [uniqueIndex('two_factor_user_id_key').on(t.userId)],
);

/** @better-auth/passkey: a person's WebAuthn credentials (public keys only). */
export const passkey = pgTable(
  'passkey',
  {
    id: text('id').primaryKey(),
    name: text('name'),
    publicKey: text('public_key').notNull(),
    userId: ownerRef(),
    credentialID: text('credential_id').notNull().unique(),
    counter: integer('counter').notNull(),
    deviceType: text('device_type').notNull(),
    backedUp: boolean('backed_up').notNull(),
    transports: text('transports'),
    createdAt: instant('created_at'),
    aaguid: text('aaguid'),
  },
  (t) => [index('passkey_user_id_idx').on(t.userId)],
);

/**
 * @better-auth/sso: one OpenID Connect provider per organisation. `oidc_config` holds the client secret, so the
 * column the running server uses is sealed (auth/sealed-column.ts); this plain one is for migrations only.
 */
export const ssoProviderTable = <C extends PgColumnBuilderBase, S extends PgColumnBuilderBase>(
  oidcConfig: C,
  samlConfig: S,
) =>
  pgTable('sso_provider', {
    id: text('id').primaryKey(),
    issuer: text('issuer').notNull(),
    oidcConfig,
    /** SAML 2.0 (features/sso/saml.ts, decision 0024): the identity provider's metadata and our switches, sealed. */
    samlConfig,
    userId: userRef('user_id'),
    providerId: text('provider_id').notNull().unique(),
    organizationId: text('organization_id'),
    domain: text('domain').notNull(),
  });
export const ssoProvider = ssoProviderTable(text('oidc_config'), text('saml_config'));
