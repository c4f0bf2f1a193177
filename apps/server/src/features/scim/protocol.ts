import type { MessageValues, Translator } from '@pulsecheck/shared/i18n/translate';
import { SCIM_MESSAGES, SCIM_PAGE, SCIM_SCHEMAS, type ScimType } from '@pulsecheck/shared/scim/rules';
import { translateMessage } from '../../lib/app-error';

/**
 * The SCIM protocol as far as Pulsecheck speaks it (RFC 7643/7644), without the database: its errors, the filters
 * we answer, paging numbers, and PATCH operations as Okta and Microsoft Entra ID send them. Pure functions, so the
 * service applies a PATCH to a plain record and writes the outcome once.
 */

/**
 * A refusal in the SCIM error format (RFC 7644 3.12); routes.ts answers it as such. `detail` is a catalogue key
 * (SCIM_MESSAGES) whose placeholders `values` fill, said in the request's language when the body is made.
 */
export class ScimError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly scimType?: ScimType,
    readonly values?: MessageValues,
  ) {
    super(detail);
  }

  /** The body, its detail in `translator`'s language (the key as it is without one). */
  toBody(translator?: Translator) {
    return {
      schemas: [SCIM_SCHEMAS.error],
      status: String(this.status),
      ...(this.scimType ? { scimType: this.scimType } : {}),
      detail: translator ? translateMessage(translator, this.detail, this.values) : this.detail,
    };
  }
}

export const invalidValue = (detail: string, values?: MessageValues) =>
  new ScimError(400, detail, 'invalidValue', values);

/** A filter we answer: one attribute compared for equality (`userName eq "…"`), the only form IdPs send here. */
export type ScimFilter = { attribute: string; value: string };

const FILTER = /^\s*([A-Za-z][\w.:]*)\s+eq\s+"((?:[^"\\]|\\.)*)"\s*$/i;

/**
 * Parses `filter` for the resource's filterable attributes (lower-case names); anything else is 400 invalidFilter
 * (RFC 7644 3.4.2.2 lets a service provider refuse filters it does not support).
 */
export function parseFilter(filter: string | undefined, attributes: readonly string[]): ScimFilter | null {
  if (filter === undefined || filter.trim() === '') return null;
  const match = FILTER.exec(filter);
  const attribute = match?.[1]!.toLowerCase();
  if (!match || !attribute || !attributes.includes(attribute))
    throw new ScimError(400, SCIM_MESSAGES.invalidFilter, 'invalidFilter');
  return { attribute, value: JSON.parse(`"${match[2]!}"`) as string };
}

/** startIndex (1-based) and count as RFC 7644 3.4.2.4 says: below 1 counts as 1, a negative count as 0. */
export function paging(startIndex: string | undefined, count: string | undefined) {
  const whole = (value: string | undefined) =>
    value === undefined || value.trim() === '' || !/^-?\d+$/.test(value.trim()) ? null : Number(value);
  const start = whole(startIndex);
  const size = whole(count);
  if ((startIndex !== undefined && start === null) || (count !== undefined && size === null))
    throw invalidValue(SCIM_MESSAGES.invalidValue, {
      attribute: startIndex !== undefined && start === null ? 'startIndex' : 'count',
    });
  return {
    startIndex: Math.max(1, start ?? 1),
    count: Math.min(SCIM_PAGE.maxResults, Math.max(0, size ?? SCIM_PAGE.defaultCount)),
  };
}

export const listResponse = <T>(resources: T[], total: number, startIndex: number) => ({
  schemas: [SCIM_SCHEMAS.listResponse],
  totalResults: total,
  startIndex,
  itemsPerPage: resources.length,
  Resources: resources,
});

/** A boolean as IdPs send it: `false`, or Entra's `"False"` / `"false"`. */
export function booleanOf(value: unknown, attribute: string): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value.trim()))
    return value.trim().toLowerCase() === 'true';
  throw invalidValue(SCIM_MESSAGES.invalidValue, { attribute: attribute });
}

/** A string attribute, or null to clear it; anything else is invalidValue. */
export function textOf(value: unknown, attribute: string): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  throw invalidValue(SCIM_MESSAGES.invalidValue, { attribute: attribute });
}

