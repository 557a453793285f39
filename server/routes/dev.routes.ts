import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { clockMove, clockResponse, outboxQuery, outboxResponse } from '../../src/contract/dev.ts';
import { isLoopback } from '../config.ts';
import type { Database } from '../db/client.ts';
import { type Clock, isManualClock } from '../domain/ports/clock.ts';
import { listOutbox } from '../domain/shared/outbox.ts';
import { conflict } from '../domain/shared/userFacingError.ts';

export const LOOPBACK_ONLY_ERROR = 'The development outbox answers only on the machine the server runs on.';
export const SYSTEM_CLOCK_ERROR = "This server keeps the system's time: only a test run started with MANUAL_CLOCK_START moves its clock.";

/**
 * Development aids under /api/dev, registered only in demo mode without a real mail or SMS transport: the outbox,
 * so that developers and the end-to-end tests can read the reset links, unlock links and SMS codes the server sent.
 * Only clients on this machine may read it: the socket's address, never X-Forwarded-For, decides, and a request a
 * proxy forwarded (from anywhere) is refused. A test run's server also lets its turnaround clock be moved here.
 */
const devRoutes: FastifyPluginAsyncZod<{ db: Database; clock: Clock }> = async (app, { db, clock }) => {
  app.addHook('onRequest', async (request, reply) => {
    const forwarded = request.headers['x-forwarded-for'] !== undefined || request.headers.forwarded !== undefined;
    if (forwarded || !isLoopback(request.socket.remoteAddress ?? '')) {
      return reply.code(403).send({ error: LOOPBACK_ONLY_ERROR });
    }
  });

  app.get('/outbox', { schema: { querystring: outboxQuery, response: { 200: outboxResponse } } }, async (request) => {
    const rows = await listOutbox(db, request.query);
    return {
      messages: rows.map((row) => ({
        id: row.id,
        channel: row.channel,
        to: row.recipient,
        subject: row.subject,
        text: row.body,
        links: row.links,
        created_at: row.createdAt.toISOString(),
        delivered_at: row.deliveredAt?.toISOString() ?? null,
      })),
    };
  });

  app.post('/clock', { schema: { body: clockMove, response: { 200: clockResponse } } }, async (request) => {
    if (!isManualClock(clock)) throw conflict(SYSTEM_CLOCK_ERROR);
    const { set, advance_minutes: advanceMinutes } = request.body;
    if (set !== undefined) clock.set(new Date(set));
    else clock.advance((advanceMinutes ?? 0) * 60_000);
    return { now: clock.now().toISOString() };
  });
};

export default devRoutes;
