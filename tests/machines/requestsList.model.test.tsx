import { act, render, screen, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Actor, type ActorLogic, type SnapshotFrom, createActor } from 'xstate';
import type { AppActor } from '../../src/machines/app.machine.ts';
import { TestModel, type TestModelOptions, type TestPath } from 'xstate/graph';
import { requestsListMachine } from '../../src/machines/requestsList.machine.ts';
import { requestsSearchMachine } from '../../src/machines/requestsSearch.machine.ts';
import type { ClientRequest } from '../../src/services/threadRules.ts';
import type { RequestLists } from '../../src/services/threadRules.ts';
import { REQUESTS_LOAD_FAILED, RequestsView } from '../../src/views/Requests.tsx';
import { relativeTime } from '../../src/widgets/format.ts';
import { eventsToApp, inApp, sessionOf, signedInSession, startFlow, startTestApp } from './appSystem.support.tsx';
import { employeeUser } from './users.fixtures.ts';
import {
  type EventExecutors,
  type ModelEvent as SupportModelEvent,
  PendingCalls,
  type StateAssertions,
  expectFullCoverage,
  runPath,
  settlementExecutors,
} from './modelPaths.support.ts';


type ListSnapshot = SnapshotFrom<typeof requestsListMachine>;
type Machine = typeof requestsListMachine;

// ---- The requests an employee may have, and what the screen must make of them (written out, not computed). ----

function request(id: number, name: string, status: string, issuedAt: string, category: string | null = 'Car'): ClientRequest {
  return {
    id,
    external_id: `R-${id}`,
    name,
    status,
    issued_at: issuedAt,
    created_at: issuedAt,
    details: null,
    survey_category_name: category,
    survey_category_image_url: null,
    messages: [],
  };
}

const OIL_CHANGE = request(1, 'Get an oil change', 'in_progress', '2025-03-03T09:00:00Z');
const VET = request(2, 'Book a vet visit', 'in_progress', '2025-02-20T09:00:00Z', 'Pet');
const MOVERS = request(3, 'Find movers', 'open', '2025-03-04T09:00:00Z', 'Home / Moving');
/** A status this app does not know, from the open list: shown 'Unknown', in the queue. */
const TAXES = request(4, 'File my taxes', 'archived', '2025-03-01T09:00:00Z', 'Finances');
const PASSPORT = request(5, 'Renew my passport', 'closed', '2025-01-10T09:00:00Z', 'Travel');
const SITTER = request(6, 'Find a babysitter', 'open', '2025-03-05T09:00:00Z', 'Family');

interface Expected {
  toDoTab: string;
  completedTab: string | null;
  inProgress: { title: string; names: string[] } | null;
  inQueue: { title: string; names: string[] } | null;
  completed: { title: string; names: string[] } | null;
}

interface Scenario {
  label: string;
  lists: RequestLists;
  expected: Expected;
}

const SCENARIOS: Scenario[] = [
  {
    label: 'everything',
    // Each list out of order: the screen sorts by issued_at.
    lists: { open: [MOVERS, TAXES], in_progress: [OIL_CHANGE, VET], completed: [PASSPORT] },
    expected: {
      toDoTab: 'To do (4)',
      completedTab: 'Completed (1)',
      inProgress: { title: '2 requests in progress', names: ['Book a vet visit', 'Get an oil change'] },
      inQueue: { title: '2 requests in queue', names: ['File my taxes', 'Find movers'] },
      completed: { title: '1 request completed', names: ['Renew my passport'] },
    },
  },
  {
    label: 'one in the queue',
    lists: { open: [SITTER], in_progress: [], completed: [] },
    expected: {
      toDoTab: 'To do (1)',
      completedTab: null,
      inProgress: null,
      inQueue: { title: '1 request in queue', names: ['Find a babysitter'] },
      completed: null,
    },
  },
  {
    label: 'only completed',
    lists: { open: [], in_progress: [], completed: [PASSPORT] },
    expected: {
      toDoTab: 'To do (0)',
      completedTab: 'Completed (1)',
      inProgress: null,
      inQueue: null,
      completed: { title: '1 request completed', names: ['Renew my passport'] },
    },
  },
  {
    label: 'nothing',
    lists: { open: [], in_progress: [], completed: [] },
    expected: { toDoTab: 'To do (0)', completedTab: null, inProgress: null, inQueue: null, completed: null },
  },
];

const ALL_REQUESTS = [OIL_CHANGE, VET, MOVERS, TAXES, PASSPORT, SITTER];
const idsOf = (lists: RequestLists) => [...lists.open, ...lists.in_progress, ...lists.completed].map((item) => item.id).sort();

/** Which scenario the snapshot holds, told by the requests in it. */
function scenarioOf(snapshot: ListSnapshot): Scenario | null {
  const { groups } = snapshot.context;
  if (!groups) return null;
  const ids = [...groups.inProgress, ...groups.inQueue, ...groups.completed].map((item) => item.id).sort();
  const found = SCENARIOS.find((scenario) => JSON.stringify(idsOf(scenario.lists)) === JSON.stringify(ids));
  if (!found) throw new Error(`no scenario holds requests ${ids.join(', ')}`);
  return found;
}

