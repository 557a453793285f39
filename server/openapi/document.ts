import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as z from 'zod/mini';
import { AUTHORIZATION_HEADER, MFA_TOKEN_HEADER } from '../../src/contract/common.ts';
import type { ErrorBody } from '../../src/contract/common.ts';
import { SCIM_BASE_PATH, SCIM_CONTENT_TYPE } from '../../src/contract/scim.ts';
import { EMAIL_TAKEN_ERROR } from '../domain/admin/staff.ts';
import { requestNotFound } from '../domain/requests/requests.ts';
import { conflict, invalidFields } from '../domain/shared/userFacingError.ts';
import { uploadRejected } from '../domain/uploads/uploads.ts';
import { SESSION_EXPIRED_ERROR, STAFF_ONLY_ERROR } from '../plugins/authenticate.ts';
import { TOO_MANY_REQUESTS_ERROR } from '../routes/authRateLimit.ts';
import { LIVE_UPDATES_UNAVAILABLE_ERROR } from '../routes/events.routes.ts';
import type { ContractComments } from './contractComments.ts';
import { exampleOf } from './examples.ts';

/** What the OpenAPI document needs to know of one route; collected as the app adds its routes. */
export interface ApiRoute {
  method: string;
  /** Fastify's form, e.g. /api/v1/requests/:id. */
  url: string;
  schema: { params?: unknown; querystring?: unknown; headers?: unknown; body?: unknown; response?: Record<string, unknown> };
  /** The route's @fastify/rate-limit setting, if it has one of its own. */
  rateLimit: { max: unknown; timeWindow: unknown } | null;
  /** The onRequest guards it runs (server/plugins/authenticate.ts). */
  guards: {
    session: boolean;
    staffOnly: boolean;
    adminOnly: boolean;
    /** The employer's report: employer admins only. */
    employerAdminOnly: boolean;
    /** Open to employer admins, who get 403 from every other signed-in route. */
    openToEmployerAdmin: boolean;
    confirmedEmail: boolean;
    skipMfa: boolean;
  };
  /** A success that is not JSON (a redirect, a stream), as the route declares it in its config. */
  otherSuccess: OtherSuccess | null;
}

export interface OtherSuccess {
  status: number;
  description: string;
  /** The media type of the body, if there is one. */
  contentType?: string;
}

export type JsonSchema = { [key: string]: unknown };
export interface OpenApiDocument {
  openapi: string;
  info: JsonSchema;
  tags: Array<{ name: string; description?: string }>;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: JsonSchema; headers: JsonSchema };
  [key: string]: unknown;
}
export interface Operation {
  operationId: string;
  summary: string;
  responses: Record<string, { description: string; headers?: JsonSchema; content?: Record<string, { schema?: JsonSchema }> }>;
  [key: string]: unknown;
}

