import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as sentrySdk from '../../src/services/monitoring.sentry.ts';
import { httpError } from '../machines/httpFailures.support.ts';

// The SDK itself is Sentry's; what is tested here is when it is loaded and what it is handed.
vi.mock('../../src/services/monitoring.sentry.ts', () => ({
  startSentry: vi.fn(),
  captureReport: vi.fn(),
  captureUncaught: vi.fn(),
  setInternalUser: vi.fn(),
}));

const DSN = 'https://public@sentry.example.com/7';
const sinkCalls: string[] = [];

async function loadFresh() {
  vi.resetModules();
  const monitoring = await import('../../src/services/monitoring.ts');
  const errorReporting = await import('../../src/services/errorReporting.ts');
  const { readConfig } = await import('../../src/services/config.ts');
  return { ...monitoring, ...errorReporting, readConfig };
}

beforeEach(() => {
  sinkCalls.length = 0;
  vi.clearAllMocks();
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      sinkCalls.push(String(input instanceof Request ? input.url : input));
      return Response.json({ accepted: 1 }, { status: 202 });
    }),
  );
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe('monitoring on Sentry (issue 15)', () => {
  it('with a DSN: the SDK arrives after the page, is handed what happened before, and the own sink gets nothing', async () => {
    vi.stubEnv('VITE_REPORT_ERRORS', 'true');
    vi.stubEnv('VITE_SENTRY_DSN', DSN);
    const app = await loadFresh();
    app.startMonitoring(app.readConfig());
    app.setErrorUser({ internal_user: true });
    const failure = httpError(503, { error: 'Down for a moment' }, 'Service Unavailable');
    await app.reportError(failure, { component: 'Dashboard', feature: 'dashboard' });
    window.dispatchEvent(new ErrorEvent('error', { error: new Error('uncaught before the SDK') }));
    expect(sentrySdk.startSentry).not.toHaveBeenCalled();

    await vi.waitFor(() => expect(sentrySdk.startSentry).toHaveBeenCalledWith(expect.objectContaining({ sentryDsn: DSN })));
    expect(app.isMonitoring()).toBe(true);
    expect(sentrySdk.setInternalUser).toHaveBeenCalledWith(true);
    expect(sentrySdk.captureReport).toHaveBeenCalledWith(
      failure,
      expect.objectContaining({
        component: 'Dashboard',
        feature: 'dashboard',
        response: { status: 503, status_text: 'Service Unavailable', data: { error: 'Down for a moment' } },
      }),
    );
    expect(sentrySdk.captureUncaught).toHaveBeenCalledWith(expect.objectContaining({ message: 'uncaught before the SDK' }));
    expect(sinkCalls).toEqual([]);

    // Once loaded, reports go straight through.
    await app.reportError(new Error('later'), { component: 'RequestThread' });
    expect(sentrySdk.captureReport).toHaveBeenLastCalledWith(expect.objectContaining({ message: 'later' }), expect.objectContaining({ component: 'RequestThread' }));
  });

  it('without a DSN nothing is loaded and reports go to the app’s own sink', async () => {
    vi.stubEnv('VITE_REPORT_ERRORS', 'true');
    vi.stubEnv('VITE_SENTRY_DSN', '');
    const app = await loadFresh();
    app.startMonitoring(app.readConfig());
    await app.reportError(new Error('to the sink'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(app.isMonitoring()).toBe(false);
    expect(sentrySdk.startSentry).not.toHaveBeenCalled();
    expect(sinkCalls).toEqual([expect.stringMatching(/\/api\/v1\/analytics\/errors$/)]);
  });

  it('with reporting off a DSN changes nothing: errors go to the console, nothing is loaded or sent', async () => {
    vi.stubEnv('VITE_REPORT_ERRORS', 'false');
    vi.stubEnv('VITE_SENTRY_DSN', DSN);
    const app = await loadFresh();
    app.startMonitoring(app.readConfig());
    await app.reportError(new Error('to the console'), { component: 'Dashboard', feature: 'dashboard' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(sentrySdk.startSentry).not.toHaveBeenCalled();
    expect(sinkCalls).toEqual([]);
    expect(console.error).toHaveBeenCalledWith('Error in Dashboard (dashboard)', expect.any(Error), expect.any(Object));
  });
});