export type PatchOperation = { op: 'add' | 'replace' | 'remove'; path: string | null; value: unknown };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The operations of a PatchOp body; the op names case-insensitively (Entra sends "Replace", "Add"). */
export function patchOperations(body: unknown): PatchOperation[] {
  const refuse = () => new ScimError(400, SCIM_MESSAGES.invalidPatch, 'invalidSyntax');
  if (!isRecord(body) || !Array.isArray(body.schemas) || !body.schemas.includes(SCIM_SCHEMAS.patchOp))
    throw refuse();
  const operations = body.Operations ?? body.operations;
  if (!Array.isArray(operations) || operations.length === 0) throw refuse();
  return operations.map((operation: unknown) => {
    if (!isRecord(operation) || typeof operation.op !== 'string') throw refuse();
    const op = operation.op.toLowerCase();
    if (op !== 'add' && op !== 'replace' && op !== 'remove') throw refuse();
    const path =
      typeof operation.path === 'string' && operation.path.trim() !== '' ? operation.path.trim() : null;
    if (op === 'remove' && path === null) throw new ScimError(400, SCIM_MESSAGES.invalidPatch, 'noTarget');
    if (op !== 'remove' && !('value' in operation)) throw refuse();
    return { op, path, value: operation.value };
  });
}

/** The User attributes Pulsecheck keeps, as one record a PATCH or PUT changes. */
export type UserRecord = {
  userName: string;
  externalId: string | null;
  givenName: string | null;
  familyName: string | null;
  displayName: string | null;
  emails: { value: string; type?: string; primary?: boolean }[] | null;
  active: boolean;
};

const USER_SCHEMA_PREFIX = `${SCIM_SCHEMAS.user}:`;

/** An attribute path without the core schema's URN (RFC 7644 3.10 allows it in front), lower case. */
const normalisePath = (path: string) =>
  (path.toLowerCase().startsWith(USER_SCHEMA_PREFIX.toLowerCase())
    ? path.slice(USER_SCHEMA_PREFIX.length)
    : path
  )
    .trim()
    .toLowerCase();

/** `attr`, `attr.sub`, `attr[filter]`, `attr[filter].sub`, optionally after a schema URN (lower case). */
const ATTRIBUTE_PATH = /^(urn:[a-z0-9:._-]+:)?[a-z$][\w$-]*(\[[^[\]]+\])?(\.[a-z$][\w$-]*)?$/;

const EMAIL_TYPE_PATH = /^emails\[type eq "([^"]*)"\]\.value$/;

function emailsOf(value: unknown): UserRecord['emails'] {
  if (value === null) return null;
  const list = Array.isArray(value) ? value : [value];
  return list.map((entry) => {
    if (!isRecord(entry) || typeof entry.value !== 'string')
      throw invalidValue(SCIM_MESSAGES.invalidValue, { attribute: 'emails' });
    return {
      value: entry.value,
      ...(typeof entry.type === 'string' ? { type: entry.type } : {}),
      ...(entry.primary !== undefined ? { primary: booleanOf(entry.primary, 'emails.primary') } : {}),
    };
  });
}

/** Sets one attribute (by path) of the record; attributes Pulsecheck does not keep are accepted and dropped. */
function setUserAttribute(record: UserRecord, path: string, value: unknown, op: PatchOperation['op']) {
  const key = normalisePath(path);
  const removing = op === 'remove';
  const emailType = EMAIL_TYPE_PATH.exec(key);
  if (emailType) {
    const type = emailType[1]!;
    const others = (record.emails ?? []).filter((email) => email.type?.toLowerCase() !== type);
    record.emails = removing
      ? others
      : [...others, { value: textOf(value, 'emails.value') ?? '', type, primary: true }];
    return;
  }
  switch (key) {
    case 'active':
      record.active = removing ? false : booleanOf(value, 'active');
      return;
    case 'username':
      if (removing) throw new ScimError(400, SCIM_MESSAGES.userNameRequired, 'mutability');
      record.userName = textOf(value, 'userName') ?? '';
      return;
    case 'externalid':
      record.externalId = removing ? null : textOf(value, 'externalId');
      return;
    case 'displayname':
      record.displayName = removing ? null : textOf(value, 'displayName');
      return;
    case 'name.givenname':
      record.givenName = removing ? null : textOf(value, 'name.givenName');
      return;
    case 'name.familyname':
      record.familyName = removing ? null : textOf(value, 'name.familyName');
      return;
    case 'name':
      if (removing || value === null) {
        record.givenName = null;
        record.familyName = null;
        return;
      }
      if (!isRecord(value)) throw invalidValue(SCIM_MESSAGES.invalidValue, { attribute: 'name' });
      if ('givenName' in value) record.givenName = textOf(value.givenName, 'name.givenName');
      if ('familyName' in value) record.familyName = textOf(value.familyName, 'name.familyName');
      return;
    case 'emails':
      record.emails = removing ? null : emailsOf(value);
      return;
    default:
      // Attributes we do not keep (title, phoneNumbers[type eq "work"].value, the enterprise extension…) are
      // accepted and not stored, as Entra's default attribute mappings send them; a malformed path is refused.
      if (!ATTRIBUTE_PATH.test(key))
        throw new ScimError(400, SCIM_MESSAGES.invalidPath, 'invalidPath', { path });
      return;
  }
}

