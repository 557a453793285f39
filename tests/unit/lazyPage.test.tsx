import { render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ErrorBoundary } from '../../src/app/ErrorBoundary.tsx';
import { CHUNK_RELOAD_MARKER, isChunkLoadError, lazyPage } from '../../src/services/lazyPage.ts';

/** What Chrome, Safari and Firefox say when a chunk of an older deployment is gone. */
const CHUNK_ERRORS = [
  'Failed to fetch dynamically imported module: http://localhost:3000/assets/Requests-3f2a1c9.js',
  'Importing a module script failed.',
  'error loading dynamically imported module: http://localhost:3000/assets/Requests-3f2a1c9.js',
];

function Requests() {
  return <h1>Requests</h1>;
}

function renderPage(load: () => Promise<{ default: typeof Requests }>, reload = vi.fn()) {
  const Page = lazyPage(load, reload);
  render(
    <ErrorBoundary fallback={<p>Page failed</p>}>
      <Suspense fallback={<p>Loading page</p>}>
        <Page />
      </Suspense>
    </ErrorBoundary>,
  );
  return reload;
}

afterEach(() => {
  vi.restoreAllMocks();
  window.history.replaceState(null, '', '/');
});

describe('isChunkLoadError', () => {
  it.each(CHUNK_ERRORS)('recognises "%s"', (message) => {
    expect(isChunkLoadError(new TypeError(message))).toBe(true);
  });

  it('does not take other errors for chunk failures', () => {
    expect(isChunkLoadError(new Error('Request failed with status code 500'))).toBe(false);
    expect(isChunkLoadError('Failed to fetch')).toBe(false);
  });
});

describe('lazyPage (SPEC §8 lazy page load failure)', () => {
  it('renders the page when its chunk loads, and forgets an earlier reload', async () => {
    sessionStorage.setItem(CHUNK_RELOAD_MARKER, window.location.href);
    const reload = renderPage(async () => ({ default: Requests }));

    expect(await screen.findByRole('heading', { name: 'Requests' })).toBeInTheDocument();
    expect(reload).not.toHaveBeenCalled();
    expect(sessionStorage.getItem(CHUNK_RELOAD_MARKER)).toBeNull();
  });

  it.each(CHUNK_ERRORS)('reloads the target address in full when the chunk fails with "%s"', async (message) => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    window.history.replaceState(null, '', '/requests?tab=completed#list');
    const reload = renderPage(() => Promise.reject(new TypeError(message)));

    await vi.waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    expect(sessionStorage.getItem(CHUNK_RELOAD_MARKER)).toBe('http://localhost:3000/requests?tab=completed#list');
    // Nothing but the loading state shows while the browser replaces the page.
    expect(screen.getByText('Loading page')).toBeInTheDocument();
    expect(screen.queryByText('Page failed')).not.toBeInTheDocument();
  });

  it('shows the error instead of reloading again when the same address fails right after its reload', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    window.history.replaceState(null, '', '/requests');
    sessionStorage.setItem(CHUNK_RELOAD_MARKER, window.location.href);
    const reload = renderPage(() => Promise.reject(new TypeError(CHUNK_ERRORS[0])));

    expect(await screen.findByText('Page failed')).toBeInTheDocument();
    expect(reload).not.toHaveBeenCalled();
  });

  it('rethrows other errors without reloading', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const reload = renderPage(() => Promise.reject(new SyntaxError('Unexpected token')));

    expect(await screen.findByText('Page failed')).toBeInTheDocument();
    expect(reload).not.toHaveBeenCalled();
    expect(sessionStorage.getItem(CHUNK_RELOAD_MARKER)).toBeNull();
  });
});

describe('lazyPage preload (issue 10)', () => {
  it('fetches the chunk before the page renders, and swallows a failure the render will meet again', async () => {
    const load = vi.fn(async () => ({ default: Requests }));
    const Page = lazyPage(load);
    Page.preload();
    expect(load).toHaveBeenCalledTimes(1);

    const failing = vi.fn(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module: x.js')));
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    lazyPage(failing, vi.fn()).preload();
    await new Promise((resolve) => setTimeout(resolve, 10));
    process.off('unhandledRejection', unhandled);
    expect(failing).toHaveBeenCalledTimes(1);
    expect(unhandled).not.toHaveBeenCalled();
  });
});
