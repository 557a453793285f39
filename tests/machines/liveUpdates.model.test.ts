import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Actor, type AnyActorRef, createActor, fromCallback } from 'xstate';
import type { LiveEvent } from '../../src/contract/events.ts';
import { type LiveUpdate, liveUpdatesMachine } from '../../src/machines/liveUpdates.machine.ts';
import {
  type EventExecutors,
  type ModelEvent,
  type StateAssertions,
  expectFullCoverage,
  expectScenariosWalked,
  flowModel,
  runPath,
} from './modelPaths.support.ts';

type Machine = typeof liveUpdatesMachine;

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

/*
 * The model: two flows (the request thread and the console) subscribe and leave in any order, and the stream reports
 * an event, a poll and each change of connection. The subscribers are the model's own (its context holds them), so
 * what each received is cleared before every path.
 */
const SUBSCRIBERS = { thread: subscriber(), console: subscriber() };
const UPDATES: Record<string, LiveUpdate> = {
  'live event': { type: 'LIVE_EVENT', event: NEWS },
  'poll': { type: 'LIVE_POLL' },
  'stream live': { type: 'LIVE_STATUS', status: 'live' },
  'stream polling': { type: 'LIVE_STATUS', status: 'polling' },
};

const { paths, titled } = flowModel(liveUpdatesMachine, {
  events: [
    ...Object.entries(SUBSCRIBERS).flatMap(([name, { actor }]) => [
      { label: `${name} subscribes`, event: { type: 'SUBSCRIBE', subscriber: actor } },
      { label: `${name} leaves`, event: { type: 'UNSUBSCRIBE', subscriber: actor } },
    ]),
    ...Object.entries(UPDATES).map(([label, event]) => ({ label, event })),
  ],
  offer: ({ context }, { event }) => {
    const subscribed = context.subscribers.includes(event.subscriber as AnyActorRef);
    if (event.type === 'SUBSCRIBE') return !subscribed;
    if (event.type === 'UNSUBSCRIBE') return subscribed;
    // A change of connection to the one it is in already is not news.
    return event.type !== 'LIVE_STATUS' || event.status !== context.status;
  },
});

let hubUnderTest: { actor: Actor<Machine>; streams: ReturnType<typeof hub>['streams'] };
/** What each subscriber should have received so far. */
let expected: Map<AnyActorRef, LiveUpdate[]>;

const expectReceived = () => {
  for (const { actor, received } of Object.values(SUBSCRIBERS)) expect(received).toEqual(expected.get(actor));
};

const states: StateAssertions<Machine> = {
  closed: ({ context }) => {
    expect(hubUnderTest.streams.open).toBeNull();
    expect(context.subscribers).toEqual([]);
    expectReceived();
  },
  open: () => {
    expect(hubUnderTest.streams.open).not.toBeNull();
    expectReceived();
  },
};

/** The stream reports an update: every subscriber at the time is told, the others not. */
function streamReports({ event }: { event: ModelEvent }) {
  const update = event as LiveUpdate;
  for (const subscriber of hubUnderTest.actor.getSnapshot().context.subscribers) expected.get(subscriber)!.push(update);
  hubUnderTest.streams.open!(update);
}

const events: EventExecutors<Machine> = {
  SUBSCRIBE: ({ event }) => {
    const joining = event.subscriber as AnyActorRef;
    const before = hubUnderTest.actor.getSnapshot();
    const opened = hubUnderTest.streams.opened;
    hubUnderTest.actor.send({ type: 'SUBSCRIBE', subscriber: joining });
    if (before.matches('closed')) {
      // The first subscriber opens the stream, which tells it its connection itself.
      expect(hubUnderTest.streams.opened).toBe(opened + 1);
    } else {
      // A later one shares the stream and is told how it is doing.
      expect(hubUnderTest.streams.opened).toBe(opened);
      expected.get(joining)!.push({ type: 'LIVE_STATUS', status: before.context.status });
    }
  },
  UNSUBSCRIBE: ({ event }) => {
    const leaving = event.subscriber as AnyActorRef;
    const stream = hubUnderTest.streams.open;
    hubUnderTest.actor.send({ type: 'UNSUBSCRIBE', subscriber: leaving });
    // The last to leave closes the stream; otherwise the others keep the same one.
    const others = hubUnderTest.actor.getSnapshot().context.subscribers;
    expect(hubUnderTest.streams.open).toBe(others.length === 0 ? null : stream);
  },
  LIVE_EVENT: streamReports,
  LIVE_POLL: streamReports,
  LIVE_STATUS: streamReports,
};

describe('live updates machine: the hub, its stream and its subscribers', () => {
  beforeEach(() => {
    for (const { received } of Object.values(SUBSCRIBERS)) received.length = 0;
    expected = new Map(Object.values(SUBSCRIBERS).map(({ actor }) => [actor, []]));
    hubUnderTest = hub();
  });

  afterEach(() => {
    hubUnderTest.actor.stop();
  });

  it.each(titled)('$title', async ({ path }) => {
    await runPath(path, () => hubUnderTest.actor.getSnapshot(), states, events);
  });
});

describe('live updates model coverage', () => {
  it('asserts and reaches every state, executes every event and takes every transition', () => {
    expectFullCoverage(liveUpdatesMachine, paths, states, events);
  });

  it('walks the paths the rules call for', () => {
    expectScenariosWalked(
      titled.map(({ title }) => title),
      {
        'the first subscriber opens the stream': /^start → thread subscribes/,
        'a later subscriber is told the connection': /subscribes → stream live → console subscribes$/,
        'a subscriber leaves, the other keeps the stream': /thread subscribes → console subscribes → thread leaves/,
        'the last to leave closes the stream': /^start → thread subscribes → thread leaves$/,
        'events and polls reach every subscriber': /thread subscribes → console subscribes → (live event|poll)$/,
        'changes of connection reach every subscriber': /thread subscribes → console subscribes → stream (live|polling)/,
      },
    );
  });
});
