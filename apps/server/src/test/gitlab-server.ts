import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for GitLab's REST API v4 on a loopback port (addressed as a GitLab Self-Managed instance, `<origin>/api/v4`),
 * answering as GitLab's API documentation says for the operations Pulsecheck calls, with the fields Pulsecheck reads.
 * GitLab publishes no machine-readable description of v4 on npm, so the stand-in is strict by hand: it knows each
 * operation's query parameters and body properties (names and forms, from GitLab's documentation), refuses any other
 * (400, as GitLab answers a bad parameter) and answers 404 to an operation it does not know; every such request is
 * recorded in `violations`, and the tests fail when there is one. A bad token is answered 401, a project or issue the
 * token cannot see 404.
 */

export type FakeGitlabIssue = {
  iid: number;
  title: string;
  description: string;
  state: 'opened' | 'closed';
  /** The assignee's username. */
  assignee: string | null;
  due_date: string | null;
  updated_at: string;
};

export type FakeGitlabProject = {
  path: string;
  issuesEnabled?: boolean;
  archived?: boolean;
  /** False: a project the token's user is no member of (visible, but not in the membership list). */
  member?: boolean;
};

export type FakeGitlabUser = { id: number; username: string; publicEmail: string | null };

export type GitlabRequest = {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
  /** The sender's port on the loopback (its socket is open while `observe` runs): which process sent it. */
  peerPort: number;
};

export type FakeGitlab = {
  /** The address to type as the GitLab Self-Managed instance's. */
  origin: string;
  requests: GitlabRequest[];
  violations: string[];
  /** Tokens that work (PRIVATE-TOKEN), and the username each acts as (a project token's bot user). */
  tokens: Map<string, string>;
  projects: FakeGitlabProject[];
  issues: Map<string, FakeGitlabIssue[]>;
  users: FakeGitlabUser[];
  /** Answer the next requests with this status (a tracker that refuses or is down); null: answer normally. */
  failWith: number | null;
  /** Answer every request this much later (a slow tracker). */
  delayMs: number;
  /** Called with each request as it arrives, while its socket is open. */
  observe: ((request: GitlabRequest) => void) | null;
  /** Changes an issue as someone on GitLab would: a later updated_at. */
  change(path: string, iid: number, change: Partial<Omit<FakeGitlabIssue, 'iid'>>): FakeGitlabIssue;
  /** An 'Issue Hook' body as GitLab's webhook events page documents it (the fields a receiver reads, and more). */
  hookBody(path: string, issue: FakeGitlabIssue, action?: string): Record<string, unknown>;
  close(): Promise<void>;
};

export const fakeGitlabIssueUrl = (origin: string, path: string, iid: number) =>
  `${origin}/${path}/-/issues/${iid}`;

// GitLab's API answers times with milliseconds; every change is a second (and a quarter) later than the last.
let clock = Date.parse('2026-11-28T12:00:00.250Z');
const nextTime = () => new Date((clock += 1000)).toISOString();
/** The form older GitLab versions use in webhook bodies: '2026-11-28 12:00:01 UTC'. */
const hookTime = (iso: string) => iso.replace('T', ' ').replace(/\.\d{3}Z$/, ' UTC');

type Query = Record<string, string>;
type Answer = { status: number; body?: unknown; headers?: Record<string, string> };

// The forms of parameters, as GitLab's documentation gives them.
const BOOLEAN = /^(true|false)$/;
const POSITIVE = /^[1-9]\d{0,5}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const PAGING = { page: POSITIVE, per_page: /^([1-9]\d?|100)$/ };

type Check = RegExp | ((value: unknown) => boolean);
type Operation = {
  method: string;
  pattern: RegExp;
  query: Record<string, RegExp>;
  body?: { allowed: Record<string, Check>; required: string[]; atLeastOne?: boolean };
  name: string;
};