/** Applies PATCH operations to a copy of the record (RFC 7644 3.5.2), with or without `path`. */
export function patchUser(current: UserRecord, operations: PatchOperation[]): UserRecord {
  const record: UserRecord = { ...current, emails: current.emails ? [...current.emails] : null };
  for (const operation of operations) {
    if (operation.path !== null) {
      setUserAttribute(record, operation.path, operation.value, operation.op);
      continue;
    }
    if (!isRecord(operation.value)) throw invalidValue(SCIM_MESSAGES.invalidPatch);
    for (const [path, value] of Object.entries(operation.value)) {
      if (path === 'schemas' || path === 'id' || path === 'meta') continue;
      setUserAttribute(record, path, value, operation.op);
    }
  }
  return record;
}

/** A full User body (POST, or PUT over `current`) as the record it describes. */
export function userFromBody(body: unknown, current?: UserRecord): UserRecord {
  if (!isRecord(body)) throw new ScimError(400, SCIM_MESSAGES.invalidBody, 'invalidSyntax');
  const name = isRecord(body.name) ? body.name : {};
  const userName = body.userName;
  if (typeof userName !== 'string' || userName.trim() === '')
    throw invalidValue(SCIM_MESSAGES.userNameRequired);
  return {
    userName,
    externalId: textOf(body.externalId, 'externalId'),
    givenName: textOf(name.givenName, 'name.givenName'),
    familyName: textOf(name.familyName, 'name.familyName'),
    displayName: textOf(body.displayName, 'displayName'),
    emails: body.emails === undefined ? (current?.emails ?? null) : emailsOf(body.emails),
    // A PUT that leaves `active` out keeps it (never reactivates by omission); a new user is active.
    active: body.active === undefined ? (current?.active ?? true) : booleanOf(body.active, 'active'),
  };
}

/** What a Group PATCH changes: its name, and which provisioned users join or leave (ids), or the whole list. */
export type GroupChange = {
  displayName?: string;
  add: string[];
  remove: string[];
  replaceMembers?: string[];
};

const MEMBER_VALUE_PATH = /^members\[value eq "([^"]*)"\]$/i;

function memberIds(value: unknown): string[] {
  if (value === null || value === undefined) return [];
  const list = Array.isArray(value) ? value : [value];
  return list.map((entry) => {
    if (!isRecord(entry) || typeof entry.value !== 'string')
      throw invalidValue(SCIM_MESSAGES.invalidValue, { attribute: 'members' });
    return entry.value;
  });
}

/** Group PATCH operations as Okta and Entra send them: members add/remove (by value or filter path), rename. */
export function groupChange(operations: PatchOperation[]): GroupChange {
  const change: GroupChange = { add: [], remove: [] };
  const apply = (path: string, value: unknown, op: PatchOperation['op']) => {
    const key = path.trim();
    const byValue = MEMBER_VALUE_PATH.exec(key);
    if (byValue) {
      if (op !== 'remove') throw new ScimError(400, SCIM_MESSAGES.invalidPath, 'invalidPath', { path });
      change.remove.push(byValue[1]!);
      return;
    }
    switch (key.toLowerCase()) {
      case 'members':
        if (op === 'add') change.add.push(...memberIds(value));
        else if (op === 'remove') {
          // `remove` of `members` without a value removes them all (RFC 7644 3.5.2.2).
          if (value === undefined) change.replaceMembers = [];
          else change.remove.push(...memberIds(value));
        } else change.replaceMembers = memberIds(value);
        return;
      case 'displayname': {
        if (op === 'remove') throw new ScimError(400, SCIM_MESSAGES.groupNameRequired, 'mutability');
        const name = textOf(value, 'displayName');
        if (name === null) throw invalidValue(SCIM_MESSAGES.groupNameRequired);
        change.displayName = name;
        return;
      }
      case 'externalid':
      case 'id':
        return;
      default:
        throw new ScimError(400, SCIM_MESSAGES.invalidPath, 'invalidPath', { path });
    }
  };
  for (const operation of operations) {
    if (operation.path !== null) {
      apply(operation.path, operation.value, operation.op);
      continue;
    }
    if (!isRecord(operation.value)) throw invalidValue(SCIM_MESSAGES.invalidPatch);
    for (const [path, value] of Object.entries(operation.value)) {
      if (path === 'schemas' || path === 'meta') continue;
      apply(path, value, operation.op);
    }
  }
  return change;
}

/** A full Group body (POST or PUT). */
export function groupFromBody(body: unknown): { displayName: string; members: string[] | undefined } {
  if (!isRecord(body)) throw new ScimError(400, SCIM_MESSAGES.invalidBody, 'invalidSyntax');
  const name = typeof body.displayName === 'string' ? body.displayName : '';
  return { displayName: name, members: body.members === undefined ? undefined : memberIds(body.members) };
}
