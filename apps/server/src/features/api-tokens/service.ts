import { NOT_FOUND_MESSAGES } from '@pulsecheck/shared/api/errors';
import {
  API_TOKEN_MESSAGES,
  createApiTokenSchema,
  type ApiScope,
  type ApiToken,
  type CreateApiToken,
  type CreatedApiToken,
} from '@pulsecheck/shared/api-tokens/rules';
import { recordAudit, recordAuditWhereUser, type AuditBy, type AuditRecord } from '../../audit/record';
import { organizationOf } from '../../auth/access';
import { hashToken, newTokenSecret } from '../../auth/api-tokens';
import { can } from '../../auth/policy';
import type { Db } from '../../db/client';
import { AppError, forbidden, notFound } from '../../lib/app-error';
import type { AppDeps } from '../../lib/router';
import * as q from './queries';

/**
 * Making, listing and revoking API tokens (issue 35, decision 0020). Personal tokens are the signed-in person's;
 * organisation tokens belong to the organisation, made and revoked by its owner and organisation admins
 * (`organization:administer`). Revoking deletes the row: the next request with the token is refused.
 */

type Deps = Pick<AppDeps, 'db'>;

const iso = (value: string | Date | null) => (value === null ? null : new Date(value).toISOString());

function present(row: Awaited<ReturnType<typeof q.listTokens>>[number]): ApiToken {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind as ApiToken['kind'],
    scopes: row.scopes as ApiScope[],
    start: row.start,
    createdAt: iso(row.createdAt)!,
    createdBy: row.createdBy,
    expiresAt: iso(row.expiresAt),
    lastUsedAt: iso(row.lastUsedAt),
  };
}

/** The organisation whose tokens the user manages: theirs, when they are its owner or an organisation admin. */
async function organizationOwner(db: Db, userId: string): Promise<q.TokenOwner> {
  const organization = await organizationOf(db, userId);
  if (!organization) throw new AppError('not_found', API_TOKEN_MESSAGES.organizationOnly);
  if (!can({ userId, access: null, organizationRole: organization.role }, 'organization:administer'))
    throw forbidden(API_TOKEN_MESSAGES.organizationOnly);
  return { kind: 'organization', organizationId: organization.id };
}

type Caller = { userId: string; by: AuditBy };

/**
 * A token's making or revoking, recorded in its transaction: an organisation token in its organisation, a personal
 * one in every organisation its person is in (it acts in all of them).
 */
const recordToken = (tx: Db, owner: q.TokenOwner, by: AuditBy, record: AuditRecord) =>
  owner.kind === 'organization'
    ? recordAudit(tx, owner.organizationId, by, record)
    : recordAuditWhereUser(tx, owner.userId, 'member', by, record);

async function create(db: Db, owner: q.TokenOwner, { userId, by }: Caller, input: CreateApiToken) {
  const { name, scopes, expiresInDays } = createApiTokenSchema.parse(input);
  const secret = newTokenSecret();
  const row = await db.transaction(async (tx) => {
    const created = await q.insertToken(tx, {
      owner,
      name,
      scopes,
      tokenHash: hashToken(secret),
      start: secret.slice(0, 8),
      createdBy: userId,
      expiresAt: expiresInDays === null ? null : new Date(Date.now() + expiresInDays * 86_400_000),
    });
    await recordToken(tx, owner, by, {
      action: 'api-token.created',
      targetType: `${owner.kind} api-token`,
      targetId: created.id,
      targetLabel: name,
      changes: { scopes, expiresInDays },
    });
    return created;
  });
  return { token: present(row), secret } satisfies CreatedApiToken;
}

async function revoke(db: Db, owner: q.TokenOwner, by: AuditBy, id: string) {
  await db.transaction(async (tx) => {
    const name = await q.deleteToken(tx, owner, id);
    if (name === null) throw notFound(NOT_FOUND_MESSAGES.apiToken);
    await recordToken(tx, owner, by, {
      action: 'api-token.revoked',
      targetType: `${owner.kind} api-token`,
      targetId: id,
      targetLabel: name,
    });
  });
}

export async function listPersonalTokens({ db }: Deps, { userId }: { userId: string }) {
  return { tokens: (await q.listTokens(db, { kind: 'personal', userId })).map(present) };
}

export const createPersonalToken = ({ db }: Deps, { userId, by, ...input }: CreateApiToken & Caller) =>
  create(db, { kind: 'personal', userId }, { userId, by }, input);

export const revokePersonalToken = ({ db }: Deps, options: Caller & { apiTokenId: string }) =>
  revoke(db, { kind: 'personal', userId: options.userId }, options.by, options.apiTokenId);

export async function listOrganizationTokens({ db }: Deps, { userId }: { userId: string }) {
  return { tokens: (await q.listTokens(db, await organizationOwner(db, userId))).map(present) };
}

export async function createOrganizationToken(
  { db }: Deps,
  { userId, by, ...input }: CreateApiToken & Caller,
) {
  return create(db, await organizationOwner(db, userId), { userId, by }, input);
}

export async function revokeOrganizationToken({ db }: Deps, options: Caller & { apiTokenId: string }) {
  await revoke(db, await organizationOwner(db, options.userId), options.by, options.apiTokenId);
}
