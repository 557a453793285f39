import { type ActorRefFrom, type SnapshotFrom, assertEvent, assign, enqueueActions, fromCallback, fromPromise, raise, setup } from 'xstate';
import type {
  ConsoleQueue,
  ConsoleRequestSummary,
  ConsoleRequestsQuery,
  ConsoleRequestsResponse,
  QueueCounts,
} from '../contract/console.ts';
import type { LiveEvent } from '../contract/events.ts';
import { listConsoleRequests } from '../services/console.ts';
import type { LiveUpdatesStatus, subscribeToLiveUpdates } from '../services/liveUpdates.ts';
import { consoleRequestMachine } from './consoleRequest.machine.ts';
import type { LiveUpdate } from './liveUpdates.machine.ts';
import { liveUpdatesOf } from './system.ts';
import type { SlaAlertEvent } from '../contract/sla.ts';

/** The wait after the last keystroke before a search is sent (a console choice; SPEC §9 names none for it). */
export const SEARCH_DEBOUNCE_MS = 300;
/** Rows asked for per queue; a longer queue says how many more there are and asks for a narrower search. */
export const QUEUE_PAGE_SIZE = 100;

export const QUEUE_LOAD_ERROR = "We couldn't load the requests. Please try again.";

/** The queues in the order the console shows them, with their names. */
export const CONSOLE_QUEUES: readonly { queue: ConsoleQueue; label: string }[] = [
  { queue: 'in_queue', label: 'In Queue' },
  { queue: 'in_progress_mine', label: 'In Progress: mine' },
  { queue: 'in_progress', label: "In Progress: everyone's" },
  { queue: 'completed', label: 'Completed' },
];

/** The alerts a console keeps at most: the newest. */
export const MAX_ALERTS = 5;

export interface ConsoleQueueContext {
  queue: ConsoleQueue;
  /** What is in the search field. */
  searchText: string;
  /** The search the list was (or is being) fetched with. */
  query: string;
  /** Null while the list for the current queue and search has not arrived yet. */
  requests: ConsoleRequestSummary[] | null;
  /** Queue sizes, kept across queue changes and refreshes (not narrowed by the search). */
  counts: QueueCounts | null;
  /** How many requests match the current queue and search (the list holds at most QUEUE_PAGE_SIZE). */
  total: number;
  error: string | null;
  liveStatus: LiveUpdatesStatus;
  /** The request the console's address names, open beside the queues: a child of this actor. */
  shownRequest: ShownRequest | null;
  /** Issue 28: turnaround alerts heard on the live stream (at risk, breached), newest first, until dismissed. */
  alerts: SlaAlertEvent[];
}

export interface ShownRequest {
  requestId: number;
  actor: ActorRefFrom<typeof consoleRequestMachine>;
}

export type ConsoleQueueEvent =
  | { type: 'SELECT_QUEUE'; queue: ConsoleQueue }
  | { type: 'TYPE_SEARCH'; text: string }
  /** Enter in the search field: search now, without waiting for the debounce. */
  | { type: 'SUBMIT_SEARCH' }
  | { type: 'RETRY' }
  /** The console's address names this request, or none: it opens beside the queues, and the one before it ends. */
  | { type: 'SHOW_REQUEST'; requestId: number | null }
  /** Something changed that the list shows: the open request, this actor's child, was read, claimed or answered. */
  | { type: 'REFRESH' }
  | { type: 'LIVE_EVENT'; event: LiveEvent }
  /** The live stream is down (poll now) or has just (re)opened (catch up). */
  | { type: 'LIVE_POLL' }
  | { type: 'LIVE_STATUS'; status: LiveUpdatesStatus }
  /** The concierge has read the turnaround alerts. */
  | { type: 'DISMISS_ALERTS' };

export interface ListRequestsInput {
  queue: ConsoleQueue;
  query: string;
}

export function queueQuery({ queue, query }: ListRequestsInput): ConsoleRequestsQuery {
  return { queue, q: query || undefined, limit: QUEUE_PAGE_SIZE };
}

const listRequestsLogic = fromPromise<ConsoleRequestsResponse, ListRequestsInput>(({ input }) =>
  listConsoleRequests(queueQuery(input)),
);

/**
 * The console's live stream, reported as events: every live event, every poll, every change of connection; from the
 * live updates `subscribe` gives (the service's; the model tests pass the stream they drive).
 */
export function queueLiveUpdates(subscribe?: typeof subscribeToLiveUpdates) {
  return fromCallback<LiveUpdate>(({ system, self, receive, sendBack }) =>
    (subscribe ?? liveUpdatesOf({ system, self, receive }))((event) => sendBack({ type: 'LIVE_EVENT', event }), {
      onPoll: () => sendBack({ type: 'LIVE_POLL' }),
      onStatusChange: (status) => sendBack({ type: 'LIVE_STATUS', status }),
    }),
  );
}

/** A new queue or search: the list on screen no longer answers it. */
const APPLY_SEARCH = 'applySearch';

/**
 * The console's queues: the chosen queue (In Queue, In Progress mine / everyone's, Completed) searched by employee
 * or request name, with every queue's count. Typing waits `searchDebounce` before searching; every live event
 * (and every poll while the stream is down) refreshes the list in place, as does every change the open request (a
 * child of the queue) reports. The open request hears the same stream: the system has one (liveUpdates.machine.ts).
 */
