import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type SnapshotFrom, fromPromise } from 'xstate';
import { useRequestCreationActor } from '../../src/machines/appSystem.tsx';
import type { AppActor, SessionActor } from '../../src/machines/app.machine.ts';
import { inApp, sessionOf, signedInSession, startTestApp } from './appSystem.support.tsx';
import type { User } from '../../src/contract/account.ts';
import type { NextScreenItem, RecommendedRequestCategory, SubmittedRequest } from '../../src/contract/surveys.ts';
import { DASHBOARD_MESSAGES, type OpenRequestLists, dashboardMachine } from '../../src/machines/dashboard.machine.ts';
import { requestCreationMachine } from '../../src/machines/requestCreation.machine.ts';
import { surveyMachine } from '../../src/machines/survey.machine.ts';
import { flushAnalytics } from '../../src/services/analytics.ts';
import type { ClientRequest } from '../../src/services/threadRules.ts';
import Dashboard from '../../src/views/Dashboard.tsx';
import RequestCreationDrawer from '../../src/views/requestCreation/RequestCreationDrawer.tsx';
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

type Machine = typeof dashboardMachine;

const USER = employeeUser(
  { external_id: 'u-9', full_name: 'Ada Park', first_name: 'Ada', initials: 'AP', email: 'ada@acme.test' },
  { companies: [{ id: 1, name: 'Acme Corporation', image_url: null }] },
);

function clientRequest(id: number, name: string, status: string, category: string): ClientRequest {
  return {
    id,
    external_id: `REQ-${id}`,
    name,
    status,
    issued_at: new Date(Date.now() - 2 * 60 * 60 * 1000).toISOString(),
    created_at: new Date(Date.now() - 2 * 60 * 60 * 1000).toISOString(),
    details: null,
    survey_category_name: category,
    survey_category_image_url: null,
    messages: [],
  };
}

const NEW_REQUEST = clientRequest(12, 'Find a pet sitter or boarding', 'open', 'Pet');
const OLDER_OPEN = clientRequest(4, 'Plan my move', 'open', 'Home / Moving');
const IN_PROGRESS = clientRequest(7, 'Renew my car registration', 'in_progress', 'Car');
const NONE: OpenRequestLists = { open: [], inProgress: [] };
const LATEST: OpenRequestLists = { open: [OLDER_OPEN, NEW_REQUEST], inProgress: [] };
const BUSY: OpenRequestLists = { open: [NEW_REQUEST], inProgress: [IN_PROGRESS] };

const template = (id: number, name: string, category: string) => ({ id, name, slug: `s-${id}`, for_alpha: true, category });
const SUGGESTIONS: RecommendedRequestCategory[] = [
  {
    id: 6,
    name: 'Pet',
    image_url: '/seed/categories/pet.svg',
    request_surveys: [
      template(801, 'Find a pet sitter or boarding', 'Pet'),
      template(802, 'Book a vet appointment', 'Pet'),
      template(803, 'Book a grooming appointment', 'Pet'),
    ],
  },
  { id: 3, name: 'Finances', image_url: '/seed/categories/finances.svg', request_surveys: [template(301, 'Get my taxes filed', 'Finances')] },
  { id: 8, name: 'Wildcard', image_url: '/seed/categories/wildcard.svg', request_surveys: [template(1001, 'Anything else', 'Wildcard')] },
  { id: 1, name: 'Car', image_url: '/seed/categories/car.svg', request_surveys: [template(101, 'Renew my car registration', 'Car')] },
];
const networkFailure = new TypeError('Failed to fetch');
/** What a failed list reports (SPEC §8). */
const FAILURE_REPORT = expect.objectContaining({ component: 'Dashboard', feature: 'dashboard' });

