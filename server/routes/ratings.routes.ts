import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBody, idParams } from '../../src/contract/common.ts';
import {
  RATING_ERRORS,
  pendingRatingsResponse,
  ratingLinkQuery,
  ratingLinkRequest,
  ratingRequest,
  ratingStateResponse,
} from '../../src/contract/ratings.ts';
import type { Database } from '../db/client.ts';
import { isStaffRole } from '../domain/requests/requests.ts';
import { pendingRatings, rateByLink, rateOwnRequest, ratingStateByLink, ratingStateOfOwner } from '../domain/service/ratings.ts';
import { forbidden } from '../domain/shared/userFacingError.ts';
import { userOf } from '../plugins/authenticate.ts';
import type { FastifyRequest } from 'fastify';

/**
 * Satisfaction (issue 28, beyond SPEC), under /api/v1: the employee rates their completed request, signed in
 * (`/requests/{id}/rating`, `/ratings/pending`) or from the completion e-mail's signed link (`/rating_links/{id}`,
 * the link's token instead of a session). Staff cannot rate (403); another employee's request does not exist (404).
 */
export const ratingsRoutes: FastifyPluginAsyncZod<{ db: Database; signingSecret: string }> = async (app, { db, signingSecret }) => {
  function employeeOf(request: FastifyRequest) {
    const caller = userOf(request);
    if (isStaffRole(caller.role)) throw forbidden(RATING_ERRORS.staff);
    return caller;
  }

  const refusals = { 401: errorBody, 403: errorBody, 404: errorBody };

    app.get('/ratings/pending', { onRequest: app.authenticate, schema: { response: { 200: pendingRatingsResponse, ...refusals } } }, async (request) => ({
      requests: await pendingRatings(db, employeeOf(request).id),
    }));

    app.get(
      '/requests/:id/rating',
      { onRequest: app.authenticate, schema: { params: idParams, response: { 200: ratingStateResponse, ...refusals } } },
      async (request) => ({ rating_state: await ratingStateOfOwner(db, employeeOf(request).id, request.params.id) }),
    );

    app.put(
      '/requests/:id/rating',
      { onRequest: app.authenticate, schema: { params: idParams, body: ratingRequest, response: { 200: ratingStateResponse, ...refusals, 409: errorBody, 422: errorBody } } },
      async (request) => {
        const { id: ownerUserId } = employeeOf(request);
        const { score, comment } = request.body;
        return { rating_state: await rateOwnRequest(db, { ownerUserId, requestId: request.params.id, score, comment }) };
      },
    );

  // The signed link's page: reading writes nothing; only the page's confirmation (PUT) rates.
  app.get(
    '/rating_links/:id',
    { schema: { params: idParams, querystring: ratingLinkQuery, response: { 200: ratingStateResponse, 403: errorBody, 409: errorBody, 422: errorBody } } },
    async (request) => ({
      rating_state: await ratingStateByLink(db, { secret: signingSecret, requestId: request.params.id, token: request.query.token }),
    }),
  );

  app.put(
    '/rating_links/:id',
    { schema: { params: idParams, body: ratingLinkRequest, response: { 200: ratingStateResponse, 403: errorBody, 409: errorBody, 422: errorBody } } },
    async (request) => {
      const { token, score, comment } = request.body;
      return { rating_state: await rateByLink(db, { secret: signingSecret, requestId: request.params.id, token, score, comment }) };
    },
  );
};
