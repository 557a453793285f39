import { SCIM_BASE_PATH, SCIM_MAX_PAGE, SCIM_SCHEMAS } from '../../../src/contract/scim.ts';

/**
 * The discovery documents of RFC 7643 §5-7, telling a directory what this service supports: Users only, PATCH, the
 * `eq` filters, pagination; no bulk, sort, change-password or groups.
 */

export function serviceProviderConfig(baseUrl: string) {
  return {
    schemas: [SCIM_SCHEMAS.serviceProviderConfig],
    documentationUri: `${baseUrl}/api/docs`,
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: SCIM_MAX_PAGE },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: true },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'OAuth Bearer Token',
        description: "The company's SCIM token, made in the console's admin area.",
        primary: true,
      },
    ],
    meta: { resourceType: 'ServiceProviderConfig', location: `${baseUrl}${SCIM_BASE_PATH}/ServiceProviderConfig` },
  };
}

export function userResourceType(baseUrl: string) {
  return {
    schemas: [SCIM_SCHEMAS.resourceType],
    id: 'User',
    name: 'User',
    endpoint: '/Users',
    description: 'A member of the company: an employee of Life Concierge.',
    schema: SCIM_SCHEMAS.user,
    meta: { resourceType: 'ResourceType', location: `${baseUrl}${SCIM_BASE_PATH}/ResourceTypes/User` },
  };
}

const attribute = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  type: 'string',
  multiValued: false,
  required: false,
  caseExact: false,
  mutability: 'readWrite',
  returned: 'default',
  uniqueness: 'none',
  ...extra,
});

export function userSchema(baseUrl: string) {
  return {
    schemas: [SCIM_SCHEMAS.schema],
    id: SCIM_SCHEMAS.user,
    name: 'User',
    description: 'A member of the company. userName is their e-mail address at one of the company\'s domains.',
    attributes: [
      attribute('userName', { required: true, uniqueness: 'server' }),
      attribute('externalId', { caseExact: true }),
      {
        ...attribute('name'),
        type: 'complex',
        subAttributes: [attribute('givenName'), attribute('familyName'), attribute('formatted', { mutability: 'readOnly' })],
      },
      attribute('displayName'),
      {
        ...attribute('emails', { multiValued: true, mutability: 'readOnly' }),
        type: 'complex',
        subAttributes: [attribute('value'), attribute('type'), { ...attribute('primary'), type: 'boolean' }],
      },
      { ...attribute('active'), type: 'boolean' },
    ],
    meta: { resourceType: 'Schema', location: `${baseUrl}${SCIM_BASE_PATH}/Schemas/${SCIM_SCHEMAS.user}` },
  };
}

/** RFC 7644 §3.4.2: the ListResponse of a discovery collection. */
export function listOf<T>(resources: T[]) {
  return { schemas: [SCIM_SCHEMAS.listResponse], totalResults: resources.length, startIndex: 1, itemsPerPage: resources.length, Resources: resources };
}
