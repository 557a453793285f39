/**
 * The model test of an admin collection screen (machines/adminCollection.ts), one configuration at a time: the paths
 * generated through the screen's statechart run against its real view, with its calls answered at the network level
 * (adminApi.support.ts). What every collection screen shows in each state is asserted here; each screen gives its rows,
 * its form's fields, the requests it sends and how the user does what its own events stand for.
 */
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Actor, type AnyStateMachine, createActor } from 'xstate';
import type { AdminCompany } from '../../src/contract/admin.ts';
import type { AdminCollectionContext, AdminRecord, ListChange } from '../../src/machines/adminCollection.ts';
import { type FakeRoute, type FormWithImage, type SentCall, fakeAdminApi, imageUploadExecutors, itWaitsForTheFormImage } from './adminApi.support.ts';
import { FakeXMLHttpRequest } from './fakeXMLHttpRequest.support.ts';
import {
  type EventExecutors,
  type LabelledEvent,
  type ModelEvent,
  type StateAssertions,
  expectFullCoverage,
  expectScenariosWalked,
  flowModel,
  pendingCalls,
  runPath,
  settlementExecutors,
} from './modelPaths.support.ts';

export type Context<Item, Draft = object, Choices = unknown> = AdminCollectionContext<Item, Draft, Choices>;
export type Snapshot<Item, Draft = object, Choices = unknown> = { context: Context<Item, Draft, Choices>; matches(state: string): boolean };

export interface Request {
  method: string;
  path: string;
  body?: unknown;
}

/** What the user is asked before a confirmed change from the list. */
export interface Confirmation {
  title: string;
  confirmLabel: string;
}

export interface CollectionScreen<Item extends AdminRecord, Draft> {
  machine: AnyStateMachine;
  /** The screen's heading, and the region it names. */
  heading: string;
  view: (actor: Actor<AnyStateMachine>) => ReactElement;
  /** The fake routes, by the invoke ids of the collection machine: list, open, save, change. */
  routes: FakeRoute[];
  events: LabelledEvent[];
  offer: (snapshot: Snapshot<Item, Draft>, event: LabelledEvent) => boolean;
  loadError: string;
  /** The requests that load the list (in either order). */
  loads: string[];
  newLabel?: string;
  /** The rows as the list shows them. */
  expectRows: (items: Item[], snapshot: Snapshot<Item, Draft>) => void;
  /** The open form's fields as typed, each message beside the field it is about; returns its Save button's name. */
  expectForm: (snapshot: Snapshot<Item, Draft>, dialog: HTMLElement) => void;
  saveButton: RegExp;
  saved: (form: NonNullable<Context<Item, Draft>['form']>) => Request;
  /** Why leaving the open form loses something. */
  unsaved: string;
  opens?: (itemId: number | null) => string[];
  changed?: (change: ListChange) => Request;
  /** The question for the record changed, and the change asked for (a screen may ask differently per setting). */
  confirmation?: (item: Item, change: ListChange) => Confirmation;
  /** The user's way of doing the screen's own events (EDIT, CHANGE, MOVE, SET, EDIT_DRAFT). */
  executors: (user: () => UserEvent, dialog: () => HTMLElement) => EventExecutors<AnyStateMachine>;
  scenarios: Record<string, RegExp>;
  /** A form's image upload, checked once the form is filled in by `fill`. */
  image?: Omit<FormWithImage, 'dialog' | 'user' | 'isEditing' | 'sent' | 'saveButton'> & { fill: (user: UserEvent) => Promise<void> };
}

export const typeInto = async (user: UserEvent, input: HTMLElement, text: string) => {
  await user.clear(input);
  if (text) await user.type(input, text);
};

/** A form with no message. */
export const clean = (context: { fieldErrors: object; formError: string | null }) => Object.keys(context.fieldErrors).length === 0 && context.formError === null;
/** A loaded, non-empty list, with no notice or refusal above it. */
export const untouched = (context: { notice: string | null; refusal: string | null; items: unknown[] | null }) =>
  context.notice === null && context.refusal === null && context.items !== null && context.items.length > 0;
export const textbox = (container: HTMLElement, name: string | RegExp) => within(container).getByRole('textbox', { name });
/** The rows of a grid, without its header row. */
export const rowsOf = (grid: string) => within(screen.getByRole('grid', { name: grid, hidden: true })).getAllByRole('row', { hidden: true }).slice(1);

const dialog = () => screen.getByRole('dialog');

