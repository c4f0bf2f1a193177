import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import {
  buildSchema,
  execute,
  GraphQLError,
  getOperationAST,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  Kind,
  parse,
  validate,
  type GraphQLInputType,
  type GraphQLOutputType,
  type GraphQLScalarType,
  type GraphQLSchema,
  type ValueNode,
} from 'graphql';

/**
 * A stand-in for Linear's GraphQL API (`<origin>/graphql`) on a loopback port. Every request is parsed, VALIDATED
 * and executed by graphql-js against a schema that is a part of Linear's: the types, fields and arguments
 * Pulsecheck may use, each checked at start-up against Linear's own schema as `@linear/sdk` ships it (its generated
 * declarations, made from Linear's schema by Linear's code generator): every field and argument must exist there with
 * the same type and nullability, and every input field Linear requires must be here. So a query Pulsecheck sends that
 * names a field, an argument or an input field Linear does not have, or gives a variable of the wrong type (a due
 * date that is not a date), fails here; it is recorded in `violations` and answered as Linear answers a bad query.
 * The scalars are checked as Linear documents them (TimelessDate 'YYYY-MM-DD', DateTime ISO 8601).
 *
 * What it answers (the data, the errors' shapes, who sees what) follows Linear's documentation, by hand.
 */

const SDL = /* GraphQL */ `
  scalar DateTime
  scalar DateTimeOrDuration
  scalar TimelessDate

  type Query {
    viewer: User!
    organization: Organization!
    teams(filter: TeamFilter, first: Int, after: String): TeamConnection!
    users(filter: UserFilter, first: Int, after: String): UserConnection!
    issue(id: String!): Issue!
    issues(filter: IssueFilter, first: Int, after: String): IssueConnection!
  }
  type Mutation {
    issueCreate(input: IssueCreateInput!): IssuePayload!
    issueUpdate(id: String!, input: IssueUpdateInput!): IssuePayload!
  }
  type User {
    id: ID!
    name: String!
    displayName: String!
    email: String!
    active: Boolean!
    teams(filter: TeamFilter, first: Int, after: String): TeamConnection!
  }
  type Organization {
    id: ID!
    name: String!
    urlKey: String!
  }
  type Team {
    id: ID!
    key: String!
    name: String!
  }
  type WorkflowState {
    id: ID!
    name: String!
    type: String!
  }
  type Issue {
    id: ID!
    identifier: String!
    number: Float!
    title: String!
    description: String
    url: String!
    updatedAt: DateTime!
    dueDate: TimelessDate
    state: WorkflowState!
    team: Team!
    assignee: User
  }
  type PageInfo {
    hasNextPage: Boolean!
    endCursor: String
  }
  type TeamConnection {
    nodes: [Team!]!
    pageInfo: PageInfo!
  }
  type UserConnection {
    nodes: [User!]!
    pageInfo: PageInfo!
  }
  type IssueConnection {
    nodes: [Issue!]!
    pageInfo: PageInfo!
  }
  type IssuePayload {
    success: Boolean!
    issue: Issue
    lastSyncId: Float!
  }
  input StringComparator {
    eq: String
  }
  input DateComparator {
    gt: DateTimeOrDuration
  }
  input TeamFilter {
    key: StringComparator
  }
  input UserFilter {
    email: StringComparator
  }
  input IssueFilter {
    team: TeamFilter
    updatedAt: DateComparator
  }
  input IssueCreateInput {
    teamId: String!
    title: String
    description: String
    assigneeId: String
    dueDate: TimelessDate
  }
  input IssueUpdateInput {
    title: String
    description: String
    dueDate: TimelessDate
  }
`;

/** The declarations @linear/sdk generated from Linear's schema (a file whose name carries a build hash). */
function sdkDeclarations(): string {
  const dist = dirname(createRequire(import.meta.url).resolve('@linear/sdk'));
  for (const name of readdirSync(dist).filter((f) => f.endsWith('.d.mts'))) {
    const text = readFileSync(join(dist, name), 'utf8');
    if (text.includes('type IssueCreateInput = {')) return text;
  }
  throw new Error("@linear/sdk's generated declarations were not found");
}

