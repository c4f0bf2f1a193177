import { auditBy, type AuditBy } from '../audit/record';
import { createRoute, type RouteHandler } from '@hono/zod-openapi';
import type { ApiScope } from '@pulsecheck/shared/api-tokens/rules';
import type { Locale } from '@pulsecheck/shared/i18n/languages';
import type { okSchema } from '@pulsecheck/shared/auth/schemas';
import { errorBodySchema } from '@pulsecheck/shared/api/errors';
import type { Context, MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode, StatusCode } from 'hono/utils/http-status';
import { tokenGate } from '../auth/api-tokens';
import { requireUser, type SessionUser } from '../auth/session';
import { languageOfRequest } from '../mail/language';
import { PATH_PARAMS, type PathParam } from './params';
import { createRouter, type AppDeps, type AppEnv } from './router';
import { z } from 'zod';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
/**
 * Statuses answered by a thrown `AppError`, always with the shared error body. A route lists those its rules
 * answer; 400 (input), 401 (`call`: no session) and 404 (an id in the path) are added where they apply.
 */
type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 429 | 503;
/** A response the handler returns itself: `[status, schema, description]`, JSON unless a media type follows. */
type Answer = readonly [status: StatusCode, schema: z.ZodType, description: string, mediaType?: string];

type MediaType<A extends Answer> = A extends readonly [StatusCode, z.ZodType, string, infer M extends string]
  ? M
  : 'application/json';
type Content<M extends string, S> = { [K in M]: { schema: S } };
type Response<A extends Answer> = { content: Content<MediaType<A>, A[1]>; description: string };
type Responses<O extends Answer | readonly Answer[]> = O extends Answer
  ? { [S in O[0]]: Response<O> }
  : O extends readonly Answer[]
    ? { [A in O[number] as A[0]]: Response<A> }
    : never;
type Part<K extends string, S> = S extends z.ZodType ? Record<K, S> : Record<never, never>;
type Body<M extends string, S> = S extends z.ZodType
  ? { body: { content: Content<M, S>; required: true } }
  : Record<never, never>;

const content = (mediaType: string, schema: z.ZodType) => ({ [mediaType]: { schema } });
const response = (schema: z.ZodType, description: string, mediaType = 'application/json') => ({
  content: content(mediaType, schema),
  description,
});
const isAnswer = (ok: Answer | readonly Answer[]): ok is Answer => !Array.isArray(ok[0]);

type Spec<Q, J, F, O> = {
  query?: Q;
  body?: J;
  form?: F;
  ok: O;
  errors?: ErrorStatus[];
  /**
   * The API token scope that opens this route to `Authorization: Bearer pc_…` (decision 0020). Without one, only a
   * browser session (or nobody, with `public`) may call it, and a token gets 403 `session_required`.
   */
  scope?: ApiScope;
  /** `.handle` only: the route needs no sign-in (sign-up, sign-in, links whose token is the secret, probes). */
  public?: true;
};

/** The names of the two security schemes of the OpenAPI document (app.ts registers them). */
export const SECURITY_SCHEMES = { session: 'session', token: 'apiToken' } as const;
type PathOf<E extends string> = E extends `${string} ${infer Path}` ? Path : never;
/** The names in a path's `{braces}`. */
type NamesIn<P extends string> = P extends `${string}{${infer N}}${infer Rest}` ? N | NamesIn<Rest> : never;
/** A path's parameters: each name's one declaration in `PATH_PARAMS`, or nothing for a path without any. */
type ParamsOf<E extends string> = [NamesIn<PathOf<E>>] extends [never]
  ? undefined
  : z.ZodObject<{ [N in NamesIn<PathOf<E>> & PathParam]: (typeof PATH_PARAMS)[N] }>;
