import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { auditQuery, auditResponse } from '../../src/contract/admin.ts';
import { errorBody } from '../../src/contract/common.ts';
import type { Database } from '../db/client.ts';
import { listAuditEvents } from '../domain/audit.ts';

const refusals = { 401: errorBody, 403: errorBody, 404: errorBody, 422: errorBody };

/** The console's admin area, under /api/v1/admin, for admins only. */
export const adminRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  // Before the body is read, as on the console: nobody but an admin learns anything here, not even the rules.
  app.addHook('onRequest', app.authenticate);
  app.addHook('onRequest', app.requireAdmin);

  app.get('/audit', { schema: { querystring: auditQuery, response: { 200: auditResponse, ...refusals } } }, async (request) =>
    listAuditEvents(db, request.query),
  );
};