/** `type Name = {…}` (or `= Node & {…}`) of the declarations: field name → [declared type, optional]. */
function declaredFields(
  source: string,
  name: string,
): Map<string, { type: string; optional: boolean }> | null {
  const start = new RegExp(`^type ${name} = (?:Node & )?\\{$`, 'm').exec(source);
  if (!start) return null;
  const body = source.slice(start.index, source.indexOf('\n};', start.index));
  const fields = new Map<string, { type: string; optional: boolean }>();
  for (const match of body.matchAll(/^ {2}(\w+)(\??): (.+);$/gm))
    fields.set(match[1]!, { type: match[3]!, optional: match[2] === '?' });
  return fields;
}

/** How the SDK's declarations spell a GraphQL type. */
function declared(
  type: GraphQLInputType | GraphQLOutputType,
  input: boolean,
): { type: string; optional: boolean } {
  const inner = (t: GraphQLInputType | GraphQLOutputType): string => {
    const bare = isNonNullType(t) ? t.ofType : t;
    if (isListType(bare)) return `Array<${inner(bare.ofType)}>`;
    return isScalarType(bare) ? `Scalars["${bare.name}"]` : bare.name;
  };
  if (isNonNullType(type)) return { type: inner(type), optional: false };
  return { type: `${input ? 'InputMaybe' : 'Maybe'}<${inner(type)}>`, optional: true };
}

/** Every difference between this stand-in's schema and Linear's as the SDK declares it; [] when it is a part of it. */
export function differencesFromLinear(schema: GraphQLSchema): string[] {
  const source = sdkDeclarations();
  const problems: string[] = [];
  const compare = (
    where: string,
    fields: Map<string, { type: string; optional: boolean }> | null,
    name: string,
    type: GraphQLInputType | GraphQLOutputType,
    input: boolean,
  ) => {
    const theirs = fields?.get(name);
    const ours = declared(type, input);
    if (!theirs) problems.push(`${where}.${name}: not in Linear's schema`);
    else if (theirs.type !== ours.type || theirs.optional !== ours.optional)
      problems.push(
        `${where}.${name}: Linear has ${theirs.type}${theirs.optional ? ' (optional)' : ''}, here ${ours.type}`,
      );
  };
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__')) continue;
    if (isObjectType(type)) {
      const fields = declaredFields(source, type.name);
      if (!fields) problems.push(`${type.name}: no such type in Linear's schema`);
      for (const field of Object.values(type.getFields())) {
        compare(type.name, fields, field.name, field.type, false);
        if (field.args.length === 0) continue;
        const argsName = `${type.name}${field.name[0]!.toUpperCase()}${field.name.slice(1)}Args`;
        const args = declaredFields(source, argsName);
        for (const arg of field.args) compare(argsName, args, arg.name, arg.type, true);
        // An argument Linear requires must be declared here too.
        for (const [name, theirs] of args ?? [])
          if (!theirs.optional && !field.args.some((a) => a.name === name))
            problems.push(`${argsName}.${name}: required by Linear, missing here`);
      }
    } else if (isInputObjectType(type)) {
      const fields = declaredFields(source, type.name);
      if (!fields) problems.push(`${type.name}: no such input in Linear's schema`);
      const ours = type.getFields();
      for (const field of Object.values(ours)) compare(type.name, fields, field.name, field.type, true);
      for (const [name, theirs] of fields ?? [])
        if (!theirs.optional && !ours[name])
          problems.push(`${type.name}.${name}: required by Linear, missing here`);
    } else if (isScalarType(type) && !['String', 'Int', 'Float', 'Boolean', 'ID'].includes(type.name)) {
      if (!new RegExp(`^ {2}${type.name}: `, 'm').test(source))
        problems.push(`scalar ${type.name}: not in Linear's schema`);
    }
  }
  return problems;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
const DURATION = /^-?P(\d+[YMWD])*(T(\d+[HMS])+)?$/;

/** A scalar checked as Linear documents it: a value that does not match is a bad request. */
function strictScalar(schema: GraphQLSchema, name: string, valid: (value: string) => boolean) {
  const scalar = schema.getType(name) as GraphQLScalarType;
  const check = (value: unknown) => {
    if (typeof value !== 'string' || !valid(value))
      throw new GraphQLError(`${name} cannot represent ${JSON.stringify(value)}`);
    return value;
  };
  Object.assign(scalar, {
    parseValue: check,
    parseLiteral: (node: ValueNode) => check(node.kind === Kind.STRING ? node.value : undefined),
  });
}

