/**
 * The admin API faked at the fetch level, for the admin model tests: the app's own client and services run as they
 * are. Each admin call waits as a pending call under the invoke id of the actor that makes it, and the path settles
 * it: with the actor's output, sent back in the route's answer shape, or with a ConsoleCallError, sent back as the
 * server's error answer (status, message, fields); an error without a status is a network failure.
 */
import { expect, vi } from 'vitest';
import { ConsoleCallError } from '../../src/services/console.ts';
import { pendingCalls } from './modelPaths.support.ts';

export interface FakeRoute {
  method: string;
  /** Matched against the path after /api/v1/. */
  path: RegExp;
  /** The invoke id the call is pending under. */
  id: string;
  /** The answer's body for the actor's output. */
  answer: (output: never) => unknown;
}

export interface SentCall {
  method: string;
  path: string;
  body: unknown;
  /** The query string's parameters, when it has any. */
  query?: Record<string, string>;
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/** A presign for a file upload, answered at once, so that an upload goes straight to its (fake) transfer. */
export const PRESIGNED_LOGO = { key: 'uploads/new-logo', presigned_url: 'https://files.example/new-logo' };

/**
 * The pending call a request waits on. An actor that sends several requests at once (a form with the lists it
 * chooses from) waits on one call: each request's route answers with its own part of the actor's output.
 */
const callsInFlight = new Map<string, Promise<unknown>>();
function pendingCallOf(id: string, body: unknown): Promise<unknown> {
  const waiting = callsInFlight.get(id);
  if (waiting) return waiting;
  const call = pendingCalls.start(id, body);
  callsInFlight.set(id, call);
  const forget = () => callsInFlight.delete(id);
  call.then(forget, forget);
  return call;
}

/** Installs the fake; returns every call sent, oldest first. */
export function fakeAdminApi(routes: readonly FakeRoute[]): SentCall[] {
  const sent: SentCall[] = [];
  // A call the last test left waiting is never settled.
  callsInFlight.clear();
  vi.stubGlobal('fetch', async (request: Request) => {
    const path = new URL(request.url).pathname.replace(/^.*\/api\/v1\//, '');
    const body: unknown = request.method === 'GET' ? undefined : await request.text().then((text) => (text ? JSON.parse(text) : undefined));
    const query = Object.fromEntries(new URL(request.url).searchParams);
    sent.push({ method: request.method, path, body, ...(Object.keys(query).length > 0 ? { query } : {}) });
    if (request.method === 'POST' && path === 'uploads/presigned_url') return json(200, PRESIGNED_LOGO);
    const route = routes.find((candidate) => candidate.method === request.method && candidate.path.test(path));
    if (!route) throw new Error(`No fake for ${request.method} ${path}`);
    try {
      return json(200, route.answer((await pendingCallOf(route.id, body)) as never));
    } catch (error) {
      if (error instanceof ConsoleCallError && error.status !== null) {
        return json(error.status, { error: error.message, ...(Object.keys(error.fields).length > 0 ? { fields: error.fields } : {}) });
      }
      throw new TypeError('Failed to fetch', { cause: error });
    }
  });
  return sent;
}

/** Each field shows the message the form holds for it, tied to it as its description, and no other is marked. */
export function expectFieldMessages(fields: Record<string, HTMLElement>, fieldErrors: Record<string, string>): void {
  for (const [name, input] of Object.entries(fields)) {
    const message = fieldErrors[name];
    if (message) {
      expect(input).toHaveAttribute('aria-invalid', 'true');
      expect(input).toHaveAccessibleDescription(expect.stringContaining(message));
    } else {
      expect(input).not.toHaveAttribute('aria-invalid');
    }
  }
}