const SCHEMA_REF = '#/components/schemas/';
/** The name of a component's form as a call sends it, where that differs from an answer's (no export name has it). */
const INPUT_SUFFIX = '_input';
/** What every API route may answer besides what its own code does (see server/app.ts, server/plugins/inputGuard.ts). */
const STATUS_DESCRIPTIONS: Record<number, string> = {
  400: 'A body sent as JSON that is not valid JSON: `{ error }`.',
  401: 'No valid session, or an mfa-token is needed and missing: `{ error }` (the MFA case says "MFA authentication required").',
  403: "The caller's role may not use this route: `{ error }`.",
  404: "Not found, or not the caller's (the same answer, so that existence is not revealed): `{ error }`.",
  409: 'The change conflicts with the current state: `{ error }`.',
  413: 'Too large (a body over 1 MB, or a file over its limit): `{ error }`.',
  415: 'A body that is not JSON, or a file of a type this route does not accept: `{ error }`.',
  422: 'Invalid input: `{ error, fields }`, `fields` naming each input at fault by its dotted path (or `{ error }` for a refusal of the whole call).',
  429: 'Too many calls: `{ error }`. Wait for the window to pass (`Retry-After`).',
  503: 'Unavailable for now: `{ error }`.',
};
/** The SCIM routes' refusals (RFC 7644 §3.12): a SCIM error body, with `scimType` where the RFC gives one. */
const SCIM_STATUS_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid input: a SCIM error with `scimType` (invalidFilter, invalidValue, invalidPath, invalidSyntax, noTarget).',
  401: 'No valid SCIM token for this company.',
  404: "No such User in the token's company.",
  409: 'The userName or externalId is taken: scimType uniqueness.',
  413: 'A body over 1 MB.',
  415: 'A body that is not JSON.',
};
const SUCCESS_DESCRIPTIONS: Record<number, string> = { 200: 'OK.', 201: 'Created.', 202: 'Accepted.' };
/** What each refusal looks like, in the server's own words (SPEC's shapes). */
const ERROR_EXAMPLES: Record<number, ErrorBody> = {
  400: { error: 'Body is not valid JSON but content-type is set to \'application/json\'' },
  401: { error: SESSION_EXPIRED_ERROR },
  403: { error: STAFF_ONLY_ERROR },
  404: requestNotFound().body,
  409: conflict(EMAIL_TAKEN_ERROR, 'email').body,
  413: { error: 'Request body is too large' },
  415: uploadRejected('unsupported').body,
  422: invalidFields({ 'user.email': 'Invalid email address' }).body,
  429: { error: TOO_MANY_REQUESTS_ERROR },
  503: { error: LIVE_UPDATES_UNAVAILABLE_ERROR },
};
const RATE_LIMIT_HEADERS = {
  'x-ratelimit-limit': { description: 'Calls allowed in the window.', schema: { type: 'integer' } },
  'x-ratelimit-remaining': { description: 'Calls left in the window.', schema: { type: 'integer' } },
  'x-ratelimit-reset': { description: 'Seconds until the window starts again.', schema: { type: 'integer' } },
};
const CONTRACT_DIR = join(import.meta.dirname, '../../src/contract');

function isZodSchema(value: unknown): value is z.ZodMiniType {
  return typeof value === 'object' && value !== null && '_zod' in value;
}

/** Every zod schema the contract exports, by its export name: the names of the document's components. */
async function contractSchemaNames(): Promise<Map<z.ZodMiniType, string>> {
  const names = new Map<z.ZodMiniType, string>();
  for (const file of readdirSync(CONTRACT_DIR).filter((name) => name.endsWith('.ts')).sort()) {
    const module = (await import(pathToFileURL(join(CONTRACT_DIR, file)).href)) as Record<string, unknown>;
    for (const [name, value] of Object.entries(module)) {
      if (isZodSchema(value) && !names.has(value)) names.set(value, name);
    }
  }
  return names;
}

/** The SCIM routes (RFC 7644) answer their own media type and error body, and take the SCIM token. */
export function isScimPath(url: string): boolean {
  return url.startsWith(`${SCIM_BASE_PATH}/`);
}

/** The media type of a route's JSON bodies. */
export function mediaTypeOf(url: string): string {
  return isScimPath(url) ? SCIM_CONTENT_TYPE : 'application/json';
}

/** `/api/v1/requests/:id/messages` -> `postRequestsIdMessages`; `/scim/v2/Users/:id` -> `getScimUsersId`. */
function operationIdOf(method: string, url: string): string {
  const words = url.replace(/^\/api\/v1\//, '').replace(/^\/scim\/v2\//, 'scim/').split(/[^A-Za-z0-9]+/).filter(Boolean);
  return [method.toLowerCase(), ...words.map((word) => word[0].toUpperCase() + word.slice(1))].join('');
}

export function openApiPath(url: string): string {
  return url.replace(/:(\w+)/g, '{$1}').replace(/(.)\/$/, '$1');
}

/** `idempotency-key` -> `Idempotency-Key`, as the headers are written in SPEC and RFCs. */
function headerName(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_match, dash: string, letter: string) => dash + letter.toUpperCase());
}

