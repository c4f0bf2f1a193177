import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { API_TOKEN_KINDS } from '@pulsecheck/shared/api-tokens/rules';
import { user, userRef } from './auth';
import { createdAt, instant, sqlList } from './columns';
import { organizations } from './organizations';

/**
 * API tokens (issue 35, decision 0020). Only the SHA-256 of a token is kept: a token is 256 random bits, so a
 * plain fast hash cannot be reversed or guessed, and the lookup is one indexed equality. A personal token belongs
 * to its person (deleted with them); an organisation token to its organisation, whoever made it (it outlives them).
 * The id is text: an organisation token acts as a principal of that id (auth/access.ts, organizationRoleSql).
 */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: text('id')
      .primaryKey()
      .default(sql`gen_random_uuid()::text`),
    kind: text('kind').notNull(),
    name: text('name').notNull(),
    /** Hex SHA-256 of the whole token (`pc_…`). */
    tokenHash: text('token_hash').notNull().unique(),
    /** The token's first characters, to tell tokens apart on the screen. */
    start: text('start').notNull(),
    scopes: text('scopes').array().notNull(),
    /** The person a personal token acts for. */
    userId: text('user_id').references(() => user.id, { onDelete: 'cascade' }),
    /** The organisation an organisation token acts for. */
    organizationId: uuid('organization_id').references(() => organizations.id, { onDelete: 'cascade' }),
    createdBy: userRef('created_by'),
    createdAt: createdAt(),
    expiresAt: instant('expires_at'),
    /** Written at most once a minute per token (API_TOKEN_LAST_USE_PRECISION_SECONDS). */
    lastUsedAt: instant('last_used_at'),
  },
  (t) => [
    index('api_tokens_user_id_idx').on(t.userId),
    index('api_tokens_organization_id_idx').on(t.organizationId),
    check('api_tokens_kind_check', sql`${t.kind} in ${sqlList(API_TOKEN_KINDS)}`),
    check(
      'api_tokens_owner_check',
      sql`(${t.kind} = 'personal' and ${t.userId} is not null and ${t.organizationId} is null)
        or (${t.kind} = 'organization' and ${t.organizationId} is not null and ${t.userId} is null)`,
    ),
  ],
);
