import { createRoute } from '@hono/zod-openapi';
import { errorBodySchema } from '@pulsecheck/shared/api/errors';
import type { StatusCode } from 'hono/utils/http-status';
import type { z } from 'zod';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
/** Statuses answered by a thrown `AppError`, always with the shared error body. */
type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 429;
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

/**
 * The one way to declare a route. Once per feature `const route = routesOf('feature')`, then per route
 * `.openapi(route('get /things/{id}', 'Summary', { params, ok: [200, schema, 'Description'], errors: [401, 404] }), handler)`.
 * `params`, `query`, `body` (JSON) and `form` (multipart) are zod schemas; `ok` is the answer the handler returns
 * itself (or a list of them) and types its `c.json(…, status)`; `errors` are the statuses of thrown `AppError`s.
 * The handler's `c.req.valid(…)` is typed from the schemas, as with a hand-written `createRoute`.
 */
export const routesOf =
  (...tags: string[]) =>
  <
    const E extends `${Method} /${string}`,
    const O extends Answer | readonly Answer[],
    Params extends z.ZodType | undefined = undefined,
    Query extends z.ZodType | undefined = undefined,
    Json extends z.ZodType | undefined = undefined,
    Form extends z.ZodType | undefined = undefined,
  >(
    endpoint: E,
    summary: string,
    spec: {
      params?: Params;
      query?: Query;
      body?: Json;
      form?: Form;
      ok: O;
      errors?: ErrorStatus[];
    },
  ) => {
    const [method, path] = endpoint.split(' ');
    const { params, query, body, form, ok, errors = [] } = spec;
    const answers: readonly Answer[] = isAnswer(ok) ? [ok] : ok;
    const request = {
      ...(params && { params }),
      ...(query && { query }),
      ...(body && { body: { content: content('application/json', body), required: true } }),
      ...(form && { body: { content: content('multipart/form-data', form), required: true } }),
    };
    const responses: Record<number, ReturnType<typeof response>> = {};
    for (const [status, schema, description, mediaType] of answers)
      responses[status] = response(schema, description, mediaType);
    for (const status of errors) responses[status] = response(errorBodySchema, 'Error');
    // The split, the record and the optional parts lose the literal types the handler is typed from; they are
    // exactly the arguments'. Error statuses stay out of the type: handlers throw them, they never return them.
    return createRoute({
      method,
      path,
      tags,
      summary,
      ...(Object.keys(request).length > 0 && { request }),
      responses,
    } as {
      method: E extends `${infer M} ${string}` ? M : never;
      path: E extends `${string} ${infer P}` ? P : never;
      tags: string[];
      summary: string;
      request: Part<'params', Params> &
        Part<'query', Query> &
        Body<'application/json', Json> &
        Body<'multipart/form-data', Form>;
      responses: Responses<O>;
    });
  };