/** Walks a JSON value, calling `visit` on every object in it. */
function eachObject(value: unknown, visit: (object: JsonSchema) => void) {
  if (Array.isArray(value)) for (const item of value) eachObject(item, visit);
  else if (typeof value === 'object' && value !== null) {
    visit(value as JsonSchema);
    for (const child of Object.values(value)) eachObject(child, visit);
  }
}

function refsIn(value: unknown): Set<string> {
  const refs = new Set<string>();
  eachObject(value, (object) => {
    if (typeof object.$ref === 'string' && object.$ref.startsWith(SCHEMA_REF)) refs.add(object.$ref.slice(SCHEMA_REF.length));
  });
  return refs;
}

/** The route itself, shorter: the contract's comments, often several sentences, are its description. */
function summaryOf(method: string, path: string): string {
  return `${method} ${path.replace(/^\/api\/v1/, '')}`;
}

/**
 * Turns the named zod schemas into components, once as a call reads them (`input`) and once as an answer writes them
 * (`output`). A schema that reads as it writes is one component; one that differs (a default, a coercion) has an
 * `…_input` twin for the calls.
 */
function componentsOf(named: Map<z.ZodMiniType, string>) {
  const generate = (io: 'input' | 'output') => {
    const registry = z.registry<{ id: string }>();
    for (const [schema, id] of named) registry.add(schema, { id });
    const { schemas } = z.toJSONSchema(registry, {
      io,
      target: 'draft-2020-12',
      unrepresentable: 'any',
      cycles: 'ref',
      reused: 'inline',
      uri: (id) => `${SCHEMA_REF}${id}@${io}`,
    });
    // What refers to itself (z.json()) zod puts under `__shared`: each of its parts becomes a component of its own.
    const shared = schemas.__shared as { $defs?: Record<string, JsonSchema> } | undefined;
    delete schemas.__shared;
    for (const [name, part] of Object.entries(shared?.$defs ?? {})) schemas[`shared_${name}`] = part as (typeof schemas)[string];
    for (const schema of Object.values(schemas)) {
      delete schema.$schema;
      delete schema.id;
      delete schema.$id;
    }
    return JSON.parse(
      JSON.stringify(schemas).replaceAll(new RegExp(`${SCHEMA_REF}__shared@${io}#/\\$defs/(\\w+)`, 'g'), `${SCHEMA_REF}shared_$1@${io}`),
    ) as Record<string, JsonSchema>;
  };
  const inputs = generate('input');
  const outputs = generate('output');
  const plain = (schema: JsonSchema) => JSON.stringify(schema).replaceAll(/@(?:input|output)"/g, '"');
  const differs = new Set(Object.keys(outputs).filter((id) => plain(inputs[id]) !== plain(outputs[id])));
  // A schema that refers to one with two forms has two forms too.
  for (let grew = true; grew; ) {
    grew = false;
    for (const id of Object.keys(outputs)) {
      if (!differs.has(id) && [...refsIn(inputs[id])].some((ref) => differs.has(ref.replace(/@input$/, '')))) {
        differs.add(id);
        grew = true;
      }
    }
  }
  const finalName = (id: string, io: string) => (io === 'input' && differs.has(id) ? `${id}${INPUT_SUFFIX}` : id);
  const rename = (schema: JsonSchema): JsonSchema =>
    JSON.parse(JSON.stringify(schema).replaceAll(/"#\/components\/schemas\/(\w+)@(input|output)"/g, (_match, id: string, io: string) =>
      JSON.stringify(SCHEMA_REF + finalName(id, io)),
    )) as JsonSchema;
  const components: Record<string, JsonSchema> = {};
  for (const id of Object.keys(outputs)) {
    components[id] = rename(outputs[id]);
    if (differs.has(id)) components[`${id}${INPUT_SUFFIX}`] = rename(inputs[id]);
  }
  return { components, refTo: (schema: z.ZodMiniType, io: 'input' | 'output') => ({ $ref: SCHEMA_REF + finalName(named.get(schema)!, io) }) };
}

/** Puts the contract's property comments on the components' properties (through arrays and nullable wrappers). */
function describeProperties(components: Record<string, JsonSchema>, comments: ContractComments) {
  for (const [key, comment] of comments) {
    const [name, ...path] = key.split('.');
    for (const id of [name, `${name}${INPUT_SUFFIX}`]) {
      let node: JsonSchema | undefined = components[id];
      for (const property of path) {
        while (node && !node.properties) {
          const inner: unknown = node.items ?? (node.anyOf as JsonSchema[] | undefined)?.find((option) => option.properties || option.items);
          node = inner as JsonSchema | undefined;
        }
        node = (node?.properties as Record<string, JsonSchema> | undefined)?.[property];
      }
      if (node && path.length > 0 && !node.description) node.description = comment;
    }
  }
}

export interface DocumentOptions {
  routes: readonly ApiRoute[];
  /** Left out, the document has no descriptions from the contract's comments (what response validation needs). */
  comments?: ContractComments;
  /** The API's version (the package's). */
  version: string;
}

/** The OpenAPI 3.1 document of the public API (/api/v1), from the routes' own schemas. */
export async function buildOpenApiDocument({ routes, comments, version }: DocumentOptions): Promise<OpenApiDocument> {
  const contractNames = await contractSchemaNames();
  const named = new Map<z.ZodMiniType, string>();
  const roots = (route: ApiRoute) => {
    const { params, querystring, headers, body, response = {} } = route.schema;
    return { params, querystring, headers, body, ...Object.fromEntries(Object.entries(response).map(([status, schema]) => [`response${status}`, schema])) };
  };
  // The contract's schemas under their export names; a route's own inline schema under its operation's name.
  for (const [schema, name] of contractNames) named.set(schema, name);
  for (const route of routes) {
    for (const [part, schema] of Object.entries(roots(route))) {
      if (isZodSchema(schema) && !named.has(schema)) {
        named.set(schema, `${operationIdOf(route.method, route.url)}${part[0].toUpperCase()}${part.slice(1)}`);
      }
    }
  }
  const { components, refTo } = componentsOf(named);
  const componentOf = (schema: z.ZodMiniType, io: 'input' | 'output') => components[refTo(schema, io).$ref.slice(SCHEMA_REF.length)];
  const describe = (schema: unknown) => (isZodSchema(schema) ? comments?.get(named.get(schema)!) : undefined);
  const paths: OpenApiDocument['paths'] = {};
  const tags = new Set<string>();

  for (const route of routes) {
    const { params, querystring, headers, body, response = {} } = route.schema;
    const path = openApiPath(route.url);
    const scim = isScimPath(route.url);
    const mediaType = mediaTypeOf(route.url);
    const tag = scim ? 'scim' : route.url.split('/')[3];
    tags.add(tag);
    const parameters: JsonSchema[] = [];
    for (const [location, schema] of [['path', params], ['query', querystring], ['header', headers]] as const) {
      if (!isZodSchema(schema)) continue;
      const object = componentOf(schema, 'input');
      const required = new Set((object.required as string[] | undefined) ?? []);
      for (const [name, property] of Object.entries((object.properties ?? {}) as Record<string, JsonSchema>)) {
        const { description, ...propertySchema } = property;
        parameters.push({
          name: location === 'header' ? headerName(name) : name,
          in: location,
          required: location === 'path' || required.has(name),
          ...withDescription(description ?? comments?.get(`${named.get(schema)}.${name}`) ?? (location === 'header' ? describe(schema) : undefined)),
          schema: propertySchema,
        });
      }
    }
    const { guards } = route;
    const statuses = new Map<number, unknown>(Object.entries(response).map(([status, schema]) => [Number(status), schema]));
    const errorBody = contractSchemaByName(contractNames, scim ? 'scimError' : 'errorBody');
    const mayAnswer = (status: number) => {
      if (!statuses.has(status)) statuses.set(status, errorBody);
    };
    if (guards.session || scim) mayAnswer(401);
    // An employer admin is refused every signed-in route but the few open to them (authenticate.ts).
    if ((guards.session && !guards.openToEmployerAdmin) || guards.staffOnly || guards.adminOnly || guards.employerAdminOnly) mayAnswer(403);
    // The input guard reads every route's parameters, query and body; a schema refusal is a 422 as well (a SCIM 400).
    mayAnswer(scim ? 400 : 422);
    if (route.rateLimit) mayAnswer(429);
    // Fastify reads the body of every call but a GET, whether or not the route wants one.
    if (route.method !== 'GET') {
      mayAnswer(400);
      mayAnswer(413);
      mayAnswer(415);
    }

    const responses: Operation['responses'] = {};
    for (const [status, schema] of [...statuses].sort(([a], [b]) => a - b)) {
      const success = status < 300;
      const jsonSchema = isZodSchema(schema) ? refTo(schema, 'output') : undefined;
      const example = success ? exampleFor(jsonSchema ?? {}, components) : scim ? {} : errorExample(status);
      responses[String(status)] = {
        description: (success ? SUCCESS_DESCRIPTIONS[status] : scim ? SCIM_STATUS_DESCRIPTIONS[status] : STATUS_DESCRIPTIONS[status]) ?? `${status}.`,
        ...(route.rateLimit ? { headers: rateLimitHeaderRefs(status) } : {}),
        ...(jsonSchema ? { content: { [mediaType]: { schema: jsonSchema, ...example } } } : {}),
      };
    }
    if (route.otherSuccess) {
      const { status, description, contentType } = route.otherSuccess;
      responses[String(status)] = {
        description,
        ...(status >= 300 && status < 400 ? { headers: { Location: { description: 'Where the file is.', schema: { type: 'string' } } } } : {}),
        ...(contentType ? { content: { [contentType]: { schema: { type: 'string' } } } } : {}),
      };
    }

    const successSchema = [...statuses].find(([status]) => status < 300)?.[1];
    const operationComment = describe(body) ?? describe(successSchema);
    const operation: Operation = {
      operationId: operationIdOf(route.method, route.url),
      summary: summaryOf(route.method, path),
      ...(operationComment ? { description: operationComment } : {}),
      tags: [tag],
      security: scim ? [{ scim: [] }] : securityOf(guards),
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(isZodSchema(body)
        ? { requestBody: { required: true, content: { [mediaType]: { schema: refTo(body, 'input'), ...exampleFor(refTo(body, 'input'), components) } } } }
        : {}),
      responses,
      ...(route.rateLimit ? { 'x-ratelimit': { max: route.rateLimit.max, window: route.rateLimit.timeWindow } } : {}),
    };
    if (route.rateLimit) {
      const note = `Rate limited: at most ${String(route.rateLimit.max)} calls per ${String(route.rateLimit.timeWindow)} per caller; more answer 429.`;
      operation.description = operation.description ? `${operation.description}\n\n${note}` : note;
    }
    if (guards.confirmedEmail) {
      operation.description = `${operation.description ?? ''}\n\nThe caller's e-mail address must be confirmed (else 422).`.trim();
    }
    (paths[path] ??= {})[route.method.toLowerCase()] = operation;
  }

  if (comments) describeProperties(components, comments);
  const schemas: Record<string, JsonSchema> = {};
  const pending = [...refsIn(paths)];
  while (pending.length > 0) {
    const id = pending.pop()!;
    if (schemas[id]) continue;
    schemas[id] = components[id];
    const ownComment = comments?.get(id.replace(INPUT_SUFFIX, ''));
    if (ownComment && !schemas[id].description) schemas[id] = { description: ownComment, ...schemas[id] };
    pending.push(...refsIn(components[id]));
  }

  // A form only calls send (a body, a query) keeps its plain name.
  for (const id of Object.keys(schemas)) {
    const plainId = id.slice(0, -INPUT_SUFFIX.length);
    if (id.endsWith(INPUT_SUFFIX) && !schemas[plainId]) {
      schemas[plainId] = schemas[id];
      delete schemas[id];
      renameRefs(paths, schemas, id, plainId);
    }
  }

  return {
    openapi: '3.1.1',
    info: {
      title: 'Life Concierge API',
      version,
      description:
        'The API of Life Concierge, generated from the routes\' own schemas (src/contract): what the app itself uses. ' +
        'Every refusal answers `{ error }`, or `{ error, fields }` naming each input at fault (422). ' +
        `Sign in with POST /api/v1/users/sign_in; the answer's \`${headerName(AUTHORIZATION_HEADER)}\` header holds the session token to send back. ` +
        `Where the company requires MFA, verify an SMS code (POST /api/v1/mfa/verify) and send its \`${MFA_TOKEN_HEADER}\` header as well.`,
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: '/', description: 'This server' }],
    tags: [...tags].sort().map((name) => ({ name })),
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    components: {
      schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b))),
      securitySchemes: {
        scim: {
          type: 'http',
          scheme: 'bearer',
          description: `A company's SCIM token (made in the console's admin area, shown once): the routes under ${SCIM_BASE_PATH} reach that company's members only.`,
        },
        session: {
          type: 'http',
          scheme: 'bearer',
          description: `The session token from POST /api/v1/users/sign_in (its \`${headerName(AUTHORIZATION_HEADER)}\` answer header).`,
        },
        mfaToken: {
          type: 'apiKey',
          in: 'header',
          name: MFA_TOKEN_HEADER,
          description: 'From POST /api/v1/mfa/verify (its `mfa-token` answer header): needed beside the session once MFA applies to the user.',
        },
      },
      headers: RATE_LIMIT_HEADERS,
    },
  };
}