const isString = (value: unknown) => typeof value === 'string';
const OPERATIONS: Operation[] = [
  { name: 'get /user', method: 'GET', pattern: /^\/user$/, query: {} },
  {
    name: 'get /projects',
    method: 'GET',
    pattern: /^\/projects$/,
    query: {
      membership: BOOLEAN,
      with_issues_enabled: BOOLEAN,
      archived: BOOLEAN,
      simple: BOOLEAN,
      order_by: /^(id|name|path|created_at|updated_at|last_activity_at|similarity)$/,
      sort: /^(asc|desc)$/,
      ...PAGING,
    },
  },
  {
    name: 'get /users',
    method: 'GET',
    pattern: /^\/users$/,
    query: { search: /^.{1,255}$/, username: /^.+$/, ...PAGING },
  },
  {
    name: 'post /projects/:id/issues',
    method: 'POST',
    pattern: /^\/projects\/([^/]+)\/issues$/,
    query: {},
    body: {
      allowed: {
        title: (value) => isString(value) && value.length > 0 && value.length <= 255,
        description: (value) => isString(value) && value.length <= 1_048_576,
        due_date: (value) => isString(value) && DATE.test(value),
        assignee_ids: (value) => Array.isArray(value) && value.every((id) => Number.isInteger(id)),
      },
      required: ['title'],
    },
  },
  {
    name: 'get /projects/:id/issues/:iid',
    method: 'GET',
    pattern: /^\/projects\/([^/]+)\/issues\/(\d+)$/,
    query: {},
  },
  {
    name: 'put /projects/:id/issues/:iid',
    method: 'PUT',
    pattern: /^\/projects\/([^/]+)\/issues\/(\d+)$/,
    query: {},
    body: {
      allowed: {
        title: (value) => isString(value) && value.length > 0 && value.length <= 255,
        description: (value) => isString(value) && value.length <= 1_048_576,
        // An empty string removes the due date.
        due_date: (value) => isString(value) && (value === '' || DATE.test(value)),
        state_event: /^(close|reopen)$/,
      },
      required: [],
      atLeastOne: true,
    },
  },
  {
    name: 'get /projects/:id/issues',
    method: 'GET',
    pattern: /^\/projects\/([^/]+)\/issues$/,
    query: {
      scope: /^(all|created_by_me|assigned_to_me)$/,
      state: /^(opened|closed|all)$/,
      updated_after: DATETIME,
      order_by: /^(created_at|updated_at)$/,
      sort: /^(asc|desc)$/,
      ...PAGING,
    },
  },
];

function check(value: unknown, rule: Check) {
  return rule instanceof RegExp ? typeof value === 'string' && rule.test(value) : rule(value);
}