// ---- The model. ----

const doneWith = (scenario: Scenario) => ({ type: 'xstate.done.actor.loadRequests', output: scenario.lists, label: scenario.label });
const LOAD_FAILURE = { type: 'xstate.error.actor.loadRequests', error: new Error('HTTP 500') };
/** An event of the model; `label` names a load's answer in test titles. */
type ModelEvent = SupportModelEvent & { label?: string };

function eventsFor(snapshot: ListSnapshot): ModelEvent[] {
  const current = scenarioOf(snapshot);
  const events: ModelEvent[] = [];
  if (snapshot.matches('loading')) {
    // A first load: any answer. A reload after a new request: one more request in the queue, or a failure.
    if (current === null) events.push(...SCENARIOS.map(doneWith), LOAD_FAILURE);
    else if (current.label === 'everything') events.push(doneWith(SCENARIOS[1]!), LOAD_FAILURE);
    else events.push(doneWith(SCENARIOS[0]!));
  }
  if (snapshot.matches('failed')) events.push({ type: 'RETRY' });
  if (snapshot.matches('ready')) {
    if (current?.expected.completedTab) {
      events.push({ type: 'SELECT_TAB', tab: snapshot.context.tab === 'toDo' ? 'completed' : 'toDo' });
    }
    events.push({ type: 'CREATE_REQUEST' });
    // The drawer creates a request; once on the Completed tab is enough to see where the screen lands.
    if (current?.label === 'everything' && snapshot.context.tab === 'completed') events.push({ type: 'REQUEST_CREATED' });
  }
  // A request created while the first load is under way.
  if (snapshot.matches('loading') && current === null && snapshot.context.tab === 'toDo') events.push({ type: 'REQUEST_CREATED' });
  return events;
}

const describeEvent = (event: ModelEvent | undefined) =>
  !event ? 'start' : event.label ? `${event.type} (${event.label})` : 'tab' in event ? `${event.type} ${String(event.tab)}` : event.type;

const modelLogic = requestsListMachine as unknown as ActorLogic<ListSnapshot, ModelEvent>;
const traversal: Partial<TestModelOptions<ListSnapshot, ModelEvent, undefined>> = {
  events: eventsFor,
  serializeEvent: (event) => describeEvent(event),
  serializeState: (snapshot, event) =>
    `${JSON.stringify(snapshot.value)} ${scenarioOf(snapshot)?.label ?? 'nothing loaded'} ${snapshot.context.tab}` +
    // A reload, and a load restarted by a new request, are their own cases.
    (event?.type === 'REQUEST_CREATED' ? ' via REQUEST_CREATED' : ''),
};
const model = new TestModel(modelLogic, { ...traversal, stateMatcher: (snapshot, key) => snapshot.matches(key as 'ready') });

function scenarioPath(events: ModelEvent[]) {
  return model.getPathsFromEvents(events, { ...traversal, events, fromState: createActor(requestsListMachine).getSnapshot() });
}

const paths: TestPath<ListSnapshot, ModelEvent>[] = [
  ...model.getShortestPaths(),
  ...scenarioPath([doneWith(SCENARIOS[0]!), { type: 'CREATE_REQUEST' }]),
  ...scenarioPath([doneWith(SCENARIOS[0]!), { type: 'SELECT_TAB', tab: 'completed' }, { type: 'SELECT_TAB', tab: 'toDo' }]),
  // The last completed request reopened: the Completed tab goes, and the screen is back on To do.
  ...scenarioPath([doneWith(SCENARIOS[0]!), { type: 'SELECT_TAB', tab: 'completed' }, { type: 'REQUEST_CREATED' }, doneWith(SCENARIOS[1]!)]),
  // A failed reload keeps the lists on screen under the error.
  ...scenarioPath([doneWith(SCENARIOS[0]!), { type: 'SELECT_TAB', tab: 'completed' }, { type: 'REQUEST_CREATED' }, LOAD_FAILURE, { type: 'RETRY' }, doneWith(SCENARIOS[0]!)]),
];

// ---- The screen, the drawer's hooks, the calls. ----

const calls = new PendingCalls();
let user: UserEvent;
let actor: Actor<Machine>;
let app: AppActor;
let appEvents: ReturnType<typeof eventsToApp>;

const screenRoot = () => document.querySelector('.lc-requests') as HTMLElement;
const tab = (name: string) => screen.queryByRole('tab', { name });

function expectSection(title: string, names: string[]) {
  const section = screen.getByRole('region', { name: title });
  const links = within(section).getAllByRole('link');
  expect(links.map((link) => within(link).getByText(/./, { selector: '.lc-request-item__name' }).textContent)).toEqual(names);
  for (const link of links) {
    const shown = ALL_REQUESTS.find((candidate) => link.textContent?.startsWith(candidate.name)) as ClientRequest;
    expect(link).toHaveAttribute('href', `/requests/${shown.id}`);
    const label = { open: 'In Queue', in_progress: 'In Progress', closed: 'Completed' }[shown.status] ?? 'Unknown';
    expect(link).toHaveTextContent(`${shown.name}${label}Requested ${relativeTime(shown.issued_at)}`);
  }
}