/** The route `declare` makes, typed from its arguments as a hand-written `createRoute` would be. */
type Declared<E extends string, O extends Answer | readonly Answer[], Q, J, F> = {
  method: E extends `${infer M extends Method} ${string}` ? M : never;
  path: PathOf<E>;
  tags: string[];
  summary: string;
  operationId: string;
  security: Record<string, string[]>[];
  middleware: MiddlewareHandler<AppEnv>[];
  request: Part<'params', ParamsOf<E>> &
    Part<'query', Q> &
    Body<'application/json', J> &
    Body<'multipart/form-data', F>;
  responses: Responses<O>;
};

/** The schema of a path's parameters, from the names in it; an unknown name is a programming error. */
function pathParams(path: string) {
  const names = [...path.matchAll(/\{(\w+)\}/g)].map(([, name = '']) => name);
  if (names.length === 0) return undefined;
  const unknown = names.find((name) => !(name in PATH_PARAMS));
  if (unknown) throw new Error(`${path}: declare {${unknown}} in PATH_PARAMS (lib/params.ts)`);
  return z.object(Object.fromEntries(names.map((name) => [name, PATH_PARAMS[name as PathParam]])));
}

/** `get /health-checks/{healthCheckId}/results` → `getHealthChecksByHealthCheckIdResults`: unique, stable. */
function operationId(method: string, path: string) {
  const words = path
    .replace(/^\/api\//, '/')
    .split('/')
    .filter(Boolean)
    .map((part) => {
      const param = /^\{(\w+)\}$/.exec(part)?.[1];
      const word = param ? `by-${param}` : part;
      return word.replace(/(^|[-_])(\w)/g, (_, __, letter: string) => letter.toUpperCase());
    });
  return `${method}${words.join('')}`;
}

function declare<E extends `${Method} /${string}`, O extends Answer | readonly Answer[], Q, J, F>(
  tags: string[],
  endpoint: E,
  summary: string,
  spec: Spec<Q, J, F, O>,
  signedIn = false,
) {
  const [method, path = ''] = endpoint.split(' ');
  const { query, body, form, ok, scope } = spec;
  const params = pathParams(path);
  const session = signedIn || !spec.public;
  // The statuses every route of its kind can answer go without saying: 400 for input that fails validation,
  // 404 for a malformed id in the path, 401 without a session (or with a bad token) where the route needs one,
  // 403 for a token without the route's scope (or on a route for sessions only), 429 past a token's rate limit.
  const errors = new Set<ErrorStatus>([
    ...(query || body || form ? [400 as const] : []),
    ...(session ? [401 as const] : []),
    403 as const,
    ...(params ? [404 as const] : []),
    ...(scope ? [429 as const] : []),
    ...(spec.errors ?? []),
  ]);
  // Who may call it, as the document says and `tokenGate` enforces: from the same declaration.
  const security = scope
    ? [{ [SECURITY_SCHEMES.session]: [] }, { [SECURITY_SCHEMES.token]: [scope] }]
    : session
      ? [{ [SECURITY_SCHEMES.session]: [] }]
      : [];
  const answers: readonly Answer[] = isAnswer(ok) ? [ok] : ok;
  const schema = (part: unknown) => part as z.ZodType;
  const request = {
    ...(params && { params }),
    ...(query && { query: schema(query) }),
    ...(body && { body: { content: content('application/json', schema(body)), required: true } }),
    ...(form && { body: { content: content('multipart/form-data', schema(form)), required: true } }),
  };
  const responses: Record<number, ReturnType<typeof response>> = {};
  // Two answers of one status are one response in two media types (an export as CSV or JSON Lines).
  for (const [status, schema, description, mediaType] of answers) {
    const same = responses[status];
    const own = response(schema, description, mediaType);
    responses[status] = same
      ? { content: { ...same.content, ...own.content }, description: `${same.description} or ${description}` }
      : own;
  }
  for (const status of [...errors].sort()) responses[status] = response(errorBodySchema, 'Error');
  // The split, the record and the optional parts lose the literal types the handler is typed from; they are
  // exactly the arguments'. Error statuses stay out of the type: handlers throw them, they never return them.
  return createRoute({
    method,
    path,
    tags,
    summary,
    operationId: operationId(method!, path),
    security,
    middleware: [tokenGate(scope)],
    ...(Object.keys(request).length > 0 && { request }),
    responses,
  } as unknown as Declared<E, O, Q, J, F>);
}

type Parsed<S> = S extends z.ZodType ? z.output<S> : unknown;
/**
 * What a `call` gives its service: the caller's id, who they are for the audit log (`by`: the person or API token,
 * and their address), and the validated path, query and body, merged. A route that hands the rest of its input on
 * as a body (answers, preferences, an action item) takes `by` out first: it is never stored with what it records.
 */
export type CallInput<E extends string, Q, J> = Parsed<ParamsOf<E>> &
  Parsed<Q> &
  Parsed<J> & { userId: string; by: AuditBy };
/** What a `call`'s service returns: the answer's body, or nothing where the answer is `{ ok: true }`. */
type Reply<S> = z.input<S> | (S extends typeof okSchema ? void : never);
type Endpoint = `${Method} /${string}`;
type Schema = z.ZodType | undefined;

/**
 * A feature's routes, declared in one place each: `routes('feature')`, then per route either
 * - `.call('put /things/{id}', 'Summary', { params, body, ok: [200, schema, 'Saved'], errors: [400, 401, 404] },
 *   service.saveThing)`: the usual route. A signed-in caller (401 otherwise) and one service call
 *   `(deps, { userId, ...params, ...query, ...body }, user, locale)` whose result is the `ok` answer
 *   (`{ ok: true }` when it returns nothing); `locale` is the request's language, for the words an answer
 *   carries (decision 0027); or
 * - `.handle(…same declaration…, async (c) => …)`: a handler of its own, for cookies, files, streams, rate limits.
 *
 * `params`, `query`, `body` (JSON) and `form` (multipart) are zod schemas; `ok` is the answer the handler returns
 * itself (or, for `.handle`, a list of them) and types its `c.json(…, status)`; `errors` are the statuses of
 * thrown `AppError`s. `scope` opens the route to API tokens holding it (`tokenGate`, auth/api-tokens.ts; the
 * document's `security` says the same); without one a token is refused there. `public` marks a `.handle` route
 * that needs no sign-in. Finish with `.router`.
 */
export function routes(...tags: string[]) {
  const router = createRouter();
  const feature = {
    router,
    handle<
      const E extends Endpoint,
      const O extends Answer | readonly Answer[],
      Q extends Schema = undefined,
      J extends Schema = undefined,
      F extends Schema = undefined,
    >(
      endpoint: E,
      summary: string,
      spec: Spec<Q, J, F, O>,
      handler: RouteHandler<Declared<E, O, Q, J, F>, AppEnv>,
    ) {
      router.openapi(declare(tags, endpoint, summary, spec), handler);
      return feature;
    },
    call<
      const E extends Endpoint,
      const O extends Answer,
      Q extends Schema = undefined,
      J extends Schema = undefined,
    >(
      endpoint: E,
      summary: string,
      spec: Spec<Q, J, undefined, O>,
      run: (
        deps: AppDeps,
        input: CallInput<E, Q, J>,
        user: SessionUser,
        locale: Locale,
      ) => Promise<Reply<O[1]>>,
    ) {
      const [status] = spec.ok;
      const handler = async (c: Context<AppEnv>) => {
        const user = await requireUser(c);
        const valid = (target: 'param' | 'query' | 'json') =>
          (c.req.valid as (target: string) => object | undefined)(target);
        // The path names the resource: it wins over a body or query field of the same name.
        const input = {
          ...valid('json'),
          ...valid('query'),
          ...valid('param'),
          userId: user.id,
          by: auditBy(c, user),
        };
        const deps = c.get('deps');
        const locale = languageOfRequest(c.req.raw.headers, deps.config);
        const result = await run(deps, input as CallInput<E, Q, J>, user, locale);
        return c.json(result ?? { ok: true }, status as ContentfulStatusCode);
      };
      router.openapi(declare(tags, endpoint, summary, spec, true), handler);
      return feature;
    },
  };
  return feature;
}
