import { type ActorRefFrom, assign, emit, fromPromise, sendTo, setup } from 'xstate';
import type { AnalyticsTarget } from '../contract/analytics.ts';
import type { RequestSurvey, SurveyCategory } from '../contract/surveys.ts';
import { track } from '../services/analytics.ts';
import { reportError } from '../services/errorReporting.ts';
import { serverMessage } from '../services/http.ts';
import { fetchCategoryRequestSurveys, fetchSurveyCategories } from '../services/surveys.ts';
import type { sessionMachine } from './session.machine.ts';
import { type SurveySubmittedEvent, type SurveyTemplate, surveyMachine } from './survey.machine.ts';

/** SPEC §2 category drawer modes. */
export type CategoryDrawerMode = 'explore' | 'custom';

/** SPEC §2: the title and prompt of each category drawer mode. */
export const CATEGORY_DRAWER_TEXT: Record<CategoryDrawerMode, { title: string; prompt: string }> = {
  custom: { title: 'Custom request', prompt: 'How would you categorize your request?' },
  explore: { title: 'Request categories', prompt: 'Explore request ideas from the following categories.' },
};

export const REQUEST_CREATION_MESSAGES = {
  categoriesFailed: 'We could not load the request categories. Please try again.',
  templatesFailed: 'We could not load the requests of this category. Please try again.',
} as const;

export interface RequestCreationInput {
  /** The app's session: it knows the user's request_count and is told when a request is created. */
  session: ActorRefFrom<typeof sessionMachine>;
}

export interface RequestCreationContext extends RequestCreationInput {
  mode: CategoryDrawerMode;
  categories: SurveyCategory[];
  category: SurveyCategory | null;
  templates: RequestSurvey[];
  survey: SurveyTemplate | null;
  firstRequest: boolean;
  error: string | null;
}

export type RequestCreationEvent =
  /** Opens the category drawer; `trackedAs` names the control that did it in analytics (SPEC §3 targets). */
  | { type: 'OPEN_CATEGORIES'; mode: CategoryDrawerMode; trackedAs?: AnalyticsTarget }
  /** Begins a survey straight away (a template on the Dashboard, a category page, Benefits & Offers). */
  | { type: 'START_SURVEY'; survey: SurveyTemplate }
  | { type: 'PICK_CATEGORY'; category: SurveyCategory }
  | { type: 'PICK_TEMPLATE'; survey: SurveyTemplate }
  | { type: 'BACK' }
  | { type: 'RETRY' }
  | { type: 'CLOSE' }
  | SurveySubmittedEvent;

/** Told to whoever listens (actor.on): a request was just created, e.g. so that the Dashboard reloads its lists. */
export type RequestCreationEmitted = { type: 'requestCreated'; requestId: number };

const failureOf = ({ event }: { event: { error: unknown } }) => ({ error: event.error });

/**
 * The request creation drawer (SPEC §2, §4): the category picker in explore or custom mode, a category's request
 * templates, then the survey conversation of the chosen template. One app-wide actor runs it.
 */
