import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import validatorModule from 'openapi-request-validator';
import type { OpenAPIV3 } from 'openapi-types';

// A CommonJS package: Vitest hands its default export, Playwright's loader the whole module object.
const OpenAPIRequestValidator =
  (validatorModule as unknown as { default?: typeof validatorModule }).default ?? validatorModule;

/**
 * A stand-in for GitHub's REST API on a loopback port (as a GitHub Enterprise Server: `<origin>/api/v3`), answering
 * as GitHub's documentation says for the endpoints Pulsecheck calls, and checking EVERY request it receives against
 * GitHub's published OpenAPI description (`@octokit/openapi`, api.github.com.json): the operation must exist for the
 * method and path, and its path and query parameters and JSON body must validate (openapi-request-validator; unknown
 * query parameters and unknown body properties are refused too). Whatever does not validate is recorded in
 * `violations` and answered 422, so a test that expects success fails.
 */

type Spec = OpenAPIV3.Document;
let spec: Spec | null = null;
function githubSpec(): Spec {
  if (!spec) {
    const file = createRequire(import.meta.url).resolve('@octokit/openapi/generated/api.github.com.json');
    spec = JSON.parse(readFileSync(file, 'utf8')) as Spec;
  }
  return spec;
}

/** A copy of `value` with every local $ref replaced by what it points at (the few operations used are acyclic). */
function resolve(value: unknown, depth = 0): unknown {
  if (depth > 40) throw new Error('$ref too deep');
  if (Array.isArray(value)) return value.map((item) => resolve(item, depth + 1));
  if (value === null || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  if (typeof record.$ref === 'string') {
    const target = record.$ref
      .slice(2)
      .split('/')
      .reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], githubSpec());
    return resolve(target, depth + 1);
  }
  return Object.fromEntries(Object.entries(record).map(([key, item]) => [key, resolve(item, depth + 1)]));
}

type Operation = {
  template: string;
  pattern: RegExp;
  names: string[];
  validator: InstanceType<typeof validatorModule>;
  params: OpenAPIV3.ParameterObject[];
};
const operations = new Map<string, Operation>();

/** The spec's operation for a method and a path, with its validator. */
function operationFor(method: string, path: string): (Operation & { values: Record<string, string> }) | null {
  const paths = githubSpec().paths;
  for (const template of Object.keys(paths)) {
    const names = [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
    const pattern = new RegExp(`^${template.replace(/\{\w+\}/g, '([^/]+)')}$`);
    const match = pattern.exec(path);
    const item = paths[template] as Record<string, OpenAPIV3.OperationObject | undefined>;
    if (!match || !item[method]) continue;
    const key = `${method} ${template}`;
    let operation = operations.get(key);
    if (!operation) {
      const op = resolve(item[method]) as OpenAPIV3.OperationObject;
      const params = (op.parameters ?? []) as OpenAPIV3.ParameterObject[];
      const requestBody = op.requestBody as OpenAPIV3.RequestBodyObject | undefined;
      const bodySchema = requestBody?.content['application/json']?.schema as
        OpenAPIV3.SchemaObject | undefined;
      // Stricter than the description: a body property it does not name is refused.
      if (
        bodySchema?.type === 'object' &&
        bodySchema.properties &&
        bodySchema.additionalProperties === undefined
      )
        bodySchema.additionalProperties = false;
      operation = {
        template,
        pattern,
        names,
        params,
        validator: new OpenAPIRequestValidator({
          parameters: params,
          requestBody,
          additionalQueryProperties: false,
        }),
      };
      operations.set(key, operation);
    }
    return {
      ...operation,
      values: Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(match[i + 1]!)])),
    };
  }
  return null;
}

