import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBody } from '../../src/contract/common.ts';
import { HEARTBEAT_INTERVAL_MS, eventTicketResponse, eventsQuery } from '../../src/contract/events.ts';
import type { Database } from '../db/client.ts';
import {
  type RealtimeHub,
  type RealtimeNotice,
  currentViewers,
  issueStreamTicket,
  liveEventFor,
  mayReceive,
  redeemStreamTicket,
  viewerStands,
} from '../domain/realtime/realtime.ts';
import { userOf } from '../plugins/authenticate.ts';
import { errorForLog } from '../logging.ts';
import { type LiveStream, LiveStreams } from './liveStreams.ts';

export const INVALID_TICKET_ERROR = 'This live-update ticket is not valid. Please request a new one.';
export const LIVE_UPDATES_UNAVAILABLE_ERROR = 'Live updates are unavailable right now.';
export const TOO_MANY_STREAMS_ERROR = 'Too many live-update connections are open. Close another tab and try again.';
/** Open streams per user in one process: enough for several tabs; each stream holds a connection. */
export const MAX_STREAMS_PER_USER = 5;
/** The security headers an event stream carries: it is read by the app's own script, never rendered. */
const STREAM_SECURITY_HEADERS = ['x-content-type-options', 'cross-origin-resource-policy', 'strict-transport-security'];
/** Sessions checked per query: one statement's parameters stay well under PostgreSQL's limit. */
const SESSIONS_PER_CHECK = 1_000;

/**
 * Live updates over server-sent events, under /api/v1/events (the ticket scheme is described in
 * src/contract/events.ts). Each process keeps its own open streams and one subscription to the realtime hub,
 * reads each notice once, and writes it to the streams allowed to see it.
 */
export const eventsRoutes: FastifyPluginAsyncZod<{ db: Database; realtime: RealtimeHub; maxStreams: number }> = async (
  app,
  { db, realtime, maxStreams },
) => {
  /** Reads the viewers of these streams now and ends those whose session ended or whose rights changed. */
  async function endRevoked(candidates: readonly LiveStream[]): Promise<LiveStream[]> {
    const standing: LiveStream[] = [];
    for (let start = 0; start < candidates.length; start += SESSIONS_PER_CHECK) {
      const batch = candidates.slice(start, start + SESSIONS_PER_CHECK);
      const current = await currentViewers(db, [...new Set(batch.map((stream) => stream.viewer.sessionId))]);
      for (const stream of batch) {
        if (viewerStands(stream.viewer, current.get(stream.viewer.sessionId))) standing.push(stream);
        else stream.end();
      }
    }
    return standing;
  }

  // A sign-out, password change or change of rights ends a stream at once through its notice; the heartbeat's one
  // check of every open session is the fallback for a notice that never came.
  const streams = new LiveStreams(HEARTBEAT_INTERVAL_MS, (open) => {
    endRevoked(open).catch((error: unknown) => app.log.warn({ err: errorForLog(error) }, 'live updates: session check failed'));
  });

  /**
   * Reads what a notice needs (its event, its recipients' standing) and resolves with the delivery itself. Notices
   * are read as they arrive, side by side, and delivered one after the other in the order they were announced: a
   * notice is announced after the commit that it reports, so a reading never misses a change announced before it.
   */
  async function prepare(notice: RealtimeNotice): Promise<() => void> {
    if (notice.type === 'sessions.ended') {
      return () => {
        for (const stream of streams.list(notice.userId)) {
          if (notice.sessionId === null || notice.sessionId === stream.viewer.sessionId) stream.end();
        }
      };
    }
    // A role, deactivation, membership or company change (the database's triggers announce it to every process):
    // a stream whose viewer no longer stands ends at once, and its client reconnects as who it now is, if it may.
    if (notice.type === 'credentials.changed') {
      await endRevoked(streams.list(notice.userId));
      return () => {};
    }
    const recipients = streams.candidatesFor(notice).filter((stream) => mayReceive(stream.viewer, notice));
    if (recipients.length === 0) return () => {};
    // Belt and braces: whatever ended a session or changed its rights, its stream gets nothing more.
    const [event, standing] = await Promise.all([liveEventFor(db, notice), endRevoked(recipients)]);
    return () => {
      if (event) for (const stream of standing) stream.send(event);
    };
  }

  let delivery = Promise.resolve();
  const unsubscribe = realtime.subscribe({
    onNotice(notice) {
      const prepared = prepare(notice);
      // Its failure is logged in turn below; until then it must not count as unhandled (which ends the process).
      prepared.catch(() => {});
      delivery = delivery
        .then(() => prepared)
        .then((deliver) => deliver())
        .catch((error: unknown) => app.log.error({ err: errorForLog(error), notice }, 'live updates: delivery failed'));
    },
    onInterrupted() {
      streams.endAll();
    },
  });

  // Open streams would keep the server from closing; ending them lets clients reconnect to a running instance.
  app.addHook('preClose', async () => {
    unsubscribe();
    streams.endAll();
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
    {
      config: {
        otherSuccess: {
          status: 200,
          description: 'The live updates: one server-sent event per change the viewer may see (its type as the event name, its JSON as the data; see src/contract/events.ts), and a comment line as heartbeat.',
          contentType: 'text/event-stream',
        },
      },
      schema: { querystring: eventsQuery, response: { 401: errorBody, 429: errorBody, 503: errorBody } },
    },
    async (request, reply) => {
      // Past the process's capacity (its open-files limit), a stream would take the descriptor that the next
      // request needs: the client is told live updates are unavailable, and polls.
      if (!realtime.live || streams.size >= maxStreams) return reply.code(503).send({ error: LIVE_UPDATES_UNAVAILABLE_ERROR });
      const viewer = await redeemStreamTicket(db, request.query.ticket);
      if (!viewer) return reply.code(401).send({ error: INVALID_TICKET_ERROR });
      if (streams.openForUser(viewer.userId) >= MAX_STREAMS_PER_USER) return reply.code(429).send({ error: TOO_MANY_STREAMS_ERROR });

      reply.hijack();
      const response = reply.raw;
      // Of the security headers, those that concern a response that is not a document (a page's policies would only
      // make each stream's header block, which the connection keeps, a kilobyte larger).
      const headers: OutgoingHttpHeaders = {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        // Proxies such as nginx must pass each event on at once rather than buffer the response.
        'x-accel-buffering': 'no',
      };
      for (const name of STREAM_SECURITY_HEADERS) {
        const value = reply.getHeader(name);
        if (value !== undefined) headers[name] = value;
      }
      response.writeHead(200, headers);
      const stream = streams.open(viewer, response);
      // A first line, so that the client's `open` fires now rather than with the first event.
      stream.comment('connected');
      // The response closes when the client goes away (or after end()): either way the stream is over.
      response.once('close', () => stream.end());
      return reply;
    },
  );
};
