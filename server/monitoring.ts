import type { Event } from '@sentry/node';
import { redactSecretsDeep } from '../src/contract/secrets.ts';
import { MONITORING_DATA_COLLECTION, MONITORING_SAMPLE_RATES, MONITORING_TUNNEL_PATH } from '../src/contract/monitoring.ts';
import type { Config } from './config.ts';
import { withoutQueryParameters } from './logging.ts';

/** Request headers that carry a credential: never sent, whatever Sentry's own list holds. */
const CREDENTIAL_HEADERS = ['authorization', 'mfa-token', 'cookie', 'set-cookie'];

/**
 * An event as it may leave the server: no request body (a password, a code, a message), no credential header, no
 * token in an address, no query parameters of a failed database statement; the client address is never attached.
 */
export function scrubServerEvent<T extends Event>(event: T): T {
  const scrubbed = redactSecretsDeep(event);
  if (scrubbed.request) {
    delete scrubbed.request.data;
    delete scrubbed.request.cookies;
    const headers = scrubbed.request.headers;
    if (headers) for (const name of Object.keys(headers)) if (CREDENTIAL_HEADERS.includes(name.toLowerCase())) delete headers[name];
  }
  for (const exception of scrubbed.exception?.values ?? []) exception.value = withoutQueryParameters(exception.value);
  if (scrubbed.user) scrubbed.user = { id: scrubbed.user.id };
  return scrubbed;
}

export interface ServerMonitoring {
  /** Sends what is queued (at most `timeoutMs`), then stops. */
  close(timeoutMs?: number): Promise<void>;
}

/**
 * The server's own errors and traces on Sentry (SENTRY_DSN); nothing is loaded without it. It must start before the
 * Fastify instance is built: the Fastify integration hooks in as the instance is created. Incoming requests continue
 * the browser's trace (sentry-trace and baggage headers), so a page load and the API calls it caused are one trace.
 */
export async function startServerMonitoring(config: Pick<Config, 'SENTRY_DSN' | 'NODE_ENV'>): Promise<ServerMonitoring | null> {
  if (!config.SENTRY_DSN) return null;
  const Sentry = await import('@sentry/node');
  Sentry.init({
    dsn: config.SENTRY_DSN,
    environment: config.NODE_ENV,
    dataCollection: MONITORING_DATA_COLLECTION,
    // Transactions rather than streamed spans: what GlitchTip and self-hosted Sentry ingest.
    traceLifecycle: 'static',
    tracesSampleRate: MONITORING_SAMPLE_RATES.traces,
    // Only the API's calls are traced: not the built app's files, the dev outbox, or the browser's envelopes passing.
    integrations: [Sentry.httpIntegration({ ignoreIncomingRequests: (path) => !path.startsWith('/api/v1/') || path.startsWith(MONITORING_TUNNEL_PATH) })],
    beforeSend: scrubServerEvent,
    // Fastify's hooks of an untraced request would each start a transaction of their own: only requests are kept.
    beforeSendTransaction: (event) => (event.contexts?.trace?.op === 'http.server' ? scrubServerEvent(event) : null),
    beforeBreadcrumb: (breadcrumb) => redactSecretsDeep(breadcrumb),
  });
  return { close: async (timeoutMs = 2000) => void (await Sentry.close(timeoutMs)) };
}
