import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBody } from '../../src/contract/common.ts';
import { reportQuery, reportResponse } from '../../src/contract/reports.ts';
import type { Database } from '../db/client.ts';
import { buildReport, reportCsv } from '../domain/service/reports.ts';

const refusals = { 401: errorBody, 403: errorBody, 422: errorBody };

/** The console's Reports (issue 28, beyond SPEC), under /api/v1/console/reports (and .csv): staff only, employees 403. */
export const reportsRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  app.addHook('onRequest', app.authenticate);
  app.addHook('onRequest', app.requireStaff);

  app.get('/reports', { schema: { querystring: reportQuery, response: { 200: reportResponse, ...refusals } } }, async (request) =>
    buildReport(db, request.query),
  );

  app.get(
    '/reports.csv',
    {
      config: {
        otherSuccess: { status: 200, description: 'The same figures as CSV, one line per group and the total last.', contentType: 'text/csv' },
      },
      schema: { querystring: reportQuery, response: refusals },
    },
    async (request, reply) => {
      const report = await buildReport(db, request.query);
      // The typed reply knows only the JSON refusals; the CSV is sent through the plain reply (otherSuccess above).
      const plain: FastifyReply = reply;
      return plain
        .code(200)
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="report-${report.group}-${report.from}-${report.to}.csv"`)
        .send(reportCsv(report));
    },
  );
};
