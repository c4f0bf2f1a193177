import { sql } from 'drizzle-orm';
import { boolean, index, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { ownerRef, userRef } from './auth';
import { createdAt, instant, updatedAt, uuidPrimaryKey } from './columns';
import { organizations } from './organizations';

/**
 * SCIM 2.0 provisioning (issue 37, decision 0025): the organisation's one bearer token. Only the SHA-256 of the
 * token is kept (as API tokens, decision 0020); rotating replaces the hash, so the old token stops at once.
 */
export const organizationScim = pgTable('organization_scim', {
  organizationId: uuid('organization_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  /** Hex SHA-256 of the whole token (`pcscim_…`). */
  tokenHash: text('token_hash').notNull().unique(),
  /** The token's first characters, to tell tokens apart on the screen. */
  start: text('start').notNull(),
  createdBy: userRef('created_by'),
  createdAt: createdAt(),
  lastUsedAt: instant('last_used_at'),
});

/**
 * A person as an organisation's identity provider manages them: the SCIM User resource (its `id` is this row's,
 * never the account's, so two organisations cannot correlate their ids). `user_name` is the account's e-mail
 * address, lower case, on a domain the organisation verified. `created_account`: the account was made by this
 * provisioning (it signs in through the organisation's SSO only); otherwise an existing account was linked and
 * provisioning never changes its e-mail address or name. `active` false: deactivated (its memberships of the
 * organisation's workspaces are 'suspended', features/scim/service.ts).
 */
export const scimUsers = pgTable(
  'scim_users',
  {
    id: uuidPrimaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: ownerRef(),
    userName: text('user_name').notNull(),
    externalId: text('external_id'),
    givenName: text('given_name'),
    familyName: text('family_name'),
    displayName: text('display_name'),
    /** The `emails` the provider sent, kept to answer them back; never used for sign-in. */
    emails: jsonb('emails').$type<{ value: string; type?: string; primary?: boolean }[]>(),
    active: boolean('active').notNull().default(true),
    createdAccount: boolean('created_account').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('scim_users_organization_user_key').on(t.organizationId, t.userId),
    // `filter=userName eq "…"` (case-insensitive, RFC 7643 2.2) is one probe of this index.
    uniqueIndex('scim_users_organization_user_name_key').on(t.organizationId, sql`lower(${t.userName})`),
    index('scim_users_organization_external_id_idx').on(t.organizationId, t.externalId),
    index('scim_users_user_id_idx').on(t.userId),
  ],
);
