import { useSelector } from '@xstate/react';
import { createContext, useContext } from 'react';
import { type ActorRefFrom, type SnapshotFrom, createActor } from 'xstate';
import { sessionMachine } from '../machines/session.machine.ts';
import { onAuthFailure } from '../services/http.ts';
import { inspect } from './inspector.ts';

export type SessionActor = ActorRefFrom<typeof sessionMachine>;
export type SessionSnapshot = SnapshotFrom<typeof sessionMachine>;

/** The app-wide session (DESIGN §5): created once, restoring the stored session as soon as the app loads. */
export const sessionActor: SessionActor = createActor(sessionMachine, { inspect });
// DESIGN §5: the HTTP client reports lost sessions and MFA challenges to the session.
onAuthFailure((failure) => sessionActor.send({ type: 'AUTH_FAILURE', failure }));
sessionActor.start();

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
