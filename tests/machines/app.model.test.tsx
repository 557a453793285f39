import { act, render, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type AnyActorRef, type AnyStateMachine, assign, createActor, fromPromise, setup } from 'xstate';
import { useFlow } from '../../src/machines/appSystem.tsx';
import { type AppActor, BUILT_VERSION, appMachine } from '../../src/machines/app.machine.ts';
import type { RequestCreationCommand, requestCreationMachine } from '../../src/machines/requestCreation.machine.ts';
import { SYSTEM_IDS } from '../../src/machines/system.ts';
import type { unreadRepliesMachine } from '../../src/machines/unreadReplies.machine.ts';
import { versionCheckMachine } from '../../src/machines/versionCheck.machine.ts';
import { inApp } from './appSystem.support.tsx';
import { ERROR_REPORTS_ROUTE, type SentCall, fakeNetwork, reportErrorsToTheServer, reportedErrors } from './network.support.ts';
import {
  type EventExecutors,
  type ModelEvent,
  type StateAssertions,
  doneEvent,
  errorEvent,
  expectFullCoverage,
  expectScenariosWalked,
  flowModel,
  pendingCalls,
  runPath,
  settlementExecutors,
} from './modelPaths.support.ts';

reportErrorsToTheServer();

type Machine = typeof appMachine;

/** The version check as the app loads it, with a fetch of the version file that never answers: it stays 'checking'. */
const loadedVersionCheck = versionCheckMachine.provide({
  actors: { fetchDeployedVersion: fromPromise<string>(() => new Promise(() => {})) },
});

/** The drawer's statechart as the app loads it: it records every command it receives, in order. */
const recordingDrawer = setup({
  types: { context: {} as { received: RequestCreationCommand[] }, events: {} as RequestCreationCommand },
}).createMachine({
  context: { received: [] },
  on: { '*': { actions: assign({ received: ({ context, event }) => [...context.received, event] }) } },
});

/** A screen's flow: started when its screen mounts (useFlow), a child of the app. */
const screenFlow = setup({}).createMachine({ id: 'screenFlow' });
const FLOW_FAILURE = new Error('The flow broke');
/** A screen's flow that fails as it starts. */
const failingFlow = setup({}).createMachine({
  id: 'failingFlow',
  entry: () => {
    throw FLOW_FAILURE;
  },
});
/** The id the screens below start their flows under: the app hears a failed one as `xstate.error.actor.screen`. */
const SCREEN_FLOW_ID = 'screen';

const OPEN_CATEGORIES: RequestCreationCommand = { type: 'OPEN_CATEGORIES', mode: 'explore' };
const START_SURVEY: RequestCreationCommand = { type: 'START_SURVEY', survey: { id: 3, name: 'Benefits help' } };
const LOAD_FAILURE = new Error('Failed to fetch dynamically imported module');
const SCREEN_FLOW_FAILED = `xstate.error.actor.${SCREEN_FLOW_ID}`;
const VERSION_CHECK_EVENTS = new Set(['TAB_VISIBLE', 'xstate.done.actor.loadVersionCheck', 'xstate.error.actor.loadVersionCheck']);
const UNREAD_REPLIES_EVENTS = new Set([
  'EMPLOYEE_SHOWN',
  'EMPLOYEE_LEFT',
  'READ_UP_TO',
  'xstate.done.actor.loadUnreadReplies',
  'xstate.error.actor.loadUnreadReplies',
]);
const READ_UP_TO = { type: 'READ_UP_TO', requestId: 7, messageId: 12 } as const;

/** The unread replies as the app loads them: they record the kind of every event that reaches them, in order. */
const recordingUnreadReplies = setup({
  types: { context: {} as { received: string[] }, events: {} as { type: string } },
}).createMachine({
  context: { received: [] },
  on: { '*': { actions: assign({ received: ({ context, event }) => [...context.received, event.type] }) } },
});

/*
 * The regions are independent: to keep the paths few, each moves while the others are at their start. A screen's
 * flow ends with the app at its start.
 */
