import { z } from 'zod';

/**
 * SCIM 2.0 provisioning (issue 37 item 2, RFC 7643/7644, decision 0025): the protocol's names, our limits, the
 * error details the server answers and the words of the 'SCIM provisioning' card, written once.
 */

/** Where the SCIM service lives, after APP_URL (not under /api: identity providers are told this base URL). */
export const SCIM_BASE_PATH = '/scim/v2';
export const scimBaseUrl = (appUrl: string) => `${appUrl.replace(/\/+$/, '')}${SCIM_BASE_PATH}`;

export const SCIM_CONTENT_TYPE = 'application/scim+json';

export const SCIM_SCHEMAS = {
  user: 'urn:ietf:params:scim:schemas:core:2.0:User',
  group: 'urn:ietf:params:scim:schemas:core:2.0:Group',
  listResponse: 'urn:ietf:params:scim:api:messages:2.0:ListResponse',
  patchOp: 'urn:ietf:params:scim:api:messages:2.0:PatchOp',
  error: 'urn:ietf:params:scim:api:messages:2.0:Error',
  serviceProviderConfig: 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig',
  resourceType: 'urn:ietf:params:scim:schemas:core:2.0:ResourceType',
  schema: 'urn:ietf:params:scim:schemas:core:2.0:Schema',
} as const;

/** Every SCIM token starts so: secret scanners and people recognise it, and it is never taken for an API token. */
export const SCIM_TOKEN_PREFIX = 'pcscim_';

/** A page of a list: `count` defaults to this and is cut to the maximum (announced in ServiceProviderConfig). */
export const SCIM_PAGE = { defaultCount: 100, maxResults: 200 } as const;

/** RFC 7644 3.12 `scimType` values we answer. */
export type ScimType =
  | 'invalidFilter'
  | 'uniqueness'
  | 'invalidValue'
  | 'invalidSyntax'
  | 'invalidPath'
  | 'noTarget'
  | 'mutability'
  | 'tooMany';

/** The `detail` of each refusal (the identity provider shows it in its provisioning log). */
export const SCIM_MESSAGES = {
  unauthorized: 'A valid SCIM token is required (Authorization: Bearer pcscim_…).',
  userNotFound: 'User not found',
  groupNotFound: 'Group not found',
  userNameRequired: 'userName is required and must be an e-mail address.',
  domainNotVerified: (domain: string) =>
    `The e-mail domain ${domain} is not verified by this organisation. Verify it under Account Settings → Security → Single sign-on before provisioning its people.`,
  userExists: 'A user with this userName is already provisioned in this organisation.',
  emailTaken: 'Another account already uses this e-mail address.',
  linkedAccountImmutable:
    'This account existed before it was provisioned; its e-mail address belongs to its owner and cannot be changed by provisioning.',
  ownerProtected:
    "The organisation's owner cannot be deactivated or removed by provisioning. Hand the organisation over first.",
  lastAdmin: (workspace: string) =>
    `This person is the last admin of the workspace ${workspace}; appoint another admin before removing them.`,
  groupNameRequired: 'displayName is required (at most 120 characters).',
  groupExists: 'A workspace with this displayName already exists in this organisation.',
  groupDeleteRefused:
    'Workspaces are not deleted by provisioning: deleting one deletes its health checks and loops. Delete it in Pulsecheck.',
  memberNotFound: (value: string) => `No user with id ${value} is provisioned in this organisation.`,
  invalidFilter:
    'Unsupported filter. Supported: userName eq "…", externalId eq "…", id eq "…" (Users); displayName eq "…", id eq "…" (Groups).',
  invalidJson: 'The request body is not valid JSON.',
  invalidBody: 'The request body is not a valid SCIM resource.',
  invalidPatch:
    'The request body is not a valid PatchOp (schemas, Operations with op add, replace or remove).',
  invalidPath: (path: string) => `Unsupported attribute path: ${path}`,
  invalidValue: (attribute: string) => `Invalid value for ${attribute}.`,
  notFoundRoute: 'No such SCIM endpoint.',
  methodNotAllowed: 'This method is not supported on this endpoint.',
  tooLarge: 'The request body is too large.',
} as const;

/** The 'SCIM provisioning' card (Account Settings → Security) and its API. */
export const SCIM_CARD = {
  title: 'SCIM provisioning',
  description:
    'Let your identity provider (Okta, Microsoft Entra ID and others) create, update and deactivate people and workspaces automatically.',
  baseUrlLabel: 'SCIM base URL',
  tokenLabel: 'SCIM token',
  create: 'Create token',
  rotate: 'Rotate token',
  noToken: 'No token yet: provisioning is off.',
  shownOnce:
    'Copy this token now: it is shown only once. Paste it into your identity provider as the bearer token.',
  rotateWarning: 'Rotating replaces the token at once: the old one stops working.',
  ownerOnly: "Only the organisation's owner can create or rotate the SCIM token.",
  domainsNeeded:
    'Provisioning creates people only at e-mail domains your organisation has verified (see Single sign-on above).',
  created: 'SCIM token created',
  rotated: 'SCIM token rotated',
} as const;

export const scimSettingsSchema = z.strictObject({
  baseUrl: z.string(),
  /** Whether the signed-in person may create or rotate the token (can(): organization:provision). */
  mayManage: z.boolean(),
  token: z
    .strictObject({
      start: z.string(),
      createdAt: z.string(),
      lastUsedAt: z.string().nullable(),
    })
    .nullable(),
  verifiedDomains: z.array(z.string()),
  provisionedUsers: z.number().int(),
});
export type ScimSettings = z.infer<typeof scimSettingsSchema>;

export const createdScimTokenSchema = z.strictObject({
  settings: scimSettingsSchema,
  /** The token itself, shown once. */
  secret: z.string(),
});
export type CreatedScimToken = z.infer<typeof createdScimTokenSchema>;