let built: GraphQLSchema | null = null;
function linearSchema(): GraphQLSchema {
  if (built) return built;
  const schema = buildSchema(SDL);
  const differences = differencesFromLinear(schema);
  if (differences.length)
    throw new Error(`The stand-in's schema is not Linear's:\n${differences.join('\n')}`);
  strictScalar(schema, 'TimelessDate', (v) => DATE.test(v) && !Number.isNaN(Date.parse(v)));
  strictScalar(schema, 'DateTimeOrDuration', (v) => DATE_TIME.test(v) || DURATION.test(v));
  strictScalar(schema, 'DateTime', (v) => DATE_TIME.test(v));
  return (built = schema);
}

export type FakeLinearUser = { id: string; name: string; email: string; active: boolean; teams: string[] };
export type FakeLinearIssue = {
  id: string;
  team: string;
  number: number;
  title: string;
  description: string;
  /** The workflow state's type: triage, backlog, unstarted, started, completed, canceled. */
  stateType: string;
  assigneeId: string | null;
  dueDate: string | null;
  updatedAt: string;
};
export type LinearRequest = {
  operationName: string | null;
  query: string;
  variables: Record<string, unknown>;
};

export type FakeLinear = {
  /** The address to type as the base URL (tests only: Linear is a cloud service). */
  origin: string;
  requests: LinearRequest[];
  violations: string[];
  /** API keys that work, and the user id each acts as. */
  apiKeys: Map<string, string>;
  users: FakeLinearUser[];
  /** Team key → name. */
  teams: Map<string, string>;
  organization: { id: string; name: string; urlKey: string };
  issues: FakeLinearIssue[];
  /** Answer the next requests with this HTTP status (a Linear that refuses or is down); null: answer normally. */
  failWith: number | null;
  add(issue: Omit<FakeLinearIssue, 'id' | 'number' | 'updatedAt'> & { number?: number }): FakeLinearIssue;
  find(identifier: string): FakeLinearIssue;
  /** Changes an issue as someone in Linear would: a later updatedAt. */
  change(
    identifier: string,
    change: Partial<Omit<FakeLinearIssue, 'id' | 'team' | 'number'>>,
  ): FakeLinearIssue;
  issueUrl(identifier: string): string;
  /** An `Issue` webhook's `data` for the issue as it is now, as Linear sends it (IssueWebhookPayload). */
  webhookData(identifier: string): Record<string, unknown>;
  close(): Promise<void>;
};

/** An answer Linear gives on purpose (not found, refused): not a violation of the schema. */
class LinearAnswer extends GraphQLError {
  constructor(message: string, type: string) {
    super(message, { extensions: { type, userPresentableMessage: message, userError: true } });
  }
}

let clock = Date.parse('2026-11-28T12:00:00.000Z');
const nextTime = () => new Date((clock += 1000)).toISOString();

const STATE_NAMES: Record<string, string> = {
  triage: 'Triage',
  backlog: 'Backlog',
  unstarted: 'Todo',
  started: 'In Progress',
  completed: 'Done',
  canceled: 'Canceled',
};