// The model's drawer loads yield no logic (see below), and xstate warns that it spawns nothing: the model's business only.
const quietSpawns = vi.spyOn(console, 'warn').mockImplementation(() => {});
const { paths, titled } = flowModel(appMachine, {
  events: [
    { label: 'tab visible', event: { type: 'TAB_VISIBLE' } },
    doneEvent('loadVersionCheck', loadedVersionCheck, 'version check loaded'),
    errorEvent('loadVersionCheck', LOAD_FAILURE, 'version check fails to load'),
    { label: 'open categories', event: OPEN_CATEGORIES },
    { label: 'start survey', event: START_SURVEY },
    // xstate/graph takes every transition of the model in one mock actor system, where a second spawn under the
    // system ID 'requestCreation' (from another loading state) throws: the model's load yields no logic (the model's
    // state does not depend on it), and the executor gives the app the recording drawer.
    doneEvent('loadRequestCreation', null, 'drawer loaded'),
    errorEvent('loadRequestCreation', LOAD_FAILURE, 'drawer fails to load'),
    // The model's flow stands for the one the executor's screen starts.
    { label: 'screen left', event: { type: 'FLOW_ENDED', flow: createActor(screenFlow) } },
    { label: "screen's flow fails", event: { type: SCREEN_FLOW_FAILED, error: FLOW_FAILURE } },
    { label: 'employee frame shown', event: { type: 'EMPLOYEE_SHOWN' } },
    { label: 'employee frame left', event: { type: 'EMPLOYEE_LEFT' } },
    { label: 'a thread read to its end', event: READ_UP_TO },
    // As with the drawer, the model's load yields no logic: the executor gives the app the recording statechart.
    doneEvent('loadUnreadReplies', null, 'unread replies loaded'),
    errorEvent('loadUnreadReplies', LOAD_FAILURE, 'unread replies fail to load'),
  ],
  offer: (snapshot, { event }) => {
    const drawerNotAskedFor = snapshot.matches({ requestCreation: 'notLoaded' });
    const tabNotYetVisible = snapshot.matches({ versionCheck: 'waitingForVisibleTab' });
    const unreadNotLoaded = snapshot.matches({ unreadReplies: 'notLoaded' });
    if (event.type === 'FLOW_ENDED' || event.type === SCREEN_FLOW_FAILED) return drawerNotAskedFor && tabNotYetVisible && unreadNotLoaded;
    if (UNREAD_REPLIES_EVENTS.has(event.type)) return drawerNotAskedFor && tabNotYetVisible;
    return unreadNotLoaded && (VERSION_CHECK_EVENTS.has(event.type) ? drawerNotAskedFor : tabNotYetVisible);
  },
});
quietSpawns.mockRestore();

let app: AppActor;
let sent: SentCall[];
/** The commands the drawer should have received since it was loaded, oldest first. */
let toDrawer: RequestCreationCommand[];

const drawer = () => app.system.get(SYSTEM_IDS.requestCreation) as AnyActorRef | undefined;
const versionCheck = () => app.system.get(SYSTEM_IDS.versionCheck) as AnyActorRef | undefined;
const unreadReplies = () => app.system.get(SYSTEM_IDS.unreadReplies) as AnyActorRef | undefined;
/** What the frame should have told the loaded unread replies since they were loaded, oldest first. */
let toUnreadReplies: string[];
const childOfApp = (id: string) => (app.getSnapshot().children as Record<string, AnyActorRef | undefined>)[id];

function setVisibility(state: DocumentVisibilityState) {
  vi.spyOn(document, 'visibilityState', 'get').mockReturnValue(state);
  act(() => {
    document.dispatchEvent(new Event('visibilitychange'));
  });
}

/** A screen with a flow of its own, as the app's screens have (useFlow). */
function Screen({ flow = screenFlow, onFlow }: { flow?: AnyStateMachine; onFlow: (flow: AnyActorRef) => void }) {
  onFlow(useFlow(flow, { id: SCREEN_FLOW_ID }));
  return null;
}