const { paths, titled } = flowModel(dashboardMachine, {
  events: [
    doneEvent('fetchRequests', NONE, 'no requests'),
    doneEvent('fetchRequests', LATEST, 'open requests'),
    doneEvent('fetchRequests', BUSY, 'a request in progress'),
    errorEvent('fetchRequests', networkFailure, 'requests fail'),
    doneEvent('fetchSuggestions', SUGGESTIONS, 'suggestions'),
    errorEvent('fetchSuggestions', networkFailure, 'suggestions fail'),
    { label: 'retry', event: { type: 'RETRY' } },
    { label: 'request created', event: { type: 'REQUEST_CREATED' } },
  ],
  offer: (snapshot, { event }) => {
    const { openRequests, inProgressRequests, requestsError } = snapshot.context;
    // The first load ends before the suggestions arrive; a load after a creation is the only one with both ready.
    const reloadAfterCreation = snapshot.matches({ requests: 'loading', suggestions: 'ready' }) && requestsError === null;
    if (event.type === 'xstate.done.actor.fetchRequests') return reloadAfterCreation || event.output === NONE;
    if (event.type.endsWith('fetchSuggestions')) return !snapshot.matches({ requests: 'loading' }) || requestsError !== null;
    // The user, who has no request yet, creates one from a suggestion.
    if (event.type === 'REQUEST_CREATED') {
      return snapshot.matches({ suggestions: 'ready', requests: 'ready' }) && openRequests.length + inProgressRequests.length === 0;
    }
    return true;
  },
});

// ---- The real screen ----

let user: UserEvent;
let app: AppActor;
let session: SessionActor;
let sent: SentCall[];

const instantSurvey = surveyMachine.provide({
  actors: {
    beginSurvey: fromPromise(async () => 51),
    fetchNextItem: fromPromise<NextScreenItem | null, { userRequestSurveyId: number }>(async () => null),
    submitSurvey: fromPromise<SubmittedRequest, { userRequestSurveyId: number }>(async () => NEW_REQUEST as SubmittedRequest),
  },
});

/** The drawer as the app layout shows it: once the app has loaded it, on the first request to open it. */
function LoadedDrawer() {
  const requestCreation = useRequestCreationActor();
  return requestCreation ? <RequestCreationDrawer actor={requestCreation} /> : null;
}

function renderDashboard(signedIn: User = USER) {
  app = startTestApp({
    session: signedInSession(signedIn),
    requestCreation: requestCreationMachine.provide({ actors: { surveyConversation: instantSurvey } }),
  });
  session = sessionOf(app);
  return {
    async rendered() {
      await waitFor(() => expect(session.getSnapshot().context.user).not.toBeNull());
      render(
        inApp(
          app,
          <>
            <Dashboard />
            <LoadedDrawer />
          </>,
        ),
      );
    },
  };
}

function dashboardSnapshot(): SnapshotFrom<Machine> {
  return inspectedActors.snapshotOf(dashboardMachine, 'first');
}

const requestCount = () => session.getSnapshot().context.user?.request_count ?? 0;

