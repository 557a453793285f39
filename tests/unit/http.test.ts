import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as HttpModule from '../../src/services/http.ts';

/** What fetch was given, and what the fake API answers next. */
let sent: Request[];
let answer: () => Response;

beforeEach(() => {
  sent = [];
  answer = () => Response.json({ success: true });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (request: Request) => {
      sent.push(request);
      return answer();
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
});

/** A fresh module: the client is created on first use from the configuration of that moment. */
async function loadHttp(): Promise<typeof HttpModule> {
  vi.resetModules();
  return import('../../src/services/http.ts');
}

const onlyRequest = (): Request => {
  expect(sent).toHaveLength(1);
  return sent[0] as Request;
};

/** Resolves with the error a call was rejected with (fails the test when the call succeeds). */
async function rejection(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    () => expect.fail('the call should have failed'),
    (error: unknown) => error,
  );
}

describe('the API client', () => {
  it('resolves paths against {apiBaseUrl}/api/v1/ and asks for JSON', async () => {
    vi.stubEnv('VITE_API_BASE_URL', 'https://api.example.test/concierge/');
    const { api } = await loadHttp();

    await api().get('users/current');
    await api().get('/requests/open');

    expect(sent.map((request) => request.url)).toEqual([
      'https://api.example.test/concierge/api/v1/users/current',
      'https://api.example.test/concierge/api/v1/requests/open',
    ]);
    expect(sent[0]?.method).toBe('GET');
    expect(sent[0]?.headers.get('accept')).toBe('application/json');
  });

  it('keeps a query written into the path as it is, commas included', async () => {
    const { api } = await loadHttp();
    await api().get('offerings?types=benefit,product&limit=6');
    expect(new URL(onlyRequest().url).search).toBe('?types=benefit,product&limit=6');
  });

  it('adds search params, leaving out undefined ones', async () => {
    const { api } = await loadHttp();
    await api().get('console/requests', { searchParams: { queue: 'in_queue', q: 'ann lee', limit: 50, offset: undefined } });
    const url = new URL(onlyRequest().url);
    expect(url.pathname).toBe('/api/v1/console/requests');
    expect([...url.searchParams]).toEqual([
      ['queue', 'in_queue'],
      ['q', 'ann lee'],
      ['limit', '50'],
    ]);
  });

  it('sends a JSON body with its content type, and no body without one', async () => {
    const { api } = await loadHttp();
    await api().post('users/sign_in', { json: { user: { email: 'ann@example.test', password: 'secret1' } } });
    await api().delete('users/sign_out');

    const [signIn, signOut] = sent as [Request, Request];
    expect(signIn.method).toBe('POST');
    expect(signIn.headers.get('content-type')).toBe('application/json');
    expect(await signIn.json()).toEqual({ user: { email: 'ann@example.test', password: 'secret1' } });
    expect(signOut.method).toBe('DELETE');
    expect(signOut.headers.has('content-type')).toBe(false);
    expect(signOut.body).toBeNull();
  });

  it('sends the stored session token and MFA token, and nothing when there is no session', async () => {
    const { api } = await loadHttp();
    await api().get('users/current');
    localStorage.setItem('token', 'session-token');
    localStorage.setItem('mfaToken', 'mfa-token-value');
    await api().put('users/password', { json: {} });

    const [signedOut, signedIn] = sent as [Request, Request];
    expect(signedOut.headers.has('authorization')).toBe(false);
    expect(signedOut.headers.has('mfa-token')).toBe(false);
    expect(signedIn.method).toBe('PUT');
    expect(signedIn.headers.get('authorization')).toBe('session-token');
    expect(signedIn.headers.get('mfa-token')).toBe('mfa-token-value');
  });

  it("passes a call's own headers and fetch options on; the stored session wins over a given token", async () => {
    const { api } = await loadHttp();
    await api().post('analytics/events', { json: {}, headers: { authorization: 'earlier-token' }, keepalive: true });
    localStorage.setItem('token', 'current-token');
    await api().post('analytics/events', { json: {}, headers: { authorization: 'earlier-token' } });

    const [withoutSession, withSession] = sent as [Request, Request];
    expect(withoutSession.headers.get('authorization')).toBe('earlier-token');
    expect(withoutSession.keepalive).toBe(true);
    expect(withSession.headers.get('authorization')).toBe('current-token');
  });

  it('passes the abort signal on', async () => {
    const { api } = await loadHttp();
    const controller = new AbortController();
    await api().get('users/current', { signal: controller.signal });
    controller.abort();
    expect(onlyRequest().signal.aborted).toBe(true);
  });

  it('resolves with the Response, whose body .json() parses', async () => {
    const { api } = await loadHttp();
    answer = () => new Response(JSON.stringify({ ticket: 't1' }), { status: 201, headers: { authorization: 'new-token' } });
    const response = await api().post('events/ticket');
    expect(response.status).toBe(201);
    expect(response.headers.get('authorization')).toBe('new-token');
    expect(await api().post('events/ticket').json()).toEqual({ ticket: 't1' });
  });

  it('calls once, never retrying, and never times out on its own', async () => {
    vi.useFakeTimers();
    try {
      const { api } = await loadHttp();
      let answerNow: (response: Response) => void = () => {};
      vi.mocked(fetch).mockImplementationOnce(
        (request) =>
          new Promise((resolve) => {
            sent.push(request as Request);
            answerNow = resolve;
          }),
      );
      const call = api().get('requests/open');
      await vi.advanceTimersByTimeAsync(10 * 60_000);
      answerNow(Response.json({ error: 'Service unavailable' }, { status: 503 }));
      expect(await rejection(call)).toMatchObject({ name: 'HTTPError' });
      expect(sent).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('HTTPError', () => {
  it('carries the response, the request and the parsed JSON body', async () => {
    const { api, HTTPError, serverMessage, statusOf } = await loadHttp();
    answer = () => Response.json({ error: 'Request not found' }, { status: 404, statusText: 'Not Found' });

    const error = await rejection(api().get('requests/9'));

    expect(error).toBeInstanceOf(HTTPError);
    const httpError = error as InstanceType<typeof HTTPError>;
    expect(httpError.name).toBe('HTTPError');
    expect(httpError.message).toBe(`Request failed with status code 404 Not Found: GET ${onlyRequest().url}`);
    expect(httpError.response.status).toBe(404);
    expect(httpError.request.url).toBe(onlyRequest().url);
    expect(httpError.data).toEqual({ error: 'Request not found' });
    expect(serverMessage(error)).toBe('Request not found');
    expect(statusOf(error)).toBe(404);
  });

  it('holds the text of a body that is not JSON, and nothing for an empty or broken JSON body', async () => {
    const { api, HTTPError, serverMessage } = await loadHttp();
    const dataOf = async (response: Response) => {
      answer = () => response;
      const error = await rejection(api().get('requests/open'));
      expect(error).toBeInstanceOf(HTTPError);
      return (error as InstanceType<typeof HTTPError>).data;
    };

    expect(await dataOf(new Response('upstream down', { status: 502, headers: { 'content-type': 'text/plain' } }))).toBe(
      'upstream down',
    );
    expect(await dataOf(new Response('{"error":"Gone"}', { status: 410, headers: { 'content-type': 'application/problem+json' } })))
      .toEqual({ error: 'Gone' });
    expect(await dataOf(new Response(null, { status: 500 }))).toBeUndefined();
    expect(await dataOf(new Response('{broken', { status: 500, headers: { 'content-type': 'application/json' } }))).toBeUndefined();
    answer = () => new Response(null, { status: 500 });
    expect(serverMessage(await rejection(api().get('requests/open')), 'Fallback')).toBe('Fallback');
  });

  it("reads the server's error, else its message (SPEC §8 wrapped errors)", async () => {
    const { api, serverMessage } = await loadHttp();
    const messageOf = async (body: unknown) => {
      answer = () => Response.json(body, { status: 422 });
      return serverMessage(await rejection(api().get('requests/open')), 'Fallback');
    };
    expect(await messageOf({ error: 'Name is required', message: 'ignored' })).toBe('Name is required');
    expect(await messageOf({ success: false, message: 'Link expired' })).toBe('Link expired');
    expect(await messageOf({ message: '  ' })).toBe('Fallback');
    expect(await messageOf({ message: 42 })).toBe('Fallback');
    expect(await messageOf(['message'])).toBe('Fallback');
  });

  it('lets other failures through untouched (a network error is not an HTTPError)', async () => {
    const { api, HTTPError, statusOf } = await loadHttp();
    const networkError = new TypeError('Failed to fetch');
    vi.mocked(fetch).mockRejectedValueOnce(networkError);
    const error = await rejection(api().get('requests/open'));
    expect(error).toBe(networkError);
    expect(error).not.toBeInstanceOf(HTTPError);
    expect(statusOf(error)).toBeNull();
  });
});

describe('401 reporting (SPEC §4 session loss and MFA)', () => {
  async function failuresAfter401(path: string, body: unknown): Promise<HttpModule.AuthFailure[]> {
    const { api, onAuthFailure } = await loadHttp();
    const failures: HttpModule.AuthFailure[] = [];
    onAuthFailure((failure) => failures.push(failure));
    answer = () => Response.json(body, { status: 401 });
    await rejection(api().get(path));
    return failures;
  }

  it('reports the MFA-required 401 as mfaRequired', async () => {
    expect(await failuresAfter401('requests/open', { error: 'MFA authentication required' })).toEqual(['mfaRequired']);
  });

  it('reports any other 401 as sessionLost, whatever its body', async () => {
    expect(await failuresAfter401('requests/open', { error: 'Your session has expired. Please sign in again.' })).toEqual([
      'sessionLost',
    ]);
    expect(await failuresAfter401('users/current', 'not an error body')).toEqual(['sessionLost']);
  });

  it('ignores the 401s of sign-in, sign-up, code verification and password calls (wrong credentials, not a lost session)', async () => {
    for (const path of ['users/sign_in', 'users/sign_up', 'mfa/verify', 'users/password']) {
      expect(await failuresAfter401(path, { error: 'Invalid email or password.' })).toEqual([]);
    }
  });

  it('still hands the 401 body to the caller, and stops reporting to an unsubscribed listener', async () => {
    const { api, onAuthFailure, serverMessage } = await loadHttp();
    const failures: HttpModule.AuthFailure[] = [];
    const unsubscribe = onAuthFailure((failure) => failures.push(failure));
    answer = () => Response.json({ error: 'MFA authentication required' }, { status: 401 });

    expect(serverMessage(await rejection(api().get('requests/open')))).toBe('MFA authentication required');
    unsubscribe();
    await rejection(api().get('requests/open'));

    expect(failures).toEqual(['mfaRequired']);
  });

  it('does not report a 403 or a 500', async () => {
    const { api, onAuthFailure } = await loadHttp();
    const failures: HttpModule.AuthFailure[] = [];
    onAuthFailure((failure) => failures.push(failure));
    for (const status of [403, 500]) {
      answer = () => Response.json({ error: 'MFA authentication required' }, { status });
      await rejection(api().get('requests/open'));
    }
    expect(failures).toEqual([]);
  });
});