export const requestCreationMachine = setup({
  types: {
    context: {} as RequestCreationContext,
    events: {} as RequestCreationEvent,
    input: {} as RequestCreationInput,
    emitted: {} as RequestCreationEmitted,
    children: {} as { survey: 'surveyConversation'; fetchCategories: 'fetchCategories'; fetchTemplates: 'fetchTemplates' },
  },
  actors: {
    fetchCategories: fromPromise<SurveyCategory[]>(() => fetchSurveyCategories()),
    fetchTemplates: fromPromise<RequestSurvey[], { categoryId: number }>(async ({ input }) =>
      (await fetchCategoryRequestSurveys(input.categoryId)).request_surveys,
    ),
    surveyConversation: surveyMachine,
  },
  actions: {
    trackOpening: (_, { trackedAs }: { trackedAs: AnalyticsTarget | undefined }) => {
      if (trackedAs) track('ui_interaction', { element_type: 'button', element_id: trackedAs });
    },
    logFailure: (_, { error }: { error: unknown }) => {
      void reportError(error, { component: 'RequestCreationDrawer', feature: 'request creation' });
    },
    assignFailure: assign((_, { error, fallback }: { error: unknown; fallback: string }) => ({
      error: serverMessage(error, fallback),
    })),
    /** SPEC §4: whether this is the user's first request decides the confetti, so it is read as the survey begins. */
    beginSurvey: assign(({ context }, { survey }: { survey: SurveyTemplate }) => ({
      survey,
      firstRequest: context.session.getSnapshot().context.user?.request_count === 0,
      error: null,
    })),
    /** SPEC §3: request_count is incremented locally when the user creates a request. */
    countRequest: ({ context }) => context.session.send({ type: 'REQUEST_CREATED' }),
    announceRequest: emit(({ event }) => ({
      type: 'requestCreated' as const,
      requestId: (event as SurveySubmittedEvent).request.id,
    })),
  },
}).createMachine({
  id: 'requestCreation',
  context: ({ input }) => ({
    session: input.session,
    mode: 'explore',
    categories: [],
    category: null,
    templates: [],
    survey: null,
    firstRequest: false,
    error: null,
  }),
  initial: 'closed',
  states: {
    closed: {
      on: {
        OPEN_CATEGORIES: {
          target: 'categories',
          actions: [
            assign({ mode: ({ event }) => event.mode, category: null, error: null }),
            { type: 'trackOpening', params: ({ event }) => ({ trackedAs: event.trackedAs }) },
          ],
        },
        START_SURVEY: { target: 'survey', actions: { type: 'beginSurvey', params: ({ event }) => ({ survey: event.survey }) } },
      },
    },
    categories: {
      initial: 'loading',
      on: { CLOSE: 'closed' },
      states: {
        loading: {
          invoke: {
            id: 'fetchCategories',
            src: 'fetchCategories',
            onDone: { target: 'showing', actions: assign({ categories: ({ event }) => event.output, error: null }) },
            onError: {
              target: 'failed',
              actions: [
                { type: 'logFailure', params: failureOf },
                {
                  type: 'assignFailure',
                  params: ({ event }) => ({ error: event.error, fallback: REQUEST_CREATION_MESSAGES.categoriesFailed }),
                },
              ],
            },
          },
        },
        failed: { on: { RETRY: 'loading' } },
        showing: {
          on: {
            PICK_CATEGORY: { target: '#requestCreation.templates', actions: assign({ category: ({ event }) => event.category }) },
          },
        },
      },
    },
    templates: {
      initial: 'loading',
      on: {
        CLOSE: 'closed',
        BACK: { target: 'categories.showing', actions: assign({ category: null, templates: [], error: null }) },
      },
      states: {
        loading: {
          invoke: {
            id: 'fetchTemplates',
            src: 'fetchTemplates',
            input: ({ context }) => ({ categoryId: (context.category as SurveyCategory).id }),
            onDone: { target: 'showing', actions: assign({ templates: ({ event }) => event.output, error: null }) },
            onError: {
              target: 'failed',
              actions: [
                { type: 'logFailure', params: failureOf },
                {
                  type: 'assignFailure',
                  params: ({ event }) => ({ error: event.error, fallback: REQUEST_CREATION_MESSAGES.templatesFailed }),
                },
              ],
            },
          },
        },
        failed: { on: { RETRY: 'loading' } },
        showing: {
          on: {
            PICK_TEMPLATE: {
              target: '#requestCreation.survey',
              actions: { type: 'beginSurvey', params: ({ event }) => ({ survey: event.survey }) },
            },
          },
        },
      },
    },
    survey: {
      invoke: {
        id: 'survey',
        src: 'surveyConversation',
        input: ({ context }) => ({ survey: context.survey as SurveyTemplate, firstRequest: context.firstRequest }),
        onDone: {
          target: 'closed',
          actions: assign({ survey: null }),
        },
      },
      on: {
        // The conversation decides whether closing needs the user's confirmation.
        CLOSE: { actions: sendTo('survey', { type: 'CLOSE' }) },
        SURVEY_SUBMITTED: { actions: ['countRequest', 'announceRequest'] },
      },
    },
  },
});
