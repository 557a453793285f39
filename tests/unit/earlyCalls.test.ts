import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as HttpModule from '../../src/services/http.ts';
import { earlyCallSetup, pageHeadScript } from '../../src/services/earlyCalls.ts';

/**
 * Issue 10: the page's head makes the session check's call (the script the build writes into it), and the app's
 * HTTP client adopts that answer for its own first call when it is the same call, never otherwise.
 */

let sent: Request[];
beforeEach(() => {
  sent = [];
  vi.stubEnv('VITE_API_BASE_URL', '/');
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      sent.push(request);
      return Response.json({ user: { email: `answer ${sent.length}` } });
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
});

/** The page's head as the build writes it, run in this window. */
function runPageHead() {
  const setup = earlyCallSetup('/');
  if (!setup) throw new Error('An API on the page\'s origin has early calls');
  // The very text the build writes into the page, run as the page runs it.
  new Function(pageHeadScript(setup))();
}

async function loadHttp(): Promise<typeof HttpModule> {
  vi.resetModules();
  return import('../../src/services/http.ts');
}

const CURRENT_USER = `${window.location.origin}/api/v1/users/current`;

describe('the early session call', () => {
  it('is made by the page head with the session headers, and is the answer of the app\'s first, identical call', async () => {
    localStorage.setItem('token', 'session-token');
    localStorage.setItem('mfaToken', 'mfa-token-value');
    runPageHead();
    expect(sent).toHaveLength(1);
    expect(sent[0]?.url).toBe(CURRENT_USER);
    expect(sent[0]?.headers.get('authorization')).toBe('session-token');
    expect(sent[0]?.headers.get('mfa-token')).toBe('mfa-token-value');

    const { api } = await loadHttp();
    expect(await (await api()).get('users/current').json()).toEqual({ user: { email: 'answer 1' } });
    expect(sent).toHaveLength(1);
    // Only once: a later call is the app's own.
    expect(await (await api()).get('users/current').json()).toEqual({ user: { email: 'answer 2' } });
    expect(sent).toHaveLength(2);
  });

  it("also loads the browser's internationalisation data once the page has painted, while the app's code downloads", async () => {
    const supportedLocalesOf = vi.spyOn(Intl.DateTimeFormat, 'supportedLocalesOf');
    runPageHead();
    expect(supportedLocalesOf).not.toHaveBeenCalled();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(supportedLocalesOf).toHaveBeenCalledWith([navigator.language]);
    supportedLocalesOf.mockRestore();
  });

  it('is not made without a session', () => {
    runPageHead();
    expect(sent).toEqual([]);
  });

  it('is dropped when the app calls with other headers, and when its first call is another one', async () => {
    localStorage.setItem('token', 'session-token');
    runPageHead();
    // Between page load and the app's call, an MFA step was taken (another tab): the headers differ.
    localStorage.setItem('mfaToken', 'mfa-token-value');
    const { api } = await loadHttp();
    expect(await (await api()).get('users/current').json()).toEqual({ user: { email: 'answer 2' } });
    expect(sent.at(-1)?.headers.get('mfa-token')).toBe('mfa-token-value');

    localStorage.removeItem('mfaToken');
    runPageHead();
    const http = await loadHttp();
    await (await http.api()).get('requests/open').json();
    await (await http.api()).get('users/current').json();
    expect(sent.map((request) => new URL(request.url).pathname)).toEqual([
      '/api/v1/users/current',
      '/api/v1/users/current',
      '/api/v1/users/current',
      '/api/v1/requests/open',
      '/api/v1/users/current',
    ]);
  });

  it('fails the app\'s call as its own when the network failed it', async () => {
    localStorage.setItem('token', 'session-token');
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    runPageHead();
    const { api } = await loadHttp();
    await expect((await api()).get('users/current').json()).rejects.toMatchObject({
      name: 'NetworkError',
      cause: expect.objectContaining({ message: 'Failed to fetch' }),
    });
    expect(vi.mocked(fetch)).toHaveBeenCalledTimes(1);
  });

  it('is only for an API on the page\'s own origin', () => {
    expect(earlyCallSetup('https://api.example.test/')).toBeNull();
    expect(earlyCallSetup('//api.example.test/')).toBeNull();
    expect(earlyCallSetup('/concierge')?.apiBasePath).toBe('/concierge');
  });
});
