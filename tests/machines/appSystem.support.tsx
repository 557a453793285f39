import type { ReactNode } from 'react';
import { type Actor, type ActorOptions, type AnyStateMachine, type InputFrom, type SimulatedClock, createActor, fromPromise } from 'xstate';
import { AppSystemProvider } from '../../src/machines/appSystem.tsx';
import { type AppActor, type SessionActor, appMachine } from '../../src/machines/app.machine.ts';
import type { requestCreationMachine } from '../../src/machines/requestCreation.machine.ts';
import type { User } from '../../src/contract/account.ts';
import { sessionMachine } from '../../src/machines/session.machine.ts';
import { SYSTEM_IDS } from '../../src/machines/system.ts';
import { inspectedActors } from './modelPaths.support.ts';

/**
 * The app's actor system as a test starts it (src/machines/app.machine.ts), with the implementations the test gives
 * (`.provide()`): the screens rendered inside it (`inApp`) start their flows in it, and every actor of the system is
 * recorded in `inspectedActors` (the system's one inspector), so a test compares the view's actor with the model.
 */
export interface TestAppOptions {
  session?: typeof sessionMachine;
  /** The drawer's statechart, as the app loads it on the first request to open it; without one it never loads. */
  requestCreation?: typeof requestCreationMachine;
  clock?: SimulatedClock;
}

export function startTestApp({ session, requestCreation, clock }: TestAppOptions = {}): AppActor {
  const machine = appMachine.provide({
    actors: {
      ...(session ? { session } : {}),
      loadRequestCreation: fromPromise(() => (requestCreation ? Promise.resolve(requestCreation) : new Promise<never>(() => {}))),
    },
  });
  // An option given as undefined would replace xstate's default clock.
  return createActor(machine, { systemId: SYSTEM_IDS.app, inspect: inspectedActors.inspect, ...(clock ? { clock } : {}) }).start();
}

export const sessionOf = (app: AppActor) => app.system.get(SYSTEM_IDS.session) as SessionActor;

export function inApp(app: AppActor, screen: ReactNode) {
  return <AppSystemProvider actor={app}>{screen}</AppSystemProvider>;
}

/**
 * A flow started in the test app's system, as a screen starts it (`useFlow`), for a screen given its actor; the app
 * stops it with the rest of the system.
 */
export function startFlow<M extends AnyStateMachine>(app: AppActor, machine: M, input?: InputFrom<M>): Actor<M> {
  return createActor(machine, { parent: app, input } as ActorOptions<M>).start();
}

/** The events the app's root receives from the screens' flows (e.g. a request to open the drawer), oldest first. */
export function eventsToApp(app: AppActor): Array<{ type: string; [key: string]: unknown }> {
  const received: Array<{ type: string; [key: string]: unknown }> = [];
  app.system.inspect((inspection) => {
    if (inspection.type === '@xstate.event' && inspection.actorRef === app && inspection.sourceRef !== undefined) {
      received.push(inspection.event as { type: string });
    }
  });
  return received;
}

/** The session statechart with `user` signed in as it starts (its stored session restored). */
export function signedInSession(user: User): typeof sessionMachine {
  return sessionMachine.provide({ actors: { restoreSession: fromPromise<User | null>(async () => user) } });
}

const appsOfSessions = new WeakMap<SessionActor, AppActor>();

/** Starts a test app whose session runs `session` (the screens' session), and returns that session. */
export function startSessionInApp(session: typeof sessionMachine): SessionActor {
  const app = startTestApp({ session });
  appsOfSessions.set(sessionOf(app), app);
  return sessionOf(app);
}

/** The test app a session was started in (startSessionInApp). */
export function appOfSession(session: SessionActor): AppActor {
  const app = appsOfSessions.get(session);
  if (!app) throw new Error('This session was not started with startSessionInApp');
  return app;
}
