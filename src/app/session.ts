import { useSelector } from '@xstate/react';
import { createContext, useContext } from 'react';
import { type ActorRefFrom, type SnapshotFrom, createActor } from 'xstate';
import { sessionMachine } from '../machines/session.machine.ts';
import { onAuthFailure } from '../services/http.ts';
import { inspect } from './inspector.ts';

export type SessionActor = ActorRefFrom<typeof sessionMachine>;
export type SessionSnapshot = SnapshotFrom<typeof sessionMachine>;

/** The app-wide session (DESIGN §5): created once, and started by the app (`startSession`). */
export const sessionActor: SessionActor = createActor(sessionMachine, { inspect });
// DESIGN §5: the HTTP client reports lost sessions and MFA challenges to the session.
onAuthFailure((failure) => sessionActor.send({ type: 'AUTH_FAILURE', failure }));

/**
 * Restores the stored session (its first call to the API). main.tsx calls it once, in a task of its own rather than
 * while the app's modules load (issue 10: that task was long enough to block a phone's main thread).
 */
export function startSession(): void {
  sessionActor.start();
}

/**
 * The session actor the screens talk to. The app never provides it (the default is the app-wide actor); tests
 * render screens against an actor of their own.
 */
export const SessionActorContext = createContext<SessionActor>(sessionActor);

export function useSessionActor(): SessionActor {
  return useContext(SessionActorContext);
}

export function useSession<T>(selector: (snapshot: SessionSnapshot) => T): T {
  return useSelector(useSessionActor(), selector);
}

export function useSessionSend(): SessionActor['send'] {
  return useSessionActor().send;
}
