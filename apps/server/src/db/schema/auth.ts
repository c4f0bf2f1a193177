import { bigint, boolean, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Tables of better-auth (field names as its Drizzle adapter expects), plus our profile columns on `user`. */
export const user = pgTable('user', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  email: text('email').notNull().unique(),
  emailVerified: boolean('email_verified').notNull().default(false),
  image: text('image'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  /** Job title; never decides access. */
  role: text('role'),
  companyName: text('company_name'),
  companySize: text('company_size'),
  /** 'pending_setup' for an admin until the organisation exists, then 'completed'; null for others. */
  setupStatus: text('setup_status'),
  setupStartedAt: timestamp('setup_started_at', { withTimezone: true }),
  /** The health check a participant signed up for, registered after verification and then cleared. */
  pendingJoinHealthCheckId: uuid('pending_join_health_check_id'),
  department: text('department'),
  bio: text('bio'),
  avatarId: uuid('avatar_id'),
  notificationPreferences: jsonb('notification_preferences'),
});

export const session = pgTable(
  'session',
  {
    id: text('id').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    token: text('token').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
  },
  (t) => [index('session_user_id_idx').on(t.userId)],
);

export const account = pgTable(
  'account',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    providerId: text('provider_id').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    accessToken: text('access_token'),
    refreshToken: text('refresh_token'),
    idToken: text('id_token'),
    accessTokenExpiresAt: timestamp('access_token_expires_at', { withTimezone: true }),
    refreshTokenExpiresAt: timestamp('refresh_token_expires_at', { withTimezone: true }),
    scope: text('scope'),
    password: text('password'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('account_user_id_idx').on(t.userId)],
);

export const verification = pgTable(
  'verification',
  {
    id: text('id').primaryKey(),
    identifier: text('identifier').notNull(),
    value: text('value').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
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
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    /** SHA-256 of the link's random token; the token itself is only in the e-mail. */
    tokenHash: text('token_hash').notNull().unique(),
    passwordHash: text('password_hash').notNull(),
    name: text('name').notNull(),
    profile: jsonb('profile').$type<SignupProfile>().notNull(),
    /** True for the sign-up that created the account (its hash is the account's password until verification). */
    createdAccount: boolean('created_account').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
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