function renameRefs(paths: unknown, schemas: Record<string, JsonSchema>, from: string, to: string) {
  eachObject([paths, schemas], (object) => {
    if (object.$ref === SCHEMA_REF + from) object.$ref = SCHEMA_REF + to;
  });
}

function withDescription(description: unknown) {
  return typeof description === 'string' && description ? { description } : {};
}

function contractSchemaByName(names: Map<z.ZodMiniType, string>, wanted: string): z.ZodMiniType {
  for (const [schema, name] of names) if (name === wanted) return schema;
  throw new Error(`The contract has no schema named ${wanted}`);
}

function rateLimitHeaderRefs(status: number) {
  const names = status === 429 ? [...Object.keys(RATE_LIMIT_HEADERS), 'retry-after'] : Object.keys(RATE_LIMIT_HEADERS);
  return Object.fromEntries(
    names.map((name) => [
      name,
      name === 'retry-after'
        ? { description: 'Seconds to wait before the next call.', schema: { type: 'integer' } }
        : { $ref: `#/components/headers/${name}` },
    ]),
  );
}

/** Session, plus the mfa-token once MFA applies to the user (the MFA calls themselves and sign-out need the session only). */
function securityOf(guards: ApiRoute['guards']) {
  if (!guards.session) return [];
  return guards.skipMfa ? [{ session: [] }] : [{ session: [], mfaToken: [] }, { session: [] }];
}

function errorExample(status: number) {
  const example = ERROR_EXAMPLES[status];
  return example ? { example } : {};
}

function exampleFor(schema: JsonSchema, components: Record<string, JsonSchema>) {
  const example = exampleOf(schema, components);
  return example === undefined ? {} : { example };
}