/** Query and path values as their schema types (HTTP carries strings). */
function coerce(
  params: OpenAPIV3.ParameterObject[],
  where: 'query' | 'path',
  values: Record<string, string>,
): Record<string, string | number | boolean> {
  return Object.fromEntries(
    Object.entries(values).map(([name, value]): [string, string | number | boolean] => {
      const param = params.find((p) => p.name === name && p.in === where);
      const type = (param?.schema as OpenAPIV3.SchemaObject | undefined)?.type;
      if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(value))
        return [name, Number(value)];
      if (type === 'boolean' && (value === 'true' || value === 'false')) return [name, value === 'true'];
      return [name, value];
    }),
  );
}

export type FakeIssue = {
  number: number;
  title: string;
  body: string;
  state: 'open' | 'closed';
  assignee: string | null;
  updated_at: string;
};

export type GithubRequest = { method: string; path: string; query: Record<string, string>; body: unknown };

export type FakeGithub = {
  /** The address to type as the GitHub Enterprise Server's. */
  origin: string;
  requests: GithubRequest[];
  violations: string[];
  /** Tokens that work, and the login each acts as. */
  tokens: Map<string, string>;
  repositories: string[];
  issues: Map<string, FakeIssue[]>;
  /** Public e-mail → login, as GitHub's user search finds them. */
  publicEmails: Map<string, string>;
  /** Answer the next requests with this status (a tracker that refuses or is down); null: answer normally. */
  failWith: number | null;
  /** Changes an issue as someone on GitHub would: a later updated_at. */
  change(repository: string, number: number, change: Partial<Omit<FakeIssue, 'number'>>): FakeIssue;
  close(): Promise<void>;
};

const htmlUrl = (origin: string, repository: string, number: number) =>
  `${origin}/${repository}/issues/${number}`;
let clock = Date.parse('2026-11-28T12:00:00Z');
/** GitHub's updated_at has whole seconds; every change is one second later than the last. */
const nextTime = () => new Date((clock += 1000)).toISOString().replace(/\.\d{3}Z$/, 'Z');

