import { act, render, screen, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SimulatedClock, createActor, type Actor, type SnapshotFrom } from 'xstate';
import { TestModel, serializeSnapshot, type TestParam } from 'xstate/graph';
import {
  TOAST_LIFETIME_MS,
  toastsMachine,
  type ToastsEvent,
} from '../../src/machines/toasts.machine.ts';
import { AppToasts } from '../../src/app/RootLayout.tsx';
import { type AppActor, appMachine } from '../../src/machines/app.machine.ts';
import { SYSTEM_IDS } from '../../src/machines/system.ts';
import { inApp } from './appSystem.support.tsx';
import { expectFullCoverage } from './modelPaths.support.ts';

type ToastsSnapshot = SnapshotFrom<typeof toastsMachine>;

/*
 * The model is kept finite: toasts come from a pool of three ids, at most two are on screen, and at most one
 * auto-dismissing toast is pending at a time, so advancing the clock expires exactly the toast the model expects.
 */
const TOAST_IDS = ['toast-a', 'toast-b', 'toast-c'] as const;
const MAX_TOASTS = 2;
const messageOf = (id: string) => `Message for ${id}`;

function eventsFor(snapshot: ToastsSnapshot): ToastsEvent[] {
  const { toasts } = snapshot.context;
  const events: ToastsEvent[] = [];
  if (toasts.length < MAX_TOASTS) {
    for (const id of TOAST_IDS.filter((candidate) => !toasts.some((toast) => toast.id === candidate))) {
      events.push({ type: 'SHOW', toast: { id, message: messageOf(id), type: 'info', autoDismiss: false } });
      if (!toasts.some((toast) => toast.autoDismiss)) {
        events.push({ type: 'SHOW', toast: { id, message: messageOf(id), type: 'error', autoDismiss: true } });
      }
    }
  }
  for (const toast of toasts) events.push({ type: 'DISMISS', id: toast.id });
  const pendingExpiry = toasts.find((toast) => toast.autoDismiss);
  if (pendingExpiry) events.push({ type: 'EXPIRE', id: pendingExpiry.id });
  return events;
}

const model = new TestModel(toastsMachine, {
  events: eventsFor,
  // The event that led to a state is part of it, so the paths also end in states reached by DISMISS and EXPIRE
  // (an empty queue after a close is a different test from the empty queue at the start).
  serializeState: (snapshot, event) => `${serializeSnapshot(snapshot)} via ${event?.type ?? 'start'}`,
  stateMatcher: (snapshot, key) => snapshot.matches(key as 'empty' | 'showing'),
});

let actor: Actor<typeof toastsMachine>;
// The machine's timers run on a simulated clock: the test moves time, nothing sleeps.
let clock: SimulatedClock;
let app: AppActor;
let user: UserEvent;

function toastItem(id: string): HTMLElement {
  const item = screen.getByText(messageOf(id)).closest('li');
  if (!item) throw new Error(`no toast shows ${messageOf(id)}`);
  return item;
}

const stateAssertions: NonNullable<TestParam<ToastsSnapshot, ToastsEvent>['states']> = {
  empty: () => {
    expect(screen.queryByRole('list', { name: 'Notifications' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Close' })).not.toBeInTheDocument();
  },
  showing: (snapshot) => {
    const items = within(screen.getByRole('list', { name: 'Notifications' })).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual(snapshot.context.toasts.map((toast) => toast.message));
    for (const item of items) {
      expect(within(item).getByRole('button', { name: 'Close' })).toBeInTheDocument();
      // SPEC §2: the success-style icon whatever the toast's type.
      expect(item.querySelector('svg.lc-toast__icon')).not.toBeNull();
    }
  },
};

const eventExecutors: NonNullable<TestParam<ToastsSnapshot, ToastsEvent>['events']> = {
  // App code shows toasts through useShowToast (machines/appSystem.tsx), which sends exactly this event to the system's toasts.
  SHOW: ({ event }) => {
    act(() => actor.send(event as ToastsEvent));
  },
  DISMISS: async ({ event }) => {
    const { id } = event as Extract<ToastsEvent, { type: 'DISMISS' }>;
    await user.click(within(toastItem(id)).getByRole('button', { name: 'Close' }));
  },
  EXPIRE: ({ event }) => {
    const { id } = event as Extract<ToastsEvent, { type: 'EXPIRE' }>;
    act(() => clock.increment(TOAST_LIFETIME_MS - 1));
    expect(toastItem(id)).toBeInTheDocument();
    act(() => clock.increment(1));
  },
};

const paths = model.getShortestPaths();

describe('toasts machine against the app\'s toast region', () => {
  beforeEach(() => {
    clock = new SimulatedClock();
    user = userEvent.setup();
    // The toasts live in the app's system, whose actors share its clock.
    app = createActor(appMachine, { clock }).start();
    actor = app.system.get(SYSTEM_IDS.toasts) as typeof actor;
    render(inApp(app, <AppToasts />));
  });

  afterEach(() => {
    app.stop();
  });

  it.each(paths.map((path) => [path.description, path] as const))('%s', async (_description, path) => {
    await path.test({ states: stateAssertions, events: eventExecutors });
  });
});

describe('toasts model coverage', () => {
  it('asserts and reaches every state, executes every event and takes every transition', () => {
    expectFullCoverage(toastsMachine, paths, stateAssertions, eventExecutors);
  });
});