const states: StateAssertions<Machine> = {
  requests: () => {
    // SPEC §2: the greeting once the user has requests; the first-request prompt before.
    if (requestCount() === 0) {
      expect(screen.getByRole('heading', { level: 1, name: "It's your first request!" })).toBeInTheDocument();
      expect(screen.queryByRole('heading', { name: 'Request ideas' })).not.toBeInTheDocument();
      // SPEC §9: the intro survey is offered until the first request.
      expect(screen.getByRole('button', { name: 'Start the conversation' })).toBeInTheDocument();
    } else {
      expect(screen.getByRole('heading', { level: 1, name: 'Welcome, Ada' })).toBeInTheDocument();
      expect(screen.getByRole('heading', { level: 2, name: 'Request ideas' })).toBeInTheDocument();
      expect(screen.queryByRole('heading', { name: 'Meet your concierge' })).not.toBeInTheDocument();
    }
    expect(screen.getByRole('button', { name: 'Explore categories' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: "Don't see what you need?" })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create a request' })).toBeInTheDocument();
  },
  'requests.loading': () => {
    // Both lists are asked for together, and wait on the same settlement.
    expect(sent.filter(({ path }) => path.startsWith('requests/')).slice(-2).map(({ method, path }) => `${method} ${path}`).sort()).toEqual([
      'GET requests/in_progress',
      'GET requests/open',
    ]);
  },
  'requests.ready': ({ context }) => {
    if (requestCount() === 0) {
      expect(screen.queryByRole('heading', { name: /request/i, level: 2 })).not.toBeInTheDocument();
      return;
    }
    const { inProgressRequests, openRequests } = context;
    const heading = inProgressRequests.length > 0
      ? 'Your request is in progress'
      : openRequests.length > 0 ? 'Your latest request' : 'You have no open requests';
    const section = screen.getByRole('region', { name: heading });
    // SPEC §2: the first in-progress request, else the first open one.
    const shown = inProgressRequests[0] ?? openRequests[0];
    if (shown) {
      const card = within(section).getByRole('link');
      expect(card).toHaveAttribute('href', `/requests/${shown.id}`);
      expect(card).toHaveTextContent(shown.name);
      expect(card).toHaveTextContent(shown.status === 'in_progress' ? 'In Progress' : 'In Queue');
      expect(card).toHaveTextContent('Requested 2 hours ago');
    } else {
      expect(within(section).queryByRole('link')).not.toBeInTheDocument();
    }
  },
  'requests.failed': () => {
    const section = screen.getByRole('region', { name: 'Your requests' });
    expect(within(section).getByRole('alert')).toHaveTextContent(DASHBOARD_MESSAGES.requestsFailed);
    expect(within(section).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
    expect(reportedErrors(sent)).toContainEqual(FAILURE_REPORT);
  },
  suggestions: () => {},
  'suggestions.loading': () => {
    expect(screen.queryByRole('heading', { level: 3, name: 'Pet' })).not.toBeInTheDocument();
  },
  'suggestions.ready': () => {
    // SPEC §2/§9: at most three categories, each with at most three requests and a 'View all' link.
    const columns = screen.getAllByRole('region').filter((region) => region.classList.contains('lc-suggestions__column'));
    expect(columns.map((column) => within(column).getByRole('heading', { level: 3 }).textContent)).toEqual(['Pet', 'Finances', 'Wildcard']);
    const pet = within(columns[0] as HTMLElement);
    expect(pet.getAllByRole('button').map((button) => button.textContent)).toEqual([
      'Find a pet sitter or boarding',
      'Book a vet appointment',
      'Book a grooming appointment',
    ]);
    const viewAll = pet.getByRole('link', { name: /^View all/ });
    expect(viewAll).toHaveAttribute('href', '/requests/category/6');
    expect(viewAll.textContent?.replace(/\s+/g, ' ')).toBe('View all Pet requests');
  },
  'suggestions.failed': () => {
    expect(screen.getByText(DASHBOARD_MESSAGES.suggestionsFailed)).toBeInTheDocument();
    expect(reportedErrors(sent)).toContainEqual(FAILURE_REPORT);
  },
};

const events: EventExecutors<Machine> = {
  'xstate.done.actor.fetchRequests': ({ event }) => pendingCalls.settle(event),
  'xstate.error.actor.fetchRequests': ({ event }) => pendingCalls.settle(event),
  'xstate.done.actor.fetchSuggestions': ({ event }) => pendingCalls.settle(event),
  'xstate.error.actor.fetchSuggestions': ({ event }) => pendingCalls.settle(event),
  RETRY: async () => {
    await user.click(screen.getAllByRole('button', { name: 'Try again' })[0] as HTMLElement);
  },
  REQUEST_CREATED: async () => {
    const countBefore = requestCount();
    // The user starts a suggested request, submits it, and comes back to the Dashboard.
    await user.click(screen.getByRole('button', { name: 'Find a pet sitter or boarding' }));
    const drawer = await screen.findByRole('dialog', { name: 'Find a pet sitter or boarding' });
    await user.click(await within(drawer).findByRole('button', { name: 'Submit' }));
    await within(drawer).findByRole('heading', { name: /has been added to your requests/ });
    await user.click(within(drawer).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // SPEC §3: counted locally, so the Dashboard greets a user who now has requests.
    expect(requestCount()).toBe(countBefore + 1);
  },
};

beforeEach(() => {
  inspectedActors.clear();
  user = userEvent.setup();
  ({ sent } = fakeNetwork([
    { method: 'GET', path: /^requests\/open$/, id: 'fetchRequests', answer: ({ open }: OpenRequestLists) => ({ success: true, requests: open }) },
    {
      method: 'GET',
      path: /^requests\/in_progress$/,
      id: 'fetchRequests',
      answer: ({ inProgress }: OpenRequestLists) => ({ success: true, requests: inProgress }),
    },
    {
      method: 'GET',
      path: /^recommended_request_categories$/,
      id: 'fetchSuggestions',
      answer: (categories: RecommendedRequestCategory[]) => ({ success: true, recommended_request_categories: categories }),
    },
    // The category drawer's own list, not under test here.
    { method: 'GET', path: /^survey_categories$/, answer: () => ({ survey_categories: [] }) },
    ANALYTICS_ROUTE,
    ERROR_REPORTS_ROUTE,
  ]));
});

afterEach(async () => {
  // What this test tracked leaves now, not in the next test.
  await flushAnalytics();
  // The screen leaves first (its flow ends through the app), then the app stops.
  cleanup();
  act(() => app.stop());
  pendingCalls.clear();
  vi.unstubAllGlobals();
});

describe('dashboard', () => {
  it.each(titled)('$title', async ({ path }) => {
    await renderDashboard().rendered();
    await runPath(path, dashboardSnapshot, states, events);
    // Every failed load is reported once, and nothing else is.
    const failures = path.steps.filter(({ event }) => event.type.startsWith('xstate.error')).length;
    await waitFor(() => expect(reportedErrors(sent)).toEqual(Array(failures).fill(FAILURE_REPORT)));
  });

  it('covers every state and event', () => {
    expectFullCoverage(dashboardMachine, paths, states, events);
  });

  it('walks the paths the issue names', () => {
    expectScenariosWalked(
      titled.map(({ title }) => title),
      [/request created → open requests/, /request created → a request in progress/, /request created → no requests/],
    );
  });
});

describe('dashboard screens', () => {
  async function loaded(signedIn: User) {
    await renderDashboard(signedIn).rendered();
    await pendingCalls.settle({ type: 'xstate.done.actor.fetchRequests', output: LATEST });
    await pendingCalls.settle({ type: 'xstate.done.actor.fetchSuggestions', output: SUGGESTIONS });
  }

  it('opens the category drawer to explore, and in custom mode to create a request (SPEC §2, §3 targets)', async () => {
    await loaded({ ...USER, request_count: 3 });
    await user.click(screen.getByRole('button', { name: 'Explore categories' }));
    expect(await screen.findByRole('dialog', { name: 'Request categories' })).toBeInTheDocument();
    expect((await trackedEvents(sent)).at(-1)).toEqual({
      name: 'ui_interaction',
      properties: { element_type: 'button', element_id: 'explore_categories' },
    });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await user.click(screen.getByRole('button', { name: 'Create a request' }));
    expect(await screen.findByRole('dialog', { name: 'Custom request' })).toBeInTheDocument();
    expect((await trackedEvents(sent)).at(-1)).toEqual({
      name: 'ui_interaction',
      properties: { element_type: 'button', element_id: 'create_custom_request' },
    });
  });

  it('shows the suggested categories as tabs on phones, and the sponsor card', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query === '(max-width: 599px)',
      addEventListener: () => {},
      removeEventListener: () => {},
    }));
    await loaded({ ...USER, request_count: 3 });
    const tabs = screen.getAllByRole('tab').map((tab) => tab.textContent);
    expect(tabs).toEqual(['Pet', 'Finances', 'Wildcard']);
    await user.click(screen.getByRole('tab', { name: 'Finances' }));
    expect(screen.getByRole('tabpanel')).toHaveTextContent('Get my taxes filed');
    expect(screen.getByRole('complementary', { name: 'Your sponsor' })).toHaveTextContent('Acme Corporation');
  });
});
