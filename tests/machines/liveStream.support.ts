/** The live stream at the network level, on the msw server of network.support.ts. */
import { http, HttpResponse } from 'msw';
import { EventSource } from 'eventsource';
import { vi } from 'vitest';
import type { LiveEvent } from '../../src/contract/events.ts';
import { server } from './network.support.ts';

/** An event stream the fake server holds open: what it writes, and how the connection ends. */
export interface OpenLiveStream {
  /** The ticket it was opened with. */
  ticket: string;
  send(event: LiveEvent): void;
  /** The connection drops (a server restart, a lost network). */
  drop(): void;
}

/**
 * Live updates (src/services/liveUpdates.ts) at the network level, on top of the routes this test fakes already:
 * POST events/ticket hands out a fresh ticket, and GET events?ticket= opens an event stream written as the server
 * writes it (': connected', then `id`, `event` and `data` lines per event). The streams opened, oldest first, are in
 * the list returned. jsdom has no EventSource: the `eventsource` package, which follows the WhatWG standard over
 * fetch (so msw sees its requests), stands in for the browser's until the test unstubs its globals.
 */
export function serveLiveStream(): OpenLiveStream[] {
  vi.stubGlobal('EventSource', EventSource);
  const streams: OpenLiveStream[] = [];
  const encoder = new TextEncoder();
  server.use(
    http.post(
      ({ request }) => new URL(request.url).pathname === '/api/v1/events/ticket',
      () => HttpResponse.json({ ticket: `ticket-${streams.length + 1}`, expires_at: new Date(Date.now() + 60_000).toISOString() }),
    ),
    http.get(
      ({ request }) => new URL(request.url).pathname === '/api/v1/events',
      ({ request }) => {
        let lastId = 0;
        const body = new ReadableStream<Uint8Array>({
          start(connection) {
            connection.enqueue(encoder.encode(': connected\n\n'));
            streams.push({
              ticket: new URL(request.url).searchParams.get('ticket') ?? '',
              send: (event) => {
                lastId += 1;
                connection.enqueue(encoder.encode(`id: ${lastId}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`));
              },
              drop: () => connection.error(new Error('The connection was lost')),
            });
          },
        });
        return new HttpResponse(body, { headers: { 'content-type': 'text/event-stream; charset=utf-8' } });
      },
    ),
  );
  return streams;
}
