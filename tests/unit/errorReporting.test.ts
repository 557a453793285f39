import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as ErrorReportingModule from '../../src/services/errorReporting.ts';
import { type ClientErrorReport, ERROR_REPORT_LIMITS, clientErrorReport } from '../../src/contract/analytics.ts';

const reports: ClientErrorReport[] = [];
/** The API as the browser sees it: /api/v1/requests/* answers with `apiAnswer`, the error sink records reports. */
let apiAnswer: () => Response;
const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
  const request = input instanceof Request ? input : new Request(input, init);
  if (new URL(request.url).pathname === '/api/v1/analytics/errors') {
    reports.push((await request.clone().json()) as ClientErrorReport);
    return Response.json({ accepted: 1 }, { status: 202 });
  }
  return apiAnswer();
});

/** ky's HTTPError, as the services throw it (from the API client of the module graph loadErrorReporting loaded). */
async function failedCall(status: number, statusText: string, body: unknown): Promise<unknown> {
  apiAnswer = () => Response.json(body, { status, statusText });
  const { api } = await import('../../src/services/http.ts');
  return (await api()).get('requests/open').catch((error: unknown) => error);
}

async function loadErrorReporting(): Promise<typeof ErrorReportingModule> {
  vi.resetModules();
  return import('../../src/services/errorReporting.ts');
}

let consoleError: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  reports.length = 0;
  fetchMock.mockClear();
  vi.stubGlobal('fetch', fetchMock);
  consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  window.history.replaceState(null, '', '/');
});

describe('reportError with VITE_REPORT_ERRORS "true"', () => {
  beforeEach(() => vi.stubEnv('VITE_REPORT_ERRORS', 'true'));

  it("sends the component, feature, anonymised path and the failed response's status, text and data", async () => {
    const { reportError, setErrorUser } = await loadErrorReporting();
    window.history.replaceState(null, '', '/requests/8f14e45f');
    setErrorUser({ internal_user: true });
    const error = await failedCall(500, 'Internal Server Error', { error: 'An unexpected error occurred' });

    await reportError(error, { component: 'RequestThread', feature: 'requests' });

    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatchObject({
      analytics_id: import.meta.env.VITE_ANALYTICS_ID,
      name: 'HTTPError',
      component: 'RequestThread',
      feature: 'requests',
      path: '/requests/:requestId',
      response: { status: 500, status_text: 'Internal Server Error', data: { error: 'An unexpected error occurred' } },
      user_properties: { internal_user: true },
    });
    expect(reports[0].message).toContain('500');
    expect(consoleError).not.toHaveBeenCalled();
  });

  it('sends a plain error without a response, and without user properties after sign-out', async () => {
    const { reportError, setErrorUser } = await loadErrorReporting();
    setErrorUser({ internal_user: false });
    setErrorUser(null);

    await reportError(new TypeError("Cannot read properties of undefined (reading 'name')"));

    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatchObject({ name: 'TypeError', path: '/' });
    expect(reports[0].stack).toContain('TypeError');
    expect(reports[0].response).toBeUndefined();
    expect(reports[0].user_properties).toBeUndefined();
  });

  it('cuts a very long message to what the sink accepts', async () => {
    const { reportError } = await loadErrorReporting();
    await reportError(new Error('x'.repeat(ERROR_REPORT_LIMITS.message + 500)));
    expect(reports[0].message).toHaveLength(ERROR_REPORT_LIMITS.message);
    expect(clientErrorReport.safeParse(reports[0]).success).toBe(true);
  });

  it('never reports a 401', async () => {
    const { reportError } = await loadErrorReporting();
    await reportError(await failedCall(401, 'Unauthorized', { error: 'Your session has expired. Please sign in again.' }));
    expect(reports).toEqual([]);
    expect(consoleError).not.toHaveBeenCalled();
  });

  it("never reports 'Invalid unlock token.', from the server or as a message", async () => {
    const { reportError } = await loadErrorReporting();
    await reportError(await failedCall(422, 'Unprocessable Entity', { error: 'Invalid unlock token.' }));
    await reportError(new Error('Invalid unlock token.'), { component: 'Unlock' });
    expect(reports).toEqual([]);

    await reportError(new Error('Unable to unlock your account'), { component: 'Unlock' });
    expect(reports.map((report) => report.message)).toEqual(['Unable to unlock your account']);
  });

  it('logs, and does not throw, when the report cannot be sent', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    const { reportError } = await loadErrorReporting();
    const error = new Error('Sign in error');

    await expect(reportError(error)).resolves.toBeUndefined();
    expect(consoleError).toHaveBeenCalledWith('The error report could not be sent', expect.any(Error), error);
  });
});

describe('reportError with VITE_REPORT_ERRORS "false"', () => {
  beforeEach(() => vi.stubEnv('VITE_REPORT_ERRORS', 'false'));

  it('logs the error and its report to the console and sends nothing', async () => {
    const { reportError } = await loadErrorReporting();
    const error = await failedCall(503, 'Service Unavailable', 'upstream down');

    await reportError(error, { component: 'Dashboard', feature: 'dashboard' });

    expect(fetchMock).toHaveBeenCalledTimes(1); // the failed call itself
    expect(reports).toEqual([]);
    expect(consoleError).toHaveBeenCalledWith(
      'Error in Dashboard (dashboard)',
      error,
      expect.objectContaining({ response: { status: 503, status_text: 'Service Unavailable', data: 'upstream down' } }),
    );
  });
});
