import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Actor, type ActorLogic, type SnapshotFrom, createActor, fromPromise } from 'xstate';
import { TestModel, type TestModelOptions, type TestParam, type TestPath } from 'xstate/graph';
import type { OfferingDetail, OfferingListItem } from '../../src/contract/offerings.ts';
import { type OfferingDrawerEvent, offeringDrawerMachine } from '../../src/machines/offeringDrawer.machine.ts';
import {
  type LoadCatalogueInput,
  type OfferingStore,
  offeringsCatalogueMachine,
} from '../../src/machines/offeringsCatalogue.machine.ts';
import { flushAnalytics } from '../../src/services/analytics.ts';
import { OfferingsLandingView } from '../../src/views/offerings/OfferingsLanding.tsx';
import { serverRefusal } from './httpFailures.support.ts';
import { expectFullCoverage, pendingCalls } from './modelPaths.support.ts';
import { ANALYTICS_ROUTE, type SentCall, fakeNetwork, trackedEvents } from './network.support.ts';
import { eventsToApp, startFlow, startTestApp } from './appSystem.support.tsx';
import type { AppActor } from '../../src/machines/app.machine.ts';
import { DETAILS, GYM, GYM_DETAIL, MEDICAL, MEDICAL_DETAIL, offeringsAnswer } from './offerings.fixtures.ts';

// The app-wide request creation actor is created when its module loads (a module-level singleton): the drawer's
// help button is checked on a stand-in.

type DrawerSnapshot = SnapshotFrom<typeof offeringDrawerMachine>;
/** CLOSE carries how the user closed the drawer (the machine ignores it); invoked results are events too. */
type ModelEvent =
  | Exclude<OfferingDrawerEvent, { type: 'CLOSE' }>
  | { type: 'CLOSE'; via: 'button' | 'escape' }
  | { type: 'xstate.done.actor.fetchOfferingDetail'; output: OfferingDetail }
  | { type: 'xstate.error.actor.fetchOfferingDetail'; error: Error };
type StateAssertions = NonNullable<TestParam<DrawerSnapshot, ModelEvent>['states']>;
type EventExecutors = NonNullable<TestParam<DrawerSnapshot, ModelEvent>['events']>;

// ---- What the drawer must show, restated from SPEC §2 for the fixture offerings. ----

/** Every link of the Meridian detail: the text it reads and where it goes. */
const MEDICAL_LINKS = [
  { text: 'Open the benefits portal', url: 'https://benefits.example.com/enroll', newTab: true },
  { text: '(800) 555-0142', url: 'tel:8005550142', newTab: false },
  { text: 'members@meridian.example.com', url: 'mailto:members@meridian.example.com', newTab: false },
  { text: 'www.meridian.example.com/find-care', url: 'https://www.meridian.example.com/find-care', newTab: true },
  { text: 'Summary of Benefits (PDF)', url: 'https://meridian.example.com/summary.pdf', newTab: true },
  { text: 'Find a doctor', url: 'https://meridian.example.com/find-care', newTab: true },
];
const EXPECTED_LINKS: Record<number, typeof MEDICAL_LINKS> = { [MEDICAL.id]: MEDICAL_LINKS, [GYM.id]: [] };
const HELP_TEXT = 'Get help from your Life Concierge assistant';

const CARDS = [MEDICAL, GYM];
const cardLabel = (offering: OfferingListItem) =>
  `${offering.provider_name}, ${offering.heading}, ${offering.subheading} ${offering.type === 'benefit' ? '(benefit)' : '(offer)'}`;
const cached = (snapshot: DrawerSnapshot) => Object.keys(snapshot.context.offeringDetails).map(Number).sort();
const openOffering = (snapshot: DrawerSnapshot) => snapshot.context.offering as OfferingListItem;
const cachedDetail = (snapshot: DrawerSnapshot) => snapshot.context.offeringDetails[openOffering(snapshot).id];

// ---- The model. ----

function eventsFor(snapshot: DrawerSnapshot): ModelEvent[] {
  if (snapshot.matches('closed')) return CARDS.map((offering) => ({ type: 'OPEN', offering }));
  const offering = openOffering(snapshot);
  const events: ModelEvent[] = [{ type: 'CLOSE', via: 'button' }];
  if (snapshot.matches({ open: 'loading' })) {
    events.push(
      { type: 'xstate.done.actor.fetchOfferingDetail', output: DETAILS[offering.id] as OfferingDetail },
      { type: 'xstate.error.actor.fetchOfferingDetail', error: new Error('500') },
    );
  }
  if (snapshot.matches({ open: 'failed' })) events.push({ type: 'RETRY' });
  if (cachedDetail(snapshot)?.request_survey_cta) events.push({ type: 'REQUEST_HELP' });
  return events;
}

