import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBody, idParams } from '../../src/contract/common.ts';
import {
  employerReportResponse,
  hoursEstimateResponse,
  hoursEstimatesResponse,
  reportQuery,
  reportSettingsListResponse,
  reportSettingsResponse,
  updateHoursEstimateRequest,
  updateReportSettingsRequest,
} from '../../src/contract/employer.ts';
import type { Database } from '../db/client.ts';
import { buildReport, employerCompanyOf } from '../domain/employer/report.ts';
import { listHoursEstimates, listReportSettings, updateHoursEstimate, updateReportSettings } from '../domain/employer/reportAdmin.ts';
import { userOf } from '../plugins/authenticate.ts';

const refusals = { 401: errorBody, 403: errorBody, 404: errorBody, 422: errorBody };

/** GET /api/v1/employer/report: an employer admin's report of their own company (issue 29 part 3). */
export const employerRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  app.get(
    '/report',
    {
      onRequest: [app.authenticate, app.requireEmployerAdmin],
      config: { openToEmployerAdmin: true },
      schema: { querystring: reportQuery, response: { 200: employerReportResponse, ...refusals } },
    },
    async (request) => {
      const companyId = await employerCompanyOf(db, userOf(request).id);
      return { report: await buildReport(db, companyId, request.query.period, request.query.start) };
    },
  );
};

/** Under /api/v1/admin/employer, admins only: the hours-saved estimates and each company's report settings. */
export const employerAdminRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  app.addHook('onRequest', app.authenticate);
  app.addHook('onRequest', app.requireAdmin);

  app.get('/hours_estimates', { schema: { response: { 200: hoursEstimatesResponse, ...refusals } } }, async () => ({
    estimates: await listHoursEstimates(db),
  }));
  app.put(
    '/hours_estimates/:id',
    { schema: { params: idParams, body: updateHoursEstimateRequest, response: { 200: hoursEstimateResponse, ...refusals } } },
    async (request) => ({ estimate: await updateHoursEstimate(db, userOf(request).id, request.params.id, request.body) }),
  );
  app.get('/report_settings', { schema: { response: { 200: reportSettingsListResponse, ...refusals } } }, async () => ({
    settings: await listReportSettings(db),
  }));
  app.put(
    '/report_settings/:id',
    { schema: { params: idParams, body: updateReportSettingsRequest, response: { 200: reportSettingsResponse, ...refusals } } },
    async (request) => ({ settings: await updateReportSettings(db, userOf(request).id, request.params.id, request.body) }),
  );
};
