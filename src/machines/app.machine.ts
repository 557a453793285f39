import { type ActorRefFrom, type AnyActorRef, assign, enqueueActions, fromCallback, fromPromise, setup, stopChild } from 'xstate';
import { reportError } from '../services/errorReporting.ts';
import type { RequestCreationCommand, requestCreationMachine } from './requestCreation.machine.ts';
import { liveUpdatesMachine } from './liveUpdates.machine.ts';
import { sessionMachine } from './session.machine.ts';
import { toastsMachine } from './toasts.machine.ts';
import { SYSTEM_IDS, inSystem } from './system.ts';
import type { ReadReport, unreadRepliesMachine } from './unreadReplies.machine.ts';
import type { versionCheckMachine } from './versionCheck.machine.ts';

/**
 * The app as one actor system (DESIGN §5). This root owns the long-lived actors, each under a system ID that any actor
 * of the system reaches with `system.get(id)`:
 * - 'session': the session and MFA statechart;
 * - 'toasts': the global toasts;
 * - 'liveUpdates': the one live stream, open while a flow subscribes (the request thread, the console);
 * - 'unreadReplies': the employee's unread replies, kept while their frame is shown (issue 32), loaded when an
 *   employee's frame is first shown (staff and the public pages never load it);
 * - 'versionCheck': SPEC §4 version check, loaded when the tab first becomes visible (its code is not in the first
 *   page load, DESIGN §9);
 * - 'requestCreation': the request creation drawer, loaded when it is first asked to open (it is a signed-in feature,
 *   and its code with the survey conversation is not on the sign-in page).
 * The screens' flows join the system as they mount (appSystem.tsx, `useFlow`): one inspector sees them all.
 */

/**
 * The version this bundle was built as. Vite defines __APP_VERSION__ in every build and dev server; under Vitest
 * (no define) there is no build, and 'unbuilt' differs from any deployed version.
 */
export const BUILT_VERSION: string = typeof __APP_VERSION__ === 'string' ? __APP_VERSION__ : 'unbuilt';

export type AppEvent =
  | RequestCreationCommand
  /** The tab became visible for the first time since the page loaded. */
  | { type: 'TAB_VISIBLE' }
  /** The signed-in employee's frame is shown (AppLayout): their unread replies are kept, live. */
  | { type: 'EMPLOYEE_SHOWN' }
  /** It is gone (signed out, or a staff member's frame). */
  | { type: 'EMPLOYEE_LEFT' }
  /** The employee has seen a thread to its end (requestThread.machine.ts): the unread replies report it. */
  | ({ type: 'READ_UP_TO' } & ReadReport)
  /** A screen that started a flow in the system (appSystem.tsx, useFlow) has gone: the app, its parent, stops it. */
  | { type: 'FLOW_ENDED'; flow: AnyActorRef }
  /** A screen's flow failed. */
  | { type: `xstate.error.actor.${string}`; error: unknown };

type RequestCreationLogic = typeof requestCreationMachine;
type VersionCheckLogic = typeof versionCheckMachine;
type UnreadRepliesLogic = typeof unreadRepliesMachine;

export interface AppContext {
  /** A command that arrived while the drawer's statechart was loading: it is handed over once it runs. */
  pendingCommand: RequestCreationCommand | null;
}

const theDrawer = inSystem(SYSTEM_IDS.requestCreation);
const theUnreadReplies = inSystem(SYSTEM_IDS.unreadReplies);

const onFirstVisibleTab = fromCallback(({ sendBack }) => {
  const onVisibilityChange = () => {
    if (document.visibilityState === 'visible') sendBack({ type: 'TAB_VISIBLE' });
  };
  document.addEventListener('visibilitychange', onVisibilityChange);
  return () => document.removeEventListener('visibilitychange', onVisibilityChange);
});

