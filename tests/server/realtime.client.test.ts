import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type App, buildApp } from '../../server/app.ts';
import type { LiveEvent } from '../../src/contract/events.ts';
import { type LiveUpdatesStatus, reconnectDelayMs, subscribeToLiveUpdates } from '../../src/services/liveUpdates.ts';
import { type TestContext, createTestContext } from './harness.ts';
import { type Person, createPerson, createRequest } from './requests.helpers.ts';

/**
 * src/services/liveUpdates.ts against a real server: real tickets through the app's HTTP client, a real event
 * stream, a real restart. Node has no EventSource, so a small one is built on fetch below; the browser's behaves
 * the same for what the service relies on (open, error, named events, close).
 */

class FetchEventSource {
  onopen: (() => void) | null = null;
  onerror: (() => void) | null = null;
  private readonly listeners = new Map<string, ((event: MessageEvent<string>) => void)[]>();
  private readonly controller = new AbortController();
  private failed = false;

  constructor(url: string) {
    void this.run(url);
  }

  addEventListener(type: string, listener: (event: MessageEvent<string>) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }

  close() {
    this.controller.abort();
  }

  private fail() {
    if (this.failed || this.controller.signal.aborted) return;
    this.failed = true;
    this.onerror?.();
  }

  private async run(url: string) {
    try {
      const response = await fetch(url, { signal: this.controller.signal });
      if (response.status !== 200 || !response.body) return this.fail();
      this.onopen?.();
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return this.fail();
        buffer += value;
        let boundary: number;
        while ((boundary = buffer.indexOf('\n\n')) >= 0) {
          const lines = buffer.slice(0, boundary).split('\n');
          buffer = buffer.slice(boundary + 2);
          const type = lines.find((line) => line.startsWith('event: '))?.slice(7);
          const data = lines.find((line) => line.startsWith('data: '))?.slice(6);
          if (!type || data === undefined) continue;
          for (const listener of this.listeners.get(type) ?? []) listener(new MessageEvent(type, { data }));
        }
      }
    } catch {
      this.fail();
    }
  }
}

const createEventSource = (url: string) => new FetchEventSource(url) as unknown as EventSource;

let context: TestContext;
let instance: App;
let port: number;

async function startInstance(onPort = 0): Promise<App> {
  const app = await buildApp({ config: context.config, database: context.database });
  await app.listen({ host: '127.0.0.1', port: onPort });
  port = (app.server.address() as AddressInfo).port;
  return app;
}

/** The browser side: the app's configuration and a signed-in session in local storage. */
function signInBrowserAs(person: Person) {
  const session = new Map<string, string>([['token', person.headers.authorization]]);
  vi.stubGlobal('window', { location: { origin: `http://127.0.0.1:${port}` } });
  vi.stubGlobal('localStorage', { getItem: (key: string) => session.get(key) ?? null });
}

beforeAll(async () => {
  context = await createTestContext();
  instance = await startInstance();
});
afterAll(async () => {
  await instance.close();
  await context.close();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

async function until(condition: () => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function reply(app: App, concierge: Person, requestId: number, text: string) {
  return app.inject({
    method: 'POST',
    url: `/api/v1/console/requests/${requestId}/messages`,
    headers: concierge.headers,
    payload: { body_markdown: text },
  });
}

describe('subscribeToLiveUpdates', () => {
  it('backs off from about 1 s, doubling up to 30 s, with jitter', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map((attempt) => reconnectDelayMs(attempt, () => 1))).toEqual([
      1000, 2000, 4000, 8000, 16000, 30000, 30000,
    ]);
    expect(reconnectDelayMs(0, () => 0)).toBe(500);
  });

  it('delivers the owner’s events, polls once on opening, and reconnects after a server restart', async () => {
    const employee = await createPerson(context);
    const concierge = await createPerson(context, 'concierge');
    const requestId = await createRequest(context, employee);
    signInBrowserAs(employee);

    // The messages only: a reply also tells the owner that staff have read the thread (request.seen).
    const events: LiveEvent[] = [];
    const statuses: LiveUpdatesStatus[] = [];
    let polls = 0;
    const unsubscribe = subscribeToLiveUpdates((event) => event.type === 'message.created' && events.push(event), {
      onPoll: () => (polls += 1),
      pollIntervalMs: 200,
      onStatusChange: (status) => statuses.push(status),
      createEventSource,
    });
    try {
      await until(() => statuses.at(-1) === 'live', 2000);
      expect(statuses).toEqual(['connecting', 'live']);
      expect(polls).toBe(1);

      await reply(instance, concierge, requestId, 'First');
      await until(() => events.length === 1, 2000);
      expect(events[0]).toMatchObject({ type: 'message.created', request_id: requestId, message: { body_html: '<p>First</p>' } });

      // Restart: the stream ends, the client polls while the server is away, then reconnects by itself.
      await instance.close();
      await until(() => statuses.at(-1) === 'polling', 2000);
      const pollsWhileAway = polls;
      await until(() => polls >= pollsWhileAway + 2, 2000);
      instance = await startInstance(port);
      const restartedAt = Date.now();
      await until(() => statuses.at(-1) === 'live', 5000);
      // The first retry comes 0.5-1 s after the stream ended, the next within 1-2 s more.
      expect(Date.now() - restartedAt).toBeLessThan(3000);
      const pollsAtReconnect = polls;

      await reply(instance, concierge, requestId, 'After the restart');
      await until(() => events.length === 2, 2000);
      expect(events[1]).toMatchObject({ message: { body_html: '<p>After the restart</p>' } });
      // Live again: no more polling beyond the catch-up poll on opening.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(polls).toBe(pollsAtReconnect);
    } finally {
      unsubscribe();
    }
  });

  it('stops every stream and timer when unsubscribed', async () => {
    const employee = await createPerson(context);
    signInBrowserAs(employee);
    let polls = 0;
    const statuses: LiveUpdatesStatus[] = [];
    const unsubscribe = subscribeToLiveUpdates(() => {}, {
      onPoll: () => (polls += 1),
      pollIntervalMs: 50,
      onStatusChange: (status) => statuses.push(status),
      // A server that never lets a stream open: the client keeps polling until it is told to stop.
      requestTicket: () => Promise.reject(new Error('offline')),
      createEventSource,
    });
    await until(() => polls >= 2, 2000);
    expect(statuses).toContain('polling');
    unsubscribe();
    const pollsAtStop = polls;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(polls).toBe(pollsAtStop);
  });
});
