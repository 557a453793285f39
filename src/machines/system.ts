import { type AnyActorRef, fromCallback } from 'xstate';

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
 * Where a flow sends a RequestCreationCommand (the drawer's requests: open, begin a survey): to the app, which loads
 * the drawer's statechart first. `sendTo(theApp, { type: 'START_SURVEY', survey })`.
 */
export const theApp = inSystem(SYSTEM_IDS.app);

/** Sends REQUEST_CREATED to its parent each time the session counts a request the user created (SPEC §3). */
export const requestsCreated = fromCallback<{ type: 'REQUEST_CREATED' }>(({ system, sendBack }) => {
  const subscription = systemActor(system, SYSTEM_IDS.session)?.on('requestCreated', () => sendBack({ type: 'REQUEST_CREATED' }));
  return () => subscription?.unsubscribe();
});
