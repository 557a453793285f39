import { assign, fromPromise, setup } from 'xstate';
import type { CategoryRequestSurveysResponse } from '../contract/surveys.ts';
import { reportError } from '../services/errorReporting.ts';
import { serverMessage } from '../services/http.ts';
import { fetchCategoryRequestSurveys } from '../services/surveys.ts';

export const REQUEST_CATEGORY_MESSAGES = {
  loadFailed: 'We could not load the requests of this category. Please try again.',
} as const;

export interface RequestCategoryContext {
  categoryId: number;
  page: CategoryRequestSurveysResponse | null;
  error: string | null;
}

/** SPEC §2 Category page: the category and its request templates, loaded on entry. */
export const requestCategoryMachine = setup({
  types: {
    context: {} as RequestCategoryContext,
    events: {} as { type: 'RETRY' },
    input: {} as { categoryId: number },
  },
  actors: {
    fetchCategory: fromPromise<CategoryRequestSurveysResponse, { categoryId: number }>(({ input }) =>
      fetchCategoryRequestSurveys(input.categoryId),
    ),
  },
  actions: {
    logFailure: (_, { error }: { error: unknown }) => {
      void reportError(error, { component: 'RequestCategory', feature: 'request creation' });
    },
  },
}).createMachine({
  id: 'requestCategory',
  context: ({ input }) => ({ categoryId: input.categoryId, page: null, error: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'fetchCategory',
        src: 'fetchCategory',
        input: ({ context }) => ({ categoryId: context.categoryId }),
        onDone: { target: 'ready', actions: assign({ page: ({ event }) => event.output, error: null }) },
        onError: {
          target: 'failed',
          actions: [
            { type: 'logFailure', params: ({ event }) => ({ error: event.error }) },
            assign({ error: ({ event }) => serverMessage(event.error, REQUEST_CATEGORY_MESSAGES.loadFailed) }),
          ],
        },
      },
    },
    ready: {},
    failed: { on: { RETRY: 'loading' } },
  },
});