function expectLists(snapshot: ListSnapshot) {
  const scenario = scenarioOf(snapshot);
  if (!scenario) {
    expect(screen.queryByRole('tablist')).not.toBeInTheDocument();
    return;
  }
  const { expected } = scenario;
  const onCompleted = snapshot.context.tab === 'completed';
  expect(screen.getAllByRole('tab').map((item) => item.textContent)).toEqual(
    [expected.toDoTab, expected.completedTab].filter(Boolean),
  );
  expect(tab(expected.toDoTab)).toHaveAttribute('aria-selected', String(!onCompleted));
  if (onCompleted) {
    expect(expected.completed).not.toBeNull();
    expectSection(expected.completed!.title, expected.completed!.names);
    expect(screen.queryByText('No open requests')).not.toBeInTheDocument();
    return;
  }
  for (const section of [expected.inProgress, expected.inQueue]) if (section) expectSection(section.title, section.names);
  expect(screen.queryAllByRole('region').map((region) => region.getAttribute('aria-labelledby'))).toEqual(
    [expected.inProgress && 'requests-in-progress', expected.inQueue && 'requests-in-queue'].filter(Boolean),
  );
  // SPEC §2: a dashed divider between the two sections, only when both are there.
  expect(screen.queryAllByRole('separator')).toHaveLength(expected.inProgress && expected.inQueue ? 1 : 0);
  if (!expected.inProgress && !expected.inQueue) expect(screen.getByText('No open requests')).toBeInTheDocument();
  else expect(screen.queryByText('No open requests')).not.toBeInTheDocument();
}

function expectPage(snapshot: ListSnapshot, { busy }: { busy: boolean }) {
  expect(screen.getByRole('heading', { level: 1, name: 'Requests' })).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Create a request' })).toBeInTheDocument();
  expect(screenRoot()).toHaveAttribute('aria-busy', String(busy));
  // The skeleton stands in for lists that have never loaded, and only while they load.
  const skeleton = busy && snapshot.context.groups === null;
  if (skeleton) expect(screen.getByText('Loading')).toBeInTheDocument();
  else expect(screen.queryByText('Loading')).not.toBeInTheDocument();
  expectLists(snapshot);
}

const stateAssertions: StateAssertions<Machine> = {
  loading: (snapshot) => {
    expectPage(snapshot, { busy: true });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  },
  ready: (snapshot) => {
    expectPage(snapshot, { busy: false });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  },
  failed: (snapshot) => {
    expectPage(snapshot, { busy: false });
    expect(screen.getByRole('alert')).toHaveTextContent(REQUESTS_LOAD_FAILED);
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  },
};

const eventExecutors: EventExecutors<Machine> = {
  ...settlementExecutors(requestsListMachine, calls),
  RETRY: async () => {
    await user.click(screen.getByRole('button', { name: 'Try again' }));
  },
  SELECT_TAB: async ({ event, state }) => {
    const scenario = scenarioOf(state) as Scenario;
    const name = event.tab === 'completed' ? scenario.expected.completedTab : scenario.expected.toDoTab;
    await user.click(tab(name as string) as HTMLElement);
  },
  CREATE_REQUEST: async () => {
    appEvents.length = 0;
    await user.click(screen.getByRole('button', { name: 'Create a request' }));
    expect(appEvents).toEqual([{ type: 'OPEN_CATEGORIES', mode: 'custom', trackedAs: 'create_custom_request' }]);
  },
  REQUEST_CREATED: () => {
    // The drawer counts a new request with the session, which tells the screens.
    act(() => sessionOf(app).send({ type: 'REQUEST_CREATED' }));
  },
};

describe('requests list machine against the Requests screen', () => {
  beforeEach(() => {
    user = userEvent.setup();
    calls.clear();
    app = startTestApp({ session: signedInSession(employeeUser({ external_id: 'u-1', full_name: 'Ada Park', first_name: 'Ada', initials: 'AP', email: 'ada@acme.test' })) });
    appEvents = eventsToApp(app);
    actor = startFlow(app, requestsListMachine.provide({ actors: { loadRequests: calls.logic<RequestLists>() } }));
    // The screen's search has a model of its own (search.model.test.tsx); here it stays idle.
    const search = startFlow(app, requestsSearchMachine);
    render(
      inApp(
        app,
        <MemoryRouter>
          <RequestsView requests={actor} search={search} />
        </MemoryRouter>,
      ),
    );
  });

  afterEach(() => {
    app.stop();
  });

  it.each(paths.map((path) => [path.steps.map((step) => describeEvent(step.event as ModelEvent)).join(' → '), path] as const))(
    '%s',
    async (_title, path) => {
      await runPath(path, () => actor.getSnapshot(), stateAssertions, eventExecutors);
    },
  );
});

describe('requests list model coverage', () => {
  it('asserts and reaches every state, and executes every event', () => {
    expectFullCoverage(requestsListMachine, paths, stateAssertions, eventExecutors);
  });
});
