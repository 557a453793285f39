import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { analyticsAccepted, analyticsBatch, clientErrorReport } from '../../src/contract/analytics.ts';
import { errorBody } from '../../src/contract/common.ts';
import { redactSecretsDeep } from '../../src/contract/secrets.ts';
import type { Database } from '../db/client.ts';
import {
  STORED_EVENTS_PER_HOUR,
  clientErrorSummary,
  createHourlyBudget,
  recordAnalyticsBatch,
  recordClientError,
} from '../domain/analytics/analytics.ts';
import { findSessionUser, tokenFromAuthorization } from '../domain/accounts/sessions.ts';

/** Batches per minute per sender: a page view per navigation, sent at most every few seconds, fits easily. */
export const EVENT_BATCHES_PER_MINUTE = 120;
/** Error reports per minute per sender: enough for a burst, not enough to flood the table. */
export const ERROR_REPORTS_PER_MINUTE = 30;
export const TOO_MANY_EVENTS_ERROR = 'Too many analytics events from this sender. Please try again later.';

/** Who sent a call: the signed-in user when the session is valid, else the client address. */
interface Sender {
  key: string;
  userExternalId: string | null;
}

/**
 * POST /api/v1/analytics/events and /errors. Anonymous calls are accepted (page views before sign-in); when the
 * call carries a valid session its user's external_id is attached here, never taken from the body. There is no
 * authenticate hook on purpose: an expired session must not turn a page view into a 401 and a sign-out.
 *
 * Limits are keyed on a verified sender, so that made-up Authorization headers do not each get a quota of their own,
 * and colleagues behind one company address do not share one.
 */
const analyticsRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  const senders = new WeakMap<FastifyRequest, Promise<Sender>>();
  const hourlyBudget = createHourlyBudget(STORED_EVENTS_PER_HOUR);

  function senderOf(request: FastifyRequest): Promise<Sender> {
    let sender = senders.get(request);
    if (!sender) {
      const token = tokenFromAuthorization(request.headers.authorization);
      sender = (token ? findSessionUser(db, token) : Promise.resolve(null)).then((user) =>
        user ? { key: `user:${user.id}`, userExternalId: user.externalId } : { key: `ip:${request.ip}`, userExternalId: null },
      );
      senders.set(request, sender);
    }
    return sender;
  }
  const limitedPerMinute = (max: number) => ({
    rateLimit: { max, timeWindow: '1 minute', keyGenerator: async (request: FastifyRequest) => (await senderOf(request)).key },
  });

  app.post(
    '/events',
    {
      config: limitedPerMinute(EVENT_BATCHES_PER_MINUTE),
      schema: { body: analyticsBatch, response: { 202: analyticsAccepted, 429: errorBody } },
    },
    async (request, reply) => {
      const sender = await senderOf(request);
      const granted = hourlyBudget.take(sender.key, request.body.events.length);
      if (granted === 0) return reply.code(429).send({ error: TOO_MANY_EVENTS_ERROR });
      const events = request.body.events.slice(0, granted);
      const accepted = await recordAnalyticsBatch(db, { ...request.body, events }, sender.userExternalId);
      return reply.code(202).send({ accepted });
    },
  );

  app.post(
    '/errors',
    {
      config: limitedPerMinute(ERROR_REPORTS_PER_MINUTE),
      schema: { body: clientErrorReport, response: { 202: analyticsAccepted, 429: errorBody } },
    },
    async (request, reply) => {
      const sender = await senderOf(request);
      if (hourlyBudget.take(sender.key, 1) === 0) return reply.code(429).send({ error: TOO_MANY_EVENTS_ERROR });
      // The sender's text is not ours: it may quote an e-mailed link or a credential, which are taken out as the
      // monitoring path takes them out; then a short summary at warn level, and the report itself in the table.
      const report = redactSecretsDeep(request.body);
      request.log.warn({ clientError: clientErrorSummary(report), userExternalId: sender.userExternalId }, 'client error reported');
      await recordClientError(db, report, sender.userExternalId);
      return reply.code(202).send({ accepted: 1 });
    },
  );
};

export default analyticsRoutes;
