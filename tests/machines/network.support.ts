/**
 * The API faked at the network level with msw, for the model tests: the views' machines call the app's real services
 * through its real HTTP client (src/services/http.ts), and msw answers the requests they send.
 *
 * Each faked route (a method and a path under /api/v1/) waits as a pending call under the invoke id of the actor that
 * sends it, and the path settles that call (see PendingCalls): with the actor's output, sent back in the route's
 * answer shape, or with an error, sent back as the server's error answer (its status and body, see errorAnswer) or,
 * for an error without a status, as a network failure.
 *
 * Tests that answer each request by hand (which one, when, with what answer) hold them instead (holdRequests).
 *
 * Importing this module starts the msw server for the test file, resets its routes after each test and stops it after
 * the file. A request that no route fakes fails the test's call (msw's "error" strategy for unhandled requests).
 *
 * Error reports (src/services/errorReporting.ts) reach the fake server too, in the files that turn them on
 * (reportErrorsToTheServer): the model tests check what the app reports through the route that receives them.
 */
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { type AnalyticsBatch, type ClientErrorReport, clientErrorReport } from '../../src/contract/analytics.ts';
import { AccountError } from '../../src/services/account.ts';
import { flushAnalytics } from '../../src/services/analytics.ts';
import { isHTTPError } from '../../src/services/http.ts';
import { pendingCalls } from './modelPaths.support.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface FakeRoute {
  method: Method;
  /** Matched against the path after /api/v1/ (without the query string). */
  path: RegExp;
  /**
   * The id the call is pending under: the invoke id of the actor that sends it (or a name of the request, where a test
   * settles an actor's requests one by one). Without one, the route answers at once (with `answer(undefined)`).
   */
  id?: string;
  /**
   * The answer's body for the actor's output (and the request it answers, when several wait on one call), or the
   * whole answer when it is a Response (for its headers).
   */
  answer: (output: never, call: SentCall) => unknown;
}

/** A request as the server received it. */
export interface SentCall {
  method: string;
  /** The path after /api/v1/. */
  path: string;
  /** The parsed JSON body; undefined when there is none. */
  body: unknown;
  /** The query string's parameters, when it has any. */
  query?: Record<string, string>;
}

/** What the fake received: the calls (oldest first) and, in the same order, the requests themselves (headers). */
export interface FakeNetwork {
  sent: SentCall[];
  requests: Request[];
}

const API_PREFIX = /^.*?\/api\/v1\//;

export const server = setupServer();

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/**
 * The pending call a request waits on. An actor that sends several requests at once (a form with the lists it
 * chooses from, a screen that loads three lists) waits on one call: each request's route answers with its own part
 * of the actor's output. The call's input is the first of those requests.
 */
const callsInFlight = new Map<string, Promise<unknown>>();
function pendingCallOf(id: string, call: SentCall): Promise<unknown> {
  const waiting = callsInFlight.get(id);
  if (waiting) return waiting;
  const started = pendingCalls.start(id, call);
  callsInFlight.set(id, started);
  const forget = () => callsInFlight.delete(id);
  started.then(forget, forget);
  return started;
}

async function sentCallOf(request: Request): Promise<SentCall> {
  const url = new URL(request.url);
  const text = request.method === 'GET' ? '' : await request.clone().text();
  const query = Object.fromEntries(url.searchParams);
  return {
    method: request.method,
    path: url.pathname.replace(API_PREFIX, ''),
    body: text ? (JSON.parse(text) as unknown) : undefined,
    ...(Object.keys(query).length > 0 ? { query } : {}),
  };
}

const isApiCall = (request: Request, route: FakeRoute) => {
  const { pathname } = new URL(request.url);
  return API_PREFIX.test(pathname) && route.path.test(pathname.replace(API_PREFIX, ''));
};

/**
 * The server's answer to a failed call: ky's HTTPError (httpFailures.support.ts) is its answer again (status and
 * body); an AccountError is its status with the body the account service reads back into the same error; an error
 * without a status (ky's NetworkError, a plain Error, an AccountError whose status is null) is a network failure.
 */