function describeEvent(event: ModelEvent): string {
  switch (event.type) {
    case 'OPEN':
      return `OPEN ${event.offering.provider_name}`;
    case 'CLOSE':
      return `CLOSE by ${event.via}`;
    case 'FOLLOW_LINK':
      return `FOLLOW_LINK ${event.url}`;
    default:
      return event.type;
  }
}

const modelLogic = offeringDrawerMachine as unknown as ActorLogic<DrawerSnapshot, ModelEvent, undefined>;
const traversal: Partial<TestModelOptions<DrawerSnapshot, ModelEvent, undefined>> = {
  events: eventsFor,
  serializeEvent: describeEvent,
  serializeState: (snapshot) =>
    `${JSON.stringify(snapshot.value)} ${snapshot.matches('open') ? `#${openOffering(snapshot).id}` : ''} cached ${cached(snapshot)}`,
};
const model = new TestModel(modelLogic, { ...traversal, stateMatcher: (snapshot, key) => snapshot.matches(key as 'closed') });

function scenarioPath(events: ModelEvent[]) {
  return model.getPathsFromEvents(events, { ...traversal, events, fromState: createActor(offeringDrawerMachine).getSnapshot() });
}

const opened = (offering: OfferingListItem): ModelEvent => ({ type: 'OPEN', offering });
const fetched = (detail: OfferingDetail): ModelEvent => ({ type: 'xstate.done.actor.fetchOfferingDetail', output: detail });

const paths: TestPath<DrawerSnapshot, ModelEvent>[] = [
  ...model.getShortestPaths(),
  // Every link of every section type, then the help block.
  ...scenarioPath([
    opened(MEDICAL),
    fetched(MEDICAL_DETAIL),
    ...MEDICAL_LINKS.map(({ text, url }): ModelEvent => ({ type: 'FOLLOW_LINK', text, url })),
    { type: 'REQUEST_HELP' },
  ]),
  // A failed fetch, tried again.
  ...scenarioPath([opened(GYM), { type: 'xstate.error.actor.fetchOfferingDetail', error: new Error('500') }, { type: 'RETRY' }, fetched(GYM_DETAIL)]),
  // A partner offer, closed with Escape.
  ...scenarioPath([opened(GYM), fetched(GYM_DETAIL), { type: 'CLOSE', via: 'escape' }]),
  // Reopened: the cached detail shows at once (help included) while it is fetched again.
  ...scenarioPath([opened(MEDICAL), fetched(MEDICAL_DETAIL), { type: 'CLOSE', via: 'button' }, opened(MEDICAL), { type: 'REQUEST_HELP' }]),
];

// ---- The page, the fake network. ----

let sent: SentCall[];
/** How many detail requests had been answered: every request waiting on the detail call is answered together. */
let answeredDetails = 0;
let user: UserEvent;
let drawer: Actor<typeof offeringDrawerMachine>;
let app: AppActor;
let appEvents: ReturnType<typeof eventsToApp>;
let catalogue: Actor<typeof offeringsCatalogueMachine>;
/** The last card clicked: focus goes back to it when the drawer closes. */
let lastOpened: OfferingListItem | null;

const detailCalls = () => sent.filter(({ path }) => path.startsWith('offerings/'));
/** Answers every detail request waiting: each with its own offering, or all with the server's failure. */
async function answerDetails(outcome: 'done' | 'error') {
  const waiting = detailCalls().length;
  await (outcome === 'done'
    ? pendingCalls.settle({ type: 'xstate.done.actor.fetchOfferingDetail' })
    : pendingCalls.settle({ type: 'xstate.error.actor.fetchOfferingDetail', error: SERVER_FAILURE }));
  answeredDetails = waiting;
}
/** The server's failure: a 500 with its error answer. */
const SERVER_FAILURE = serverRefusal(500, 'An unexpected error occurred');

const dialog = () => screen.getByRole('dialog');
const cardOf = (offering: OfferingListItem) => screen.getByRole('button', { name: cardLabel(offering) });
const linkTo = (url: string, text: string) => {
  const link = within(dialog()).getAllByRole('link').find((candidate) =>
    candidate.getAttribute('href') === url && candidate.textContent?.includes(text));
  if (!link) throw new Error(`no link '${text}' to ${url}`);
  return link;
};

function expectHeader(offering: OfferingListItem) {
  expect(dialog()).toHaveAccessibleName(offering.heading);
  expect(dialog().querySelector('img')).toHaveAttribute('src', offering.provider_logo_url);
  expect(within(dialog()).getByText(offering.provider_name)).toBeInTheDocument();
  const label = within(dialog()).queryByText('Partner offer');
  if (offering.type === 'product') expect(label).toBeInTheDocument();
  else expect(label).not.toBeInTheDocument();
}

