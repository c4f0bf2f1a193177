import { and, desc, eq } from 'drizzle-orm';
import type { ApiScope, ApiTokenKind } from '@pulsecheck/shared/api-tokens/rules';
import type { Db } from '../../db/client';
import { apiTokens } from '../../db/schema/api-tokens';

export type TokenOwner =
  { kind: 'personal'; userId: string } | { kind: 'organization'; organizationId: string };

const ownedBy = (owner: TokenOwner) =>
  owner.kind === 'personal'
    ? and(eq(apiTokens.kind, 'personal'), eq(apiTokens.userId, owner.userId))
    : and(eq(apiTokens.kind, 'organization'), eq(apiTokens.organizationId, owner.organizationId));

const listed = {
  id: apiTokens.id,
  name: apiTokens.name,
  kind: apiTokens.kind,
  scopes: apiTokens.scopes,
  start: apiTokens.start,
  createdAt: apiTokens.createdAt,
  createdBy: apiTokens.createdBy,
  expiresAt: apiTokens.expiresAt,
  lastUsedAt: apiTokens.lastUsedAt,
};

export const listTokens = (db: Db, owner: TokenOwner) =>
  db.select(listed).from(apiTokens).where(ownedBy(owner)).orderBy(desc(apiTokens.createdAt));

export async function insertToken(
  db: Db,
  values: {
    owner: TokenOwner;
    name: string;
    scopes: ApiScope[];
    tokenHash: string;
    start: string;
    createdBy: string;
    expiresAt: Date | null;
  },
) {
  const { owner, ...rest } = values;
  const [row] = await db
    .insert(apiTokens)
    .values({
      ...rest,
      kind: owner.kind satisfies ApiTokenKind,
      userId: owner.kind === 'personal' ? owner.userId : null,
      organizationId: owner.kind === 'organization' ? owner.organizationId : null,
    })
    .returning(listed);
  return row!;
}

/** Deletes the token when it is the owner's; its name, or null when it was not. */
export async function deleteToken(db: Db, owner: TokenOwner, id: string): Promise<string | null> {
  const [row] = await db
    .delete(apiTokens)
    .where(and(eq(apiTokens.id, id), ownedBy(owner)))
    .returning({ name: apiTokens.name });
  return row?.name ?? null;
}
