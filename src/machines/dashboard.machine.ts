import { assign, fromPromise, setup } from 'xstate';
import type { RecommendedRequestCategory } from '../contract/surveys.ts';
import { reportError } from '../services/errorReporting.ts';
import { serverMessage } from '../services/http.ts';
import { listRequests } from '../services/requests.ts';
import type { ClientRequest } from '../services/threadRules.ts';
import { fetchRecommendedCategories } from '../services/surveys.ts';
import { requestsCreated } from './system.ts';

/** SPEC §9: the Dashboard shows at most three suggested categories. */
export const MAX_DASHBOARD_CATEGORIES = 3;

export const DASHBOARD_MESSAGES = {
  requestsFailed: 'We could not load your requests. Please try again.',
  suggestionsFailed: 'We could not load request ideas. Please try again.',
} as const;

export interface OpenRequestLists {
  open: ClientRequest[];
  inProgress: ClientRequest[];
}

export interface DashboardContext {
  openRequests: ClientRequest[];
  inProgressRequests: ClientRequest[];
  categories: RecommendedRequestCategory[];
  requestsError: string | null;
  suggestionsError: string | null;
}

export type DashboardEvent = { type: 'RETRY' } | { type: 'REQUEST_CREATED' };

const failureOf = ({ event }: { event: { error: unknown } }) => ({ error: event.error });

/**
 * SPEC §2 Dashboard: on entry it loads the open and in-progress requests and the suggested categories, side by side
 * (one failing leaves the other shown); the requests load again whenever a request is created.
 */
export const dashboardMachine = setup({
  types: {
    context: {} as DashboardContext,
    events: {} as DashboardEvent,
  },
  actors: {
    fetchRequests: fromPromise<OpenRequestLists>(async () => {
      const [open, inProgress] = await Promise.all([listRequests('open'), listRequests('in_progress')]);
      return { open, inProgress };
    }),
    fetchSuggestions: fromPromise<RecommendedRequestCategory[]>(() => fetchRecommendedCategories()),
    /** A request created in the drawer makes the lists reload. */
    watchRequestCreation: requestsCreated,
  },
  actions: {
    logFailure: (_, { error }: { error: unknown }) => {
      void reportError(error, { component: 'Dashboard', feature: 'dashboard' });
    },
  },
}).createMachine({
  id: 'dashboard',
  context: {
    openRequests: [],
    inProgressRequests: [],
    categories: [],
    requestsError: null,
    suggestionsError: null,
  },
  invoke: {
    id: 'watchRequestCreation',
    src: 'watchRequestCreation',
  },
  type: 'parallel',
  states: {
    requests: {
      initial: 'loading',
      on: { REQUEST_CREATED: '.loading' },
      states: {
        loading: {
          invoke: {
            id: 'fetchRequests',
            src: 'fetchRequests',
            onDone: {
              target: 'ready',
              actions: assign(({ event }) => ({
                openRequests: event.output.open,
                inProgressRequests: event.output.inProgress,
                requestsError: null,
              })),
            },
            onError: {
              target: 'failed',
              actions: [
                { type: 'logFailure', params: failureOf },
                // The requests client already turns the server's answer into a message meant for the console.
                assign({ requestsError: DASHBOARD_MESSAGES.requestsFailed }),
              ],
            },
          },
        },
        ready: {},
        failed: { on: { RETRY: 'loading' } },
      },
    },
    suggestions: {
      initial: 'loading',
      states: {
        loading: {
          invoke: {
            id: 'fetchSuggestions',
            src: 'fetchSuggestions',
            onDone: {
              target: 'ready',
              actions: assign(({ event }) => ({
                categories: event.output.slice(0, MAX_DASHBOARD_CATEGORIES),
                suggestionsError: null,
              })),
            },
            onError: {
              target: 'failed',
              actions: [
                { type: 'logFailure', params: failureOf },
                assign({ suggestionsError: ({ event }) => serverMessage(event.error, DASHBOARD_MESSAGES.suggestionsFailed) }),
              ],
            },
          },
        },
        ready: {},
        failed: { on: { RETRY: 'loading' } },
      },
    },
  },
});
