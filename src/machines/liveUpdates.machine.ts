import { type AnyActorRef, assign, enqueueActions, fromCallback, setup } from 'xstate';
import type { LiveEvent } from '../contract/events.ts';
import type { LiveUpdatesOptions, LiveUpdatesStatus } from '../services/liveUpdates.ts';

/**
 * The app's one live stream (src/contract/events.ts), a long-lived actor of the system (app.machine.ts): it is open
 * while at least one flow subscribes (the request thread, the console's queue and open request), and it passes every
 * live event, every poll while the stream is down and every change of connection to each subscriber. The stream's
 * code (services/liveUpdates.ts) loads with the first subscription, not with the first page.
 */

/** What a subscriber receives. */
export type LiveUpdate =
  | { type: 'LIVE_EVENT'; event: LiveEvent }
  | { type: 'LIVE_POLL' }
  | { type: 'LIVE_STATUS'; status: LiveUpdatesStatus };

export type LiveUpdatesEvent =
  | { type: 'SUBSCRIBE'; subscriber: AnyActorRef }
  | { type: 'UNSUBSCRIBE'; subscriber: AnyActorRef }
  | LiveUpdate;

export interface LiveUpdatesContext {
  subscribers: AnyActorRef[];
  /** The connection as last reported, told to each new subscriber. */
  status: LiveUpdatesStatus;
}

/** The stream, from the live updates service (its options other than the handlers are the service's defaults). */
const stream = fromCallback<LiveUpdate>(({ sendBack }) => {
  let unsubscribe: (() => void) | null = null;
  let stopped = false;
  const handlers: LiveUpdatesOptions = {
    onPoll: () => sendBack({ type: 'LIVE_POLL' }),
    onStatusChange: (status) => sendBack({ type: 'LIVE_STATUS', status }),
  };
  import('../services/liveUpdates.ts').then(
    ({ subscribeToLiveUpdates }) => {
      if (!stopped) unsubscribe = subscribeToLiveUpdates((event) => sendBack({ type: 'LIVE_EVENT', event }), handlers);
    },
    // Its code could not be loaded (e.g. offline): the screens poll, as they do whenever no stream is open.
    () => sendBack({ type: 'LIVE_STATUS', status: 'polling' }),
  );
  return () => {
    stopped = true;
    unsubscribe?.();
  };
});

export const liveUpdatesMachine = setup({
  types: {
    context: {} as LiveUpdatesContext,
    events: {} as LiveUpdatesEvent,
  },
  actors: { stream },
  guards: {
    isLastSubscriber: ({ context, event }) =>
      event.type === 'UNSUBSCRIBE' && context.subscribers.every((subscriber) => subscriber === event.subscriber),
  },
  actions: {
    addSubscriber: assign({
      subscribers: ({ context, event }) => (event.type === 'SUBSCRIBE' ? [...context.subscribers, event.subscriber] : context.subscribers),
    }),
    removeSubscriber: assign({
      subscribers: ({ context, event }) =>
        event.type === 'UNSUBSCRIBE' ? context.subscribers.filter((subscriber) => subscriber !== event.subscriber) : context.subscribers,
    }),
    tellStatus: enqueueActions(({ context, event, enqueue }) => {
      if (event.type === 'SUBSCRIBE') enqueue.sendTo(event.subscriber, { type: 'LIVE_STATUS', status: context.status });
    }),
    passOn: enqueueActions(({ context, event, enqueue }) => {
      if (event.type === 'LIVE_STATUS') enqueue.assign({ status: event.status });
      for (const subscriber of context.subscribers) enqueue.sendTo(subscriber, event);
    }),
  },
}).createMachine({
  id: 'liveUpdates',
  context: { subscribers: [], status: 'connecting' },
  initial: 'closed',
  states: {
    closed: {
      entry: assign({ status: 'connecting' }),
      on: { SUBSCRIBE: { target: 'open', actions: 'addSubscriber' } },
    },
    open: {
      invoke: { id: 'stream', src: 'stream' },
      on: {
        SUBSCRIBE: { actions: ['addSubscriber', 'tellStatus'] },
        UNSUBSCRIBE: [{ guard: 'isLastSubscriber', target: 'closed', actions: 'removeSubscriber' }, { actions: 'removeSubscriber' }],
        LIVE_EVENT: { actions: 'passOn' },
        LIVE_POLL: { actions: 'passOn' },
        LIVE_STATUS: { actions: 'passOn' },
      },
    },
  },
});
