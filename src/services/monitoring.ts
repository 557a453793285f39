import type { ClientErrorReport } from '../contract/analytics.ts';
import type { AppConfig } from './config.ts';
import type * as SentryModule from './monitoring.sentry.ts';

type SentrySdk = typeof SentryModule;

/** Errors that happen before the SDK has arrived are kept, up to this many, and sent once it has. */
const EARLY_ERRORS_KEPT = 20;

let enabled = false;
let sdk: SentrySdk | null = null;
const waiting: Array<(loaded: SentrySdk) => void> = [];
let internalUser: boolean | null = null;

function whenLoaded(task: (loaded: SentrySdk) => void): void {
  if (sdk) task(sdk);
  else if (waiting.length < EARLY_ERRORS_KEPT) waiting.push(task);
}

/** After the page has loaded and the browser is idle: the SDK never competes with the first paint. */
function afterPageLoad(task: () => void): void {
  const whenIdle = () => (window.requestIdleCallback ? window.requestIdleCallback(task, { timeout: 2000 }) : setTimeout(task, 0));
  if (document.readyState === 'complete') whenIdle();
  else window.addEventListener('load', whenIdle, { once: true });
}

/**
 * SPEC §7/§9 monitoring on Sentry, when the app is built with VITE_SENTRY_DSN and VITE_REPORT_ERRORS "true": errors
 * are caught from the first paint (uncaught ones by the listeners below, reported ones by captureReport), while the
 * SDK itself loads after the page has; what happened meanwhile is sent when it arrives. Without a DSN nothing is
 * loaded and nothing leaves the machine.
 */
export function startMonitoring(config: AppConfig): void {
  if (enabled || !config.reportErrors || !config.sentryDsn) return;
  enabled = true;
  const onError = (event: ErrorEvent) => whenLoaded((loaded) => loaded.captureUncaught(event.error ?? event.message));
  const onRejection = (event: PromiseRejectionEvent) => whenLoaded((loaded) => loaded.captureUncaught(event.reason));
  window.addEventListener('error', onError);
  window.addEventListener('unhandledrejection', onRejection);
  afterPageLoad(() => {
    import('./monitoring.sentry.ts').then(
      (loaded) => {
        loaded.startSentry(config);
        loaded.setInternalUser(internalUser);
        // Sentry's own handlers catch what is uncaught from now on.
        window.removeEventListener('error', onError);
        window.removeEventListener('unhandledrejection', onRejection);
        sdk = loaded;
        for (const task of waiting.splice(0)) task(loaded);
      },
      (error: unknown) => console.error('Error monitoring could not be loaded', error),
    );
  });
}

/** Whether reported errors go to Sentry (rather than the app's own error sink). */
export function isMonitoring(): boolean {
  return enabled;
}

/** Sends a reported error with its context (component, feature, the failed response, the user's kind). */
export function captureReport(error: Error, report: ClientErrorReport): void {
  whenLoaded((loaded) => loaded.captureReport(error, report));
}

/** SPEC §6: whether the signed-in user is internal staff goes with every event (null after sign-out). */
export function setMonitoringUser(internal: boolean | null): void {
  internalUser = internal;
  sdk?.setInternalUser(internal);
}
