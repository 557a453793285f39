import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Actor, SimulatedClock, createActor, fromCallback } from 'xstate';
import type { ConsoleQueue, ConsoleRequestSummary, ConsoleRequestsResponse } from '../../src/contract/console.ts';
import type { LiveEvent } from '../../src/contract/events.ts';
import { type ConsoleQueueEvent, consoleQueueMachine, queueLiveUpdates } from '../../src/machines/consoleQueue.machine.ts';
import type { consoleRequestMachine } from '../../src/machines/consoleRequest.machine.ts';
import { serverRefusal } from './httpFailures.support.ts';
import type { LiveUpdatesStatus } from '../../src/services/liveUpdates.ts';
import { ConsoleHeader } from '../../src/views/console/ConsoleLayout.tsx';
import { ConsoleQueueView } from '../../src/views/console/ConsoleQueueView.tsx';
import {
  type EventExecutors,
  type LabelledEvent,
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
import {
  BENEFITS_HELP,
  CAR_SERVICE,
  COUNTS,
  COUNTS_AFTER_NEWS,
  ME,
  OPEN_REQUEST,
  REGISTRATION,
  STAFF,
  VET_VISIT,
  employeeMessage,
  liveStream,
  wireMessage,
} from './console.fixtures.ts';
import { type OpenLiveStream, serveLiveStream } from './liveStream.support.ts';
import { type SentCall, fakeNetwork } from './network.support.ts';
import { startFlow, startTestApp } from './appSystem.support.tsx';
import type { AppActor } from '../../src/machines/app.machine.ts';

type Machine = typeof consoleQueueMachine;
type QueueSnapshot = ReturnType<Machine['transition']>;
type QueueEvent = ConsoleQueueEvent;

// ---- The console as the server answers it (restated here, so that the machine is not its own judge) ----

const QUEUE_NAMES: Record<ConsoleQueue, string> = {
  in_queue: 'In Queue',
  in_progress_mine: 'In Progress: mine',
  in_progress: "In Progress: everyone's",
  completed: 'Completed',
};
const NEW_REQUEST: ConsoleRequestSummary = { ...CAR_SERVICE, id: 6, name: 'Find a dog sitter', unread_count: 0 };
const SEARCH = 'grace';
/** The request the console's address names. */
const SELECTED_REQUEST_ID = BENEFITS_HELP.id;

/** The list each query answers; a refresh of the untouched In Queue list brings a request that came in meanwhile. */
function listFor(queue: ConsoleQueue, query: string, refreshed: boolean): ConsoleRequestsResponse {
  const lists: Record<ConsoleQueue, ConsoleRequestSummary[]> = {
    in_queue: query === SEARCH ? [CAR_SERVICE] : [BENEFITS_HELP, CAR_SERVICE],
    in_progress_mine: [REGISTRATION],
    in_progress: [REGISTRATION, VET_VISIT],
    completed: [],
  };
  const news = refreshed && queue === 'in_queue' && query === '';
  const requests = news ? [...lists.in_queue, NEW_REQUEST] : lists[queue];
  return { requests, counts: news ? COUNTS_AFTER_NEWS : { ...COUNTS, completed: 0 }, total: requests.length };
}

const answerLabel = (queue: ConsoleQueue, query: string, refreshed: boolean) =>
  `list ${queue}${query ? ` "${query}"` : ''}${refreshed && queue === 'in_queue' && query === '' ? ' with news' : ''}`;

/** The searches each queue is asked with: In Queue and Completed are also searched. */
const SEARCHES_OF: Record<ConsoleQueue, string[]> = { in_queue: ['', SEARCH], in_progress_mine: [''], in_progress: [''], completed: ['', SEARCH] };

const LIST_ANSWERS: LabelledEvent[] = (Object.keys(QUEUE_NAMES) as ConsoleQueue[]).flatMap((queue) =>
  SEARCHES_OF[queue].flatMap((query) =>
    [false, true].map((refreshed) => doneEvent('listRequests', listFor(queue, query, refreshed), answerLabel(queue, query, refreshed))),
  ),
);

/** Issue 28: a request in the queue missed its first-response target; nobody has it, so every concierge hears. */
const SLA_ALERT: LiveEvent = {
  type: 'sla.alert',
  request_id: BENEFITS_HELP.id,
  request_name: BENEFITS_HELP.name,
  target: 'first_response',
  kind: 'breached',
  due_at: '2026-12-01T12:00:00.000Z',
  assignee_id: null,
};

const LIVE_MESSAGE: LiveEvent = {
  type: 'message.created',
  request_id: BENEFITS_HELP.id,
  message: wireMessage(employeeMessage(41, 'Any news?', 5)),
};

/**
 * The open request as its queue sees it: a child that reports each change it makes. The request itself is walked by
 * its own model (consoleRequest.model.test.tsx); the network-level test below opens the real one under the queue.
 */
const openRequestStandIn = fromCallback<{ type: 'MAKE_CHANGE' }>(({ receive, sendBack }) => {
  receive(() => sendBack({ type: 'REFRESH' }));
});

// ---- The model ----

/** Nothing has happened to the console yet but what the path itself did. */
const untouched = ({ context }: QueueSnapshot) => context.counts?.in_queue !== COUNTS_AFTER_NEWS.in_queue;
/** The console as it opens: In Queue, no search, the stream connecting, no news; a request may be open beside it. */
const atHomeBesideARequest = (snapshot: QueueSnapshot) =>
  snapshot.context.queue === 'in_queue' && snapshot.context.query === '' && snapshot.context.liveStatus === 'connecting' && untouched(snapshot);
/** The same with no request open: every path but those about the open request starts from here. */
const atHome = (snapshot: QueueSnapshot) => atHomeBesideARequest(snapshot) && snapshot.context.shownRequest === null;

const { paths, titled } = flowModel(consoleQueueMachine, {
  events: [
    ...LIST_ANSWERS,
    errorEvent('listRequests', serverRefusal(500, 'An unexpected error occurred'), 'list fails'),
    ...(['in_progress_mine', 'in_progress', 'completed'] as const).map((queue) => ({
      label: `open ${queue}`,
      event: { type: 'SELECT_QUEUE', queue },
    })),
    { label: 'type "gr"', event: { type: 'TYPE_SEARCH', text: 'gr' } },
    { label: `type "${SEARCH}"`, event: { type: 'TYPE_SEARCH', text: SEARCH } },
    { label: 'clear the search', event: { type: 'TYPE_SEARCH', text: '' } },
    { label: 'press Enter', event: { type: 'SUBMIT_SEARCH' } },
    { label: 'retry', event: { type: 'RETRY' } },
    { label: 'open a request', event: { type: 'SHOW_REQUEST', requestId: SELECTED_REQUEST_ID } },
    { label: 'open another request', event: { type: 'SHOW_REQUEST', requestId: NEW_REQUEST.id } },
    { label: 'back to the queues', event: { type: 'SHOW_REQUEST', requestId: null } },
    { label: 'open request changed', event: { type: 'REFRESH' } },
    { label: 'employee writes', event: { type: 'LIVE_EVENT', event: LIVE_MESSAGE } },
    { label: 'target breached', event: { type: 'LIVE_EVENT', event: SLA_ALERT } },
    { label: 'dismiss alerts', event: { type: 'DISMISS_ALERTS' } },
    { label: 'poll', event: { type: 'LIVE_POLL' } },
    { label: 'stream opens', event: { type: 'LIVE_STATUS', status: 'live' } },
    { label: 'stream drops', event: { type: 'LIVE_STATUS', status: 'polling' } },
    { label: 'debounce ends', event: { type: 'xstate.after.searchDebounce.consoleQueue.typing' } },
  ],
  offer: (snapshot, { label, event }) => {
    const { context } = snapshot;
    switch (event.type) {
      case 'xstate.done.actor.listRequests':
        return label === answerLabel(context.queue, context.query, context.requests !== null);
      case 'xstate.error.actor.listRequests':
        // The console's first list fails, and so does a search of In Queue.
        if (context.query === SEARCH) {
          return context.queue === 'in_queue' && context.shownRequest === null && context.liveStatus === 'connecting' && untouched(snapshot);
        }
        return atHomeBesideARequest(snapshot) && context.searchText === '';
      case 'SELECT_QUEUE':
        // Every queue from a settled list; a queue change that interrupts a load, a search typed (it searches the
        // queue chosen) or a failure once.
        if (snapshot.matches('typing')) return atHome(snapshot) && context.searchText === SEARCH && event.queue === 'completed';
        return atHome(snapshot) && context.searchText === '' && (snapshot.matches('ready') || event.queue === 'completed');
      case 'TYPE_SEARCH':
        if (event.text === 'gr') return atHome(snapshot) && context.searchText === '';
        if (event.text === SEARCH) return context.searchText === 'gr';
        return context.query === SEARCH && snapshot.matches('ready');
      case 'SUBMIT_SEARCH':
        // Also while the search loads (it is asked for again) and after it failed (it is tried again).
        return context.queue === 'in_queue' && context.searchText === SEARCH;
      case 'SHOW_REQUEST': {
        // One request opens, another replaces it, and the console goes back to its queues.
        const shown = context.shownRequest?.requestId ?? null;
        const next = { null: SELECTED_REQUEST_ID, [SELECTED_REQUEST_ID]: NEW_REQUEST.id, [NEW_REQUEST.id]: null }[String(shown)];
        return atHomeBesideARequest(snapshot) && context.searchText === '' && snapshot.matches('ready') && event.requestId === next;
      }
      case 'REFRESH':
        // Only an open request reports a change.
        return context.shownRequest !== null && atHomeBesideARequest(snapshot) && context.searchText === '' && context.requests !== null;
      case 'LIVE_EVENT':
        if (label === 'target breached') return atHome(snapshot) && context.searchText === '' && snapshot.matches('ready') && context.alerts.length === 0;
        return atHome(snapshot) && context.searchText === '' && context.requests !== null && context.alerts.length === 0;
      case 'DISMISS_ALERTS':
        return context.alerts.length > 0 && snapshot.matches('ready');
      case 'LIVE_POLL':
        return context.liveStatus === 'polling' && untouched(snapshot) && context.shownRequest === null && snapshot.matches('ready');
      case 'LIVE_STATUS':
        if (!snapshot.matches('ready') || !untouched(snapshot) || context.queue !== 'in_queue' || context.query !== '') return false;
        if (context.shownRequest !== null) return false;
        return event.status === 'live' ? context.liveStatus === 'connecting' : context.liveStatus === 'live';
      default:
        return true;
    }
  },
});

// ---- The rendered queues, the fake server and the clock ----

let user: UserEvent;
let clock: SimulatedClock;
let actor: Actor<Machine>;

let sent: SentCall[];
/** The console's header and its queues, on the queue actor under test, with the request the address names. */
function renderConsoleQueues() {
  render(
    <MemoryRouter>
      <ConsoleHeader queue={actor} user={ME} />
      <ConsoleQueueView queue={actor} selectedRequestId={SELECTED_REQUEST_ID} />
    </MemoryRouter>,
  );
}

const listCalls = () => sent.filter(({ path }) => path === 'console/requests');
const searchBox = () => screen.getByRole('searchbox', { name: 'Search by employee or request name' });
const tab = (queue: ConsoleQueue) => screen.getByRole('tab', { name: new RegExp(`^${QUEUE_NAMES[queue]}`) });
const LIVE_TEXT: Record<LiveUpdatesStatus, string> = {
  connecting: 'Connecting…',
  live: 'Live',
  polling: 'Reconnecting (refreshing every few seconds)',
};

function expectRows(requests: ConsoleRequestSummary[], queue: ConsoleQueue) {
  const list = screen.getByRole('list', { name: `${QUEUE_NAMES[queue]} requests` });
  const rows = within(list).getAllByRole('link');
  expect(rows.map((row) => row.getAttribute('href'))).toEqual(requests.map((request) => `/console/requests/${request.id}`));
  requests.forEach((request, index) => {
    const row = rows[index] as HTMLElement;
    expect(row).toHaveTextContent(request.name);
    expect(row).toHaveTextContent(request.employee.full_name);
    const status = { open: 'In Queue', in_progress: 'In Progress', closed: 'Completed' }[request.status];
    expect(row).toHaveTextContent(`${status} · ${request.assignee?.full_name ?? 'Unassigned'}`);
    if (request.unread_count > 0) expect(row).toHaveTextContent(`${request.unread_count} unread`);
    else expect(row).not.toHaveTextContent('unread');
    if (request.id === SELECTED_REQUEST_ID) expect(row).toHaveAttribute('aria-current', 'page');
    else expect(row).not.toHaveAttribute('aria-current');
  });
}

/** What every state shows: the live indicator, the search field, the chosen queue, the counts; and the open request. */
function expectFrame({ context }: QueueSnapshot, { busy }: { busy: boolean }) {
  // The request the address names, and no other, runs as the queue's child.
  const requestChildren = Object.keys(actor.getSnapshot().children).filter((id) => id.startsWith('request-'));
  expect(requestChildren).toEqual(context.shownRequest ? [`request-${context.shownRequest.requestId}`] : []);
  expect(screen.getByRole('status')).toHaveTextContent(LIVE_TEXT[context.liveStatus]);
  expect(searchBox()).toHaveValue(context.searchText);
  for (const queue of Object.keys(QUEUE_NAMES) as ConsoleQueue[]) {
    expect(tab(queue)).toHaveAttribute('aria-selected', String(queue === context.queue));
    const count = context.counts?.[queue];
    expect(tab(queue)).toHaveAccessibleName(count === undefined ? QUEUE_NAMES[queue] : `${QUEUE_NAMES[queue]} ${count}`);
  }
  expect(screen.getByRole('region', { name: 'Queues' })).toHaveAttribute('aria-busy', String(busy));
  // Issue 28: the alerts heard, each a link to its request, announced as they arrive.
  const alerts = screen.getByRole('log', { name: 'Turnaround alerts' });
  expect(alerts).toHaveAttribute('aria-live', 'assertive');
  expect(within(alerts).queryAllByRole('link').map((link) => [link.textContent, link.getAttribute('href')])).toEqual(
    context.alerts.map((alert) => [`Breached: first response of "${alert.request_name}"`, `/console/requests/${alert.request_id}`]),
  );
  if (context.alerts.length > 0) expect(within(alerts).getByRole('button', { name: 'Dismiss alerts' })).toBeInTheDocument();
  else expect(alerts).toBeEmptyDOMElement();
}

/** The list answering the queue and search shown, or its placeholder until it has come. */
function expectList({ context }: QueueSnapshot) {
  if (context.requests === null) {
    expect(screen.getByText('Loading')).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: / requests$/ })).not.toBeInTheDocument();
    return;
  }
  expect(screen.queryByText('Loading')).not.toBeInTheDocument();
  const expected = listFor(context.queue, context.query, untouched({ context } as QueueSnapshot) === false).requests;
  if (expected.length === 0) {
    expect(screen.getByText(context.query ? `No requests match “${context.query}”.` : 'No requests here.')).toBeInTheDocument();
  }
  else expectRows(expected, context.queue);
}

