import { SCIM_TOKEN_ACTOR_LABEL } from '@pulsecheck/shared/audit/log';
import {
  SCIM_CONTENT_TYPE,
  SCIM_MESSAGES,
  scimBaseUrl,
  scimSettingsSchema,
  createdScimTokenSchema,
} from '@pulsecheck/shared/scim/rules';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { bearerOf } from '../../auth/api-tokens';
import { clientIpBehind } from '../../lib/client-ip';
import { AppError } from '../../lib/app-error';
import { languageOfRequest } from '../../mail/language';
import { translatorFor } from '../../lib/i18n';
import { limitBody } from '../../lib/body-limit';
import { routes } from '../../lib/openapi';
import type { AppEnv } from '../../lib/router';
import { resourceTypeOf, resourceTypes, schemaOf, schemas, serviceProviderConfig } from './discovery';
import { listResponse, ScimError } from './protocol';
import * as service from './service';

/** Account Settings → Security → 'SCIM provisioning': the base URL and the organisation's token. Session only. */
export const scimSettingsRoutes = routes('scim')
  .call(
    'get /organization/scim',
    "The organisation's SCIM provisioning: base URL, whether a token exists (never the token), verified domains (owner and organisation admins)",
    { ok: [200, scimSettingsSchema, 'Settings'], errors: [403] },
    (deps, { userId }) => service.getSettings(deps, userId),
  )
  .call(
    'post /organization/scim/token',
    "Create or rotate the organisation's SCIM token (its owner); the answer holds the token, shown this once, and the old token stops at once",
    { ok: [200, createdScimTokenSchema, 'Created'], errors: [403] },
    (deps, { userId, by }) => service.createToken(deps, userId, by),
  ).router;

type ScimEnv = AppEnv & { Variables: { scim: service.Scope } };

const SCIM_HEADERS = { 'content-type': `${SCIM_CONTENT_TYPE}; charset=utf-8`, 'cache-control': 'no-store' };

const answer = (c: Context<ScimEnv>, body: unknown, status: 200 | 201 = 200, location?: string) =>
  c.body(JSON.stringify(body), status, { ...SCIM_HEADERS, ...(location ? { location } : {}) });

async function bodyOf(c: Context<ScimEnv>): Promise<unknown> {
  const text = await c.req.text();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ScimError(400, SCIM_MESSAGES.invalidJson, 'invalidSyntax');
  }
}

/** Whether the error (or one it wraps) is a PostgreSQL unique violation: a race another request won. */
function uniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause)
    if ((e as { code?: unknown }).code === '23505') return true;
  return false;
}

/** The organisation of the request's SCIM token; 401 in the SCIM format without a valid one. */
const scimAuth: MiddlewareHandler<ScimEnv> = async (c, next) => {
  const secret = bearerOf(c);
  const { db, config } = c.get('deps');
  const organizationId = secret === null ? null : await service.authenticate(db, secret);
  if (!organizationId) {
    c.header('WWW-Authenticate', 'Bearer realm="SCIM"');
    throw new ScimError(401, SCIM_MESSAGES.unauthorized);
  }
  c.set('scim', {
    organizationId,
    base: scimBaseUrl(config.appUrl),
    by: {
      kind: 'scim-token',
      id: null,
      label: SCIM_TOKEN_ACTOR_LABEL,
      ip: clientIpBehind(c, config.trustProxyHops),
    },
  });
  await next();
};

/**
 * The SCIM 2.0 service (RFC 7644) at /scim/v2, for the organisation whose token the request carries. Every answer,
 * refusals included, is `application/scim+json`; refusals in the SCIM error format. `gate` is app.ts's database
 * gate (503 while the database cannot serve).
 */
