import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBody } from '../../src/contract/common.ts';
import { HEARTBEAT_INTERVAL_MS, type LiveEvent, eventTicketResponse, eventsQuery } from '../../src/contract/events.ts';
import type { Database } from '../db/client.ts';
import {
  type RealtimeHub,
  type RealtimeNotice,
  type Viewer,
  currentViewers,
  issueStreamTicket,
  liveEventFor,
  mayReceive,
  redeemStreamTicket,
  viewerStands,
} from '../domain/realtime/realtime.ts';
import { userOf } from '../plugins/authenticate.ts';
import { errorForLog } from '../logging.ts';

export const INVALID_TICKET_ERROR = 'This live-update ticket is not valid. Please request a new one.';
export const LIVE_UPDATES_UNAVAILABLE_ERROR = 'Live updates are unavailable right now.';
export const TOO_MANY_STREAMS_ERROR = 'Too many live-update connections are open. Close another tab and try again.';
/** Open streams per user in one process: enough for several tabs; each stream holds a connection and timers. */
export const MAX_STREAMS_PER_USER = 5;

interface LiveStream {
  viewer: Viewer & { sessionId: number };
  send(event: LiveEvent): void;
  end(): void;
}

/** setTimeout's longest delay; sessions are far shorter, this only keeps an odd expiry from firing at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** One server-sent event: its type as the SSE event name, the JSON as its data (JSON has no raw line breaks). */
function writeEvent(response: ServerResponse, id: number, event: LiveEvent) {
  response.write(`id: ${id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
}

/**
 * Live updates over server-sent events, under /api/v1/events (the ticket scheme is described in
 * src/contract/events.ts). Each process keeps its own open streams and one subscription to the realtime hub,
 * reads each notice once, and writes it to the streams allowed to see it.
 */
export const eventsRoutes: FastifyPluginAsyncZod<{ db: Database; realtime: RealtimeHub }> = async (app, { db, realtime }) => {
  const streams = new Set<LiveStream>();

  /** Reads the viewers of these streams now and ends those whose session ended or whose rights changed. */
  async function endRevoked(candidates: readonly LiveStream[]): Promise<LiveStream[]> {
    const current = await currentViewers(db, [...new Set(candidates.map((stream) => stream.viewer.sessionId))]);
    return candidates.filter((stream) => {
      if (viewerStands(stream.viewer, current.get(stream.viewer.sessionId))) return true;
      stream.end();
      return false;
    });
  }

  async function fanOut(notice: RealtimeNotice) {
    if (notice.type === 'sessions.ended') {
      for (const stream of [...streams]) {
        const { userId, sessionId } = stream.viewer;
        if (userId === notice.userId && (notice.sessionId === null || notice.sessionId === sessionId)) stream.end();
      }
      return;
    }
    // A role, deactivation, membership or company change (the database's triggers announce it to every process):
    // a stream whose viewer no longer stands ends at once, and its client reconnects as who it now is, if it may.
    if (notice.type === 'credentials.changed') {
      await endRevoked([...streams].filter((stream) => notice.userId === null || stream.viewer.userId === notice.userId));
      return;
    }
    const recipients = [...streams].filter((stream) => mayReceive(stream.viewer, notice));
    if (recipients.length === 0) return;
    // Belt and braces: whatever ended a session or changed its rights, its stream gets nothing more.
    const [event, standing] = await Promise.all([liveEventFor(db, notice), endRevoked(recipients)]);
    if (event) for (const stream of standing) stream.send(event);
  }

  // Notices are read one after the other, so every stream sees events in the order they were announced.
  let delivery = Promise.resolve();
  const unsubscribe = realtime.subscribe({
    onNotice(notice) {
      delivery = delivery
        .then(() => fanOut(notice))
        .catch((error: unknown) => app.log.error({ err: errorForLog(error), notice }, 'live updates: delivery failed'));
    },
    onInterrupted() {
      for (const stream of [...streams]) stream.end();
    },
  });

  // Open streams would keep the server from closing; ending them lets clients reconnect to a running instance.
  app.addHook('preClose', async () => {
    unsubscribe();
    for (const stream of [...streams]) stream.end();
  });

  app.post(
    '/ticket',
    { onRequest: app.authenticate, schema: { response: { 200: eventTicketResponse, 401: errorBody, 429: errorBody } } },
    async (request) => {
      const { ticket, expiresAt } = await issueStreamTicket(db, userOf(request).sessionId);
      return { ticket, expires_at: expiresAt.toISOString() };
    },
  );

  app.get(
    '/',
    { schema: { querystring: eventsQuery, response: { 401: errorBody, 429: errorBody, 503: errorBody } } },
    async (request, reply) => {
      if (!realtime.live) return reply.code(503).send({ error: LIVE_UPDATES_UNAVAILABLE_ERROR });
      const viewer = await redeemStreamTicket(db, request.query.ticket);
      if (!viewer) return reply.code(401).send({ error: INVALID_TICKET_ERROR });
      const openForUser = [...streams].filter((stream) => stream.viewer.userId === viewer.userId).length;
      if (openForUser >= MAX_STREAMS_PER_USER) return reply.code(429).send({ error: TOO_MANY_STREAMS_ERROR });

      reply.hijack();
      const response = reply.raw;
      // The headers set so far (the security headers) go out with the stream's own.
      const inherited = Object.fromEntries(Object.entries(reply.getHeaders()).filter(([, value]) => value !== undefined));
      response.writeHead(200, {
        ...(inherited as OutgoingHttpHeaders),
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        // Proxies such as nginx must pass each event on at once rather than buffer the response.
        'x-accel-buffering': 'no',
      });
      // A first line, so that the client's `open` fires now rather than with the first event.
      response.write(': connected\n\n');

      let nextEventId = 1;
      // A sign-out, password change or change of rights ends the stream at once through its notice; the heartbeat's
      // check is the fallback for a notice that never came.
      const heartbeat = setInterval(() => {
        endRevoked([stream])
          .then((standing) => standing.length > 0 && response.write(': heartbeat\n\n'))
          .catch((error: unknown) => app.log.warn({ err: errorForLog(error) }, 'live updates: session check failed'));
      }, HEARTBEAT_INTERVAL_MS);
      // The session's own end: the stream does not outlive it by a heartbeat.
      const expiry = setTimeout(() => stream.end(), Math.min(viewer.sessionExpiresAt.getTime() - Date.now(), MAX_TIMER_MS));
      const stream: LiveStream = {
        viewer,
        send(event) {
          writeEvent(response, nextEventId++, event);
        },
        end() {
          clearInterval(heartbeat);
          clearTimeout(expiry);
          streams.delete(stream);
          response.end();
        },
      };
      streams.add(stream);
      // The response closes when the client goes away (or after end()): either way the stream is over.
      response.once('close', () => stream.end());
      return reply;
    },
  );
};
