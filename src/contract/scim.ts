import * as z from 'zod/mini';
import { dbId } from './common.ts';

/**
 * Provisioning from a company's directory (issue 29 part 2). Admins manage each company's SCIM bearer token under
 * /api/v1/admin/scim_tokens (admins only: a visitor gets 401, anyone else 403; every write is in the audit log). The
 * directory itself calls /scim/v2 (RFC 7643/7644) with that token and reaches only its own company's members.
 */

/** A company's SCIM token as the admin area lists it: never the token itself, which is shown once. */
export const scimToken = z.object({
  id: z.number().check(z.int()),
  company_id: z.number().check(z.int()),
  company_name: z.string(),
  /** The token's first characters, to tell which one a directory holds. */
  prefix: z.string(),
  created_at: z.iso.datetime({ offset: true }),
  rotated_at: z.nullable(z.iso.datetime({ offset: true })),
  last_used_at: z.nullable(z.iso.datetime({ offset: true })),
  revoked_at: z.nullable(z.iso.datetime({ offset: true })),
  /** Only in the answer that made it (creation, rotation): the bearer token to give the directory. */
  token: z.optional(z.string()),
});
export type ScimToken = z.infer<typeof scimToken>;

export const scimTokensResponse = z.object({ scim_tokens: z.array(scimToken) });
export const scimTokenResponse = z.object({ scim_token: scimToken });

export const SCIM_COMPANY_REQUIRED_ERROR = 'Choose the company whose directory will use the token';
/** A new token for a company; 409 when the company has a live one already (rotate it instead). */
export const createScimTokenRequest = z.object({ company_id: dbId });
export type CreateScimTokenRequest = z.infer<typeof createScimTokenRequest>;
export const SCIM_TOKEN_EXISTS_ERROR = 'This company already has a SCIM token: rotate it to get a new one.';
export const SCIM_TOKEN_REVOKED_ERROR = 'This SCIM token is revoked: create a new one for the company.';

/** Where a directory reaches this server, after the server's own address. */
export const SCIM_BASE_PATH = '/scim/v2';
export const SCIM_CONTENT_TYPE = 'application/scim+json';

export const SCIM_SCHEMAS = {
  user: 'urn:ietf:params:scim:schemas:core:2.0:User',
  enterpriseUser: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User',
  listResponse: 'urn:ietf:params:scim:api:messages:2.0:ListResponse',
  patchOp: 'urn:ietf:params:scim:api:messages:2.0:PatchOp',
  error: 'urn:ietf:params:scim:api:messages:2.0:Error',
  serviceProviderConfig: 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig',
  resourceType: 'urn:ietf:params:scim:schemas:core:2.0:ResourceType',
  schema: 'urn:ietf:params:scim:schemas:core:2.0:Schema',
} as const;

/** RFC 7644 §3.12: every refusal of /scim/v2, with the status repeated as text. */
export const scimError = z.object({
  schemas: z.array(z.string()),
  status: z.string(),
  scimType: z.optional(z.string()),
  detail: z.optional(z.string()),
});
export type ScimErrorBody = z.infer<typeof scimError>;

const scimName = z.looseObject({
  givenName: z.optional(z.nullable(z.string().check(z.maxLength(200)))),
  familyName: z.optional(z.nullable(z.string().check(z.maxLength(200)))),
  formatted: z.optional(z.nullable(z.string().check(z.maxLength(400)))),
});
const scimEmail = z.looseObject({
  value: z.optional(z.string().check(z.maxLength(320))),
  primary: z.optional(z.union([z.boolean(), z.string()])),
  type: z.optional(z.string()),
});

/**
 * A User as a directory sends it (POST, PUT): `userName` is the member's e-mail address at one of the company's
 * domains. Attributes this service does not keep (phone numbers, the enterprise extension) are accepted and ignored.
 * `active` may come as a boolean or, as Entra ID sends it, the text "True"/"False".
 */
export const scimUserInput = z.looseObject({
  schemas: z.optional(z.array(z.string())),
  userName: z.string().check(z.trim(), z.minLength(1), z.maxLength(320)),
  externalId: z.optional(z.nullable(z.string().check(z.maxLength(200)))),
  name: z.optional(scimName),
  displayName: z.optional(z.nullable(z.string().check(z.maxLength(400)))),
  emails: z.optional(z.array(scimEmail).check(z.maxLength(20))),
  active: z.optional(z.union([z.boolean(), z.string().check(z.maxLength(5))])),
});
export type ScimUserInput = z.infer<typeof scimUserInput>;

/** A User as this service answers it. `id` is the member's id in this service, the same for every call. */
export const scimUser = z.object({
  schemas: z.array(z.string()),
  id: z.string(),
  externalId: z.optional(z.string()),
  userName: z.string(),
  name: z.object({ givenName: z.string(), familyName: z.string(), formatted: z.string() }),
  displayName: z.string(),
  emails: z.array(z.object({ value: z.string(), primary: z.boolean(), type: z.string() })),
  active: z.boolean(),
  meta: z.object({
    resourceType: z.literal('User'),
    created: z.string(),
    lastModified: z.string(),
    location: z.string(),
    version: z.string(),
  }),
});
export type ScimUser = z.infer<typeof scimUser>;

/** RFC 7644 §3.4.2: a page of Users, `startIndex` counting from 1. */
export const scimUserList = z.object({
  schemas: z.array(z.string()),
  totalResults: z.number().check(z.int()),
  startIndex: z.number().check(z.int()),
  itemsPerPage: z.number().check(z.int()),
  Resources: z.array(scimUser),
});

export const SCIM_MAX_PAGE = 200;
/**
 * The list's query: `filter` (`userName eq "..."` or `externalId eq "..."`), `startIndex` (from 1) and `count` (at
 * most 200; past it the page is 200, as RFC 7644 §3.4.2.4 lets a server do).
 */
export const scimListQuery = z.object({
  filter: z.optional(z.string().check(z.maxLength(500))),
  startIndex: z.optional(z.coerce.number().check(z.int())),
  count: z.optional(z.coerce.number().check(z.int())),
});

/** RFC 7644 §3.5.2: the operations of a PATCH, applied with scim-patch. */
export const scimPatchRequest = z.looseObject({
  schemas: z.array(z.string()),
  Operations: z
    .array(
      z.looseObject({
        op: z.string().check(z.maxLength(10)),
        path: z.optional(z.string().check(z.maxLength(500))),
        value: z.optional(z.unknown()),
      }),
    )
    .check(z.minLength(1), z.maxLength(100)),
});

export const scimIdParams = z.object({ id: z.string().check(z.maxLength(100)) });

/** The discovery documents (ServiceProviderConfig, ResourceTypes, Schemas): JSON as RFC 7643 §5-7 describe it. */
export const scimDocument = z.looseObject({ schemas: z.array(z.string()) });