/** Runs each path of the screen's model against its view, and checks the model covers the statechart. */
export function describeCollection<Item extends AdminRecord, Draft>(spec: CollectionScreen<Item, Draft>): void {
  const { paths, titled } = flowModel(spec.machine, {
    events: spec.events,
    offer: (snapshot, event) => spec.offer(snapshot as unknown as Snapshot<Item, Draft>, event),
  });
  let user: UserEvent;
  let actor: Actor<AnyStateMachine>;
  let sent: SentCall[];
  const snapshotOf = (snapshot: unknown) => snapshot as Snapshot<Item, Draft>;
  const itemOf = ({ context }: Snapshot<Item, Draft>) => context.items?.find((item) => item.id === context.change?.itemId);

  function expectFrame(snapshot: Snapshot<Item, Draft>, { busy }: { busy: boolean }) {
    const { context } = snapshot;
    expect(screen.getByRole('region', { name: spec.heading, hidden: true })).toHaveAttribute('aria-busy', String(busy));
    if (context.items) spec.expectRows(context.items, snapshot);
    if (context.notice) expect(screen.getByRole('status', { hidden: true })).toHaveTextContent(context.notice);
    else expect(screen.queryByRole('status', { hidden: true })).not.toBeInTheDocument();
  }

  function expectForm(snapshot: Snapshot<Item, Draft>) {
    const { formError } = snapshot.context;
    spec.expectForm(snapshot, dialog());
    if (formError) expect(within(dialog()).getByText(formError)).toBeInTheDocument();
    return within(dialog()).getByRole('button', { name: spec.saveButton });
  }

  function expectConfirmation(snapshot: Snapshot<Item, Draft>) {
    const { title, confirmLabel } = spec.confirmation!(itemOf(snapshot)!, snapshot.context.change!);
    const confirmation = screen.getByRole('alertdialog', { name: title });
    const { refusal } = snapshot.context;
    if (refusal) expect(within(confirmation).getByRole('alert')).toHaveTextContent(refusal);
    else expect(within(confirmation).queryByRole('alert')).not.toBeInTheDocument();
    return within(confirmation).getByRole('button', { name: confirmLabel });
  }

  const lastPaths = (count: number) => sent.slice(-count).map(({ method, path }) => `${method} ${path}`).sort();
  const asSent = ({ method, path, body }: Request) => ({ method, path, body });

  const states: StateAssertions<AnyStateMachine> = {
    loading: (snapshot) => {
      expectFrame(snapshotOf(snapshot), { busy: true });
      expect(screen.getByText('Loading')).toBeInTheDocument();
      expect(lastPaths(spec.loads.length)).toEqual([...spec.loads].sort());
    },
    failed: (snapshot) => {
      expectFrame(snapshotOf(snapshot), { busy: false });
      expect(screen.getByRole('alert')).toHaveTextContent(spec.loadError);
      expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
    },
    list: (snapshot) => {
      expectFrame(snapshotOf(snapshot), { busy: false });
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
      expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
      const { refusal } = snapshotOf(snapshot).context;
      if (refusal) expect(screen.getByRole('alert')).toHaveTextContent(refusal);
      else expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    },
    editing: (snapshot) => {
      expectFrame(snapshotOf(snapshot), { busy: false });
      expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
      expect(expectForm(snapshotOf(snapshot))).not.toHaveAttribute('aria-busy');
    },
    confirmingDiscard: (snapshot) => {
      expectFrame(snapshotOf(snapshot), { busy: false });
      expect(screen.getByRole('alertdialog', { name: 'Discard your changes?' })).toHaveTextContent(spec.unsaved);
    },
    saving: (snapshot) => {
      expectFrame(snapshotOf(snapshot), { busy: true });
      expect(expectForm(snapshotOf(snapshot))).toHaveAttribute('aria-busy', 'true');
      expect(sent.at(-1)).toEqual(asSent(spec.saved(snapshotOf(snapshot).context.form!)));
    },
  };
  const stateNames = Object.keys(spec.machine.states);
  if (stateNames.includes('opening')) {
    states.opening = (snapshot) => {
      expectFrame(snapshotOf(snapshot), { busy: true });
      const opens = spec.opens!(snapshotOf(snapshot).context.opening?.itemId ?? null);
      expect(lastPaths(opens.length)).toEqual([...opens].sort());
    };
  }
  if (stateNames.includes('confirming')) {
    states.confirming = (snapshot) => {
      expectFrame(snapshotOf(snapshot), { busy: false });
      expect(expectConfirmation(snapshotOf(snapshot))).not.toHaveAttribute('aria-busy');
    };
  }
  if (stateNames.includes('changing')) {
    states.changing = (snapshot) => {
      expectFrame(snapshotOf(snapshot), { busy: true });
      const { change } = snapshotOf(snapshot).context;
      if (screen.queryByRole('alertdialog')) expect(expectConfirmation(snapshotOf(snapshot))).toHaveAttribute('aria-busy', 'true');
      expect(sent.at(-1)).toEqual(asSent(spec.changed!(change!)));
    };
  }

  const executors = (): EventExecutors<AnyStateMachine> => {
    const own = spec.executors(() => user, dialog);
    const inQuestion = (name: string | RegExp) => () => user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name }));
    const all: EventExecutors<AnyStateMachine> = {
      ...settlementExecutors(spec.machine, pendingCalls),
      ...imageUploadExecutors(() => user, dialog),
      RETRY: () => user.click(screen.getByRole('button', { name: 'Try again' })),
      NEW: () => user.click(screen.getByRole('button', { name: spec.newLabel })),
      SAVE: () => user.click(within(dialog()).getByRole('button', { name: spec.saveButton })),
      // The confirmation's Cancel when it is open, else the form's.
      CANCEL: () => user.click(within(screen.queryByRole('alertdialog') ?? dialog()).getByRole('button', { name: 'Cancel' })),
      DISCARD: inQuestion('Discard changes'),
      KEEP_EDITING: inQuestion('Keep editing'),
      CONFIRM: ({ state }) => inQuestion(spec.confirmation!(itemOf(snapshotOf(state))!, snapshotOf(state).context.change!).confirmLabel)(),
      ...own,
    };
    const handled = new Set(spec.machine.root.events);
    return Object.fromEntries(Object.entries(all).filter(([type]) => handled.has(type)));
  };

  function openScreen() {
    user = userEvent.setup();
    pendingCalls.clear();
    FakeXMLHttpRequest.sent = [];
    vi.stubGlobal('XMLHttpRequest', FakeXMLHttpRequest);
    sent = fakeAdminApi(spec.routes);
    actor = createActor(spec.machine).start();
    render(spec.view(actor));
  }

  function closeScreen() {
    cleanup();
    actor.stop();
    vi.unstubAllGlobals();
  }

  describe(`${spec.machine.id} machine against its screen`, () => {
    beforeEach(openScreen);
    afterEach(closeScreen);

    // The longest paths type a whole offering on a busy machine.
    it.each(titled)('$title', async ({ path }) => {
      await runPath(path, () => actor.getSnapshot(), states, executors());
    }, 60_000);
  });

  const { image } = spec;
  if (image) {
    describe(`${spec.machine.id}: the form's image, an upload that is a child actor of the screen's machine`, () => {
      beforeEach(async () => {
        openScreen();
        const listed = spec.events.find(({ event }) => event.type === 'xstate.done.actor.list' && (event.output as unknown[]).length > 0)!;
        await pendingCalls.settle(listed.event as ModelEvent);
        await user.click(screen.getByRole('button', { name: spec.newLabel }));
        await image.fill(user);
      });
      afterEach(closeScreen);

      itWaitsForTheFormImage({
        ...image,
        dialog,
        user: () => user,
        saveButton: spec.saveButton,
        isEditing: () => actor.getSnapshot().matches('editing'),
        sent: () => sent,
      });
    });
  }

  describe(`${spec.machine.id} model coverage`, () => {
    it('asserts every state and executes every event', () => {
      expectFullCoverage(spec.machine, paths, states, executors());
    });

    it('walks the paths the rules call for', () => {
      expectScenariosWalked(titled.map(({ title }) => title), spec.scenarios);
    });
  });
}

/** Two companies as the admin API lists them, for the screens that offer a company to choose. */
const companyRow = (id: number, name: string): AdminCompany => ({
  id,
  name,
  slug: name.toLowerCase(),
  image_url: null,
  logo_upload_key: null,
  mfa_policy: 'off',
  email_domains: [`${name.toLowerCase()}.test`],
  internal_staff: false,
  active: true,
  deactivated_at: null,
  employee_count: 4,
  created_at: '2026-01-05T09:00:00.000Z',
});
export const COMPANIES = [companyRow(1, 'Acme'), companyRow(2, 'Globex')];