export const appMachine = setup({
  types: {
    context: {} as AppContext,
    events: {} as AppEvent,
  },
  actors: {
    session: sessionMachine,
    toasts: toastsMachine,
    liveUpdates: liveUpdatesMachine,
    loadUnreadReplies: fromPromise<UnreadRepliesLogic>(async () => (await import('./unreadReplies.machine.ts')).unreadRepliesMachine),
    onFirstVisibleTab,
    loadVersionCheck: fromPromise<VersionCheckLogic>(async () => (await import('./versionCheck.machine.ts')).versionCheckMachine),
    loadRequestCreation: fromPromise<RequestCreationLogic>(
      async () => (await import('./requestCreation.machine.ts')).requestCreationMachine,
    ),
  },
  actions: {
    startVersionCheck: enqueueActions(({ enqueue }, { logic }: { logic: VersionCheckLogic }) => {
      enqueue.spawnChild(logic, { systemId: SYSTEM_IDS.versionCheck, input: { builtVersion: BUILT_VERSION } });
      // The visibility change that loaded it is the check's first.
      enqueue.sendTo(inSystem(SYSTEM_IDS.versionCheck), { type: 'TAB_VISIBLE' });
    }),
    startRequestCreation: enqueueActions(({ context, enqueue }, { logic }: { logic: RequestCreationLogic }) => {
      enqueue.spawnChild(logic, { systemId: SYSTEM_IDS.requestCreation });
      if (context.pendingCommand) enqueue.sendTo(theDrawer, context.pendingCommand);
      enqueue.assign({ pendingCommand: null });
    }),
    startUnreadReplies: enqueueActions(({ enqueue }, { logic }: { logic: UnreadRepliesLogic }) => {
      enqueue.spawnChild(logic, { systemId: SYSTEM_IDS.unreadReplies });
      // The frame that loaded it is shown.
      enqueue.sendTo(theUnreadReplies, { type: 'EMPLOYEE_SHOWN' });
    }),
    forwardToUnreadReplies: enqueueActions(({ event, enqueue }) => enqueue.sendTo(theUnreadReplies, event)),
    keepCommand: assign({
      pendingCommand: ({ event }) => (event.type === 'OPEN_CATEGORIES' || event.type === 'START_SURVEY' ? event : null),
    }),
    forwardCommand: enqueueActions(({ event, enqueue }) => enqueue.sendTo(theDrawer, event)),
    reportLoadFailure: (_, { error, feature }: { error: unknown; feature: string }) =>
      void reportError(error, { component: 'App', feature }),
  },
}).createMachine({
  id: 'app',
  context: { pendingCommand: null },
  invoke: [
    { id: SYSTEM_IDS.session, systemId: SYSTEM_IDS.session, src: 'session' },
    { id: SYSTEM_IDS.toasts, systemId: SYSTEM_IDS.toasts, src: 'toasts' },
    { id: SYSTEM_IDS.liveUpdates, systemId: SYSTEM_IDS.liveUpdates, src: 'liveUpdates' },
  ],
  on: {
    FLOW_ENDED: { actions: stopChild(({ event }) => event.flow) },
    // A screen's flow that fails shows it on its screen (its view's error boundary); the app goes on.
    'xstate.error.actor.*': {},
  },
  type: 'parallel',
  states: {
    versionCheck: {
      initial: 'waitingForVisibleTab',
      states: {
        waitingForVisibleTab: {
          invoke: { id: 'firstVisibleTab', src: 'onFirstVisibleTab' },
          on: { TAB_VISIBLE: 'loading' },
        },
        loading: {
          invoke: {
            id: 'loadVersionCheck',
            src: 'loadVersionCheck',
            onDone: { target: 'running', actions: { type: 'startVersionCheck', params: ({ event }) => ({ logic: event.output }) } },
            // E.g. offline: the next visibility change tries again.
            onError: 'waitingForVisibleTab',
          },
        },
        running: {},
      },
    },
    unreadReplies: {
      initial: 'notLoaded',
      states: {
        notLoaded: {
          on: { EMPLOYEE_SHOWN: 'loading' },
        },
        loading: {
          // Gone before it loaded: nothing to keep (the next frame loads it again, from the browser's cache).
          on: { EMPLOYEE_LEFT: 'notLoaded' },
          invoke: {
            id: 'loadUnreadReplies',
            src: 'loadUnreadReplies',
            onDone: { target: 'running', actions: { type: 'startUnreadReplies', params: ({ event }) => ({ logic: event.output }) } },
            // The counts stay unshown until the next frame tries again; the pages work without them.
            onError: {
              target: 'notLoaded',
              actions: { type: 'reportLoadFailure', params: ({ event }) => ({ error: event.error, feature: 'unread replies' }) },
            },
          },
        },
        running: {
          on: {
            EMPLOYEE_SHOWN: { actions: 'forwardToUnreadReplies' },
            EMPLOYEE_LEFT: { actions: 'forwardToUnreadReplies' },
            READ_UP_TO: { actions: 'forwardToUnreadReplies' },
          },
        },
      },
    },
    requestCreation: {
      initial: 'notLoaded',
      states: {
        notLoaded: {
          on: {
            OPEN_CATEGORIES: { target: 'loading', actions: 'keepCommand' },
            START_SURVEY: { target: 'loading', actions: 'keepCommand' },
          },
        },
        loading: {
          on: { OPEN_CATEGORIES: { actions: 'keepCommand' }, START_SURVEY: { actions: 'keepCommand' } },
          invoke: {
            id: 'loadRequestCreation',
            src: 'loadRequestCreation',
            onDone: { target: 'running', actions: { type: 'startRequestCreation', params: ({ event }) => ({ logic: event.output }) } },
            // The press is lost (its chunk could not be loaded, e.g. offline); the next one tries again.
            onError: {
              target: 'notLoaded',
              actions: [
                assign({ pendingCommand: null }),
                { type: 'reportLoadFailure', params: ({ event }) => ({ error: event.error, feature: 'request creation' }) },
              ],
            },
          },
        },
        running: {
          on: { OPEN_CATEGORIES: { actions: 'forwardCommand' }, START_SURVEY: { actions: 'forwardCommand' } },
        },
      },
    },
  },
});

export type AppActor = ActorRefFrom<typeof appMachine>;
export type SessionActor = ActorRefFrom<typeof sessionMachine>;
export type ToastsActor = ActorRefFrom<typeof toastsMachine>;
export type UnreadRepliesActor = ActorRefFrom<UnreadRepliesLogic>;
export type VersionCheckActor = ActorRefFrom<VersionCheckLogic>;
export type RequestCreationActor = ActorRefFrom<RequestCreationLogic>;