const states: StateAssertions<Machine> = {
  loading: (snapshot) => {
    expectFrame(snapshot, { busy: true });
    expectList(snapshot);
    const { queue, query } = snapshot.context;
    expect(listCalls().at(-1)).toEqual({
      method: 'GET',
      path: 'console/requests',
      body: undefined,
      query: { queue, ...(query ? { q: query } : {}), limit: '100' },
    });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  },
  ready: (snapshot) => {
    expectFrame(snapshot, { busy: false });
    expectList(snapshot);
  },
  typing: (snapshot) => {
    expectFrame(snapshot, { busy: false });
    expectList(snapshot);
  },
  failed: (snapshot) => {
    expectFrame(snapshot, { busy: false });
    expect(screen.getByRole('alert')).toHaveTextContent("We couldn't load the requests. Please try again.");
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: / requests$/ })).not.toBeInTheDocument();
  },
};

const events: EventExecutors<Machine> = {
  ...settlementExecutors(consoleQueueMachine, pendingCalls),
  SELECT_QUEUE: async ({ event }) => {
    await user.click(tab(event.queue as ConsoleQueue));
  },
  TYPE_SEARCH: async ({ event }) => {
    const text = event.text as string;
    const current = (searchBox() as HTMLInputElement).value;
    if (text === '') await user.clear(searchBox());
    else await user.type(searchBox(), text.slice(current.length));
  },
  // Enter asks for the list at once, whatever is under way.
  SUBMIT_SEARCH: async () => {
    const before = listCalls().length;
    await user.type(searchBox(), '{Enter}');
    await waitFor(() => expect(listCalls()).toHaveLength(before + 1));
  },
  RETRY: async () => {
    await user.click(screen.getByRole('button', { name: 'Try again' }));
  },
  SHOW_REQUEST: ({ event }) => act(() => actor.send(event as Extract<QueueEvent, { type: 'SHOW_REQUEST' }>)),
  // The open request, the queue's child, reports a change it made.
  REFRESH: () => act(() => actor.getSnapshot().context.shownRequest?.actor.send({ type: 'MAKE_CHANGE' } as never)),
  LIVE_EVENT: async ({ event }) => {
    await act(async () => liveStream.deliver(event.event as LiveEvent));
  },
  DISMISS_ALERTS: () => user.click(screen.getByRole('button', { name: 'Dismiss alerts' })),
  LIVE_POLL: async () => {
    await act(async () => liveStream.poll());
  },
  LIVE_STATUS: async ({ event }) => {
    await act(async () => liveStream.status(event.status as LiveUpdatesStatus));
  },
  'xstate.after.searchDebounce.consoleQueue.typing': () => {
    const before = listCalls().length;
    act(() => clock.increment(299));
    // Not yet: the list would be asked for on entering loading.
    expect(actor.getSnapshot().value).toBe('typing');
    expect(listCalls()).toHaveLength(before);
    act(() => clock.increment(1));
  },
};

