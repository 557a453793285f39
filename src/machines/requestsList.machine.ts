import { assertEvent, assign, fromPromise, sendTo, setup } from 'xstate';
import { requestsCreated, theApp } from './system.ts';
import { listRequests } from '../services/requests.ts';
import { type RequestGroups, type RequestLists, groupRequests } from '../services/threadRules.ts';

export type RequestsTab = 'toDo' | 'completed';

export interface RequestsListContext {
  /** Null until the first load has answered. */
  groups: RequestGroups | null;
  tab: RequestsTab;
}

export type RequestsListEvent =
  | { type: 'SELECT_TAB'; tab: RequestsTab }
  /** The large-screen 'Create a request' button. */
  | { type: 'CREATE_REQUEST' }
  /** A request was created through the drawer while the screen is open: the lists are stale. */
  | { type: 'REQUEST_CREATED' }
  | { type: 'RETRY' };

/** The three list calls side by side (SPEC §2: on entry the screen refreshes all requests). */
export async function loadRequestLists(): Promise<RequestLists> {
  const [open, inProgress, completed] = await Promise.all([
    listRequests('open'),
    listRequests('in_progress'),
    listRequests('completed'),
  ]);
  return { open, in_progress: inProgress, completed };
}

/** SPEC §2: the Completed tab exists only when closed requests exist. */
export const hasCompletedRequests = (context: Pick<RequestsListContext, 'groups'>) =>
  (context.groups?.completed.length ?? 0) > 0;

/** The Requests screen (SPEC §2): load on entry, the two tabs, the drawer button, reload after a new request. */
export const requestsListMachine = setup({
  types: {
    context: {} as RequestsListContext,
    events: {} as RequestsListEvent,
  },
  actors: {
    loadRequests: fromPromise<RequestLists>(() => loadRequestLists()),
    /** Tells the screen when the request creation drawer has created a request. */
    watchRequestCreation: requestsCreated,
  },
  guards: {
    isTabShown: ({ context, event }) => {
      assertEvent(event, 'SELECT_TAB');
      return event.tab === 'toDo' || hasCompletedRequests(context);
    },
  },
  actions: {
    storeLists: assign((_, lists: RequestLists) => ({ groups: groupRequests(lists) })),
    /** Back on 'To do' when the tab the user was on has gone (its last request reopened). */
    keepTabShown: assign(({ context }) => ({ tab: context.tab === 'completed' && !hasCompletedRequests(context) ? 'toDo' : context.tab })),
    selectTab: assign(({ event }) => {
      assertEvent(event, 'SELECT_TAB');
      return { tab: event.tab };
    }),
    openCustomRequest: sendTo(theApp, { type: 'OPEN_CATEGORIES', mode: 'custom', trackedAs: 'create_custom_request' }),
  },
}).createMachine({
  id: 'requestsList',
  context: { groups: null, tab: 'toDo' },
  invoke: { src: 'watchRequestCreation' },
  on: {
    SELECT_TAB: { guard: 'isTabShown', actions: 'selectTab' },
    CREATE_REQUEST: { actions: 'openCustomRequest' },
    // Also while a load is under way: its answer may predate the new request, so the load starts again.
    REQUEST_CREATED: { target: '.loading', reenter: true },
  },
  initial: 'loading',
  states: {
    /** The first load shows a skeleton; a reload keeps the lists on screen, marked busy. */
    loading: {
      tags: 'busy',
      invoke: {
        id: 'loadRequests',
        src: 'loadRequests',
        onDone: { target: 'ready', actions: [{ type: 'storeLists', params: ({ event }) => event.output }, 'keepTabShown'] },
        onError: { target: 'failed' },
      },
    },
    ready: {},
    /** What was loaded before stays on screen under the error. */
    failed: {
      on: { RETRY: { target: 'loading' } },
    },
  },
});
