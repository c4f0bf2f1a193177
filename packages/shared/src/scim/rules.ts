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

/**
 * The `detail` of each refusal (the identity provider shows it in its provisioning log), catalogue keys (area
 * `scim`, decision 0027) said in the request's language (English unless it sends Accept-Language). With
 * placeholders: `domainNotVerified` ({domain}), `lastAdmin` ({workspace}), `memberNotFound` ({value}),
 * `invalidPath` ({path}), `invalidValue` ({attribute}).
 */
export const SCIM_MESSAGES = {
  unauthorized: 'scim.unauthorized',
  userNotFound: 'scim.userNotFound',
  groupNotFound: 'scim.groupNotFound',
  userNameRequired: 'scim.userNameRequired',
  domainNotVerified: 'scim.domainNotVerified',
  userExists: 'scim.userExists',
  emailTaken: 'scim.emailTaken',
  linkedAccountImmutable: 'scim.linkedAccountImmutable',
  ownerProtected: 'scim.ownerProtected',
  lastAdmin: 'scim.lastAdmin',
  groupNameRequired: 'scim.groupNameRequired',
  groupExists: 'scim.groupExists',
  groupDeleteRefused: 'scim.groupDeleteRefused',
  memberNotFound: 'scim.memberNotFound',
  invalidFilter: 'scim.invalidFilter',
  invalidJson: 'scim.invalidJson',
  invalidBody: 'scim.invalidBody',
  invalidPatch: 'scim.invalidPatch',
  invalidPath: 'scim.invalidPath',
  invalidValue: 'scim.invalidValue',
  notFoundRoute: 'scim.notFoundRoute',
  methodNotAllowed: 'scim.methodNotAllowed',
  tooLarge: 'scim.tooLarge',
  /** A refusal while the database cannot serve (503). */
  databaseUnavailable: 'scim.databaseUnavailable',
} as const;

/** The 'SCIM provisioning' card (Account Settings → Security) and its API: catalogue keys. */
export const SCIM_CARD = {
  title: 'scim.card.title',
  description: 'scim.card.description',
  baseUrlLabel: 'scim.card.baseUrlLabel',
  create: 'scim.card.create',
  rotate: 'scim.card.rotate',
  noToken: 'scim.card.noToken',
  shownOnce: 'scim.card.shownOnce',
  rotateWarning: 'scim.card.rotateWarning',
  ownerOnly: 'scim.card.ownerOnly',
  domainsNeeded: 'scim.card.domainsNeeded',
  created: 'scim.card.created',
  rotated: 'scim.card.rotated',
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
