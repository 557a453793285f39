import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { analyticsAccepted, analyticsBatch, clientErrorReport } from '../../src/contract/analytics.ts';
import type { Database } from '../db/client.ts';
import { recordAnalyticsBatch, recordClientError } from '../domain/analytics.ts';
import { findSessionUser, tokenFromAuthorization } from '../domain/sessions.ts';
import { digest } from '../domain/tokens.ts';

/** Batches per minute per client: a page view per navigation, sent at most every few seconds, fits easily. */
export const EVENT_BATCHES_PER_MINUTE = 120;
/** Error reports per minute per client: enough for a burst, not enough to flood the logs. */
export const ERROR_REPORTS_PER_MINUTE = 30;

/**
 * Signed-in clients are limited per session, so that colleagues behind one company address do not share a quota;
 * anonymous ones per address. The token is digested so the limiter never holds it.
 */
function clientKey(request: FastifyRequest): string {
  const token = tokenFromAuthorization(request.headers.authorization);
  return token ? `session:${digest(token)}` : `ip:${request.ip}`;
}

/**
 * POST /api/v1/analytics/events and /errors. Anonymous calls are accepted (page views before sign-in); when the
 * call carries a valid session its user's external_id is attached here, never taken from the body. There is no
 * authenticate preHandler on purpose: an expired session must not turn a page view into a 401 and a sign-out.
 */
const analyticsRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  async function sessionUserExternalId(request: FastifyRequest): Promise<string | null> {
    const token = tokenFromAuthorization(request.headers.authorization);
    if (!token) return null;
    const user = await findSessionUser(db, token);
    return user?.externalId ?? null;
  }

  app.post(
    '/events',
    {
      config: { rateLimit: { max: EVENT_BATCHES_PER_MINUTE, timeWindow: '1 minute', keyGenerator: clientKey } },
      schema: { body: analyticsBatch, response: { 202: analyticsAccepted } },
    },
    async (request, reply) => {
      const accepted = await recordAnalyticsBatch(db, request.body, await sessionUserExternalId(request));
      return reply.code(202).send({ accepted });
    },
  );

  app.post(
    '/errors',
    {
      config: { rateLimit: { max: ERROR_REPORTS_PER_MINUTE, timeWindow: '1 minute', keyGenerator: clientKey } },
      schema: { body: clientErrorReport, response: { 202: analyticsAccepted } },
    },
    async (request, reply) => {
      const userExternalId = await sessionUserExternalId(request);
      request.log.error({ clientError: request.body, userExternalId }, `Client error: ${request.body.message}`);
      await recordClientError(db, request.body, userExternalId);
      return reply.code(202).send({ accepted: 1 });
    },
  );
};

export default analyticsRoutes;