/** What is wrong with a request for `operation`, by GitLab's documentation; empty when nothing is. */
function problemsOf(operation: Operation, query: Query, body: unknown): string[] {
  const problems: string[] = [];
  for (const [name, value] of Object.entries(query)) {
    const rule = operation.query[name];
    if (!rule) problems.push(`unknown query parameter ${name}`);
    else if (!rule.test(value))
      problems.push(`query parameter ${name}=${value} is not in its documented form`);
  }
  if (!operation.body) {
    if (body !== undefined) problems.push('a body where the operation takes none');
    return problems;
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    return [...problems, 'the body is no JSON object'];
  const record = body as Record<string, unknown>;
  for (const [name, value] of Object.entries(record)) {
    const rule = operation.body.allowed[name];
    if (!rule) problems.push(`unknown body property ${name}`);
    else if (!check(value, rule)) problems.push(`body property ${name} is not in its documented form`);
  }
  for (const name of operation.body.required) if (!(name in record)) problems.push(`${name} is missing`);
  if (operation.body.atLeastOne && Object.keys(record).length === 0) problems.push('no property to change');
  return problems;
}

export async function startFakeGitlab(): Promise<FakeGitlab> {
  const fake: FakeGitlab = {
    origin: '',
    requests: [],
    violations: [],
    tokens: new Map(),
    projects: [],
    issues: new Map(),
    users: [],
    failWith: null,
    delayMs: 0,
    observe: null,
    change(path, iid, change) {
      const issue = fake.issues.get(path)?.find((i) => i.iid === iid);
      if (!issue) throw new Error(`no issue ${path}#${iid}`);
      Object.assign(issue, change, { updated_at: nextTime() });
      return issue;
    },
    hookBody(path, issue, action = 'update') {
      const projectId = projectIdOf(path);
      const assignee = fake.users.find((u) => u.username === issue.assignee);
      return {
        object_kind: 'issue',
        event_type: 'issue',
        user: { id: 1, name: 'Someone', username: 'someone' },
        project: {
          id: projectId,
          name: path.split('/').at(-1),
          web_url: `${fake.origin}/${path}`,
          path_with_namespace: path,
          default_branch: 'main',
        },
        object_attributes: {
          id: projectId * 1000 + issue.iid,
          iid: issue.iid,
          title: issue.title,
          description: issue.description,
          state: issue.state,
          action,
          project_id: projectId,
          created_at: '2026-11-01 00:00:00 UTC',
          updated_at: hookTime(issue.updated_at),
          due_date: issue.due_date,
          assignee_ids: assignee ? [assignee.id] : [],
          assignee_id: assignee?.id ?? null,
          url: fakeGitlabIssueUrl(fake.origin, path, issue.iid),
          type: 'Issue',
        },
        ...(assignee
          ? { assignees: [{ id: assignee.id, name: assignee.username, username: assignee.username }] }
          : {}),
        labels: [],
        changes: {},
        repository: { name: path.split('/').at(-1), homepage: `${fake.origin}/${path}` },
      };
    },
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
  const projectIdOf = (path: string) => fake.projects.findIndex((p) => p.path === path) + 1;
  const userJson = (username: string) => {
    const user = fake.users.find((u) => u.username === username);
    return {
      id: user?.id ?? 999,
      username,
      name: username,
      state: 'active',
      web_url: `${fake.origin}/${username}`,
    };
  };
  const issueJson = (path: string, issue: FakeGitlabIssue) => ({
    id: projectIdOf(path) * 1000 + issue.iid,
    iid: issue.iid,
    project_id: projectIdOf(path),
    title: issue.title,
    description: issue.description,
    state: issue.state,
    created_at: '2026-11-01T00:00:00.000Z',
    updated_at: issue.updated_at,
    closed_at: issue.state === 'closed' ? issue.updated_at : null,
    due_date: issue.due_date,
    labels: [],
    author: userJson('someone'),
    assignee: issue.assignee ? userJson(issue.assignee) : null,
    assignees: issue.assignee ? [userJson(issue.assignee)] : [],
    type: 'ISSUE',
    issue_type: 'issue',
    web_url: fakeGitlabIssueUrl(fake.origin, path, issue.iid),
    references: { short: `#${issue.iid}`, relative: `#${issue.iid}`, full: `${path}#${issue.iid}` },
  });

  /** One page of `items` with GitLab's offset-pagination headers (Link rel="next", X-Next-Page, X-Total). */
  function page(path: string, query: Query, items: unknown[]): Answer {
    const perPage = Number(query.per_page ?? 20);
    const current = Number(query.page ?? 1);
    const slice = items.slice((current - 1) * perPage, current * perPage);
    const more = current * perPage < items.length;
    const headers: Record<string, string> = {
      'X-Page': String(current),
      'X-Per-Page': String(perPage),
      'X-Total': String(items.length),
      'X-Next-Page': more ? String(current + 1) : '',
    };
    if (more) {
      const next = new URL(`${fake.origin}/api/v4${path}`);
      for (const [name, value] of Object.entries({ ...query, page: String(current + 1) }))
        next.searchParams.set(name, value);
      headers.Link = `<${next.href}>; rel="next"`;
    }
    return { status: 200, body: slice, headers };
  }

  async function answer(req: IncomingMessage, raw: string): Promise<Answer> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const method = req.method ?? 'GET';
    if (!url.pathname.startsWith('/api/v4/')) return { status: 404, body: { error: '404 Not Found' } };
    const path = url.pathname.slice('/api/v4'.length);
    const query = Object.fromEntries(url.searchParams);
    let body: unknown;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      fake.violations.push(`${method} ${path}: the body is no JSON`);
      return { status: 400, body: { error: 'body is not valid JSON' } };
    }
    const request = { method, path, query, body, peerPort: req.socket.remotePort ?? 0 };
    fake.requests.push(request);
    fake.observe?.(request);
    if (fake.delayMs) await new Promise((resolve) => setTimeout(resolve, fake.delayMs));
    const operation = OPERATIONS.find((op) => op.method === method && op.pattern.test(path));
    if (!operation) {
      fake.violations.push(`${method} ${path}: no such operation in GitLab's REST API documentation`);
      return { status: 404, body: { error: '404 Not Found' } };
    }
    const problems = problemsOf(operation, query, body);
    if (body !== undefined && !/^application\/json\b/.test(req.headers['content-type'] ?? ''))
      problems.push('a body that is not sent as application/json');
    if (problems.length) {
      fake.violations.push(`${operation.name}: ${problems.join('; ')}`);
      return { status: 400, body: { error: problems.join(', ') } };
    }
    if (fake.failWith !== null) return { status: fake.failWith, body: { message: 'Failing on purpose' } };
    const token = req.headers['private-token'];
    const username = typeof token === 'string' ? fake.tokens.get(token) : undefined;
    if (!username) return { status: 401, body: { message: '401 Unauthorized' } };

    const match = operation.pattern.exec(path)!;
    const projectPath = match[1] ? decodeURIComponent(match[1]) : '';
    const project = projectPath
      ? fake.projects.find((p) => p.path === projectPath || String(projectIdOf(p.path)) === projectPath)
      : undefined;
    if (projectPath && !project) return { status: 404, body: { message: '404 Project Not Found' } };
    const list = project ? fake.issues.get(project.path) : undefined;
    const iid = match[2] ? Number(match[2]) : null;
    switch (operation.name) {
      case 'get /user':
        return { status: 200, body: userJson(username) };
      case 'get /projects': {
        const listed = fake.projects.filter(
          (p) =>
            (query.membership !== 'true' || p.member !== false) &&
            (query.with_issues_enabled !== 'true' || p.issuesEnabled !== false) &&
            (query.archived === undefined || String(p.archived ?? false) === query.archived),
        );
        return page(
          path,
          query,
          listed.map((p) => ({
            id: projectIdOf(p.path),
            name: p.path.split('/').at(-1),
            path: p.path.split('/').at(-1),
            path_with_namespace: p.path,
            name_with_namespace: p.path.replace(/\//g, ' / '),
            web_url: `${fake.origin}/${p.path}`,
          })),
        );
      }
      case 'get /users': {
        const search = (query.search ?? '').toLowerCase();
        const found = fake.users.filter(
          (u) =>
            u.publicEmail?.toLowerCase() === search || (search && u.username.toLowerCase().includes(search)),
        );
        return page(
          path,
          query,
          found.map((u) => userJson(u.username)),
        );
      }
      case 'post /projects/:id/issues': {
        const input = body as {
          title: string;
          description?: string;
          due_date?: string;
          assignee_ids?: number[];
        };
        const issues = list ?? [];
        fake.issues.set(project!.path, issues);
        // GitLab leaves out an assignee it does not know instead of refusing the issue.
        const assignee = fake.users.find((u) => input.assignee_ids?.includes(u.id))?.username ?? null;
        const issue: FakeGitlabIssue = {
          iid: issues.length + 1,
          title: input.title,
          description: input.description ?? '',
          state: 'opened',
          assignee,
          due_date: input.due_date ?? null,
          updated_at: nextTime(),
        };
        issues.push(issue);
        return { status: 201, body: issueJson(project!.path, issue) };
      }
      case 'get /projects/:id/issues/:iid': {
        const issue = list?.find((i) => i.iid === iid);
        return issue
          ? { status: 200, body: issueJson(project!.path, issue) }
          : { status: 404, body: { message: '404 Not found' } };
      }
      case 'put /projects/:id/issues/:iid': {
        const issue = list?.find((i) => i.iid === iid);
        if (!issue) return { status: 404, body: { message: '404 Not found' } };
        const input = body as {
          title?: string;
          description?: string;
          due_date?: string;
          state_event?: string;
        };
        Object.assign(issue, {
          ...(input.title !== undefined && { title: input.title }),
          ...(input.description !== undefined && { description: input.description }),
          ...(input.due_date !== undefined && { due_date: input.due_date === '' ? null : input.due_date }),
          ...(input.state_event && { state: input.state_event === 'close' ? 'closed' : 'opened' }),
          updated_at: nextTime(),
        });
        return { status: 200, body: issueJson(project!.path, issue) };
      }
      case 'get /projects/:id/issues': {
        const after = query.updated_after ? Date.parse(query.updated_after) : 0;
        const state = query.state ?? 'all';
        return page(
          path,
          query,
          (list ?? [])
            .filter((i) => Date.parse(i.updated_at) >= after && (state === 'all' || i.state === state))
            .map((i) => issueJson(project!.path, i)),
        );
      }
      default:
        return { status: 404, body: { error: '404 Not Found' } };
    }
  }

  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      answer(req, raw).then(
        (reply) =>
          res
            .writeHead(reply.status, { 'Content-Type': 'application/json', ...reply.headers })
            .end(reply.body === undefined ? undefined : JSON.stringify(reply.body)),
        (error: unknown) => res.writeHead(500).end(String(error)),
      );
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  fake.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