describe('console queue machine against the queue view', () => {
  beforeEach(() => {
    user = userEvent.setup();
    pendingCalls.clear();
    liveStream.reset();
    ({ sent } = fakeNetwork([
      { method: 'GET', path: /^console\/requests$/, id: 'listRequests', answer: (list: ConsoleRequestsResponse) => list },
    ]));
    clock = new SimulatedClock();
    // The console's live stream is the fixture's, which each step drives (the live service itself is tested against
    // a real server: tests/server/realtime.client.test.ts).
    const machine = consoleQueueMachine.provide({
      actors: { liveUpdates: queueLiveUpdates(liveStream.subscribe), request: openRequestStandIn as unknown as typeof consoleRequestMachine },
    });
    actor = createActor(machine, { clock }).start();
    renderConsoleQueues();
  });

  afterEach(() => {
    actor.stop();
    // The console's one live stream ends with it.
    expect(liveStream.subscriptions).toBe(1);
    expect(liveStream.unsubscriptions).toBe(1);
  });

  it.each(titled)('$title', async ({ path }) => {
    await runPath(path, () => actor.getSnapshot(), states, events);
  });
});

describe('console queue live over the network', () => {
  let streams: OpenLiveStream[];
  let app: AppActor;
  const liveIndicator = () => screen.getByRole('status');

  beforeEach(() => {
    ({ sent } = fakeNetwork([
      { method: 'GET', path: /^console\/requests$/, answer: () => listFor('in_queue', '', false) },
    ]));
    streams = serveLiveStream();
    // The stream is the system's (liveUpdates.machine.ts), which the queue subscribes to.
    app = startTestApp();
    actor = startFlow(app, consoleQueueMachine);
    renderConsoleQueues();
  });

  afterEach(() => {
    app.stop();
    vi.unstubAllGlobals();
  });

  it('refreshes on what the stream brings, falls back to polling when it drops, and comes back with a fresh ticket', async () => {
    await waitFor(() => expect(liveIndicator()).toHaveTextContent(LIVE_TEXT.live));
    expect(streams.map(({ ticket }) => ticket)).toEqual(['ticket-1']);
    // Opening catches up on what happened meanwhile: the list is asked for again.
    await waitFor(() => expect(listCalls()).toHaveLength(2));

    await act(async () => streams[0]?.send(LIVE_MESSAGE));
    await waitFor(() => expect(listCalls()).toHaveLength(3));

    await act(async () => streams[0]?.drop());
    await waitFor(() => expect(liveIndicator()).toHaveTextContent(LIVE_TEXT.polling));
    // The reconnection comes 0.5-1 s later, with a ticket of its own, and catches up once more.
    await waitFor(() => expect(liveIndicator()).toHaveTextContent(LIVE_TEXT.live), { timeout: 3000 });
    expect(streams.map(({ ticket }) => ticket)).toEqual(['ticket-1', 'ticket-2']);
    await waitFor(() => expect(listCalls()).toHaveLength(4));
  });
});

