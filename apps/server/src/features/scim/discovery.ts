import { SCIM_PAGE, SCIM_SCHEMAS } from '@pulsecheck/shared/scim/rules';

/**
 * The discovery endpoints (RFC 7644 4): ServiceProviderConfig, ResourceTypes and Schemas, built from the base URL.
 * They say what routes.ts really does: PATCH yes, filter yes (equality on the attributes listed), no bulk, no
 * sorting, no ETags, no password changes (people sign in through the organisation's SSO).
 */

const meta = (base: string, resourceType: string, path: string) => ({
  resourceType,
  location: `${base}/${path}`,
});

export function serviceProviderConfig(base: string) {
  return {
    schemas: [SCIM_SCHEMAS.serviceProviderConfig],
    documentationUri: 'https://github.com/pulsecheck/pulsecheck/blob/main/docs/api/scim.md',
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: SCIM_PAGE.maxResults },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: false },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'OAuth Bearer Token',
        description:
          "The organisation's SCIM token (Account Settings → Security → SCIM provisioning): Authorization: Bearer pcscim_…",
        primary: true,
      },
    ],
    meta: meta(base, 'ServiceProviderConfig', 'ServiceProviderConfig'),
  };
}

const resourceType = (base: string, id: 'User' | 'Group') => ({
  schemas: [SCIM_SCHEMAS.resourceType],
  id,
  name: id,
  endpoint: `/${id}s`,
  description: id === 'User' ? 'A person of the organisation' : 'A workspace of the organisation',
  schema: id === 'User' ? SCIM_SCHEMAS.user : SCIM_SCHEMAS.group,
  schemaExtensions: [],
  meta: meta(base, 'ResourceType', `ResourceTypes/${id}`),
});

export const resourceTypes = (base: string) => [resourceType(base, 'User'), resourceType(base, 'Group')];
export const resourceTypeOf = (base: string, id: string) =>
  id === 'User' || id === 'Group' ? resourceType(base, id) : null;

type Attribute = {
  name: string;
  type: 'string' | 'boolean' | 'complex' | 'reference';
  multiValued: boolean;
  description: string;
  required: boolean;
  caseExact: boolean;
  mutability: 'readOnly' | 'readWrite' | 'immutable' | 'writeOnly';
  returned: 'always' | 'default' | 'never' | 'request';
  uniqueness: 'none' | 'server' | 'global';
  subAttributes?: Attribute[];
  referenceTypes?: string[];
};

const attribute = (name: string, description: string, options: Partial<Attribute> = {}): Attribute => ({
  name,
  type: 'string',
  multiValued: false,
  description,
  required: false,
  caseExact: false,
  mutability: 'readWrite',
  returned: 'default',
  uniqueness: 'none',
  ...options,
});

const USER_ATTRIBUTES: Attribute[] = [
  attribute(
    'userName',
    "The person's e-mail address, on a domain the organisation verified; their Pulsecheck sign-in address.",
    { required: true, uniqueness: 'server' },
  ),
  attribute('name', "The person's name", {
    type: 'complex',
    subAttributes: [
      attribute('givenName', 'Given name'),
      attribute('familyName', 'Family name'),
      attribute('formatted', 'The full name as shown', { mutability: 'readOnly' }),
    ],
  }),
  attribute('displayName', 'The name Pulsecheck shows'),
  attribute('emails', 'E-mail addresses as the provider sent them (sign-in uses userName)', {
    type: 'complex',
    multiValued: true,
    subAttributes: [
      attribute('value', 'The address'),
      attribute('type', 'work, home or other'),
      attribute('primary', 'The primary address', { type: 'boolean' }),
    ],
  }),
  attribute(
    'active',
    'false: deactivated (sessions ended, access to the organisation suspended, answers kept)',
    { type: 'boolean' },
  ),
  attribute('groups', 'The workspaces the person is in', {
    type: 'complex',
    multiValued: true,
    mutability: 'readOnly',
    subAttributes: [
      attribute('value', 'The workspace id', { mutability: 'readOnly' }),
      attribute('display', 'The workspace name', { mutability: 'readOnly' }),
    ],
  }),
];

const GROUP_ATTRIBUTES: Attribute[] = [
  attribute('displayName', 'The workspace name', { required: true, uniqueness: 'server' }),
  attribute('members', "The workspace's provisioned members", {
    type: 'complex',
    multiValued: true,
    subAttributes: [
      attribute('value', 'The id of a provisioned User', { mutability: 'immutable' }),
      attribute('display', 'Their name', { mutability: 'readOnly' }),
      attribute('$ref', 'The User', { type: 'reference', referenceTypes: ['User'], mutability: 'readOnly' }),
    ],
  }),
];

const schema = (base: string, id: string, name: string, description: string, attributes: Attribute[]) => ({
  schemas: [SCIM_SCHEMAS.schema],
  id,
  name,
  description,
  attributes,
  meta: meta(base, 'Schema', `Schemas/${id}`),
});

export const schemas = (base: string) => [
  schema(base, SCIM_SCHEMAS.user, 'User', 'A person of the organisation', USER_ATTRIBUTES),
  schema(base, SCIM_SCHEMAS.group, 'Group', 'A workspace of the organisation', GROUP_ATTRIBUTES),
];
export const schemaOf = (base: string, id: string) => schemas(base).find((entry) => entry.id === id) ?? null;
