import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { DEFAULT_LANGUAGE, LANGUAGES } from '@pulsecheck/shared/i18n/languages';
import { uuidPrimaryKey, createdAt, updatedAt, instant, bytea, sqlList } from './columns';
import { ownerRef, ssoProvider, user, userRef } from './auth';

export const organizations = pgTable(
  'organizations',
  {
    id: uuidPrimaryKey(),
    name: text('name').notNull(),
    companySize: text('company_size'),
    createdBy: userRef('created_by'),
    metadata: jsonb('metadata'),
    /** Everyone in the organisation must have two-factor sign-in; those without are led to enrol first. */
    requireTwoFactor: boolean('require_two_factor').notNull().default(false),
    /** Branding: the primary buttons' colour on participant screens and e-mails, `#rrggbb` (shared/branding). */
    accentColor: text('accent_color'),
    /** The language of e-mails to people without an account's own choice, and of its screens' first visit. */
    defaultLanguage: text('default_language').notNull().default(DEFAULT_LANGUAGE),
    createdAt: createdAt(),
  },
  (t) => [
    // One organisation per admin: the set-up runs exactly once.
    uniqueIndex('organizations_created_by_key').on(t.createdBy),
    check('organizations_default_language_check', sql`${t.defaultLanguage} IN ${sqlList(LANGUAGES)}`),
  ],
);

/**
 * The organisation admins its owner (organizations.created_by) appointed. A row counts only while the person is an
 * admin or member of one of the organisation's workspaces (auth/access.ts, organizationRoleSql).
 */
export const organizationAdmins = pgTable(
  'organization_admins',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: ownerRef(),
    appointedBy: userRef('appointed_by'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.userId] }),
    index('organization_admins_user_idx').on(t.userId),
  ],
);

export const workspaces = pgTable(
  'workspaces',
  {
    id: uuidPrimaryKey(),
    name: text('name').notNull(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    createdBy: userRef('created_by'),
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('workspaces_organization_id_idx').on(t.organizationId),
    uniqueIndex('workspaces_one_default_key')
      .on(t.organizationId)
      .where(sql`${t.isDefault}`),
  ],
);

/** The column that ties a row to its workspace (deleted with it). */
export const workspaceRef = () =>
  uuid('workspace_id')
    .notNull()
    .references(() => workspaces.id, { onDelete: 'cascade' });

export const departments = pgTable(
  'departments',
  {
    id: uuidPrimaryKey(),
    workspaceId: workspaceRef(),
    name: text('name').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('departments_workspace_name_key').on(t.workspaceId, sql`lower(${t.name})`)],
);

export const workspaceMembers = pgTable(
  'workspace_members',
  {
    id: uuidPrimaryKey(),
    workspaceId: workspaceRef(),
    /** Null while an invitation is pending for someone without an account. */
    userId: text('user_id').references(() => user.id, { onDelete: 'cascade' }),
    /** What the server allows: admin, member or participant. */
    access: text('access').notNull(),
    /** Free-text label shown in the team table (display default 'Member'). */
    role: text('role'),
    invitationEmail: text('invitation_email'),
    departmentId: uuid('department_id').references(() => departments.id, { onDelete: 'set null' }),
    status: text('status').notNull().default('active'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('workspace_members_workspace_user_key').on(t.workspaceId, t.userId),
    index('workspace_members_user_id_idx').on(t.userId),
    check('workspace_members_access_check', sql`${t.access} in ('admin', 'member', 'participant')`),
    // 'suspended': deactivated by the organisation's SCIM provisioning (features/scim), kept to be restored.
    check('workspace_members_status_check', sql`${t.status} in ('active', 'pending', 'suspended')`),
  ],
);

export const userPreferences = pgTable('user_preferences', {
  userId: text('user_id')
    .primaryKey()
    .references(() => user.id, { onDelete: 'cascade' }),
  activeWorkspaceId: uuid('active_workspace_id').references(() => workspaces.id, { onDelete: 'set null' }),
  updatedAt: updatedAt(),
});

/** An e-mailed invitation to a pending member; the token is stored hashed and expires after 7 days. */
export const invitations = pgTable(
  'invitations',
  {
    id: uuidPrimaryKey(),
    memberId: uuid('member_id')
      .notNull()
      .references(() => workspaceMembers.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    invitedBy: userRef('invited_by'),
    expiresAt: instant('expires_at').notNull(),
    acceptedAt: instant('accepted_at'),
    revokedAt: instant('revoked_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('invitations_token_hash_key').on(t.tokenHash),
    index('invitations_member_id_idx').on(t.memberId),
  ],
);

/**
 * An organisation's single sign-on (features/sso): its provider row of @better-auth/sso, when 'Test connection'
 * last succeeded for the provider as configured now, whether sign-in through it is on, and whether the covered
 * domains must use it (password sign-in, sign-up and reset refused).
 */
export const organizationSso = pgTable('organization_sso', {
  organizationId: uuid('organization_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  providerId: text('provider_id')
    .notNull()
    .unique()
    .references(() => ssoProvider.providerId, { onDelete: 'cascade' }),
  testedAt: instant('tested_at'),
  enabled: boolean('enabled').notNull().default(false),
  required: boolean('required').notNull().default(false),
  updatedAt: updatedAt(),
});

/** The e-mail domains an organisation's SSO covers; a domain belongs to one organisation at most. */
/**
 * The domains an organisation's SSO covers. A domain is used for SSO only once DNS proved the organisation controls
 * it (a TXT record `pulsecheck-verification=<token>` on the domain, features/sso/domains.ts): `status` is
 * 'pending' until then, 'verified' after, 'failed' when a check (the button or the daily re-check) did not find the
 * record. Several organisations may claim a domain; at most one has it verified.
 */
export const ssoDomains = pgTable(
  'sso_domains',
  {
    domain: text('domain').notNull(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizationSso.organizationId, { onDelete: 'cascade' }),
    token: text('token').notNull(),
    status: text('status', { enum: ['pending', 'verified', 'failed'] })
      .notNull()
      .default('pending'),
    checkedAt: instant('checked_at'),
    verifiedAt: instant('verified_at'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.domain] }),
    uniqueIndex('sso_domains_verified_domain_key')
      .on(t.domain)
      .where(sql`status = 'verified'`),
    check('sso_domains_status_check', sql`status in ('pending', 'verified', 'failed')`),
  ],
);

/**
 * The organisation's logo (branding): at most one, PNG, JPEG or WebP as told by its bytes. A new upload gets a new
 * id, so the public URL of a logo never changes what it shows and caches for good.
 */
export const organizationLogos = pgTable('organization_logos', {
  id: uuidPrimaryKey(),
  organizationId: uuid('organization_id')
    .notNull()
    .unique()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  contentType: text('content_type').notNull(),
  data: bytea('data').notNull(),
  createdAt: createdAt(),
});

/**
 * SAML assertions accepted (features/sso/saml.ts): each assertion id once, across every process sharing the
 * database, for as long as the assertion could still be valid; expired rows are deleted as new ones arrive.
 */
export const samlAssertions = pgTable(
  'saml_assertions',
  {
    /** The identity provider's entity id and the assertion's ID: ids are unique per issuer only. */
    issuer: text('issuer').notNull(),
    assertionId: text('assertion_id').notNull(),
    expiresAt: instant('expires_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.issuer, t.assertionId] }),
    index('saml_assertions_expires_at_idx').on(t.expiresAt),
  ],
);
