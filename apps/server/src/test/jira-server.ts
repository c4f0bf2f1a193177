import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for Jira's REST API (version 2) on a loopback port, as Jira Cloud (basic auth: account e-mail and API
 * token) or as Jira Data Center (a personal access token, Bearer), answering as Atlassian's REST documentation says
 * for the operations Pulsecheck calls, with the fields Pulsecheck reads.
 *
 * Atlassian publishes no machine-readable description of Jira's API on npm (its OpenAPI documents are only on
 * developer.atlassian.com), so this stand-in is strict by hand: only the operations of its flavour exist (Cloud's
 * `/project/search` and `/search/jql`, Data Center's `/project` and `/search`); every query parameter must be one the
 * documentation names for the operation, with a value of its type; a body may hold only the documented fields
 * Pulsecheck may write, of their documented shapes (summary one line of at most 255 characters, duedate
 * `YYYY-MM-DD`, an assignee by `accountId` on Cloud and by `name` on Data Center); the JQL must be the query
 * Pulsecheck means. Whatever is not is recorded in `violations` and answered 400 (404 for an unknown operation), so a
 * test that expects success fails. Answers: 401 for credentials it does not know, 404 for what they cannot see.
 */

export type FakeJiraUser = {
  accountId: string;
  name: string;
  displayName: string;
  email: string;
  /** Jira Cloud shows a person's e-mail only when their profile allows it. */
  emailVisible: boolean;
};

export type FakeJiraIssue = {
  project: string;
  number: number;
  summary: string;
  description: string;
  done: boolean;
  /** accountId of the assignee. */
  assignee: string | null;
  duedate: string | null;
  /** Jira's format: 2026-11-28T12:00:01.000+0000. */
  updated: string;
};

export type JiraRequest = { method: string; path: string; query: Record<string, string>; body: unknown };

export type FakeJira = {
  flavour: 'cloud' | 'datacenter';
  /** The address to type as the Jira site's or server's. */
  origin: string;
  requests: JiraRequest[];
  violations: string[];
  users: FakeJiraUser[];
  /** Tokens that work: the accountId each acts as (on Cloud, only with that account's e-mail). */
  tokens: Map<string, string>;
  projects: { key: string; name: string }[];
  issues: FakeJiraIssue[];
  /** Whether the due date field is on the project's create and edit screens (Jira refuses it otherwise). */
  dueDateOnScreen: boolean;
  /** Answer the next requests with this status (a tracker that refuses or is down); null: answer normally. */
  failWith: number | null;
  issue(key: string): FakeJiraIssue;
  /** Changes an issue as someone in Jira would: a later `updated`. */
  change(key: string, change: Partial<Omit<FakeJiraIssue, 'project' | 'number'>>): FakeJiraIssue;
  /** The issue as Jira's REST API and its webhooks show it. */
  issueJson(issue: FakeJiraIssue, fields?: string[]): Record<string, unknown>;
  close(): Promise<void>;
};

let clock = 0;
/** Jira's own format, with milliseconds; now, and every change later than the last. */
const nextTime = () =>
  new Date((clock = Math.max(clock + 1, Date.now()))).toISOString().replace('Z', '+0000');

const KNOWN_FIELDS = new Set([
  'summary',
  'status',
  'assignee',
  'updated',
  'project',
  'description',
  'duedate',
]);
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const notFound = (what: string) => ({
  status: 404,
  body: { errorMessages: [`${what} does not exist or you do not have permission to see it.`], errors: {} },
});

type Reply = { status: number; body?: unknown };

export async function startFakeJira(flavour: 'cloud' | 'datacenter' = 'cloud'): Promise<FakeJira> {
  const cloud = flavour === 'cloud';
  const fake: FakeJira = {
    flavour,
    origin: '',
    requests: [],
    violations: [],
    users: [],
    tokens: new Map(),
    projects: [],
    issues: [],
    dueDateOnScreen: true,
    failWith: null,
    issue(key) {
      const issue = fake.issues.find((i) => `${i.project}-${i.number}` === key);
      if (!issue) throw new Error(`no issue ${key}`);
      return issue;
    },
    change(key, change) {
      return Object.assign(fake.issue(key), change, { updated: nextTime() });
    },
    issueJson(issue, fields) {
      const user = fake.users.find((u) => u.accountId === issue.assignee);
      const all: Record<string, unknown> = {
        summary: issue.summary,
        description: issue.description,
        status: {
          name: issue.done ? 'Done' : 'To Do',
          statusCategory: { key: issue.done ? 'done' : 'new', name: issue.done ? 'Done' : 'To Do' },
        },
        assignee: user ? userJson(user) : null,
        updated: issue.updated,
        duedate: issue.duedate,
        project: { key: issue.project, name: fake.projects.find((p) => p.key === issue.project)?.name },
      };
      const id = String(10000 + fake.issues.indexOf(issue));
      return {
        id,
        key: `${issue.project}-${issue.number}`,
        self: `${fake.origin}/rest/api/2/issue/${id}`,
        fields: fields ? Object.fromEntries(Object.entries(all).filter(([k]) => fields.includes(k))) : all,
      };
    },
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
  const userJson = (user: FakeJiraUser) =>
    cloud
      ? {
          accountId: user.accountId,
          displayName: user.displayName,
          active: true,
          ...(user.emailVisible ? { emailAddress: user.email } : {}),
        }
      : {
          name: user.name,
          key: user.name,
          displayName: user.displayName,
          emailAddress: user.email,
          active: true,
        };

  /** Records a violation and answers 400 (Jira's answer to a request it cannot read). */
  const violation = (request: string, problem: string): Reply => {
    fake.violations.push(`${request}: ${problem}`);
    return { status: 400, body: { errorMessages: [problem], errors: {} } };
  };

  /** The signed-in account, or null: Cloud takes Basic e-mail:token, Data Center Bearer <personal access token>. */
  function account(req: IncomingMessage): FakeJiraUser | null {
    const header = req.headers.authorization ?? '';
    if (cloud) {
      const basic = /^Basic (.+)$/.exec(header)?.[1];
      if (!basic) return null;
      const plain = Buffer.from(basic, 'base64').toString('utf8');
      const at = plain.lastIndexOf(':');
      const [email, token] = [plain.slice(0, at), plain.slice(at + 1)];
      const user = fake.users.find((u) => u.accountId === fake.tokens.get(token));
      return user && user.email === email ? user : null;
    }
    const bearer = /^Bearer (.+)$/.exec(header)?.[1];
    return fake.users.find((u) => u.accountId === fake.tokens.get(bearer ?? '')) ?? null;
  }

  /** Query parameters: only the named ones, each matching its pattern. */
  function checkQuery(request: string, query: Record<string, string>, allowed: Record<string, RegExp>) {
    for (const [name, value] of Object.entries(query)) {
      const pattern = allowed[name];
      if (!pattern) return violation(request, `unknown query parameter ${name}`);
      if (!pattern.test(value)) return violation(request, `query parameter ${name}=${value} is not valid`);
    }
    return null;
  }
  const NUMBER = /^\d{1,4}$/;
  const FIELD_LIST = /^[a-z]+(,[a-z]+)*$/;
  const fieldsOf = (query: Record<string, string>) => query.fields?.split(',');

  /** A create or edit body: `{ fields }` with only the fields Pulsecheck may write, in their documented shapes. */
  const refuse = (request: string, problem: string) => ({ refused: violation(request, problem) });
  function checkFields(
    request: string,
    body: unknown,
    creating: boolean,
  ): { refused: Reply } | { fields: Record<string, unknown> } {
    if (typeof body !== 'object' || body === null) return refuse(request, 'no JSON body');
    const extra = Object.keys(body).filter((key) => key !== 'fields');
    if (extra.length) return refuse(request, `unknown body properties ${extra.join(', ')}`);
    const fields = (body as { fields?: unknown }).fields;
    if (typeof fields !== 'object' || fields === null) return refuse(request, 'fields missing');
    const record = fields as Record<string, unknown>;
    const allowed = creating
      ? ['project', 'issuetype', 'summary', 'description', 'duedate', 'assignee']
      : ['summary', 'description', 'duedate', 'assignee'];
    const unknown = Object.keys(record).filter((key) => !allowed.includes(key));
    if (unknown.length) return refuse(request, `fields Pulsecheck may not write: ${unknown.join(', ')}`);
    if (creating) {
      const project = record.project as { key?: unknown } | undefined;
      const type = record.issuetype as { id?: unknown } | undefined;
      if (typeof project?.key !== 'string' || Object.keys(project).length !== 1)
        return refuse(request, 'project must be { key }');
      if (typeof type?.id !== 'string' || Object.keys(type).length !== 1)
        return refuse(request, 'issuetype must be { id }');
      if (record.summary === undefined) return refuse(request, 'summary is required');
    }
    const { summary, description, duedate, assignee } = record;
    if (
      summary !== undefined &&
      (typeof summary !== 'string' || !summary || summary.length > 255 || /[\r\n]/.test(summary))
    )
      return refuse(request, 'summary must be one line of 1 to 255 characters');
    if (description !== undefined && typeof description !== 'string')
      return refuse(request, 'description must be a string (REST API 2: plain text or wiki markup)');
    if (duedate !== undefined && duedate !== null && (typeof duedate !== 'string' || !DATE.test(duedate)))
      return refuse(request, 'duedate must be YYYY-MM-DD or null');
    if (assignee !== undefined && assignee !== null) {
      const by = cloud ? 'accountId' : 'name';
      const shape = assignee as Record<string, unknown>;
      if (typeof shape[by] !== 'string' || Object.keys(shape).length !== 1)
        return refuse(request, `assignee must be { ${by} } on Jira ${cloud ? 'Cloud' : 'Data Center'}`);
    }
    return { fields: record };
  }

  /** The only JQL Pulsecheck sends: a project's issues, optionally changed in the last minutes, oldest first. */
  function parseJql(jql: string) {
    const match = /^project = "([A-Z][A-Z0-9_]*)"(?: AND updated >= "-(\d+)m")? ORDER BY updated ASC$/.exec(
      jql,
    );
    return match ? { project: match[1]!, minutes: match[2] ? Number(match[2]) : null } : null;
  }

  const userOf = (assignee: unknown) => {
    if (assignee === null || assignee === undefined) return null;
    const shape = assignee as { accountId?: string; name?: string };
    return fake.users.find((u) => (cloud ? u.accountId === shape.accountId : u.name === shape.name)) ?? null;
  };

  function answer(req: IncomingMessage, raw: string): Reply {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const method = (req.method ?? 'GET').toLowerCase();
    const path = url.pathname;
    const query = Object.fromEntries(url.searchParams);
    let body: unknown;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      return violation(`${method} ${path}`, 'the body is not JSON');
    }
    fake.requests.push({ method, path, query, body });
    const request = `${method} ${path}`;
    const issueMatch = /^\/rest\/api\/2\/issue\/([A-Z][A-Z0-9_]*-\d+)$/.exec(path);
    const projectMatch = /^\/rest\/api\/2\/project\/([A-Z][A-Z0-9_]*)$/.exec(path);
    const operation =
      issueMatch && (method === 'get' || method === 'put')
        ? `${method} issue`
        : projectMatch && method === 'get'
          ? 'get project'
          : request;
    const known = [
      'get /rest/api/2/myself',
      'get /rest/api/2/user/search',
      'post /rest/api/2/issue',
      'get issue',
      'put issue',
      'get project',
      ...(cloud
        ? ['get /rest/api/2/project/search', 'get /rest/api/2/search/jql']
        : ['get /rest/api/2/project', 'get /rest/api/2/search']),
    ];
    if (!known.includes(operation)) {
      fake.violations.push(`${request}: no such operation on Jira ${cloud ? 'Cloud' : 'Data Center'}`);
      return { status: 404, body: { errorMessages: ['Not found'] } };
    }
    const jsonBody = method === 'post' || method === 'put';
    if (jsonBody && !(req.headers['content-type'] ?? '').startsWith('application/json'))
      return violation(request, 'the body must be sent as application/json');

    const queryRules: Record<string, Record<string, RegExp>> = {
      'get /rest/api/2/myself': {},
      'get /rest/api/2/user/search': cloud
        ? { query: /^.+$/, maxResults: NUMBER }
        : { username: /^.+$/, maxResults: NUMBER },
      'post /rest/api/2/issue': {},
      'get issue': { fields: FIELD_LIST },
      'put issue': {},
      'get project': {},
      'get /rest/api/2/project/search': {
        startAt: NUMBER,
        maxResults: NUMBER,
        orderBy: /^[+-]?(category|issueCount|key|lastIssueUpdatedTime|name|owner|archivedDate|deletedDate)$/,
        action: /^(view|browse|edit|create)$/,
      },
      'get /rest/api/2/search/jql': {
        jql: /^.+$/,
        fields: FIELD_LIST,
        maxResults: NUMBER,
        nextPageToken: /^.+$/,
      },
      'get /rest/api/2/project': {},
      'get /rest/api/2/search': { jql: /^.+$/, fields: FIELD_LIST, maxResults: NUMBER, startAt: NUMBER },
    };
    const badQuery = checkQuery(request, query, queryRules[operation]!);
    if (badQuery) return badQuery;
    const unknownField = fieldsOf(query)?.find((f) => !KNOWN_FIELDS.has(f));
    if (unknownField) return violation(request, `unknown field ${unknownField}`);
    if (!jsonBody && body !== undefined) return violation(request, 'a GET has no body');

    if (fake.failWith !== null)
      return { status: fake.failWith, body: { errorMessages: ['Failing on purpose'], errors: {} } };
    const me = account(req);
    if (!me)
      return {
        status: 401,
        body: { errorMessages: ['Client must be authenticated to access this resource.'] },
      };

    const visible = (key: string) => fake.projects.some((p) => p.key === key);
    switch (operation) {
      case 'get /rest/api/2/myself':
        return { status: 200, body: { ...userJson(me), self: `${fake.origin}/rest/api/2/user` } };
      case 'get /rest/api/2/user/search': {
        const term = (cloud ? query.query : query.username)!.toLowerCase();
        const found = fake.users.filter((u) =>
          cloud
            ? u.displayName.toLowerCase().includes(term) || (u.emailVisible && u.email === term)
            : u.name === term || u.email === term || u.displayName.toLowerCase().includes(term),
        );
        return { status: 200, body: found.map(userJson) };
      }
      case 'get /rest/api/2/project/search':
        return {
          status: 200,
          body: {
            startAt: Number(query.startAt ?? 0),
            maxResults: Number(query.maxResults ?? 50),
            total: fake.projects.length,
            isLast: true,
            values: fake.projects.map((p, i) => ({ id: String(10000 + i), key: p.key, name: p.name })),
          },
        };
      case 'get /rest/api/2/project':
        return {
          status: 200,
          body: fake.projects.map((p, i) => ({ id: String(10000 + i), key: p.key, name: p.name })),
        };
      case 'get project': {
        const key = projectMatch![1]!;
        if (!visible(key)) return notFound('Project');
        return {
          status: 200,
          body: {
            key,
            name: fake.projects.find((p) => p.key === key)!.name,
            issueTypes: [
              { id: '10003', name: 'Sub-task', subtask: true },
              { id: '10001', name: 'Bug', subtask: false },
              { id: '10002', name: 'Task', subtask: false },
            ],
          },
        };
      }
      case 'post /rest/api/2/issue': {
        const checked = checkFields(request, body, true);
        if ('refused' in checked) return checked.refused;
        const { fields } = checked;
        const project = (fields.project as { key: string }).key;
        if (!visible(project))
          return {
            status: 400,
            body: { errorMessages: [], errors: { project: 'valid project is required' } },
          };
        if (
          (fields.issuetype as { id: string }).id !== '10002' &&
          (fields.issuetype as { id: string }).id !== '10001'
        )
          return violation(request, 'not an issue type of the project that can be created');
        if (fields.duedate !== undefined && !fake.dueDateOnScreen)
          return {
            status: 400,
            body: {
              errorMessages: [],
              errors: {
                duedate: "Field 'duedate' cannot be set. It is not on the appropriate screen, or unknown.",
              },
            },
          };
        const assignee = userOf(fields.assignee);
        if (fields.assignee && !assignee)
          return { status: 400, body: { errorMessages: [], errors: { assignee: 'User does not exist' } } };
        const issue: FakeJiraIssue = {
          project,
          number: fake.issues.filter((i) => i.project === project).length + 1,
          summary: fields.summary as string,
          description: (fields.description as string | undefined) ?? '',
          done: false,
          assignee: assignee?.accountId ?? null,
          duedate: (fields.duedate as string | undefined) ?? null,
          updated: nextTime(),
        };
        fake.issues.push(issue);
        const json = fake.issueJson(issue);
        return { status: 201, body: { id: json.id, key: json.key, self: json.self } };
      }
      case 'get issue':
      case 'put issue': {
        const key = issueMatch![1]!;
        const issue = fake.issues.find((i) => `${i.project}-${i.number}` === key);
        if (!issue || !visible(issue.project)) return notFound('Issue');
        if (method === 'get') return { status: 200, body: fake.issueJson(issue, fieldsOf(query)) };
        const checked = checkFields(request, body, false);
        if ('refused' in checked) return checked.refused;
        const { fields } = checked;
        if (fields.duedate !== undefined && !fake.dueDateOnScreen)
          return {
            status: 400,
            body: {
              errorMessages: [],
              errors: {
                duedate: "Field 'duedate' cannot be set. It is not on the appropriate screen, or unknown.",
              },
            },
          };
        Object.assign(issue, {
          ...(fields.summary !== undefined && { summary: fields.summary }),
          ...(fields.description !== undefined && { description: fields.description }),
          ...(fields.duedate !== undefined && { duedate: fields.duedate }),
          updated: nextTime(),
        });
        return { status: 204 };
      }
      case 'get /rest/api/2/search/jql':
      case 'get /rest/api/2/search': {
        const jql = parseJql(query.jql ?? '');
        if (!jql) return violation(request, `JQL not understood: ${query.jql}`);
        if (!visible(jql.project))
          return {
            status: 400,
            body: { errorMessages: [`The value '${jql.project}' does not exist for the field 'project'.`] },
          };
        const from = jql.minutes === null ? 0 : Date.now() - jql.minutes * 60_000;
        const found = fake.issues
          .filter((i) => i.project === jql.project && Date.parse(i.updated) >= from)
          .sort((a, b) => Date.parse(a.updated) - Date.parse(b.updated))
          .map((i) => fake.issueJson(i, fieldsOf(query)));
        return {
          status: 200,
          body: cloud
            ? { issues: found, isLast: true }
            : { startAt: Number(query.startAt ?? 0), maxResults: 100, total: found.length, issues: found },
        };
      }
      default:
        return { status: 404, body: { errorMessages: ['Not found'] } };
    }
  }

  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      try {
        const reply = answer(req, raw);
        res
          .writeHead(reply.status, { 'Content-Type': 'application/json;charset=UTF-8' })
          .end(reply.body === undefined ? undefined : JSON.stringify(reply.body));
      } catch (error) {
        res.writeHead(500).end(String(error));
      }
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  fake.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
