import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBody, idParams } from '../../src/contract/common.ts';
import { createScimTokenRequest, scimTokenResponse, scimTokensResponse } from '../../src/contract/scim.ts';
import type { Database } from '../db/client.ts';
import { createScimToken, listScimTokens, revokeScimToken, rotateScimToken } from '../domain/scim/scimTokens.ts';
import { userOf } from '../plugins/authenticate.ts';

const refusals = { 401: errorBody, 403: errorBody, 404: errorBody, 422: errorBody };

/** The companies' SCIM tokens, under /api/v1/admin/scim_tokens, for admins only; the token is in the answer that made it. */
export const adminScimRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  app.addHook('onRequest', app.authenticate);
  app.addHook('onRequest', app.requireAdmin);

  app.get('/scim_tokens', { schema: { response: { 200: scimTokensResponse, ...refusals } } }, async () => ({
    scim_tokens: await listScimTokens(db),
  }));

  app.post(
    '/scim_tokens',
    { schema: { body: createScimTokenRequest, response: { 201: scimTokenResponse, ...refusals, 409: errorBody } } },
    async (request, reply) => reply.code(201).send({ scim_token: await createScimToken(db, userOf(request).id, request.body.company_id) }),
  );

  app.post(
    '/scim_tokens/:id/rotate',
    { schema: { params: idParams, response: { 200: scimTokenResponse, ...refusals, 409: errorBody } } },
    async (request) => ({ scim_token: await rotateScimToken(db, userOf(request).id, request.params.id) }),
  );

  app.post(
    '/scim_tokens/:id/revoke',
    { schema: { params: idParams, response: { 200: scimTokenResponse, ...refusals } } },
    async (request) => ({ scim_token: await revokeScimToken(db, userOf(request).id, request.params.id) }),
  );
};