function expectDetail(detail: OfferingDetail) {
  const scope = within(dialog());
  expect(scope.getByText(detail.name)).toBeInTheDocument();
  expect(scope.getAllByRole('heading', { level: 4 }).map((heading) => heading.textContent)).toEqual(
    detail.sections.map((section) => section.heading),
  );
  for (const section of detail.sections) {
    const region = scope.getByRole('region', { name: section.heading });
    if (section.section_type === 'numbered') {
      const steps = within(within(region).getByRole('list')).getAllByRole('listitem');
      expect(steps.map((step) => step.textContent)).toEqual(section.items.map((item) => item.value));
      expect(within(region).getByRole('list').tagName).toBe('OL');
    }
    if (section.section_type === 'text') {
      expect(within(region).getByText(section.items[0]?.value ?? '')).toBeInTheDocument();
      for (const left of section.items.slice(1)) expect(within(region).queryByText(left.value)).not.toBeInTheDocument();
    }
    if (section.section_type === 'key_value') {
      for (const item of section.items.filter((row) => !['phone', 'email', 'download', 'link'].includes(row.key ?? ''))) {
        expect(within(region).getByText(item.key ?? '')).toBeInTheDocument();
        expect(within(region).getByText(item.value)).toBeInTheDocument();
      }
    }
  }
  const links = EXPECTED_LINKS[detail.id] ?? [];
  expect(scope.queryAllByRole('link')).toHaveLength(links.length);
  for (const { text, url, newTab } of links) {
    const link = linkTo(url, text);
    if (newTab) {
      expect(link).toHaveAttribute('target', '_blank');
      expect(link.getAttribute('rel')).toContain('noopener');
    } else {
      expect(link).not.toHaveAttribute('target');
    }
  }
  const help = scope.queryByText(HELP_TEXT);
  if (detail.request_survey_cta) {
    expect(help).toBeInTheDocument();
    expect(scope.getByRole('button', { name: detail.request_survey_cta })).toBeInTheDocument();
  } else {
    expect(help).not.toBeInTheDocument();
  }
}

const detailRequests = () => detailCalls().slice(answeredDetails).map(({ method, path }) => `${method} /api/v1/${path}`);