export function errorAnswer(error: unknown): Response {
  if (isHTTPError(error)) {
    const { response, data } = error;
    const init = { status: response.status, statusText: response.statusText };
    if (data === undefined) return new HttpResponse(null, init);
    return typeof data === 'string' ? new HttpResponse(data, init) : HttpResponse.json(data as never, init);
  }
  if (!(error instanceof AccountError) || error.status === null) return HttpResponse.error();
  // The server's own message (serverError), not the form's fallback.
  return HttpResponse.json(error.serverError ? { error: error.serverError } : {}, { status: error.status });
}

function answerOf(body: unknown): Response {
  return body instanceof Response ? body : HttpResponse.json(body as never);
}

/** Installs the routes for this test; returns what the fake receives. */
export function fakeNetwork(routes: readonly FakeRoute[]): FakeNetwork {
  const network: FakeNetwork = { sent: [], requests: [] };
  // A call the last test left waiting is never settled.
  callsInFlight.clear();
  server.resetHandlers(
    ...routes.map((route) =>
      http[route.method.toLowerCase() as Lowercase<Method>](
        ({ request }) => isApiCall(request, route),
        async ({ request }) => {
          const call = await sentCallOf(request);
          network.sent.push(call);
          network.requests.push(request);
          if (route.id === undefined) return answerOf(route.answer(undefined as never, call));
          let output: unknown;
          try {
            output = await pendingCallOf(route.id, call);
          } catch (error) {
            return errorAnswer(error);
          }
          return answerOf(route.answer(output as never, call));
        },
      ),
    ),
  );
  return network;
}

/** The analytics batches (POST analytics/events), taken at once: a route for the flows that track events. */
export const ANALYTICS_ROUTE: FakeRoute = {
  method: 'POST',
  path: /^analytics\/events$/,
  answer: () => new HttpResponse(null, { status: 204 }),
};

/**
 * What the app has tracked, as the server received it: the analytics module is flushed first (it sends its queue
 * after a delay), then the events of every batch sent, oldest first, by name and properties.
 */
export async function trackedEvents(sent: readonly SentCall[]): Promise<{ name: string; properties: unknown }[]> {
  await flushAnalytics();
  return sent
    .filter(({ method, path }) => method === 'POST' && path === 'analytics/events')
    .flatMap(({ body }) => (body as AnalyticsBatch).events.map(({ name, properties }) => ({ name, properties })));
}

/**
 * Error reports on, for every test of the file that calls this: as in a build with VITE_REPORT_ERRORS "true",
 * reportError posts each report to POST analytics/errors (ERROR_REPORTS_ROUTE) instead of logging it.
 */
export function reportErrorsToTheServer(): void {
  beforeEach(() => {
    vi.stubEnv('VITE_REPORT_ERRORS', 'true');
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });
}

/** The error reports (POST analytics/errors), accepted at once as the server accepts them. */
export const ERROR_REPORTS_ROUTE: FakeRoute = {
  method: 'POST',
  path: /^analytics\/errors$/,
  answer: () => HttpResponse.json({ accepted: 1 }, { status: 202 }),
};

/**
 * What the app has reported, as the server received it, oldest first; each report read as the server reads it (the
 * contract's schema). Reports are sent in the background: wait for the ones expected (waitFor) before checking them.
 */
export function reportedErrors(sent: readonly SentCall[]): ClientErrorReport[] {
  return sent
    .filter(({ method, path }) => method === 'POST' && path === 'analytics/errors')
    .map(({ body }) => clientErrorReport.parse(body));
}

/** An API request the fake server holds until the test answers it. */
export interface HeldRequest {
  request: Request;
  answer: (response: Response) => void;
}

/**
 * For tests that answer each request by hand (which request, when, with what answer), rather than through the
 * pending call of an actor: every API request is held, oldest first, in the list returned, until the test answers it.
 */
export function holdRequests(): HeldRequest[] {
  const held: HeldRequest[] = [];
  callsInFlight.clear();
  server.resetHandlers(
    http.all(
      ({ request }) => API_PREFIX.test(new URL(request.url).pathname),
      ({ request }) => new Promise<Response>((answer) => held.push({ request, answer })),
    ),
  );
  return held;
}
