import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type * as z from 'zod/mini';
import {
  SCIM_CONTENT_TYPE,
  SCIM_SCHEMAS,
  type ScimErrorBody,
  scimDocument,
  scimError,
  scimIdParams,
  scimListQuery,
  scimPatchRequest,
  scimUser,
  scimUserInput,
  scimUserList,
} from '../../src/contract/scim.ts';
import type { Database } from '../db/client.ts';
import { tokenFromAuthorization } from '../domain/accounts/sessions.ts';
import { listOf, serviceProviderConfig, userResourceType, userSchema } from '../domain/scim/discovery.ts';
import { companyOfScimToken } from '../domain/scim/scimTokens.ts';
import {
  SCIM_TYPES,
  type ScimType,
  createScimUser,
  deleteScimUser,
  getScimUser,
  listScimUsers,
  patchScimUser,
  replaceScimUser,
} from '../domain/scim/scimUsers.ts';
import { UserFacingError } from '../domain/shared/userFacingError.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The company whose SCIM token the call carried (the SCIM routes only). */
    scimCompanyId: number | null;
  }
}

export const SCIM_UNAUTHORIZED_ERROR = 'A valid SCIM token of the company is required.';

const refusals = { 400: scimError, 401: scimError };
const oneUser = { 200: scimUser, ...refusals, 404: scimError };

function scimErrorBody(status: number, detail: string, scimType?: ScimType | 'uniqueness'): ScimErrorBody {
  return { schemas: [SCIM_SCHEMAS.error], status: String(status), ...(scimType ? { scimType } : {}), detail };
}

/** The server's one error class, and Fastify's own refusals, as RFC 7644 §3.12 error bodies. */
function scimAnswerOf(error: FastifyError | UserFacingError): { status: number; body: ScimErrorBody } | null {
  if (hasZodFastifySchemaValidationErrors(error)) {
    const [issue] = error.validation;
    const where = `${error.validationContext ?? 'body'}${issue?.instancePath.replaceAll('/', '.') ?? ''}`;
    return { status: 400, body: scimErrorBody(400, `${where}: ${issue?.message ?? 'Invalid value'}`, 'invalidValue') };
  }
  if (error instanceof UserFacingError) {
    const [field] = Object.keys(error.fields ?? {});
    if (error.statusCode === 422) {
      const scimType = SCIM_TYPES.find((type) => type === field) ?? 'invalidValue';
      return { status: 400, body: scimErrorBody(400, error.message, scimType) };
    }
    if (error.statusCode === 409) return { status: 409, body: scimErrorBody(409, error.message, 'uniqueness') };
    return { status: error.statusCode, body: scimErrorBody(error.statusCode, error.message) };
  }
  const status = error.statusCode ?? 500;
  if (status >= 500) return null;
  // Fastify's own: malformed JSON is a syntax error of the RFC's, the rest (too large, media type) carry their status.
  return { status, body: scimErrorBody(status, error.message, status === 400 ? 'invalidSyntax' : undefined) };
}

/**
 * SCIM 2.0 (RFC 7643/7644) for a company's directory, under /scim/v2: discovery, and Users (create, read, list with
 * `eq` filters and pagination, replace, PATCH, delete). Every call needs the company's SCIM token and reaches that
 * company's members only; another company's member is a 404. Bodies are application/scim+json (plain JSON is read
 * too); refusals are SCIM error bodies.
 */
export const scimRoutes: FastifyPluginAsyncZod<{ db: Database; appUrl: string }> = async (app, { db, appUrl }) => {
  const baseUrl = appUrl.replace(/\/$/, '');
  app.addContentTypeParser(SCIM_CONTENT_TYPE, { parseAs: 'string' }, app.getDefaultJsonParser('error', 'error'));
  app.decorateRequest('scimCompanyId', null);

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const answer = scimAnswerOf(error);
    if (answer) return reply.code(answer.status).type(SCIM_CONTENT_TYPE).send(answer.body);
    request.log.error({ err: error }, 'SCIM request failed');
    return reply.code(500).type(SCIM_CONTENT_TYPE).send(scimErrorBody(500, 'An unexpected error occurred'));
  });
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).type(SCIM_CONTENT_TYPE).send(scimErrorBody(404, `No such SCIM endpoint: ${request.url}`)),
  );

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const token = tokenFromAuthorization(request.headers.authorization);
    const companyId = token ? await companyOfScimToken(db, token) : null;
    if (companyId === null) {
      return reply.code(401).header('www-authenticate', 'Bearer realm="scim"').type(SCIM_CONTENT_TYPE).send(scimErrorBody(401, SCIM_UNAUTHORIZED_ERROR));
    }
    request.scimCompanyId = companyId;
    // Set before the answer is made: Fastify keeps a content type it finds, and the API's checks read it.
    reply.type(SCIM_CONTENT_TYPE);
  });

  const companyOf = (request: FastifyRequest) => request.scimCompanyId!;
  const sendUser = (reply: FastifyReply, user: z.infer<typeof scimUser>, status = 200) =>
    reply.code(status).header('etag', user.meta.version).header('location', user.meta.location).send(user);

  app.get('/ServiceProviderConfig', { schema: { response: { 200: scimDocument, ...refusals } } }, async () => serviceProviderConfig(baseUrl));
  app.get('/ResourceTypes', { schema: { response: { 200: scimDocument, ...refusals } } }, async () => listOf([userResourceType(baseUrl)]));
  app.get('/Schemas', { schema: { response: { 200: scimDocument, ...refusals } } }, async () => listOf([userSchema(baseUrl)]));

  app.get('/Users', { schema: { querystring: scimListQuery, response: { 200: scimUserList, ...refusals } } }, async (request) =>
    listScimUsers(db, companyOf(request), request.query, baseUrl),
  );

  app.post('/Users', { schema: { body: scimUserInput, response: { 201: scimUser, ...refusals, 409: scimError } } }, async (request, reply) =>
    sendUser(reply, await createScimUser(db, companyOf(request), request.body, baseUrl), 201),
  );

  app.get('/Users/:id', { schema: { params: scimIdParams, response: oneUser } }, async (request, reply) =>
    sendUser(reply, await getScimUser(db, companyOf(request), request.params.id, baseUrl)),
  );

  app.put(
    '/Users/:id',
    { schema: { params: scimIdParams, body: scimUserInput, response: { ...oneUser, 409: scimError } } },
    async (request, reply) => sendUser(reply, await replaceScimUser(db, companyOf(request), request.params.id, request.body, baseUrl)),
  );

  app.patch(
    '/Users/:id',
    { schema: { params: scimIdParams, body: scimPatchRequest, response: { ...oneUser, 409: scimError } } },
    async (request, reply) =>
      sendUser(reply, await patchScimUser(db, companyOf(request), request.params.id, request.body.Operations, baseUrl)),
  );

  app.delete(
    '/Users/:id',
    { config: { otherSuccess: { status: 204, description: 'Deleted: the member is turned off and the User answers 404 from now on.' } }, schema: { params: scimIdParams, response: { ...refusals, 404: scimError } } },
    async (request, reply) => {
      await deleteScimUser(db, companyOf(request), request.params.id);
      // No body: a 204 (the route's schema lists its refusals only).
      return (reply as FastifyReply).code(204).send();
    },
  );
};