export async function startFakeGithub(): Promise<FakeGithub> {
  githubSpec();
  const fake: FakeGithub = {
    origin: '',
    requests: [],
    violations: [],
    tokens: new Map(),
    repositories: [],
    issues: new Map(),
    publicEmails: new Map(),
    failWith: null,
    change(repository, number, change) {
      const issue = fake.issues.get(repository)?.find((i) => i.number === number);
      if (!issue) throw new Error(`no issue ${repository}#${number}`);
      Object.assign(issue, change, { updated_at: nextTime() });
      return issue;
    },
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
  const issueJson = (repository: string, issue: FakeIssue) => ({
    id: issue.number + 1000,
    node_id: `I_${issue.number}`,
    url: `${fake.origin}/api/v3/repos/${repository}/issues/${issue.number}`,
    html_url: htmlUrl(fake.origin, repository, issue.number),
    number: issue.number,
    state: issue.state,
    title: issue.title,
    body: issue.body,
    user: { login: 'someone', id: 1 },
    assignee: issue.assignee ? { login: issue.assignee, id: 2 } : null,
    assignees: issue.assignee ? [{ login: issue.assignee, id: 2 }] : [],
    labels: [],
    comments: 0,
    created_at: '2026-11-01T00:00:00Z',
    updated_at: issue.updated_at,
    closed_at: issue.state === 'closed' ? issue.updated_at : null,
  });

  async function answer(req: IncomingMessage, raw: string): Promise<{ status: number; body?: unknown }> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const method = (req.method ?? 'GET').toLowerCase();
    if (!url.pathname.startsWith('/api/v3/')) return { status: 404, body: { message: 'Not Found' } };
    const path = url.pathname.slice('/api/v3'.length);
    const query = Object.fromEntries(url.searchParams);
    const body: unknown = raw ? JSON.parse(raw) : undefined;
    fake.requests.push({ method, path, query, body });
    const operation = operationFor(method, path);
    if (!operation) {
      fake.violations.push(`${method} ${path}: no such operation in GitHub's OpenAPI description`);
      return { status: 404, body: { message: 'Not Found' } };
    }
    const errors = operation.validator.validateRequest({
      headers: req.headers,
      params: coerce(operation.params, 'path', operation.values),
      query: coerce(operation.params, 'query', query),
      body,
    }) as { errors?: { message: string; path?: string }[] } | undefined;
    if (errors?.errors?.length) {
      fake.violations.push(
        `${method} ${operation.template}: ${errors.errors.map((e) => `${e.path ?? ''} ${e.message}`).join('; ')}`,
      );
      return { status: 422, body: { message: 'Validation Failed' } };
    }
    if (fake.failWith !== null) return { status: fake.failWith, body: { message: 'Failing on purpose' } };
    const auth = /^(?:token|bearer) (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const login = auth ? fake.tokens.get(auth) : undefined;
    if (!login) return { status: 401, body: { message: 'Bad credentials' } };

    const { owner, repo, issue_number } = operation.values;
    const repository = `${owner}/${repo}`;
    const list = owner ? fake.issues.get(repository) : undefined;
    if (owner && !fake.repositories.includes(repository))
      return { status: 404, body: { message: 'Not Found' } };
    switch (`${method} ${operation.template}`) {
      case 'get /user':
        return { status: 200, body: { login, id: 1, type: 'User' } };
      case 'get /user/repos':
        return {
          status: 200,
          body: fake.repositories.map((name, i) => ({
            id: i + 1,
            name: name.split('/')[1],
            full_name: name,
            private: true,
            archived: false,
            has_issues: true,
          })),
        };
      case 'get /search/users': {
        const email = (query.q ?? '').replace(/\s+in:email$/, '');
        const found = fake.publicEmails.get(email);
        return {
          status: 200,
          body: {
            total_count: found ? 1 : 0,
            incomplete_results: false,
            items: found ? [{ login: found, id: 3 }] : [],
          },
        };
      }
      case 'post /repos/{owner}/{repo}/issues': {
        const input = body as { title: string; body?: string; assignees?: string[] };
        const issues = list ?? [];
        fake.issues.set(repository, issues);
        const issue: FakeIssue = {
          number: issues.length + 1,
          title: input.title,
          body: input.body ?? '',
          state: 'open',
          assignee: input.assignees?.[0] ?? null,
          updated_at: nextTime(),
        };
        issues.push(issue);
        return { status: 201, body: issueJson(repository, issue) };
      }
      case 'get /repos/{owner}/{repo}/issues/{issue_number}': {
        const issue = list?.find((i) => i.number === Number(issue_number));
        return issue
          ? { status: 200, body: issueJson(repository, issue) }
          : { status: 404, body: { message: 'Not Found' } };
      }
      case 'patch /repos/{owner}/{repo}/issues/{issue_number}': {
        const issue = list?.find((i) => i.number === Number(issue_number));
        if (!issue) return { status: 404, body: { message: 'Not Found' } };
        const input = body as { title?: string; body?: string };
        Object.assign(issue, {
          ...(input.title !== undefined && { title: input.title }),
          ...(input.body !== undefined && { body: input.body }),
          updated_at: nextTime(),
        });
        return { status: 200, body: issueJson(repository, issue) };
      }
      case 'get /repos/{owner}/{repo}/issues': {
        const since = query.since ? Date.parse(query.since) : 0;
        return {
          status: 200,
          body: (list ?? [])
            .filter((i) => Date.parse(i.updated_at) >= since)
            .map((i) => issueJson(repository, i)),
        };
      }
      default:
        return { status: 404, body: { message: 'Not Found' } };
    }
  }

  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      answer(req, raw).then(
        (reply) =>
          res
            .writeHead(reply.status, { 'Content-Type': 'application/json; charset=utf-8' })
            .end(reply.body === undefined ? undefined : JSON.stringify(reply.body)),
        (error: unknown) => res.writeHead(500).end(String(error)),
      );
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  fake.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}

export { htmlUrl as fakeIssueUrl };
