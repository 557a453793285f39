import { type AnyActorRef, fromCallback } from 'xstate';
import type { subscribeToLiveUpdates } from '../services/liveUpdates.ts';
import type { LiveUpdate } from './liveUpdates.machine.ts';

/**
 * The IDs under which the app's long-lived actors are registered in its actor system (app.machine.ts), and the few
 * ways the screens' flows talk to them: any actor of the system reaches one with `system.get(id)`.
 */
export const SYSTEM_IDS = {
  app: 'app',
  session: 'session',
  toasts: 'toasts',
  versionCheck: 'versionCheck',
  requestCreation: 'requestCreation',
  liveUpdates: 'liveUpdates',
  unreadReplies: 'unreadReplies',
} as const;

type SystemId = (typeof SYSTEM_IDS)[keyof typeof SYSTEM_IDS];

interface ActorSystemLike {
  get(id: string): AnyActorRef | undefined;
}

/**
 * The long-lived actor registered as `id`. A machine run outside the app's system (its test model, `npm run flows`)
 * has none: what it sends then goes to itself, and is ignored.
 */
export function systemActor(system: ActorSystemLike, id: SystemId): AnyActorRef | undefined {
  return system.get(id);
}

/**
 * A `sendTo` target: the system's actor `id`. Outside the app's system (a machine's test model, `npm run flows`) there
 * is none, and the event goes to the sender itself, which ignores it.
 */
export const inSystem =
  (id: SystemId) =>
  ({ system }: { system: ActorSystemLike }) =>
    systemActor(system, id) as AnyActorRef;

/**
 * A `sendTo` target: the actor's parent. A machine run on its own (its test model, `npm run flows`) has none, and the
 * event goes to the sender itself, which ignores it.
 */
export const theParent = ({ self }: { self: AnyActorRef }) => (self._parent ?? self) as AnyActorRef;

/**
 * Where a flow sends a RequestCreationCommand (the drawer's requests: open, begin a survey): to the app, which loads
 * the drawer's statechart first. `sendTo(theApp, { type: 'START_SURVEY', survey })`.
 */
export const theApp = inSystem(SYSTEM_IDS.app);

/** Sends REQUEST_CREATED to its parent each time the session counts a request the user created (SPEC §3). */
export const requestsCreated = fromCallback<{ type: 'REQUEST_CREATED' }>(({ system, sendBack }) => {
  const subscription = systemActor(system, SYSTEM_IDS.session)?.on('requestCreated', () => sendBack({ type: 'REQUEST_CREATED' }));
  return () => subscription?.unsubscribe();
});

type SubscribeToLiveUpdates = typeof subscribeToLiveUpdates;

/**
 * Live updates through the system's one stream (liveUpdates.machine.ts), in the shape of the live updates service's
 * subscribe: for a flow's callback actor (`self`, and the `receive` of its arguments), which the stream tells each
 * update. Outside the app's system there is no stream, and nothing arrives.
 */
export function liveUpdatesOf({ system, self, receive }: {
  system: ActorSystemLike;
  self: AnyActorRef;
  receive: (listener: (update: LiveUpdate) => void) => void;
}): SubscribeToLiveUpdates {
  return (onEvent, { onPoll, onStatusChange } = {}) => {
    const stream = systemActor(system, SYSTEM_IDS.liveUpdates);
    if (!stream) return () => {};
    receive((update) => {
      if (update.type === 'LIVE_EVENT') onEvent(update.event);
      else if (update.type === 'LIVE_POLL') onPoll?.();
      else onStatusChange?.(update.status);
    });
    stream.send({ type: 'SUBSCRIBE', subscriber: self });
    return () => stream.send({ type: 'UNSUBSCRIBE', subscriber: self });
  };
}