export async function startFakeLinear(): Promise<FakeLinear> {
  const schema = linearSchema();
  const identifierOf = (issue: FakeLinearIssue) => `${issue.team}-${issue.number}`;
  const fake: FakeLinear = {
    origin: '',
    requests: [],
    violations: [],
    apiKeys: new Map(),
    users: [],
    teams: new Map(),
    organization: { id: randomUUID(), name: 'Acme', urlKey: 'acme' },
    issues: [],
    failWith: null,
    add(input) {
      const number =
        input.number ??
        Math.max(0, ...fake.issues.filter((i) => i.team === input.team).map((i) => i.number)) + 1;
      const issue: FakeLinearIssue = { ...input, id: randomUUID(), number, updatedAt: nextTime() };
      fake.issues.push(issue);
      return issue;
    },
    find(identifier) {
      const issue = fake.issues.find((i) => identifierOf(i) === identifier || i.id === identifier);
      if (!issue) throw new Error(`no issue ${identifier}`);
      return issue;
    },
    change(identifier, change) {
      return Object.assign(fake.find(identifier), change, { updatedAt: nextTime() });
    },
    issueUrl: (identifier) =>
      `${fake.origin}/${fake.organization.urlKey}/issue/${identifier}/${fake
        .find(identifier)
        .title.toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .slice(0, 40)}`,
    webhookData(identifier) {
      const issue = fake.find(identifier);
      const assignee = fake.users.find((u) => u.id === issue.assigneeId);
      return {
        id: issue.id,
        identifier,
        number: issue.number,
        title: issue.title,
        description: issue.description,
        url: fake.issueUrl(identifier),
        createdAt: '2026-11-01T00:00:00.000Z',
        updatedAt: issue.updatedAt,
        dueDate: issue.dueDate,
        priority: 0,
        priorityLabel: 'No priority',
        labelIds: [],
        labels: [],
        stateId: `${issue.team}-${issue.stateType}`,
        state: {
          id: `${issue.team}-${issue.stateType}`,
          name: STATE_NAMES[issue.stateType],
          type: issue.stateType,
          color: '#000',
        },
        teamId: issue.team,
        team: { id: issue.team, key: issue.team, name: fake.teams.get(issue.team) },
        assigneeId: issue.assigneeId,
        assignee: assignee
          ? {
              id: assignee.id,
              name: assignee.name,
              email: assignee.email,
              url: `${fake.origin}/acme/profiles/${assignee.id}`,
            }
          : null,
      };
    },
    close: () => new Promise<void>((done) => server.close(() => done())),
  };

  const connection = <T>(all: T[], args: { first?: number | null; after?: string | null }) => {
    const start = args.after ? Number(args.after) : 0;
    const first = Math.min(args.first ?? 50, 250);
    const nodes = all.slice(start, start + first);
    const end = start + nodes.length;
    return {
      nodes,
      pageInfo: { hasNextPage: end < all.length, endCursor: nodes.length ? String(end) : null },
    };
  };
  const teamJson = (key: string) => ({ id: `team-${key}`, key, name: fake.teams.get(key) ?? key });
  const userJson = (user: FakeLinearUser) => ({
    ...user,
    displayName: user.name.split(' ')[0]!.toLowerCase(),
    teams: (args: { first?: number; after?: string; filter?: { key?: { eq?: string } } }) =>
      connection(
        user.teams.filter((key) => !args.filter?.key?.eq || key === args.filter.key.eq).map(teamJson),
        args,
      ),
  });
  const issueJson = (issue: FakeLinearIssue) => {
    const assignee = fake.users.find((u) => u.id === issue.assigneeId);
    return {
      id: issue.id,
      identifier: identifierOf(issue),
      number: issue.number,
      title: issue.title,
      description: issue.description,
      url: fake.issueUrl(identifierOf(issue)),
      updatedAt: issue.updatedAt,
      dueDate: issue.dueDate,
      state: {
        id: `${issue.team}-${issue.stateType}`,
        name: STATE_NAMES[issue.stateType],
        type: issue.stateType,
      },
      team: teamJson(issue.team),
      assignee: assignee ? userJson(assignee) : null,
    };
  };

  /** The root of one request, for the user the API key acts as (an API key sees its user's workspace). */
  const root = (viewer: FakeLinearUser) => {
    const visible = (issue: FakeLinearIssue) => fake.teams.has(issue.team);
    const issueBy = (id: string) => {
      const issue = fake.issues.find((i) => (identifierOf(i) === id || i.id === id) && visible(i));
      if (!issue) throw new LinearAnswer('Entity not found: Issue', 'invalid input');
      return issue;
    };
    const memberOf = (teamKey: string) => {
      if (!viewer.teams.includes(teamKey))
        throw new LinearAnswer('You do not have access to this team', 'forbidden');
    };
    type Input = { title?: string; description?: string; dueDate?: string | null; assigneeId?: string };
    const assign = (issue: FakeLinearIssue, input: Input) => {
      if (input.title !== undefined) issue.title = input.title;
      if (input.description !== undefined) issue.description = input.description;
      if (input.dueDate !== undefined) issue.dueDate = input.dueDate;
      if (input.assigneeId !== undefined) {
        if (!fake.users.some((u) => u.id === input.assigneeId))
          throw new LinearAnswer('Entity not found: User', 'invalid input');
        issue.assigneeId = input.assigneeId;
      }
    };
    return {
      viewer: () => userJson(viewer),
      organization: () => fake.organization,
      teams: (args: { filter?: { key?: { eq?: string } }; first?: number; after?: string }) =>
        connection(
          [...fake.teams.keys()]
            .filter((key) => !args.filter?.key?.eq || key === args.filter.key.eq)
            .map(teamJson),
          args,
        ),
      users: (args: { filter?: { email?: { eq?: string } }; first?: number; after?: string }) =>
        connection(
          fake.users.filter((u) => !args.filter?.email?.eq || u.email === args.filter.email.eq).map(userJson),
          args,
        ),
      issue: (args: { id: string }) => issueJson(issueBy(args.id)),
      issues: (args: {
        filter?: { team?: { key?: { eq?: string } }; updatedAt?: { gt?: string } };
        first?: number;
        after?: string;
      }) => {
        const team = args.filter?.team?.key?.eq;
        const since = args.filter?.updatedAt?.gt;
        if (since && since.startsWith('P')) throw new Error('durations are not used by Pulsecheck');
        const all = fake.issues
          .filter(visible)
          .filter((i) => !team || i.team === team)
          .filter((i) => !since || Date.parse(i.updatedAt) > Date.parse(since))
          .sort((a, b) => Date.parse(b.updatedAt) - Date.parse(a.updatedAt));
        return connection(all.map(issueJson), args);
      },
      issueCreate: (args: { input: Input & { teamId: string } }) => {
        const team = [...fake.teams.keys()].find((key) => `team-${key}` === args.input.teamId);
        if (!team) throw new LinearAnswer('Entity not found: Team', 'invalid input');
        memberOf(team);
        const issue = fake.add({
          team,
          title: '',
          description: '',
          stateType: 'unstarted',
          assigneeId: null,
          dueDate: null,
        });
        assign(issue, args.input);
        return { success: true, lastSyncId: clock, issue: issueJson(issue) };
      },
      issueUpdate: (args: { id: string; input: Input }) => {
        const issue = issueBy(args.id);
        memberOf(issue.team);
        assign(issue, args.input);
        issue.updatedAt = nextTime();
        return { success: true, lastSyncId: clock, issue: issueJson(issue) };
      },
    };
  };

  function answer(req: IncomingMessage, raw: string): { status: number; body: unknown } {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method !== 'POST' || url.pathname !== '/graphql') {
      fake.violations.push(`${req.method} ${url.pathname}: Linear's API is POST /graphql`);
      return { status: 404, body: { errors: [{ message: 'Not found' }] } };
    }
    let request: { query?: unknown; variables?: unknown; operationName?: unknown };
    try {
      request = JSON.parse(raw) as typeof request;
    } catch {
      fake.violations.push('a body that is not JSON');
      return { status: 400, body: { errors: [{ message: 'Body is not JSON' }] } };
    }
    const query = typeof request.query === 'string' ? request.query : '';
    const variables = (request.variables ?? {}) as Record<string, unknown>;
    const recorded: LinearRequest = { operationName: null, query, variables };
    fake.requests.push(recorded);
    const refuse = (message: string) => {
      fake.violations.push(message);
      return {
        status: 400,
        body: {
          errors: [{ message, extensions: { type: 'graphql error', code: 'GRAPHQL_VALIDATION_FAILED' } }],
        },
      };
    };
    let document;
    try {
      document = parse(query);
    } catch (error) {
      return refuse(`unparsable query: ${String(error)}`);
    }
    recorded.operationName = getOperationAST(document)?.name?.value ?? null;
    const errors = validate(schema, document);
    if (errors.length) return refuse(errors.map((e) => e.message).join('; '));
    if (fake.failWith !== null) return { status: fake.failWith, body: 'Failing on purpose' };
    const userId = fake.apiKeys.get(req.headers.authorization ?? '');
    const viewer = fake.users.find((u) => u.id === userId);
    if (!viewer)
      return {
        status: 400,
        body: {
          errors: [
            {
              message: 'Authentication required, not authenticated',
              extensions: { type: 'authentication error', code: 'AUTHENTICATION_ERROR', userError: true },
            },
          ],
        },
      };
    const result = execute({ schema, document, rootValue: root(viewer), variableValues: variables });
    if (result instanceof Promise) throw new Error('the stand-in answers synchronously');
    const answered = result.errors ?? [];
    // A variable of the wrong type, or an error not answered on purpose, is a request Linear would refuse too.
    const bad = answered.filter((e) => !(e.originalError instanceof LinearAnswer));
    if (bad.length) return refuse(bad.map((e) => e.message).join('; '));
    if (answered.length)
      return {
        status: 200,
        body: {
          data: null,
          errors: answered.map((e) => ({ message: e.message, path: e.path, extensions: e.extensions })),
        },
      };
    return { status: 200, body: { data: result.data } };
  }

  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      try {
        const reply = answer(req, raw);
        const json = typeof reply.body !== 'string';
        res
          .writeHead(reply.status, {
            'Content-Type': json ? 'application/json; charset=utf-8' : 'text/plain; charset=utf-8',
          })
          .end(json ? JSON.stringify(reply.body) : reply.body);
      } catch (error) {
        res.writeHead(500).end(String(error));
      }
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  fake.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
