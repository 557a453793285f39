// Loaded after the first paint by monitoring.ts, only when a DSN is set; the replay loads later still.
import {
  addEventProcessor,
  addIntegration,
  browserTracingIntegration,
  captureException,
  getClient,
  init,
  makeFetchTransport,
  setTag,
  withScope,
} from '@sentry/react';
import type { ClientErrorReport } from '../contract/analytics.ts';
import { anonymisePath } from '../contract/analytics.paths.ts';
import { MONITORING_DATA_COLLECTION, MONITORING_SAMPLE_RATES, MONITORING_TUNNEL_PATH } from '../contract/monitoring.ts';
import { redactSecrets, redactSecretsDeep } from '../contract/secrets.ts';
import type { AppConfig } from './config.ts';

let replayStarted = false;

// Taken before init, which wraps window.fetch: the SDK's own requests are not traced.
const pageFetch = window.fetch.bind(window);

/**
 * Chromium counts a keepalive request against the page's 64 KB in-flight budget until its answer has been read, and
 * Sentry's fetch transport never reads it: after 64 KB of events every further one failed. Each answer is read here.
 */
async function fetchReadToTheEnd(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const response = await pageFetch(input, init);
  await response.arrayBuffer().catch(() => undefined);
  return response;
}

/**
 * The replay starts on the first page whose address holds no secret: a page opened from an e-mailed link
 * (/reset-password/<token>, /unlock/<token>, /confirm-email/<token>) is not recorded, since the recording's page
 * entries carry the address as it is. Every other part of an event has its secrets replaced before it is sent.
 */
function startReplayWhereNoSecretShows(): void {
  if (replayStarted || redactSecrets(window.location.href) !== window.location.href) return;
  replayStarted = true;
  import('./monitoring.replay.ts').then(
    ({ privateReplay }) => addIntegration(privateReplay()),
    (error: unknown) => console.error('Session replay could not be loaded', error),
  );
}

export function startSentry({ sentryDsn, apiBaseUrl }: AppConfig): void {
  init({
    dsn: sentryDsn ?? undefined,
    tunnel: `${apiBaseUrl}${MONITORING_TUNNEL_PATH}`,
    release: __APP_VERSION__,
    environment: import.meta.env.MODE,
    dataCollection: MONITORING_DATA_COLLECTION,
    transport: (options) => makeFetchTransport(options, fetchReadToTheEnd),
    // Transactions rather than streamed spans: what GlitchTip and self-hosted Sentry ingest.
    traceLifecycle: 'static',
    tracesSampleRate: MONITORING_SAMPLE_RATES.traces,
    // The app's own API only: no other host learns the trace.
    tracePropagationTargets: [`${apiBaseUrl}/api/`],
    replaysSessionSampleRate: MONITORING_SAMPLE_RATES.replaysSession,
    replaysOnErrorSampleRate: MONITORING_SAMPLE_RATES.replaysOnError,
    integrations: [
      browserTracingIntegration({
        // Page loads and navigations are named by route, so tokens and request ids stay out of the name.
        beforeStartSpan: (options) => ({ ...options, name: anonymisePath(window.location.pathname) }),
      }),
    ],
    beforeBreadcrumb: (breadcrumb) => redactSecretsDeep(breadcrumb),
    beforeSend: (event) => redactSecretsDeep(event),
    beforeSendTransaction: (event) => redactSecretsDeep(event),
  });
  // Replay events pass neither beforeSend nor beforeSendTransaction.
  addEventProcessor((event) => (event.type === 'replay_event' ? redactSecretsDeep(event) : event));
  startReplayWhereNoSecretShows();
  getClient()?.on('beforeAddBreadcrumb', (breadcrumb) => {
    if (breadcrumb.category === 'navigation') setTimeout(startReplayWhereNoSecretShows, 0);
  });
}

export function captureUncaught(error: unknown): void {
  captureException(error);
}

/** SPEC §8: the component and feature as tags, the failed response's status, text and data as context. */
export function captureReport(error: Error, report: ClientErrorReport): void {
  withScope((scope) => {
    if (report.component) scope.setTag('component', report.component);
    if (report.feature) scope.setTag('feature', report.feature);
    if (report.response) scope.setContext('response', { ...report.response });
    captureException(error);
  });
}

export function setInternalUser(internal: boolean | null): void {
  setTag('internal_user', internal);
}