export const consoleQueueMachine = setup({
  types: {
    context: {} as ConsoleQueueContext,
    events: {} as ConsoleQueueEvent,
  },
  actors: {
    listRequests: listRequestsLogic,
    liveUpdates: queueLiveUpdates(),
    request: consoleRequestMachine,
  },
  guards: {
    isSlaAlert: ({ event }) => event.type === 'LIVE_EVENT' && event.event.type === 'sla.alert',
    hasAlerts: ({ context }) => context.alerts.length > 0,
    isAnotherRequest: ({ context, event }) => {
      assertEvent(event, 'SHOW_REQUEST');
      return (context.shownRequest?.requestId ?? null) !== event.requestId;
    },
  },
  delays: {
    searchDebounce: SEARCH_DEBOUNCE_MS,
  },
  actions: {
    selectQueue: assign(({ context, event }) => {
      assertEvent(event, 'SELECT_QUEUE');
      return { queue: event.queue, query: context.searchText.trim(), requests: null };
    }),
    setSearchText: assign({
      searchText: ({ event }) => {
        assertEvent(event, 'TYPE_SEARCH');
        return event.text;
      },
    }),
    [APPLY_SEARCH]: assign(({ context }) => {
      const query = context.searchText.trim();
      return query === context.query ? {} : { query, requests: null };
    }),
    storeList: assign((_, answer: ConsoleRequestsResponse) => ({
      requests: answer.requests,
      counts: answer.counts,
      total: answer.total,
      error: null,
    })),
    showLoadError: assign({ error: QUEUE_LOAD_ERROR }),
    clearError: assign({ error: null }),
    setLiveStatus: assign({
      liveStatus: ({ event }) => {
        assertEvent(event, 'LIVE_STATUS');
        return event.status;
      },
    }),
    refresh: raise({ type: 'REFRESH' }),
    keepAlert: assign(({ context, event }) => {
      assertEvent(event, 'LIVE_EVENT');
      return event.event.type === 'sla.alert' ? { alerts: [event.event, ...context.alerts].slice(0, MAX_ALERTS) } : {};
    }),
    dismissAlerts: assign({ alerts: [] }),
    showRequest: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'SHOW_REQUEST');
      if (context.shownRequest) enqueue.stopChild(context.shownRequest.actor);
      const { requestId } = event;
      enqueue.assign({
        shownRequest: ({ spawn }) =>
          requestId === null ? null : { requestId, actor: spawn('request', { id: `request-${requestId}`, input: { requestId } }) },
      });
    }),
  },
}).createMachine({
  id: 'consoleQueue',
  context: {
    queue: 'in_queue',
    searchText: '',
    query: '',
    requests: null,
    counts: null,
    total: 0,
    error: null,
    liveStatus: 'connecting',
    shownRequest: null,
    alerts: [],
  },
  invoke: { id: 'liveUpdates', src: 'liveUpdates' },
  on: {
    SHOW_REQUEST: { guard: 'isAnotherRequest', actions: 'showRequest' },
    // An alert is kept for the concierge to read, and the list shows the request's new state.
    LIVE_EVENT: [{ guard: 'isSlaAlert', actions: ['keepAlert', 'refresh'] }, { actions: 'refresh' }],
    DISMISS_ALERTS: { guard: 'hasAlerts', actions: 'dismissAlerts' },
    LIVE_POLL: { actions: 'refresh' },
    LIVE_STATUS: { actions: 'setLiveStatus' },
  },
  initial: 'loading',
  states: {
    loading: {
      tags: 'busy',
      entry: 'clearError',
      invoke: {
        id: 'listRequests',
        src: 'listRequests',
        input: ({ context }) => ({ queue: context.queue, query: context.query }),
        onDone: { target: 'ready', actions: { type: 'storeList', params: ({ event }) => event.output } },
        onError: { target: 'failed', actions: 'showLoadError' },
      },
      on: {
        SELECT_QUEUE: { target: 'loading', reenter: true, actions: 'selectQueue' },
        TYPE_SEARCH: { target: 'typing', actions: 'setSearchText' },
        SUBMIT_SEARCH: { target: 'loading', reenter: true, actions: APPLY_SEARCH },
        // A newer answer is on its way: the one in flight may predate the change.
        REFRESH: { target: 'loading', reenter: true },
      },
    },
    ready: {
      on: {
        SELECT_QUEUE: { target: 'loading', actions: 'selectQueue' },
        TYPE_SEARCH: { target: 'typing', actions: 'setSearchText' },
        SUBMIT_SEARCH: { target: 'loading', actions: APPLY_SEARCH },
        REFRESH: 'loading',
      },
    },
    /** The search field changed less than `searchDebounce` ago; each keystroke starts the wait again. */
    typing: {
      after: { searchDebounce: { target: 'loading', actions: APPLY_SEARCH } },
      on: {
        SELECT_QUEUE: { target: 'loading', actions: 'selectQueue' },
        TYPE_SEARCH: { target: 'typing', reenter: true, actions: 'setSearchText' },
        SUBMIT_SEARCH: { target: 'loading', actions: APPLY_SEARCH },
        // The search about to be sent will bring the news too.
      },
    },
    failed: {
      on: {
        RETRY: 'loading',
        SELECT_QUEUE: { target: 'loading', actions: 'selectQueue' },
        // The failure no longer applies to what is being asked for.
        TYPE_SEARCH: { target: 'typing', actions: ['setSearchText', 'clearError'] },
        SUBMIT_SEARCH: { target: 'loading', actions: APPLY_SEARCH },
        REFRESH: 'loading',
      },
    },
  },
});

export type ConsoleQueueSnapshot = SnapshotFrom<typeof consoleQueueMachine>;