const states: StateAssertions<Machine> = {
  // Whatever the version check does, the system's long-lived actors run.
  versionCheck: () => {
    for (const id of [SYSTEM_IDS.session, SYSTEM_IDS.toasts, SYSTEM_IDS.liveUpdates]) {
      expect(app.system.get(id)?.getSnapshot().status, id).toBe('active');
    }
  },
  'versionCheck.waitingForVisibleTab': () => {
    expect(childOfApp('firstVisibleTab')).toBeDefined();
    expect(childOfApp('loadVersionCheck')).toBeUndefined();
    expect(versionCheck()).toBeUndefined();
  },
  'versionCheck.loading': () => {
    expect(childOfApp('loadVersionCheck')).toBeDefined();
    expect(childOfApp('firstVisibleTab')).toBeUndefined();
    expect(versionCheck()).toBeUndefined();
  },
  // The loaded check runs in the system and took the visibility change that loaded it as its first check.
  'versionCheck.running': () => {
    const check = versionCheck()!.getSnapshot();
    expect(check.value).toBe('checking');
    expect(check.context).toEqual({ builtVersion: BUILT_VERSION });
    expect(childOfApp('firstVisibleTab')).toBeUndefined();
  },
  unreadReplies: () => {
    expect(app.getSnapshot().status).toBe('active');
  },
  'unreadReplies.notLoaded': () => {
    expect(childOfApp('loadUnreadReplies')).toBeUndefined();
    expect(unreadReplies()).toBeUndefined();
  },
  'unreadReplies.loading': () => {
    expect(childOfApp('loadUnreadReplies')).toBeDefined();
    expect(unreadReplies()).toBeUndefined();
  },
  // The frame that loaded them, then every later word of the frame and the threads, reached them.
  'unreadReplies.running': () => {
    expect(unreadReplies()!.getSnapshot().context.received).toEqual(toUnreadReplies);
  },
  // Whatever the drawer does, the app goes on.
  requestCreation: () => {
    expect(app.getSnapshot().status).toBe('active');
  },
  'requestCreation.notLoaded': () => {
    expect(childOfApp('loadRequestCreation')).toBeUndefined();
    expect(drawer()).toBeUndefined();
  },
  'requestCreation.loading': () => {
    expect(childOfApp('loadRequestCreation')).toBeDefined();
    expect(drawer()).toBeUndefined();
  },
  // The command that loaded the drawer, then every later one, reached it.
  'requestCreation.running': () => {
    expect(drawer()!.getSnapshot().context.received).toEqual(toDrawer);
  },
};

const settlements = settlementExecutors(appMachine, pendingCalls);

function sendCommand({ event }: { event: ModelEvent }) {
  if (app.getSnapshot().matches({ requestCreation: 'running' })) toDrawer.push(event as RequestCreationCommand);
  act(() => app.send(event as RequestCreationCommand));
}

function tellUnreadReplies({ event }: { event: ModelEvent }) {
  if (app.getSnapshot().matches({ unreadReplies: 'running' })) toUnreadReplies.push(event.type);
  act(() => app.send(event as typeof READ_UP_TO));
}

const events: EventExecutors<Machine> = {
  ...settlements,
  EMPLOYEE_SHOWN: tellUnreadReplies,
  EMPLOYEE_LEFT: tellUnreadReplies,
  READ_UP_TO: tellUnreadReplies,
  'xstate.done.actor.loadUnreadReplies': async ({ event }) => {
    toUnreadReplies = ['EMPLOYEE_SHOWN'];
    await pendingCalls.settle({ ...event, output: recordingUnreadReplies });
  },
  // The counts stay unshown, and the failure is reported.
  'xstate.error.actor.loadUnreadReplies': async (step) => {
    const before = reportedErrors(sent).length;
    await settlements['xstate.error.actor.loadUnreadReplies']!(step);
    await waitFor(() =>
      expect(reportedErrors(sent).slice(before)).toEqual([
        expect.objectContaining({ message: LOAD_FAILURE.message, component: 'App', feature: 'unread replies' }),
      ]),
    );
  },
  TAB_VISIBLE: () => {
    // A hidden tab loads nothing.
    setVisibility('hidden');
    expect(childOfApp('loadVersionCheck')).toBeUndefined();
    setVisibility('visible');
  },
  OPEN_CATEGORIES: sendCommand,
  START_SURVEY: sendCommand,
  'xstate.done.actor.loadRequestCreation': async ({ event }) => {
    toDrawer = [app.getSnapshot().context.pendingCommand!];
    await pendingCalls.settle({ ...event, output: recordingDrawer });
  },
  // The press is lost and the failure reported.
  'xstate.error.actor.loadRequestCreation': async (step) => {
    const before = reportedErrors(sent).length;
    await settlements['xstate.error.actor.loadRequestCreation']!(step);
    await waitFor(() =>
      expect(reportedErrors(sent).slice(before)).toEqual([
        expect.objectContaining({ message: LOAD_FAILURE.message, component: 'App', feature: 'request creation' }),
      ]),
    );
  },
  // The screen unmounts: its flow asks the app, its parent, to stop it.
  FLOW_ENDED: () => {
    let flow: AnyActorRef | undefined;
    const { unmount } = render(inApp(app, <Screen onFlow={(started) => (flow = started)} />));
    expect(flow?.getSnapshot().status).toBe('active');
    unmount();
    expect(flow?.getSnapshot().status).toBe('stopped');
  },
  // The screen's flow fails as it starts: its screen shows the failure (its error boundary); the app goes on, its
  // regions where they were (the model's state) and its long-lived actors running (the states' assertions).
  [SCREEN_FLOW_FAILED]: () => {
    let flow: AnyActorRef | undefined;
    render(inApp(app, <Screen flow={failingFlow} onFlow={(started) => (flow = started)} />));
    expect(flow?.getSnapshot()).toMatchObject({ status: 'error', error: FLOW_FAILURE });
    expect(app.getSnapshot().status).toBe('active');
  },
};

