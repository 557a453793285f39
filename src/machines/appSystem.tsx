import { useSelector } from '@xstate/react';
import { type ReactNode, createContext, useContext, useEffect, useState } from 'react';
import { type Actor, type ActorOptions, type AnyMachineSnapshot, type AnyStateMachine, type SnapshotFrom, createActor } from 'xstate';
import {
  type AppActor,
  type RequestCreationActor,
  type SessionActor,
  type ToastsActor,
  type UnreadRepliesActor,
  type VersionCheckActor,
} from './app.machine.ts';
import { SYSTEM_IDS } from './system.ts';
import type { ToastType } from './toasts.machine.ts';

/**
 * The app's actor system (machines/app.machine.ts) for the views: main.tsx creates and starts the root actor, with
 * the inspector attached to it once (DESIGN §5); the screens reach the system's actors through the hooks below and
 * start their own flows in it with `useFlow`. Tests render screens inside a root of their own.
 */
const AppActorContext = createContext<AppActor | null>(null);

export function AppSystemProvider({ actor, children }: { actor: AppActor; children: ReactNode }) {
  return <AppActorContext.Provider value={actor}>{children}</AppActorContext.Provider>;
}

export function useAppActor(): AppActor {
  const actor = useContext(AppActorContext);
  if (!actor) throw new Error('useAppActor: render the screen inside <AppSystemProvider>');
  return actor;
}

/**
 * A screen's flow, started with the screen and ended with it, as a child of the app's root: the inspector sees it,
 * and its actions reach the system's actors (`system.get(SYSTEM_IDS.session)`). `id` names it there; `options` are
 * those in force when the screen mounts.
 */
export function useFlow<TMachine extends AnyStateMachine>(
  machine: TMachine,
  options: Omit<ActorOptions<TMachine>, 'parent' | 'inspect'> & { id: string },
): Actor<TMachine> {
  const app = useAppActor();
  const [createFlow] = useState(() => () => createActor(machine, { ...options, parent: app } as ActorOptions<TMachine>));
  const [flow, setFlow] = useState(createFlow);
  useEffect(() => {
    // React's development double mount (StrictMode) ends the first flow: the screen, mounted again, gets a new one.
    if ((flow.getSnapshot() as AnyMachineSnapshot).status === 'stopped') {
      setFlow(createFlow());
      return;
    }
    flow.start();
    // A child actor is stopped by its parent (a stopped system has stopped its flows already).
    return () => {
      if (app.getSnapshot().status === 'active') app.send({ type: 'FLOW_ENDED', flow });
    };
  }, [app, createFlow, flow]);
  return flow;
}

type SessionSnapshot = SnapshotFrom<SessionActor>;

function useSessionActor(): SessionActor {
  return useAppActor().system.get(SYSTEM_IDS.session) as SessionActor;
}

export function useSession<T>(selector: (snapshot: SessionSnapshot) => T): T {
  return useSelector(useSessionActor(), selector);
}

export function useSessionSend(): SessionActor['send'] {
  return useSessionActor().send;
}

export function useToastsActor(): ToastsActor {
  return useAppActor().system.get(SYSTEM_IDS.toasts) as ToastsActor;
}

/** Unread replies by request id (unreadReplies.machine.ts); a request with none is absent. */
type UnreadCounts = Record<number, number>;

export const unreadTotal = (byRequest: UnreadCounts): number => Object.values(byRequest).reduce((total, count) => total + count, 0);

export const unreadCountOf = (byRequest: UnreadCounts, requestId: number): number => byRequest[requestId] ?? 0;

/** What the screens show of the employee's unread replies (issue 32): none until the app has loaded their statechart. */
function useUnreadCounts<T>(select: (byRequest: UnreadCounts) => T): T {
  const unread = useLoadedActor(SYSTEM_IDS.unreadReplies) as UnreadRepliesActor | undefined;
  return useSelector(unread, (snapshot) => select(snapshot?.context.byRequest ?? {}));
}

/** The employee's unread replies in all: the navigation's badge and the tab's title. */
export function useUnreadTotal(): number {
  return useUnreadCounts(unreadTotal);
}

/** The unread replies of one request: its row in the lists. */
export function useUnreadCountOf(requestId: number): number {
  return useUnreadCounts((byRequest) => unreadCountOf(byRequest, requestId));
}

export interface ShowToastOptions {
  message: string;
  type?: ToastType;
  /** Dismiss after the toast lifetime; otherwise the toast stays until closed. */
  autoDismiss?: boolean;
}

/** Shows a toast (SPEC §2) in the app's toast region. */
export function useShowToast(): (toast: ShowToastOptions) => void {
  const toasts = useToastsActor();
  return ({ message, type = 'success', autoDismiss = false }) =>
    toasts.send({ type: 'SHOW', toast: { id: crypto.randomUUID(), message, type, autoDismiss } });
}

/** An actor the app loads when first needed, once its region of the root runs it (each region is named after it). */
function useLoadedActor(id: typeof SYSTEM_IDS.versionCheck | typeof SYSTEM_IDS.requestCreation | typeof SYSTEM_IDS.unreadReplies) {
  const app = useAppActor();
  const running = useSelector(app, (snapshot) => snapshot.matches({ [id]: 'running' }));
  return running ? app.system.get(id) : undefined;
}

/** The version check, once the tab has first become visible (the app loads it then). */
export function useVersionActor(): VersionCheckActor | undefined {
  return useLoadedActor(SYSTEM_IDS.versionCheck);
}

/** The request creation drawer, once something has asked it to open (the app loads it then). */
export function useRequestCreationActor(): RequestCreationActor | undefined {
  return useLoadedActor(SYSTEM_IDS.requestCreation);
}

/**
 * SPEC §2: with an update flagged and no MFA step pending, a navigation loads `href` in full. Returns whether it did
 * (nothing is flagged before the first check).
 */
export function reloadIfUpdateNeeded(version: VersionCheckActor | undefined, href: string, mfaPending: boolean): boolean {
  if (mfaPending || !version?.getSnapshot().hasTag('updateNeeded')) return false;
  version.send({ type: 'RELOAD', href });
  return true;
}

/** reloadIfUpdateNeeded with the app system's version check and session. */
export function navigationReload(app: AppActor, href: string): boolean {
  const session = app.system.get(SYSTEM_IDS.session) as SessionActor;
  const version = app.system.get(SYSTEM_IDS.versionCheck) as VersionCheckActor | undefined;
  return reloadIfUpdateNeeded(version, href, session.getSnapshot().hasTag('mfaPending'));
}
