import { handleTunnelRequest } from '@sentry/core';
import type { FastifyPluginAsync } from 'fastify';

/** A replay segment is compressed and rarely over a few hundred KB; Sentry's SDK drops what is larger anyway. */
export const ENVELOPE_BODY_LIMIT = 5 * 1024 * 1024;
/**
 * Envelopes per minute per client address. A busy page sends one or two dozen (page loads and navigations, sessions,
 * replay segments every 5 s once recording, interaction spans), and one office address may stand for many employees.
 * Over it, the 429's Retry-After makes the SDK hold back, as it does with Sentry's own limits.
 */
export const ENVELOPES_PER_MINUTE = 600;

/**
 * POST /api/v1/monitoring, the browser's Sentry tunnel: Sentry's own forwarder reads the envelope's header and passes
 * it on to that DSN's host only when the DSN is the one the app was built with (anything else is a 403), so the
 * route cannot be used to reach any other address. Registered only when VITE_SENTRY_DSN is set.
 *
 * The envelope arrives as text or bytes (a compressed replay) with any content type; it is read as it came. Only
 * its length and the browser's user agent go with it: not the client address, not the page address (Referer).
 */
const monitoringRoutes: FastifyPluginAsync<{ browserDsn: string }> = async (app, { browserDsn }) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: ENVELOPE_BODY_LIMIT }, (_request, body, done) => done(null, body));

  app.post('/', { config: { internal: true, rateLimit: { max: ENVELOPES_PER_MINUTE, timeWindow: '1 minute' } } }, async (request, reply) => {
    const envelope = request.body as Buffer | undefined;
    const headers: Record<string, string> = { 'content-length': String(envelope?.byteLength ?? 0) };
    const userAgent = request.headers['user-agent'];
    if (userAgent) headers['user-agent'] = userAgent;
    const forwarded = await handleTunnelRequest(
      new Request('http://tunnel.invalid/', { method: 'POST', headers, body: envelope?.byteLength ? new Uint8Array(envelope) : null }),
      { allowedDsns: [browserDsn] },
    );
    const body = Buffer.from(await forwarded.arrayBuffer());
    const contentType = forwarded.headers.get('content-type');
    if (contentType) reply.type(contentType);
    for (const name of ['retry-after', 'x-sentry-rate-limits']) {
      const value = forwarded.headers.get(name);
      if (value) reply.header(name, value);
    }
    return reply.code(forwarded.status).send(body);
  });
};

export default monitoringRoutes;
