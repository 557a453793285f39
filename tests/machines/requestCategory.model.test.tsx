import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CategoryRequestSurveysResponse, RequestSurvey } from '../../src/contract/surveys.ts';
import type { AppActor } from '../../src/machines/app.machine.ts';
import { requestCategoryMachine } from '../../src/machines/requestCategory.machine.ts';
import RequestCategory from '../../src/views/RequestCategory.tsx';
import { inApp, startTestApp } from './appSystem.support.tsx';
import { networkError, serverRefusal } from './httpFailures.support.ts';
import {
  type EventExecutors,
  type StateAssertions,
  doneEvent,
  errorEvent,
  expectFullCoverage,
  expectScenariosWalked,
  flowModel,
  inspectedActors,
  pendingCalls,
  runPath,
  settlementExecutors,
} from './modelPaths.support.ts';
import { ERROR_REPORTS_ROUTE, type SentCall, fakeNetwork, reportErrorsToTheServer, reportedErrors } from './network.support.ts';

reportErrorsToTheServer();

type Machine = typeof requestCategoryMachine;

const PET_TEMPLATES: RequestSurvey[] = [
  { id: 801, name: 'Find a pet sitter or boarding', slug: 'find-a-pet-sitter', for_alpha: true, category: 'Pet' },
  { id: 802, name: 'Book a vet appointment', slug: 'book-a-vet-appointment', for_alpha: true, category: 'Pet' },
];
/** A template the server lists that is not offered yet (for_alpha false): the page leaves it out. */
const NOT_YET_OFFERED: RequestSurvey = { id: 803, name: 'Train my dog', slug: 'train-my-dog', for_alpha: false, category: 'Pet' };
const PET_PAGE: CategoryRequestSurveysResponse = {
  survey_category: { id: 6, name: 'Pet', image_url: '/seed/categories/pet.svg' },
  request_surveys: PET_TEMPLATES,
};
const REFUSAL = 'An unexpected error occurred';
/** SPEC §8: what the page says when the server could not be reached. */
const LOAD_FAILED = 'We could not load the requests of this category. Please try again.';

const { paths, titled } = flowModel(requestCategoryMachine, {
  input: { categoryId: PET_PAGE.survey_category.id },
  events: [
    doneEvent('fetchCategory', PET_PAGE, 'page loaded'),
    errorEvent('fetchCategory', serverRefusal(500, REFUSAL), 'refused'),
    errorEvent('fetchCategory', networkError(), 'unreachable'),
    { label: 'retry', event: { type: 'RETRY' } },
  ],
  // One failure, then the retry: a second failure shows the same.
  offer: (snapshot, { event }) => !(event.type.startsWith('xstate.error') && snapshot.context.error !== null),
});

let sent: SentCall[];
let app: AppActor;
const pageRequests = () => sent.filter(({ path }) => path.startsWith('survey_categories/'));

const states: StateAssertions<Machine> = {
  loading: () => {
    expect(screen.queryByRole('heading', { level: 1 })).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(pageRequests().at(-1)).toEqual({
      method: 'GET',
      path: 'survey_categories/6/request_surveys',
      body: undefined,
    });
  },
  ready: () => {
    expect(screen.getByRole('heading', { level: 1, name: 'Pet Requests' })).toBeInTheDocument();
    const list = screen.getByRole('list', { name: 'Pet requests' });
    expect(within(list).getAllByRole('button').map((button) => button.textContent)).toEqual(PET_TEMPLATES.map(({ name }) => name));
  },
  failed: (snapshot) => {
    expect(screen.getByRole('heading', { level: 1, name: 'Requests' })).toBeInTheDocument();
    // The server's words when it refused; else the page's own.
    expect(screen.getByRole('alert')).toHaveTextContent(snapshot.context.error === REFUSAL ? REFUSAL : LOAD_FAILED);
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
    expect(reportedErrors(sent).at(-1)).toEqual(expect.objectContaining({ component: 'RequestCategory', feature: 'request creation' }));
  },
};

const events: EventExecutors<Machine> = {
  ...settlementExecutors(requestCategoryMachine, pendingCalls),
  // Trying again asks for the page again.
  RETRY: async () => {
    const before = pageRequests().length;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(pageRequests()).toHaveLength(before + 1);
  },
};

describe('request category machine against the Category page', () => {
  beforeEach(() => {
    ({ sent } = fakeNetwork([
      {
        method: 'GET',
        path: /^survey_categories\/\d+\/request_surveys$/,
        id: 'fetchCategory',
        answer: (page: CategoryRequestSurveysResponse) => ({ ...page, request_surveys: [...page.request_surveys, NOT_YET_OFFERED] }),
      },
      ERROR_REPORTS_ROUTE,
    ]));
    app = startTestApp();
    const router = createMemoryRouter([{ path: '/requests/category/:categoryId', element: <RequestCategory /> }], {
      initialEntries: ['/requests/category/6'],
    });
    render(inApp(app, <RouterProvider router={router} />));
  });

  afterEach(() => {
    app.stop();
    pendingCalls.clear();
  });

  it.each(titled)('$title', async ({ path }) => {
    await runPath(path, () => inspectedActors.snapshotOf(requestCategoryMachine), states, events);
  });

});

describe('request category model coverage', () => {
  it('asserts and reaches every state, executes every event and takes every transition', () => {
    expectFullCoverage(requestCategoryMachine, paths, states, events);
  });

  it('walks the paths the rules call for', () => {
    expectScenariosWalked(titled.map(({ title }) => title), {
      'the page loads': /^start → page loaded$/,
      'a refusal, then a retry': /^start → refused → retry$/,
      'unreachable, then a retry': /^start → unreachable → retry$/,
    });
  });
});