export function scimRoutes(gate: MiddlewareHandler) {
  const app = new Hono<ScimEnv>();
  app.use('*', gate);
  app.use('*', limitBody(1024 * 1024, SCIM_MESSAGES.tooLarge));
  app.use('*', scimAuth);

  const scopeOf = (c: Context<ScimEnv>) => c.get('scim');
  const deps = (c: Context<ScimEnv>) => c.get('deps');
  const query = (c: Context<ScimEnv>) => c.req.query();

  app.get('/ServiceProviderConfig', (c) => answer(c, serviceProviderConfig(scopeOf(c).base)));
  app.get('/ResourceTypes', (c) => {
    const all = resourceTypes(scopeOf(c).base);
    return answer(c, listResponse(all, all.length, 1));
  });
  app.get('/ResourceTypes/:id', (c) => {
    const found = resourceTypeOf(scopeOf(c).base, c.req.param('id'));
    if (!found) throw new ScimError(404, SCIM_MESSAGES.notFoundRoute);
    return answer(c, found);
  });
  app.get('/Schemas', (c) => {
    const all = schemas(scopeOf(c).base);
    return answer(c, listResponse(all, all.length, 1));
  });
  app.get('/Schemas/:id', (c) => {
    const found = schemaOf(scopeOf(c).base, c.req.param('id'));
    if (!found) throw new ScimError(404, SCIM_MESSAGES.notFoundRoute);
    return answer(c, found);
  });

  app.get('/Users', async (c) => answer(c, await service.listUsers(deps(c), scopeOf(c), query(c))));
  app.post('/Users', async (c) => {
    const user = await service.createUser(deps(c), scopeOf(c), await bodyOf(c));
    return answer(c, user, 201, user.meta.location);
  });
  app.get('/Users/:id', async (c) =>
    answer(c, await service.getUser(deps(c), scopeOf(c), c.req.param('id'))),
  );
  app.put('/Users/:id', async (c) =>
    answer(c, await service.replaceUser(deps(c), scopeOf(c), c.req.param('id'), await bodyOf(c))),
  );
  app.patch('/Users/:id', async (c) =>
    answer(c, await service.patchUser(deps(c), scopeOf(c), c.req.param('id'), await bodyOf(c))),
  );
  app.delete('/Users/:id', async (c) => {
    await service.deleteUser(deps(c), scopeOf(c), c.req.param('id'));
    return c.body(null, 204);
  });

  app.get('/Groups', async (c) => answer(c, await service.listGroups(deps(c), scopeOf(c), query(c))));
  app.post('/Groups', async (c) => {
    const group = await service.createGroup(deps(c), scopeOf(c), await bodyOf(c));
    return answer(c, group, 201, group.meta.location);
  });
  app.get('/Groups/:id', async (c) =>
    answer(c, await service.getGroup(deps(c), scopeOf(c), c.req.param('id'), query(c))),
  );
  app.put('/Groups/:id', async (c) =>
    answer(c, await service.replaceGroup(deps(c), scopeOf(c), c.req.param('id'), await bodyOf(c))),
  );
  app.patch('/Groups/:id', async (c) => {
    await service.patchGroup(deps(c), scopeOf(c), c.req.param('id'), await bodyOf(c));
    return c.body(null, 204);
  });
  app.delete('/Groups/:id', async (c) => {
    await service.deleteGroup(deps(c), scopeOf(c), c.req.param('id'));
    return c.body(null, 204);
  });

  // Anything else under /scim/v2 is a SCIM 404, never the web app.
  app.all('*', () => {
    throw new ScimError(404, SCIM_MESSAGES.notFoundRoute);
  });

  app.onError((error, c) => {
    const known =
      error instanceof ScimError
        ? error
        : error instanceof AppError
          ? new ScimError(error.status, error.message, undefined, error.values)
          : uniqueViolation(error)
            ? new ScimError(409, SCIM_MESSAGES.userExists, 'uniqueness')
            : null;
    const { health, logger } = c.get('deps');
    const fault = known ? undefined : health.report(error);
    const refusal =
      known ??
      (fault
        ? new ScimError(503, SCIM_MESSAGES.databaseUnavailable)
        : new ScimError(500, 'errors.unexpected'));
    if (!known && !fault)
      logger.error({ err: error, method: c.req.method, path: c.req.path }, 'unhandled SCIM error');
    if (refusal.status === 503) c.header('Retry-After', '5');
    // The detail in the request's language: English unless the identity provider sends Accept-Language.
    const translator = translatorFor(languageOfRequest(c.req.raw.headers, c.get('deps').config));
    return c.body(JSON.stringify(refusal.toBody(translator)), refusal.status as 400, SCIM_HEADERS);
  });
  return app;
}
