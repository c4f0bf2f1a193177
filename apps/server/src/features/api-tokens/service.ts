import { NOT_FOUND_MESSAGES } from '@pulsecheck/shared/api/errors';
import {
  API_TOKEN_MESSAGES,
  createApiTokenSchema,
  type ApiScope,
  type ApiToken,
  type CreateApiToken,
  type CreatedApiToken,
} from '@pulsecheck/shared/api-tokens/rules';
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

async function create(db: Db, owner: q.TokenOwner, userId: string, input: CreateApiToken) {
  const { name, scopes, expiresInDays } = createApiTokenSchema.parse(input);
  const secret = newTokenSecret();
  const row = await q.insertToken(db, {
    owner,
    name,
    scopes,
    tokenHash: hashToken(secret),
    start: secret.slice(0, 8),
    createdBy: userId,
    expiresAt: expiresInDays === null ? null : new Date(Date.now() + expiresInDays * 86_400_000),
  });
  return { token: present(row), secret } satisfies CreatedApiToken;
}

async function revoke(db: Db, owner: q.TokenOwner, id: string) {
  if (!(await q.deleteToken(db, owner, id))) throw notFound(NOT_FOUND_MESSAGES.apiToken);
}

export async function listPersonalTokens({ db }: Deps, { userId }: { userId: string }) {
  return { tokens: (await q.listTokens(db, { kind: 'personal', userId })).map(present) };
}

export const createPersonalToken = (
  { db }: Deps,
  { userId, ...input }: CreateApiToken & { userId: string },
) => create(db, { kind: 'personal', userId }, userId, input);

export const revokePersonalToken = ({ db }: Deps, options: { userId: string; apiTokenId: string }) =>
  revoke(db, { kind: 'personal', userId: options.userId }, options.apiTokenId);

export async function listOrganizationTokens({ db }: Deps, { userId }: { userId: string }) {
  return { tokens: (await q.listTokens(db, await organizationOwner(db, userId))).map(present) };
}

export async function createOrganizationToken(
  { db }: Deps,
  { userId, ...input }: CreateApiToken & { userId: string },
) {
  return create(db, await organizationOwner(db, userId), userId, input);
}

export async function revokeOrganizationToken({ db }: Deps, options: { userId: string; apiTokenId: string }) {
  await revoke(db, await organizationOwner(db, options.userId), options.apiTokenId);
}
