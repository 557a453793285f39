import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminAccountResponse,
  adminCompaniesResponse,
  adminCompanyResponse,
  adminStaffResponse,
  auditQuery,
  auditResponse,
  changeRoleRequest,
  createCompanyRequest,
  inviteStaffRequest,
  updateCompanyRequest,
} from '../../src/contract/admin.ts';
import { errorBody, idParams } from '../../src/contract/common.ts';
import type { FileStorage } from '../domain/ports/fileStorage.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { listAuditEvents } from '../domain/admin/audit.ts';
import { createCompany, findCompany, listCompanies, setCompanyActive, updateCompany } from '../domain/admin/companies.ts';
import { changeRole, findAccount, inviteStaff, listStaffAccounts, setAccountActive } from '../domain/admin/staff.ts';
import { userOf } from '../plugins/authenticate.ts';

const refusals = { 401: errorBody, 403: errorBody, 404: errorBody, 422: errorBody };
const writeRefusals = { ...refusals, 409: errorBody };
/** Role changes and deactivations change what sessions may do: they answer once the session cache has heard of it. */
const changesCredentials = { changesCredentials: true };

/** The console's admin area, under /api/v1/admin: companies, staff and the audit log, for admins only. */
export const adminRoutes: FastifyPluginAsyncZod<{ config: Config; db: Database; storage: FileStorage }> = async (
  app,
  { config, db, storage },
) => {
  // Before the body is read, as on the console: nobody but an admin learns anything here, not even the rules.
  app.addHook('onRequest', app.authenticate);
  app.addHook('onRequest', app.requireAdmin);

  app.get('/companies', { schema: { response: { 200: adminCompaniesResponse, ...refusals } } }, async () => ({
    companies: await listCompanies(db),
  }));

  app.get(
    '/companies/:id',
    { schema: { params: idParams, response: { 200: adminCompanyResponse, ...refusals } } },
    async (request) => ({ company: await findCompany(db, request.params.id) }),
  );

  app.post(
    '/companies',
    { schema: { body: createCompanyRequest, response: { 201: adminCompanyResponse, ...writeRefusals, 415: errorBody } } },
    async (request, reply) => {
      const company = await createCompany(db, storage, userOf(request).id, request.body);
      return reply.code(201).send({ company });
    },
  );

  app.patch(
    '/companies/:id',
    { schema: { params: idParams, body: updateCompanyRequest, response: { 200: adminCompanyResponse, ...writeRefusals, 415: errorBody } } },
    async (request) => ({ company: await updateCompany(db, storage, userOf(request).id, request.params.id, request.body) }),
  );

  for (const [action, active] of [['deactivate', false], ['reactivate', true]] as const) {
    app.post(
      `/companies/:id/${action}`,
      { config: changesCredentials, schema: { params: idParams, response: { 200: adminCompanyResponse, ...refusals } } },
      async (request) => ({ company: await setCompanyActive(db, userOf(request).id, request.params.id, active) }),
    );
  }

  app.get('/staff', { schema: { response: { 200: adminStaffResponse, ...refusals } } }, async () => ({
    staff: await listStaffAccounts(db),
  }));

  app.get(
    '/staff/:id',
    { schema: { params: idParams, response: { 200: adminAccountResponse, ...refusals } } },
    async (request) => ({ account: await findAccount(db, request.params.id) }),
  );

  app.post(
    '/staff',
    { schema: { body: inviteStaffRequest, response: { 201: adminAccountResponse, ...writeRefusals } } },
    async (request, reply) => {
      const account = await inviteStaff(db, userOf(request).id, request.body, config.APP_URL);
      return reply.code(201).send({ account });
    },
  );

  app.patch(
    '/staff/:id',
    { config: changesCredentials, schema: { params: idParams, body: changeRoleRequest, response: { 200: adminAccountResponse, ...writeRefusals } } },
    async (request) => ({ account: await changeRole(db, userOf(request).id, request.params.id, request.body.role) }),
  );

  for (const [action, active] of [['deactivate', false], ['reactivate', true]] as const) {
    app.post(
      `/staff/:id/${action}`,
      { config: changesCredentials, schema: { params: idParams, response: { 200: adminAccountResponse, ...writeRefusals } } },
      async (request) => ({ account: await setAccountActive(db, userOf(request).id, request.params.id, active) }),
    );
  }

  app.get('/audit', { schema: { querystring: auditQuery, response: { 200: auditResponse, ...refusals } } }, async (request) =>
    listAuditEvents(db, request.query),
  );
};