describe('app machine: the actor system', () => {
  beforeEach(() => {
    pendingCalls.clear();
    ({ sent } = fakeNetwork([ERROR_REPORTS_ROUTE]));
    toDrawer = [];
    toUnreadReplies = [];
    const machine = appMachine.provide({
      actors: {
        loadUnreadReplies: pendingCalls.logic<typeof unreadRepliesMachine>(),
        loadVersionCheck: pendingCalls.logic<typeof versionCheckMachine>(),
        loadRequestCreation: pendingCalls.logic<typeof requestCreationMachine>(),
      },
    });
    app = createActor(machine, { systemId: SYSTEM_IDS.app }).start();
  });

  afterEach(() => {
    app.stop();
    vi.restoreAllMocks();
  });

  it.each(titled)('$title', async ({ path }) => {
    await runPath(path, () => app.getSnapshot(), states, events);
  });

  // Sequences whose states the model reaches by shorter paths (a state is keyed by its value, context and the step
  // into it, not by what came before), walked step by step with the model's executors and assertions.
  async function walk(...steps: ModelEvent[]) {
    for (const event of steps) await events[event.type]!({ event, state: app.getSnapshot() });
  }

  it('hands the drawer only the latest command sent while it loaded', async () => {
    await walk(OPEN_CATEGORIES, START_SURVEY, { type: 'xstate.done.actor.loadRequestCreation' });
    await waitFor(() => states['requestCreation.running']!(app.getSnapshot()));
    expect(toDrawer).toEqual([START_SURVEY]);
  });

  it('loads the drawer again on the press after a failed load', async () => {
    await walk(OPEN_CATEGORIES, { type: 'xstate.error.actor.loadRequestCreation', error: LOAD_FAILURE }, START_SURVEY);
    expect(app.getSnapshot().context.pendingCommand).toEqual(START_SURVEY);
    await walk({ type: 'xstate.done.actor.loadRequestCreation' });
    await waitFor(() => states['requestCreation.running']!(app.getSnapshot()));
    expect(toDrawer).toEqual([START_SURVEY]);
  });

  it('loads the version check again on the next visible tab after a failed load', async () => {
    await walk({ type: 'TAB_VISIBLE' }, { type: 'xstate.error.actor.loadVersionCheck', error: LOAD_FAILURE });
    states['versionCheck.waitingForVisibleTab']!(app.getSnapshot());
    await walk({ type: 'TAB_VISIBLE' }, { type: 'xstate.done.actor.loadVersionCheck', output: loadedVersionCheck });
    await waitFor(() => states['versionCheck.running']!(app.getSnapshot()));
  });
});

describe('app model coverage', () => {
  it('asserts and reaches every state, executes every event and takes every transition', () => {
    expectFullCoverage(appMachine, paths, states, events);
  });

  it('walks the paths the rules call for', () => {
    expectScenariosWalked(
      titled.map(({ title }) => title),
      {
        'the first visible tab loads and starts the check': /^start → tab visible → version check loaded$/,
        'a failed version check load waits for the next visible tab': /^start → tab visible → version check fails to load$/,
        'the pressed command reaches the loaded drawer': /^start → (open categories|start survey) → drawer loaded/,
        'a command while loading replaces the pending one': /^start → open categories → (open categories|start survey)$/,
        'later commands are forwarded': /drawer loaded → (open categories|start survey)$/,
        'a failed drawer load loses the press': /^start → (open categories|start survey) → drawer fails to load$/,
        'a screen left stops its flow': /^start → screen left$/,
        "a screen's failed flow leaves the app running": /^start → screen's flow fails$/,
        "the employee's frame loads the unread replies, and tells them it is shown": /^start → employee frame shown → unread replies loaded/,
        'the frame and the threads reach the loaded unread replies': /unread replies loaded → (employee frame left|a thread read to its end)/,
        'a frame gone before the load needs nothing': /^start → employee frame shown → employee frame left$/,
        'a failed load of the unread replies is reported': /^start → employee frame shown → unread replies fail to load$/,
      },
    );
  });
});
