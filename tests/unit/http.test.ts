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
      // A copy: ky releases the body of the request it sent once the call is over.
      sent.push(request.clone());
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

/** The app's client, from a fresh module. */
async function freshClient() {
  const http = await loadHttp();
  return { ...http, client: await http.api() };
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

describe('the API client (ky)', () => {
  it('resolves paths against {apiBaseUrl}/api/v1/ and asks for JSON', async () => {
    vi.stubEnv('VITE_API_BASE_URL', 'https://api.example.test/concierge/');
    const { client } = await freshClient();

    await client.get('users/current');
    await client.get('/requests/open');

    expect(sent.map((request) => request.url)).toEqual([
      'https://api.example.test/concierge/api/v1/users/current',
      'https://api.example.test/concierge/api/v1/requests/open',
    ]);
    expect(sent[0]?.method).toBe('GET');
    expect(sent[0]?.headers.get('accept')).toBe('application/json');
  });

  it('is created on first use, so that a configuration error surfaces there', async () => {
    vi.stubEnv('VITE_API_BASE_URL', 'http://');
    const { api } = await loadHttp();
    expect(() => api()).toThrow('Missing environment variables');
  });

  it('loads ky again on the next call when it could not be loaded', async () => {
    vi.doMock('ky', () => {
      throw new Error('Failed to fetch dynamically imported module');
    });
    const { api } = await loadHttp();
    await expect(api()).rejects.toThrow();
    vi.doUnmock('ky');
    const client = await api();
    await client.get('users/current');
    expect(new URL(onlyRequest().url).pathname).toBe('/api/v1/users/current');
  });

  it('keeps a query written into the path as it is, commas included', async () => {
    const { client } = await freshClient();
    await client.get('offerings?types=benefit,product&limit=6');
    expect(new URL(onlyRequest().url).search).toBe('?types=benefit,product&limit=6');
  });

  it('adds search params, leaving out undefined ones', async () => {
    const { client } = await freshClient();
    await client.get('console/requests', { searchParams: { queue: 'in_queue', q: 'ann lee', limit: 50, offset: undefined } });
    const url = new URL(onlyRequest().url);
    expect(url.pathname).toBe('/api/v1/console/requests');
    expect([...url.searchParams]).toEqual([
      ['queue', 'in_queue'],
      ['q', 'ann lee'],
      ['limit', '50'],
    ]);
  });

  it('sends a JSON body with its content type, and no body without one', async () => {
    const { client } = await freshClient();
    await client.post('users/sign_in', { json: { user: { email: 'ann@example.test', password: 'secret1' } } });
    await client.delete('users/sign_out');

    const [signIn, signOut] = sent as [Request, Request];
    expect(signIn.method).toBe('POST');
    expect(signIn.headers.get('content-type')).toBe('application/json');
    expect(await signIn.json()).toEqual({ user: { email: 'ann@example.test', password: 'secret1' } });
    expect(signOut.method).toBe('DELETE');
    expect(signOut.headers.has('content-type')).toBe(false);
    expect(signOut.body).toBeNull();
  });

  it('carries the stored session token and MFA token as they are at each call, and nothing without a session', async () => {
    const { client } = await freshClient();
    await client.get('users/current');
    localStorage.setItem('token', 'session-token');
    localStorage.setItem('mfaToken', 'mfa-token-value');
    await client.put('users/password', { json: {} });

    const [signedOut, signedIn] = sent as [Request, Request];
    expect(signedOut.headers.has('authorization')).toBe(false);
    expect(signedOut.headers.has('mfa-token')).toBe(false);
    expect(signedIn.method).toBe('PUT');
    expect(signedIn.headers.get('authorization')).toBe('session-token');
    expect(signedIn.headers.get('mfa-token')).toBe('mfa-token-value');
  });

  it("passes a call's own headers and fetch options on; the stored session wins over a given token", async () => {
    const { client } = await freshClient();
    await client.post('analytics/events', { json: {}, headers: { authorization: 'earlier-token' }, keepalive: true });
    localStorage.setItem('token', 'current-token');
    await client.post('analytics/events', { json: {}, headers: { authorization: 'earlier-token' } });

    const [withoutSession, withSession] = sent as [Request, Request];
    expect(withoutSession.headers.get('authorization')).toBe('earlier-token');
    expect(withoutSession.keepalive).toBe(true);
    expect(withSession.headers.get('authorization')).toBe('current-token');
  });

  it('passes the abort signal on', async () => {
    const { client } = await freshClient();
    const controller = new AbortController();
    await client.get('users/current', { signal: controller.signal });
    controller.abort();
    expect(onlyRequest().signal.aborted).toBe(true);
  });

  it('resolves with the Response, whose body .json() parses, or checks with a contract schema', async () => {
    const { client } = await freshClient();
    const { eventTicketResponse } = await import('../../src/contract/events.ts');
    const ticket = { ticket: 't1', expires_at: '2026-01-01T00:01:00Z' };
    answer = () => new Response(JSON.stringify(ticket), { status: 201, headers: { authorization: 'new-token' } });
    const response = await client.post('events/ticket');
    expect(response.status).toBe(201);
    expect(response.headers.get('authorization')).toBe('new-token');
    expect(await client.post('events/ticket').json()).toEqual(ticket);
    expect(await client.post('events/ticket').json(eventTicketResponse)).toEqual(ticket);
    answer = () => Response.json({ ticket: 42 });
    expect(await rejection(client.post('events/ticket').json(eventTicketResponse))).toMatchObject({ name: 'SchemaValidationError' });
  });

  it('calls once, never retrying, and never times out on its own', async () => {
    const { client } = await freshClient();
    vi.useFakeTimers();
    try {
      let answerNow: (response: Response) => void = () => {};
      vi.mocked(fetch).mockImplementationOnce(
        (request) =>
          new Promise((resolve) => {
            sent.push(request as Request);
            answerNow = resolve;
          }),
      );
      const call = client.get('requests/open');
      await vi.advanceTimersByTimeAsync(10 * 60_000);
      answerNow(Response.json({ error: 'Service unavailable' }, { status: 503 }));
      expect(await rejection(call)).toMatchObject({ name: 'HTTPError' });
      expect(sent).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('one error policy', () => {
  it("an answer outside 2xx is ky's HTTPError, carrying the response, the request and the parsed JSON body", async () => {
    const { client, isHTTPError, serverMessage, statusOf } = await freshClient();
    const { HTTPError } = await import('ky');
    answer = () => Response.json({ error: 'Request not found' }, { status: 404, statusText: 'Not Found' });

    const error = await rejection(client.get('requests/9'));

    expect(error).toBeInstanceOf(HTTPError);
    expect(isHTTPError(error)).toBe(true);
    const httpError = error as InstanceType<typeof HTTPError>;
    expect(httpError.message).toBe(`Request failed with status code 404 Not Found: GET ${onlyRequest().url}`);
    expect(httpError.response.status).toBe(404);
    expect(httpError.request.url).toBe(onlyRequest().url);
    expect(httpError.data).toEqual({ error: 'Request not found' });
    expect(serverMessage(error)).toBe('Request not found');
    expect(statusOf(error)).toBe(404);
  });

  it('holds the text of a body that is not JSON, and nothing for an empty or broken JSON body', async () => {
    const { client, isHTTPError, serverMessage } = await freshClient();
    const dataOf = async (response: Response) => {
      answer = () => response;
      const error = await rejection(client.get('requests/open'));
      if (!isHTTPError(error)) return expect.fail('an HTTPError');
      return error.data;
    };

    expect(await dataOf(new Response('upstream down', { status: 502, headers: { 'content-type': 'text/plain' } }))).toBe(
      'upstream down',
    );
    expect(await dataOf(new Response('{"error":"Gone"}', { status: 410, headers: { 'content-type': 'application/problem+json' } })))
      .toEqual({ error: 'Gone' });
    expect(await dataOf(new Response(null, { status: 500 }))).toBeUndefined();
    expect(await dataOf(new Response('{broken', { status: 500, headers: { 'content-type': 'application/json' } }))).toBeUndefined();
    answer = () => new Response(null, { status: 500 });
    expect(serverMessage(await rejection(client.get('requests/open')), 'Fallback')).toBe('Fallback');
  });

  it("reads the server's error, else its message (SPEC §8 wrapped errors)", async () => {
    const { client, serverMessage } = await freshClient();
    const messageOf = async (body: unknown) => {
      answer = () => Response.json(body, { status: 422 });
      return serverMessage(await rejection(client.get('requests/open')), 'Fallback');
    };
    expect(await messageOf({ error: 'Name is required', message: 'ignored' })).toBe('Name is required');
    expect(await messageOf({ success: false, message: 'Link expired' })).toBe('Link expired');
    expect(await messageOf({ message: '  ' })).toBe('Fallback');
    expect(await messageOf({ message: 42 })).toBe('Fallback');
    expect(await messageOf(['message'])).toBe('Fallback');
  });

  it("no answer at all is ky's NetworkError, with no status and no server message", async () => {
    const { client, isHTTPError, isNetworkError, serverMessage, statusOf } = await freshClient();
    const offline = new TypeError('Failed to fetch');
    vi.mocked(fetch).mockRejectedValueOnce(offline);
    const error = await rejection(client.get('requests/open'));
    expect(isNetworkError(error)).toBe(true);
    expect(error).toMatchObject({ cause: offline });
    expect(isHTTPError(error)).toBe(false);
    expect(statusOf(error)).toBeNull();
    expect(serverMessage(error)).toBe('An unexpected error occurred');
  });

  it('an aborted call is an AbortError', async () => {
    const { client, isAbortError, statusOf } = await freshClient();
    vi.mocked(fetch).mockImplementationOnce(async (request) => {
      (request as Request).signal.throwIfAborted();
      return answer();
    });
    const controller = new AbortController();
    controller.abort();
    const error = await rejection(client.get('requests/open', { signal: controller.signal }));
    expect(isAbortError(error)).toBe(true);
    expect(statusOf(error)).toBeNull();
  });

  it("a 2xx answer that says success: false is an UnsuccessfulAnswer, whose message is the server's", async () => {
    const { UnsuccessfulAnswer, requireSuccess, serverMessage, statusOf } = await loadHttp();
    expect(requireSuccess({ success: true, ticket: 't1' })).toEqual({ success: true, ticket: 't1' });
    for (const answered of [{ success: false }, { ticket: 't1' }, null]) {
      expect(() => requireSuccess(answered)).toThrow(UnsuccessfulAnswer);
    }
    const refused = new UnsuccessfulAnswer({ success: false, message: 'Link expired' });
    expect(serverMessage(refused, 'Fallback')).toBe('Link expired');
    expect(serverMessage(new UnsuccessfulAnswer({ success: false }), 'Fallback')).toBe('Fallback');
    expect(statusOf(refused)).toBeNull();
  });
});

describe('401 reporting (SPEC §4 session loss and MFA)', () => {
  async function failuresAfter401(path: string, body: unknown): Promise<HttpModule.AuthFailure[]> {
    const { client, onAuthFailure } = await freshClient();
    const failures: HttpModule.AuthFailure[] = [];
    onAuthFailure((failure) => failures.push(failure));
    answer = () => Response.json(body, { status: 401 });
    await rejection(client.get(path));
    return failures;
  }

  it('reports the MFA-required 401 as mfaRequired', async () => {
    expect(await failuresAfter401('requests/open', { error: 'MFA authentication required' })).toEqual(['mfaRequired']);
  });

  it("reports the employer's turning off (SCIM) as accessTurnedOff, so that the app says why it signs out", async () => {
    expect(await failuresAfter401('requests/open', { error: 'Your employer has turned off your access to Life Concierge.' })).toEqual([
      'accessTurnedOff',
    ]);
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

  it('reports before the caller hears of the failure, still hands it the 401 body, and stops for an unsubscribed listener', async () => {
    const { client, onAuthFailure, serverMessage } = await freshClient();
    const failures: HttpModule.AuthFailure[] = [];
    const unsubscribe = onAuthFailure((failure) => failures.push(failure));
    answer = () => Response.json({ error: 'MFA authentication required' }, { status: 401 });

    const error = await rejection(client.get('requests/open'));
    expect(failures).toEqual(['mfaRequired']);
    expect(serverMessage(error)).toBe('MFA authentication required');
    unsubscribe();
    await rejection(client.get('requests/open'));

    expect(failures).toEqual(['mfaRequired']);
  });

  it('does not report a 403 or a 500', async () => {
    const { client, onAuthFailure } = await freshClient();
    const failures: HttpModule.AuthFailure[] = [];
    onAuthFailure((failure) => failures.push(failure));
    for (const status of [403, 500]) {
      answer = () => Response.json({ error: 'MFA authentication required' }, { status });
      await rejection(client.get('requests/open'));
    }
    expect(failures).toEqual([]);
  });
});