const stateAssertions: StateAssertions = {
  closed: async () => {
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // Focus goes back to the card that opened the drawer.
    if (lastOpened) await waitFor(() => expect(cardOf(lastOpened as OfferingListItem)).toHaveFocus());
  },
  open: async () => {
    // The drawer's code is a chunk of its own, fetched when an offering is first opened (LazyOfferingDrawer).
    expect(await screen.findByRole('dialog')).toBeInTheDocument();
    expect(within(dialog()).getByRole('button', { name: 'Close' })).toBeInTheDocument();
  },
  'open.loading': async (snapshot) => {
    const offering = openOffering(snapshot);
    expectHeader(offering);
    expect(dialog().querySelector('[aria-busy]')).toHaveAttribute('aria-busy', 'true');
    await waitFor(() => expect(detailRequests()).toEqual([`GET /api/v1/offerings/${offering.id}`]));
    const detail = cachedDetail(snapshot);
    if (detail) {
      expectDetail(detail);
      expect(within(dialog()).queryByText('Loading')).not.toBeInTheDocument();
    } else {
      expect(within(dialog()).getByText('Loading')).toBeInTheDocument();
      expect(within(dialog()).queryByRole('region')).not.toBeInTheDocument();
    }
  },
  'open.showing': (snapshot) => {
    expectHeader(openOffering(snapshot));
    expect(dialog().querySelector('[aria-busy]')).toHaveAttribute('aria-busy', 'false');
    expectDetail(DETAILS[openOffering(snapshot).id] as OfferingDetail);
    expect(detailRequests()).toEqual([]);
  },
  'open.failed': (snapshot) => {
    expectHeader(openOffering(snapshot));
    expect(within(dialog()).getByRole('alert')).toHaveTextContent("We couldn't load the details of this offering.");
    expect(within(dialog()).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
    expect(detailRequests()).toEqual([]);
  },
};

const eventExecutors: EventExecutors = {
  OPEN: async ({ event }) => {
    const { offering } = event as Extract<ModelEvent, { type: 'OPEN' }>;
    const trackedBefore = (await trackedEvents(sent)).length;
    await user.click(cardOf(offering));
    lastOpened = offering;
    // SPEC §7 Telemetry: a card click.
    expect((await trackedEvents(sent)).slice(trackedBefore)).toEqual([
      {
        name: 'ui_interaction',
        properties: {
          element_type: 'offering_card',
          element_id: offering.type === 'benefit' ? 'offering_benefit_card' : 'offering_product_card',
          category: 'offering',
          offering_id: offering.id,
          provider_name: offering.provider_name,
          featured: offering.featured,
        },
      },
    ]);
  },
  'xstate.done.actor.fetchOfferingDetail': async () => {
    await answerDetails('done');
    await waitFor(() => expect(drawer.getSnapshot().matches({ open: 'loading' })).toBe(false));
  },
  'xstate.error.actor.fetchOfferingDetail': async () => {
    await answerDetails('error');
    await waitFor(() => expect(drawer.getSnapshot().matches({ open: 'loading' })).toBe(false));
  },
  CLOSE: async ({ event }) => {
    const { via } = event as Extract<ModelEvent, { type: 'CLOSE' }>;
    if (via === 'escape') await user.keyboard('{Escape}');
    else await user.click(within(dialog()).getByRole('button', { name: 'Close' }));
  },
  RETRY: async () => {
    await user.click(within(dialog()).getByRole('button', { name: 'Try again' }));
  },
  FOLLOW_LINK: async ({ event }) => {
    const { text, url } = event as Extract<ModelEvent, { type: 'FOLLOW_LINK' }>;
    const trackedBefore = (await trackedEvents(sent)).length;
    await user.click(linkTo(url, text));
    expect((await trackedEvents(sent)).slice(trackedBefore)).toEqual([
      {
        name: 'cta_click',
        properties: {
          cta_type: 'offering',
          text,
          url,
          offering_id: MEDICAL.id,
          provider_name: MEDICAL.provider_name,
          featured: MEDICAL.featured,
        },
      },
    ]);
  },
  REQUEST_HELP: async () => {
    const detail = MEDICAL_DETAIL;
    await user.click(within(dialog()).getByRole('button', { name: detail.request_survey_cta ?? '' }));
    expect(appEvents).toEqual([{ type: 'START_SURVEY', survey: { id: detail.request_survey_id, name: detail.request_survey_name } }]);
  },
};

/** Links are followed for real by the browser; here only the app's reaction to the click matters. */
const keepPage = (event: MouseEvent) => {
  if ((event.target as Element | null)?.closest('a')) event.preventDefault();
};

describe('offering drawer machine against the drawer on the landing page', () => {
  beforeEach(async () => {
    user = userEvent.setup();
    lastOpened = null;
    pendingCalls.clear();
    answeredDetails = 0;
    ({ sent } = fakeNetwork([
      // Every detail request waits on the detail call; each is answered with the offering it asks for.
      {
        method: 'GET',
        path: /^offerings\/\d+$/,
        id: 'fetchOfferingDetail',
        answer: (_output: unknown, call: SentCall) => offeringsAnswer({ offerings: CARDS, categories: [] }, call),
      },
      ANALYTICS_ROUTE,
    ]));
    app = startTestApp();
    appEvents = eventsToApp(app);
    vi.spyOn(console, 'error').mockImplementation(() => {});
    window.addEventListener('click', keepPage, true);
    // The cards come from a catalogue that answers at once: the drawer is what is under test.
    catalogue = startFlow(
      app,
      offeringsCatalogueMachine.provide({
        actors: {
          loadCatalogue: fromPromise<Partial<OfferingStore>, LoadCatalogueInput>(async () => ({
            featuredBenefits: [MEDICAL],
            featuredProducts: [GYM],
          })),
        },
      }),
      { view: 'landing' },
    );
    drawer = startFlow(app, offeringDrawerMachine);
    const router = createMemoryRouter(
      [{ path: '/benefits-and-offers', element: <OfferingsLandingView catalogue={catalogue} drawer={drawer} /> }],
      { initialEntries: ['/benefits-and-offers'] },
    );
    render(<RouterProvider router={router} />);
    await screen.findByRole('button', { name: cardLabel(MEDICAL) });
  });

  afterEach(async () => {
    // What this test tracked leaves now, not in the next test.
    await flushAnalytics();
    window.removeEventListener('click', keepPage, true);
    app.stop();
    vi.restoreAllMocks();
  });

  it.each(paths.map((path) => [path.steps.slice(1).map((step) => describeEvent(step.event)).join(' > ') || 'start', path] as const))(
    '%s',
    async (_description, path) => {
      await path.test({ states: stateAssertions, events: eventExecutors });
    },
  );
});

describe('offering drawer model coverage', () => {
  it('asserts and reaches every state, and executes every event', () => {
    expectFullCoverage(offeringDrawerMachine, paths, stateAssertions, eventExecutors);
  });
});
