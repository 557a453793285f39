import { describe, expect, it } from 'vitest';
import { createActor, fromCallback } from 'xstate';
import type { LiveEvent } from '../../src/contract/events.ts';
import { type LiveUpdate, liveUpdatesMachine } from '../../src/machines/liveUpdates.machine.ts';

const NEWS: LiveEvent = { type: 'request.updated', request_id: 7, status: 'in_progress', updated_at: '2026-11-26T08:00:00.000Z' };

/** A subscriber that records what the stream tells it. */
function subscriber() {
  const received: LiveUpdate[] = [];
  const actor = createActor(fromCallback<LiveUpdate>(({ receive }) => receive((update) => received.push(update)))).start();
  return { actor, received };
}

/** The hub with a stream the test drives; `opened` counts the streams it opened, `open` is the one open now. */
function hub() {
  const streams = { opened: 0, open: null as ((update: LiveUpdate) => void) | null };
  const stream = fromCallback<LiveUpdate>(({ sendBack }) => {
    streams.opened += 1;
    streams.open = sendBack;
    return () => {
      streams.open = null;
    };
  });
  const actor = createActor(liveUpdatesMachine.provide({ actors: { stream } })).start();
  return { actor, streams };
}

describe('the live updates hub (one stream for the whole app)', () => {
  it('opens one stream for every subscriber, passes each update to all of them, and closes when the last leaves', () => {
    const { actor, streams } = hub();
    const thread = subscriber();
    const console = subscriber();
    expect(streams.opened).toBe(0);

    actor.send({ type: 'SUBSCRIBE', subscriber: thread.actor });
    actor.send({ type: 'SUBSCRIBE', subscriber: console.actor });
    expect(streams.opened).toBe(1);
    // A late subscriber is told how the stream is doing.
    expect(console.received).toEqual([{ type: 'LIVE_STATUS', status: 'connecting' }]);

    streams.open?.({ type: 'LIVE_STATUS', status: 'live' });
    streams.open?.({ type: 'LIVE_EVENT', event: NEWS });
    streams.open?.({ type: 'LIVE_POLL' });
    const told = [{ type: 'LIVE_STATUS', status: 'live' }, { type: 'LIVE_EVENT', event: NEWS }, { type: 'LIVE_POLL' }];
    expect(thread.received).toEqual(told);
    expect(console.received.slice(1)).toEqual(told);

    actor.send({ type: 'UNSUBSCRIBE', subscriber: thread.actor });
    expect(streams.open).not.toBeNull();
    streams.open?.({ type: 'LIVE_POLL' });
    expect(thread.received).toHaveLength(3);
    actor.send({ type: 'UNSUBSCRIBE', subscriber: console.actor });
    expect(streams.open).toBeNull();
    expect(actor.getSnapshot().value).toBe('closed');

    // The next subscriber opens a new stream, starting from 'connecting'.
    const later = subscriber();
    actor.send({ type: 'SUBSCRIBE', subscriber: later.actor });
    expect(streams.opened).toBe(2);
    expect(actor.getSnapshot().context.status).toBe('connecting');
  });
});
