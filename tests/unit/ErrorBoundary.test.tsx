import { render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ERROR_BOUNDARY_MESSAGE, ErrorBoundary } from '../../src/app/ErrorBoundary.tsx';
import type { ClientErrorReport } from '../../src/contract/analytics.ts';
import { httpError } from '../machines/httpFailures.support.ts';

const reports: ClientErrorReport[] = [];
const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
  const request = input instanceof Request ? input : new Request(input, init);
  reports.push((await request.clone().json()) as ClientErrorReport);
  return Response.json({ accepted: 1 }, { status: 202 });
});

/** Content that fails while `failing.renders` is above zero, counting down on each render. */
function Content({ failing, error = new Error('Cannot read the thread') }: { failing: { renders: number }; error?: unknown }) {
  if (failing.renders > 0) {
    failing.renders -= 1;
    throw error;
  }
  return <p>Thread content</p>;
}

beforeEach(() => {
  reports.length = 0;
  vi.stubEnv('VITE_REPORT_ERRORS', 'true');
  vi.stubGlobal('fetch', fetchMock);
  // React logs every caught error in development.
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('ErrorBoundary (SPEC §4)', () => {
  it('shows the error slot after an error and reports it with the component name and feature', async () => {
    render(
      <ErrorBoundary fallback={<p>The thread could not be shown.</p>} component="RequestThread" feature="requests">
        <Content failing={{ renders: Infinity }} />
      </ErrorBoundary>,
    );

    expect(screen.getByText('The thread could not be shown.')).toBeInTheDocument();
    await vi.waitFor(() => expect(reports).toHaveLength(1));
    expect(reports[0]).toMatchObject({ component: 'RequestThread', feature: 'requests', message: 'Cannot read the thread' });
  });

  it('keeps rendering the content when no error slot is given', async () => {
    // React itself may render a failing component more than once before the boundary takes over: count how often.
    const probe = { renders: 1000 };
    const { unmount } = render(
      <ErrorBoundary fallback={null}>
        <Content failing={probe} />
      </ErrorBoundary>,
    );
    unmount();
    const rendersOfOneFailure = 1000 - probe.renders;
    await vi.waitFor(() => expect(reports).toHaveLength(1));
    reports.length = 0;

    render(
      <ErrorBoundary component="Dashboard" feature="dashboard">
        <Content failing={{ renders: rendersOfOneFailure }} />
      </ErrorBoundary>,
    );

    expect(screen.getByText('Thread content')).toBeInTheDocument();
    await vi.waitFor(() => expect(reports).toHaveLength(1));
    expect(reports[0]).toMatchObject({ component: 'Dashboard' });
  });

  it('gives up with a polite message, instead of looping, when the content fails again', async () => {
    const failing = { renders: Infinity };
    render(
      <ErrorBoundary component="Dashboard">
        <Content failing={failing} />
      </ErrorBoundary>,
    );

    expect(screen.getByRole('alert')).toHaveTextContent(ERROR_BOUNDARY_MESSAGE);
    expect(screen.queryByText('Thread content')).not.toBeInTheDocument();
    await vi.waitFor(() => expect(reports).toHaveLength(2));
    // The content was rendered once more after the first error, and then no more.
    const rendersSoFar = failing.renders;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(failing.renders).toBe(rendersSoFar);
  });

  it('starts afresh when its reset key changes', () => {
    const failing = { renders: Infinity };
    const { rerender } = render(
      <ErrorBoundary resetKey="/requests">
        <Content failing={failing} />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('alert')).toBeInTheDocument();

    failing.renders = 0;
    rerender(
      <ErrorBoundary resetKey="/dashboard">
        <Content failing={failing} />
      </ErrorBoundary>,
    );
    expect(screen.getByText('Thread content')).toBeInTheDocument();
  });

  it('does not report a 401', async () => {
    render(
      <ErrorBoundary fallback={<p>Signed out</p>} component="Account">
        <Content failing={{ renders: Infinity }} error={httpError(401)} />
      </ErrorBoundary>,
    );
    expect(screen.getByText('Signed out')).toBeInTheDocument();

    render(
      <ErrorBoundary fallback={<p>Server failed</p>} component="Account">
        <Content failing={{ renders: Infinity }} error={httpError(500)} />
      </ErrorBoundary>,
    );
    await vi.waitFor(() => expect(reports).toHaveLength(1));
    expect(reports[0].response?.status).toBe(500);
  });
});