describe('the open request, a child of the queue, over the network', () => {
  let app: AppActor;
  const CLAIMED = { ...OPEN_REQUEST, status: 'in_progress' as const, assignee: ME };

  beforeEach(() => {
    ({ sent } = fakeNetwork([
      {
        method: 'GET',
        path: /^console\/requests$/,
        answer: (_: never, call: SentCall) => listFor((call.query?.queue ?? 'in_queue') as ConsoleQueue, '', false),
      },
      { method: 'GET', path: /^console\/requests\/\d+$/, answer: () => ({ request: { ...OPEN_REQUEST, unread_count: 1 } }) },
      { method: 'POST', path: /^console\/requests\/\d+\/read$/, answer: () => ({ success: true, unread_count: 0 }) },
      { method: 'POST', path: /^console\/requests\/\d+\/claim$/, answer: () => ({ request: CLAIMED }) },
      { method: 'GET', path: /^console\/staff$/, answer: () => ({ staff: STAFF }) },
    ]));
    serveLiveStream();
    app = startTestApp();
    actor = startFlow(app, consoleQueueMachine);
  });

  afterEach(() => {
    app.stop();
    vi.unstubAllGlobals();
  });

  it('opens beside the queues, refreshes them once it has marked itself read, and ends when the console leaves it', async () => {
    // The stream opens and the queues catch up: the console is settled.
    await waitFor(() => expect(actor.getSnapshot().context.liveStatus).toBe('live'));
    await waitFor(() => expect(listCalls()).toHaveLength(2));
    act(() => actor.send({ type: 'SHOW_REQUEST', requestId: OPEN_REQUEST.id }));
    const request = actor.getSnapshot().context.shownRequest?.actor;
    expect(request?.getSnapshot().context.requestId).toBe(OPEN_REQUEST.id);

    await waitFor(() => expect(request?.getSnapshot().matches('loaded')).toBe(true));
    expect(sent.filter(({ method, path }) => method === 'POST' && path === `console/requests/${OPEN_REQUEST.id}/read`)).toHaveLength(1);
    // The unread count the queues show has changed: they are asked again.
    await waitFor(() => expect(listCalls()).toHaveLength(3));

    act(() => actor.send({ type: 'SHOW_REQUEST', requestId: null }));
    expect(request?.getSnapshot().status).toBe('stopped');
    expect(actor.getSnapshot().context.shownRequest).toBeNull();
  });

  it('moves the console to In Progress: mine, where the claimed request is listed as the open one (issue 32)', async () => {
    await waitFor(() => expect(actor.getSnapshot().context.liveStatus).toBe('live'));
    act(() => actor.send({ type: 'SHOW_REQUEST', requestId: OPEN_REQUEST.id }));
    const request = actor.getSnapshot().context.shownRequest?.actor;
    await waitFor(() => expect(request?.getSnapshot().matches('loaded')).toBe(true));
    expect(actor.getSnapshot().context.queue).toBe('in_queue');

    act(() => request?.send({ type: 'CLAIM' }));
    await waitFor(() => expect(actor.getSnapshot().context.queue).toBe('in_progress_mine'));
    await waitFor(() => expect(actor.getSnapshot().matches('ready')).toBe(true));
    expect(listCalls().at(-1)?.query).toMatchObject({ queue: 'in_progress_mine' });
    // The same request stays open beside the queue.
    expect(actor.getSnapshot().context.shownRequest?.actor).toBe(request);
  });
});

