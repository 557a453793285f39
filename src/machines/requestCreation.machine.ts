import { assign, fromPromise, sendTo, setup } from 'xstate';
import type { AnalyticsTarget } from '../contract/analytics.ts';
import type { RequestSurvey, SurveyCategory } from '../contract/surveys.ts';
import { track } from '../services/analytics.ts';
import { reportError } from '../services/errorReporting.ts';
import { serverMessage } from '../services/http.ts';
import { fetchCategoryRequestSurveys, fetchSurveyCategories } from '../services/surveys.ts';
import { type SurveySubmittedEvent, type SurveyTemplate, surveyMachine } from './survey.machine.ts';
import { SYSTEM_IDS, inSystem, systemActor } from './system.ts';

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

export interface RequestCreationContext {
  mode: CategoryDrawerMode;
  categories: SurveyCategory[];
  category: SurveyCategory | null;
  templates: RequestSurvey[];
  survey: SurveyTemplate | null;
  firstRequest: boolean;
  error: string | null;
}

/** What any screen may ask of the drawer, through the app (app.machine.ts loads the drawer on the first ask). */
export type RequestCreationCommand =
  /** Opens the category drawer; `trackedAs` names the control that did it in analytics (SPEC §3 targets). */
  | { type: 'OPEN_CATEGORIES'; mode: CategoryDrawerMode; trackedAs?: AnalyticsTarget }
  /** Begins a survey straight away (a template on the Dashboard, a category page, Benefits & Offers). */
  | { type: 'START_SURVEY'; survey: SurveyTemplate };

export type RequestCreationEvent =
  | RequestCreationCommand
  | { type: 'PICK_CATEGORY'; category: SurveyCategory }
  | { type: 'PICK_TEMPLATE'; survey: SurveyTemplate }
  | { type: 'BACK' }
  | { type: 'RETRY' }
  | { type: 'CLOSE' }
  | SurveySubmittedEvent;

const failureOf = ({ event }: { event: { error: unknown } }) => ({ error: event.error });

/**
 * The request creation drawer (SPEC §2, §4): the category picker in explore or custom mode, a category's request
 * templates, then the survey conversation of the chosen template. One app-wide actor runs it.
 */
export const requestCreationMachine = setup({
  types: {
    context: {} as RequestCreationContext,
    events: {} as RequestCreationEvent,
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
    beginSurvey: assign(({ system }, { survey }: { survey: SurveyTemplate }) => ({
      survey,
      firstRequest: systemActor(system, SYSTEM_IDS.session)?.getSnapshot().context.user?.request_count === 0,
      error: null,
    })),
    /** SPEC §3: request_count is incremented locally when the user creates a request; the session tells the screens. */
    countRequest: sendTo(inSystem(SYSTEM_IDS.session), { type: 'REQUEST_CREATED' }),
  },
}).createMachine({
  id: 'requestCreation',
  context: {
    mode: 'explore',
    categories: [],
    category: null,
    templates: [],
    survey: null,
    firstRequest: false,
    error: null,
  },
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
        SURVEY_SUBMITTED: { actions: 'countRequest' },
      },
    },
  },
});
