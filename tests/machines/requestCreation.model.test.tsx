import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ActorRefFrom, assign, createActor, fromPromise } from 'xstate';
import { useAppActor, useRequestCreationActor } from '../../src/machines/appSystem.tsx';
import type { AppActor, RequestCreationActor, SessionActor } from '../../src/machines/app.machine.ts';
import { inApp, sessionOf, signedInSession, startTestApp } from './appSystem.support.tsx';
import type { NextScreenItem, RequestSurvey, SubmittedRequest, SurveyCategory } from '../../src/contract/surveys.ts';
import {
  REQUEST_CREATION_MESSAGES,
  requestCreationMachine,
} from '../../src/machines/requestCreation.machine.ts';
import { type SurveyTemplate, surveyMachine } from '../../src/machines/survey.machine.ts';
import { SYSTEM_IDS } from '../../src/machines/system.ts';
import { flushAnalytics } from '../../src/services/analytics.ts';
import RequestCreationDrawer from '../../src/views/requestCreation/RequestCreationDrawer.tsx';
import {
  type EventExecutors,
  PendingCalls,
  type StateAssertions,
  doneEvent,
  errorEvent,
  expectFullCoverage,
  expectScenariosWalked,
  flowModel,
  runPath,
} from './modelPaths.support.ts';
import {
  ANALYTICS_ROUTE,
  ERROR_REPORTS_ROUTE,
  type SentCall,
  fakeNetwork,
  reportErrorsToTheServer,
  reportedErrors,
  trackedEvents,
} from './network.support.ts';
import { employeeUser } from './users.fixtures.ts';

reportErrorsToTheServer();

type Machine = typeof requestCreationMachine;

let sent: SentCall[];

const USER = employeeUser(
  { external_id: 'u-3', full_name: 'Omar Reyes', first_name: 'Omar', initials: 'OR', email: 'omar@acme.test' },
);

const CATEGORIES: SurveyCategory[] = [
  { id: 1, name: 'Car', image_url: '/seed/categories/car.svg' },
  { id: 6, name: 'Pet', image_url: '/seed/categories/pet.svg' },
];
const PET = CATEGORIES[1] as SurveyCategory;
const PET_TEMPLATES: RequestSurvey[] = [
  { id: 801, name: 'Find a pet sitter or boarding', slug: 'find-a-pet-sitter', for_alpha: true, category: 'Pet' },
  { id: 802, name: 'Book a vet appointment', slug: 'book-a-vet-appointment', for_alpha: true, category: 'Pet' },
];
const VET = { id: 802, name: 'Book a vet appointment' };
/** SPEC §2: what the Benefits & Offers landing starts. */
const BENEFITS_HELP = { id: 720, name: 'Help me with my benefits' };
const SUBMITTED: SubmittedRequest = {
  id: 91,
  external_id: 'REQ-91',
  name: VET.name,
  status: 'open',
  issued_at: '2026-11-21T10:00:00.000Z',
  created_at: '2026-11-21T10:00:00.000Z',
  details: null,
  survey_category_name: 'Pet',
  survey_category_image_url: '/seed/categories/pet.svg',
};
const networkFailure = new TypeError('Failed to fetch');
/** What a failed list reports (SPEC §8): the network failure, from the drawer. */
const FAILURE_REPORT = expect.objectContaining({
  name: 'TypeError',
  message: 'Failed to fetch',
  component: 'RequestCreationDrawer',
  feature: 'request creation',
});

/**
 * The model runs outside the app's system, with no session to read the user's request_count from: it reads USER's,
 * which the real chart reads from the test app's session.
 */
const modelMachine = requestCreationMachine.provide({
  actions: {
    beginSurvey: assign((_, { survey }: { survey: SurveyTemplate }) => ({ survey, firstRequest: USER.request_count === 0, error: null })),
  },
});

const { paths, titled } = flowModel(modelMachine, {
  events: [
    { label: 'explore', event: { type: 'OPEN_CATEGORIES', mode: 'explore', trackedAs: 'explore_categories' } },
    { label: 'custom', event: { type: 'OPEN_CATEGORIES', mode: 'custom', trackedAs: 'create_custom_request' } },
    { label: 'benefits help', event: { type: 'START_SURVEY', survey: BENEFITS_HELP } },
    doneEvent('fetchCategories', CATEGORIES, 'categories loaded'),
    errorEvent('fetchCategories', networkFailure, 'categories fail'),
    { label: 'pick Pet', event: { type: 'PICK_CATEGORY', category: PET } },
    doneEvent('fetchTemplates', PET_TEMPLATES, 'templates loaded'),
    errorEvent('fetchTemplates', networkFailure, 'templates fail'),
    { label: 'pick the vet', event: { type: 'PICK_TEMPLATE', survey: VET } },
    { label: 'back', event: { type: 'BACK' } },
    { label: 'retry', event: { type: 'RETRY' } },
    { label: 'close', event: { type: 'CLOSE' } },
    { label: 'submitted', event: { type: 'SURVEY_SUBMITTED', request: SUBMITTED } },
    { label: 'survey over', event: { type: 'xstate.done.actor.survey' } },
  ],
  // The drawer hands a close to the running survey, which decides (the survey model walks its closing): handing it
  // over is walked once, in the survey 'Request help' starts as the first thing the drawer shows.
  offer: (snapshot, { event }) => {
    if (event.type !== 'CLOSE' || !snapshot.matches('survey')) return true;
    return snapshot.context.survey === BENEFITS_HELP && snapshot.context.categories.length === 0;
  },
});

