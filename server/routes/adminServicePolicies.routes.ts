import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBody, idParams } from '../../src/contract/common.ts';
import { servicePoliciesResponse, servicePolicyCreate, servicePolicyResponse, servicePolicyUpdate } from '../../src/contract/servicePolicies.ts';
import type { Database } from '../db/client.ts';
import { createServicePolicy, listServicePolicies, updateServicePolicy } from '../domain/admin/servicePolicies.ts';
import { userOf } from '../plugins/authenticate.ts';

const refusals = { 401: errorBody, 403: errorBody, 404: errorBody, 422: errorBody };

/** The admin's turnaround targets (issue 28), under /api/v1/admin: admins only. */
export const adminServicePoliciesRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  app.addHook('onRequest', app.authenticate);
  app.addHook('onRequest', app.requireAdmin);

  app.get('/service_policies', { schema: { response: { 200: servicePoliciesResponse, ...refusals } } }, async () => ({
    policies: await listServicePolicies(db),
  }));

  app.post(
    '/service_policies',
    { schema: { body: servicePolicyCreate, response: { 201: servicePolicyResponse, ...refusals, 409: errorBody } } },
    async (request, reply) => reply.code(201).send({ policy: await createServicePolicy(db, userOf(request).id, request.body) }),
  );

  app.patch(
    '/service_policies/:id',
    { schema: { params: idParams, body: servicePolicyUpdate, response: { 200: servicePolicyResponse, ...refusals } } },
    async (request) => ({ policy: await updateServicePolicy(db, userOf(request).id, request.params.id, request.body) }),
  );
};