describe('console queue model coverage', () => {
  it('asserts every state and executes every event', () => {
    expectFullCoverage(consoleQueueMachine, paths, states, events);
  });

  it('walks the paths the rules call for', () => {
    const titles = titled.map(({ title }) => title);
    const expected: Record<string, RegExp> = {
      'search after the debounce': /type "gr" → type "grace" → debounce ends/,
      'Enter searches at once': /type "grace" → press Enter/,
      'Enter while the search loads asks again': /type "grace" → press Enter → press Enter/,
      'Enter after a failed search tries again': /press Enter → list fails → press Enter$/,
      'a queue chosen while typing is searched at once': /type "grace" → open completed → list completed "grace"/,
      'clearing the search': /clear the search → debounce ends/,
      'a live message refreshes the list': /list in_queue → employee writes → list in_queue with news$/,
      'a change the open request makes refreshes in place': /open a request → open request changed → list in_queue with news$/,
      'one open request at a time, closed on the way back': /open a request → open another request → back to the queues$/,
      'polling while the stream is down': /stream opens → stream drops → poll → list in_queue with news$/,
      'failure and retry': /list fails → retry$/,
      'a turnaround alert is kept until dismissed': /target breached → list in_queue with news → dismiss alerts$/,
      'an empty queue': /open completed → list completed$/,
    };
    expectScenariosWalked(titles, expected);
  });
});