const pendingCalls = new PendingCalls();
let user: UserEvent;
let app: AppActor;
let session: SessionActor;
const requestCreated = vi.fn();

/** Survey calls answer at once: no questions, so the summary comes straight away and submits. */
const instantSurvey = surveyMachine.provide({
  actors: {
    beginSurvey: fromPromise(async () => 41),
    fetchNextItem: fromPromise<NextScreenItem | null, { userRequestSurveyId: number }>(async () => null),
    submitSurvey: fromPromise(async () => SUBMITTED),
  },
});

/** What other screens do, through the app: the Dashboard's and bottom bar's buttons, and Benefits & Offers' 'Request help'. */
function Openers() {
  const app = useAppActor();
  return (
    <>
      <button type="button" onClick={() => app.send({ type: 'OPEN_CATEGORIES', mode: 'explore', trackedAs: 'explore_categories' })}>
        Explore categories
      </button>
      <button type="button" onClick={() => app.send({ type: 'OPEN_CATEGORIES', mode: 'custom', trackedAs: 'create_custom_request' })}>
        Create a request
      </button>
      <button type="button" onClick={() => app.send({ type: 'START_SURVEY', survey: BENEFITS_HELP })}>Request help</button>
    </>
  );
}

/** The drawer as the app layout shows it: once the app has loaded it, on the first request to open it. */
function LoadedDrawer() {
  const requestCreation = useRequestCreationActor();
  return requestCreation ? <RequestCreationDrawer actor={requestCreation} /> : null;
}

function start() {
  const machine = requestCreationMachine.provide({
    actors: { fetchCategories: pendingCalls.logic(), fetchTemplates: pendingCalls.logic(), surveyConversation: instantSurvey },
  });
  app = startTestApp({ session: signedInSession(USER), requestCreation: machine });
  session = sessionOf(app);
  session.on('requestCreated', requestCreated);
  render(
    inApp(
      app,
      <>
        <Openers />
        <LoadedDrawer />
      </>,
    ),
  );
}

/** Until something asks for it, the app has not loaded the drawer: it is closed, as its chart starts. */
const notYetLoaded = createActor(requestCreationMachine).getSnapshot();
const drawerSnapshot = () =>
  (app.system.get(SYSTEM_IDS.requestCreation) as RequestCreationActor | undefined)?.getSnapshot() ?? notYetLoaded;

const drawer = () => screen.getByRole('dialog');
/** SPEC §2 category drawer modes, verbatim. */
const DRAWER_TEXT = {
  custom: { title: 'Custom request', prompt: 'How would you categorize your request?' },
  explore: { title: 'Request categories', prompt: 'Explore request ideas from the following categories.' },
};
type SurveyActor = ActorRefFrom<typeof surveyMachine>;
const surveyActor = () => drawerSnapshot().children.survey as SurveyActor;

const states: StateAssertions<Machine> = {
  closed: () => {
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  },
  categories: async ({ context }) => {
    expect(screen.getByRole('dialog', { name: DRAWER_TEXT[context.mode].title })).toBeInTheDocument();
    expect((await trackedEvents(sent)).at(-1)).toEqual({
      name: 'ui_interaction',
      properties: { element_type: 'button', element_id: context.mode === 'custom' ? 'create_custom_request' : 'explore_categories' },
    });
  },
  'categories.loading': () => {
    expect(within(drawer()).getByText('Loading')).toBeInTheDocument();
    expect(pendingCalls.inputOf('fetchCategories')).toBeUndefined();
  },
  'categories.failed': () => {
    expect(within(drawer()).getByRole('alert')).toHaveTextContent(REQUEST_CREATION_MESSAGES.categoriesFailed);
    expect(reportedErrors(sent).at(-1)).toEqual(FAILURE_REPORT);
  },
  'categories.showing': ({ context }) => {
    expect(within(drawer()).getByText(DRAWER_TEXT[context.mode].prompt)).toBeInTheDocument();
    const list = within(drawer()).getByRole('list');
    expect(within(list).getAllByRole('button').map((button) => button.textContent)).toEqual(['Car', 'Pet']);
  },
  templates: () => {
    expect(screen.getByRole('dialog', { name: 'Pet Requests' })).toBeInTheDocument();
    expect(within(drawer()).getByRole('button', { name: 'Back to categories' })).toBeInTheDocument();
  },
  'templates.loading': () => {
    expect(within(drawer()).getByText('Loading')).toBeInTheDocument();
    expect(pendingCalls.inputOf('fetchTemplates')).toEqual({ categoryId: PET.id });
  },
  'templates.failed': () => {
    expect(within(drawer()).getByRole('alert')).toHaveTextContent(REQUEST_CREATION_MESSAGES.templatesFailed);
    expect(reportedErrors(sent).at(-1)).toEqual(FAILURE_REPORT);
  },
  'templates.showing': () => {
    const list = within(drawer()).getByRole('list', { name: 'Pet requests' });
    expect(within(list).getAllByRole('button').map((button) => button.textContent)).toEqual(PET_TEMPLATES.map((template) => template.name));
  },
  survey: ({ context }) => {
    const name = context.survey?.name as string;
    expect(screen.getByRole('dialog', { name })).toBeInTheDocument();
    // The conversation of that template has begun (the summary comes at once here: it has no questions).
    expect(surveyActor().getSnapshot().context.survey).toEqual(context.survey);
    expect(context.firstRequest).toBe(true);
  },
};

