import type { ClientErrorReport } from '../contract/analytics.ts';
import { ERROR_REPORT_LIMITS } from '../contract/analytics.constants.ts';
import { anonymisePath } from '../contract/analytics.paths.ts';
import type { User } from '../contract/account.ts';
import { EMAIL_CONFIRMATION_MESSAGES } from './account.messages.ts';
import { readConfig } from './config.ts';
import { api, isHTTPError, serverMessage, statusOf } from './http.ts';
import { captureReport, isMonitoring, setMonitoringUser } from './monitoring.ts';

/** Where an error happened: the component that caught it and the feature it belongs to. */
export interface ErrorContext {
  component?: string;
  feature?: string;
}

/** SPEC §8: an unlock link that is simply wrong is the user's problem, not a defect; so is a wrong confirmation link. */
export const UNREPORTED_MESSAGES: ReadonlySet<string> = new Set(['Invalid unlock token.', EMAIL_CONFIRMATION_MESSAGES.invalidLink]);

type ResponseData = NonNullable<ClientErrorReport['response']>['data'];

let internalUser: boolean | null = null;

/** SPEC §6: whether the signed-in user is internal staff goes with every report (null after sign-out). */
export function setErrorUser(user: Pick<User, 'internal_user'> | null): void {
  internalUser = user ? user.internal_user : null;
  setMonitoringUser(internalUser);
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(typeof error === 'string' ? error : JSON.stringify(error));
}

/** SPEC §4: a 401 ends the session, which is handled elsewhere; it is never reported. */
function isReportable(error: unknown): boolean {
  if (statusOf(error) === 401) return false;
  const messages = [asError(error).message, serverMessage(error, '')];
  return !messages.some((message) => UNREPORTED_MESSAGES.has(message));
}

function buildReport(error: unknown, context: ErrorContext, analyticsId: string): ClientErrorReport {
  const { name, message, stack } = asError(error);
  return {
    analytics_id: analyticsId,
    name: name.slice(0, ERROR_REPORT_LIMITS.name),
    message: message.slice(0, ERROR_REPORT_LIMITS.message),
    ...(stack ? { stack: stack.slice(0, ERROR_REPORT_LIMITS.stack) } : {}),
    ...context,
    path: anonymisePath(window.location.pathname),
    // SPEC §8: the failed response's status, text and data.
    ...(isHTTPError(error)
      ? {
          response: {
            status: error.response.status,
            status_text: error.response.statusText,
            // ky has already read the body: parsed JSON, or the text when it was not JSON.
            ...(error.data === undefined ? {} : { data: error.data as ResponseData }),
          },
        }
      : {}),
    ...(internalUser === null ? {} : { user_properties: { internal_user: internalUser } }),
    occurred_at: new Date().toISOString(),
  };
}

/**
 * Reports an error to Sentry when the app is built with a DSN, else to POST /api/v1/analytics/errors; or logs it to
 * the console when VITE_REPORT_ERRORS is "false". 401s and 'Invalid unlock token.' are never reported. Never throws:
 * reporting must not add a second failure.
 */
export async function reportError(error: unknown, context: ErrorContext = {}): Promise<void> {
  if (!isReportable(error)) return;
  let reportErrors = false;
  let analyticsId = '';
  try {
    ({ reportErrors, analyticsId } = readConfig());
  } catch {
    // Without a configuration nothing can be sent; the console still gets the error below.
  }
  const report = buildReport(error, context, analyticsId || 'unconfigured');
  if (!reportErrors) {
    console.error(`Error in ${context.component ?? 'the app'} (${context.feature ?? 'no feature'})`, error, report);
    return;
  }
  if (isMonitoring()) {
    captureReport(asError(error), report);
    return;
  }
  try {
    // Read to the end: Chromium holds a keepalive request against the page's 64 KB budget until then.
    const client = await api();
    await client.post('analytics/errors', { json: report, keepalive: true }).text();
  } catch (sendError) {
    console.error('The error report could not be sent', sendError, error);
  }
}
