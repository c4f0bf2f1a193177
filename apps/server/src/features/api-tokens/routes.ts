import { okSchema } from '@pulsecheck/shared/auth/schemas';
import {
  apiTokenListSchema,
  createApiTokenSchema,
  createdApiTokenSchema,
} from '@pulsecheck/shared/api-tokens/rules';
import { routes } from '../../lib/openapi';
import * as service from './service';

/** Account settings → 'API tokens'. Session only: a token never makes or sees tokens. */
export const apiTokenRoutes = routes('api-tokens')
  .call(
    'get /account/api-tokens',
    'Your personal API tokens: name, scopes, creation, expiry and last use (never the secret)',
    { ok: [200, apiTokenListSchema, 'Tokens'] },
    service.listPersonalTokens,
  )
  .call(
    'post /account/api-tokens',
    'Create a personal API token; the answer holds its secret, shown this once',
    { body: createApiTokenSchema, ok: [201, createdApiTokenSchema, 'Created'] },
    service.createPersonalToken,
  )
  .call(
    'delete /account/api-tokens/{apiTokenId}',
    'Revoke one of your API tokens: it stops working at once',
    { ok: [200, okSchema, 'Revoked'] },
    service.revokePersonalToken,
  )
  .call(
    'get /organization/api-tokens',
    "The organisation's API tokens (its owner and organisation admins)",
    { ok: [200, apiTokenListSchema, 'Tokens'] },
    service.listOrganizationTokens,
  )
  .call(
    'post /organization/api-tokens',
    'Create an organisation API token (organisation-admin rights within the organisation, limited by its scopes); its secret is shown this once',
    { body: createApiTokenSchema, ok: [201, createdApiTokenSchema, 'Created'] },
    service.createOrganizationToken,
  )
  .call(
    'delete /organization/api-tokens/{apiTokenId}',
    "Revoke one of the organisation's API tokens: it stops working at once",
    { ok: [200, okSchema, 'Revoked'] },
    service.revokeOrganizationToken,
  ).router;