const settle = (event: { type: string }) => pendingCalls.settle(event);

const events: EventExecutors<Machine> = {
  'xstate.done.actor.fetchCategories': ({ event }) => settle(event),
  'xstate.error.actor.fetchCategories': ({ event }) => settle(event),
  'xstate.done.actor.fetchTemplates': ({ event }) => settle(event),
  'xstate.error.actor.fetchTemplates': ({ event }) => settle(event),
  OPEN_CATEGORIES: async ({ event }) => {
    await user.click(screen.getByRole('button', { name: event.mode === 'custom' ? 'Create a request' : 'Explore categories' }));
  },
  START_SURVEY: async () => {
    await user.click(screen.getByRole('button', { name: 'Request help' }));
  },
  PICK_CATEGORY: async () => {
    await user.click(within(drawer()).getByRole('button', { name: 'Pet' }));
  },
  PICK_TEMPLATE: async () => {
    await user.click(within(drawer()).getByRole('button', { name: VET.name }));
  },
  BACK: async () => {
    await user.click(within(drawer()).getByRole('button', { name: 'Back to categories' }));
  },
  RETRY: async () => {
    await user.click(within(drawer()).getByRole('button', { name: 'Try again' }));
  },
  CLOSE: async ({ state }) => {
    // Escape on the category list, the Close button elsewhere: nothing has begun, so nothing is asked.
    if (state.matches('categories')) await user.keyboard('{Escape}');
    else if (!state.matches('survey')) await user.click(within(drawer()).getByRole('button', { name: 'Close' }));
    else {
      // The survey decides (SPEC §4): before the confirmation it asks first, and the user stays (the survey model
      // walks the rest of its closing).
      await within(drawer()).findByRole('heading', { name: 'Review your request' });
      await user.click(within(drawer()).getByRole('button', { name: 'Close' }));
      await user.click(await screen.findByRole('button', { name: 'No, stay' }));
    }
  },
  SURVEY_SUBMITTED: async () => {
    await user.click(await within(drawer()).findByRole('button', { name: 'Submit' }));
    await within(drawer()).findByRole('heading', { name: `${VET.name} has been added to your requests` });
    // SPEC §3: request_count goes up locally; whoever listens (the Dashboard) hears of the new request.
    expect(session.getSnapshot().context.user?.request_count).toBe(1);
    expect(requestCreated).toHaveBeenCalledExactlyOnceWith({ type: 'requestCreated' });
  },
  'xstate.done.actor.survey': async () => {
    await within(drawer()).findByRole('heading', { name: /^(Review your request|.* has been added to your requests)$/ });
    await user.click(within(drawer()).getByRole('button', { name: 'Close' }));
    // Before the confirmation, closing asks first (SPEC §4).
    const leave = screen.queryByRole('button', { name: 'Yes, cancel' });
    if (leave) await user.click(leave);
  },
};

beforeEach(async () => {
  user = userEvent.setup();
  // The drawer's own calls are provided actors; the server gets the analytics batches and the error reports.
  ({ sent } = fakeNetwork([ANALYTICS_ROUTE, ERROR_REPORTS_ROUTE]));
  requestCreated.mockClear();
  start();
  await waitFor(() => expect(session.getSnapshot().context.user).not.toBeNull());
});

afterEach(async () => {
  // What this test tracked leaves now, not in the next test.
  await flushAnalytics();
  act(() => app.stop());
  pendingCalls.clear();
});

describe('request creation drawer', () => {
  it.each(titled)('$title', async ({ path }) => {
    await runPath(path, drawerSnapshot, states, events);
    // Every failed list is reported once, and nothing else is.
    const failures = path.steps.filter(({ event }) => event.type.startsWith('xstate.error')).length;
    await waitFor(() => expect(reportedErrors(sent)).toEqual(Array(failures).fill(FAILURE_REPORT)));
  });

  it('covers every state and event', () => {
    expectFullCoverage(requestCreationMachine, paths, states, events);
  });

  it('walks the paths the issue names', () => {
    expectScenariosWalked(
      titled.map(({ title }) => title),
      [
        /^start → explore → categories loaded → pick Pet → templates loaded → pick the vet → submitted/,
        /^start → custom → categories loaded/,
        /^start → benefits help/,
        /pick Pet → (templates loaded → )?back/,
        /^start → benefits help → close$/,
      ],
    );
  });
});
