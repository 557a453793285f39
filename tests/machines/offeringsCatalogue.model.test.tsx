import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Actor, type ActorLogic, SimulatedClock, createActor, type SnapshotFrom } from 'xstate';
import { TestModel, type TestModelOptions, type TestParam, type TestPath } from 'xstate/graph';
import type { OfferingListItem } from '../../src/contract/offerings.ts';
import { offeringDrawerMachine } from '../../src/machines/offeringDrawer.machine.ts';
import {
  FETCH_DEBOUNCE_MS,
  LOGO_REFETCH_LIMIT,
  type OfferingStore,
  type OfferingsCatalogueEvent,
  type OfferingsCatalogueInput,
  type OfferingsFilter,
  offeringsCatalogueMachine,
  readOfferingsFilter,
} from '../../src/machines/offeringsCatalogue.machine.ts';
import { setRouter } from '../../src/services/navigation.ts';
import { OfferingsFullView } from '../../src/views/offerings/OfferingsFull.tsx';
import { offeringsSearchMachine } from '../../src/machines/offeringsSearch.machine.ts';
import { OfferingsLandingView } from '../../src/views/offerings/OfferingsLanding.tsx';
import { expectFullCoverage, expectScenariosWalked } from './modelPaths.support.ts';
import {
  CATALOGUE,
  CATEGORIES,
  DENTAL,
  type FakeOfferingsApi,
  GYM,
  MEAL_KITS,
  MEDICAL,
  PET_INSURANCE,
  RETIREMENT,
  SERVER_FAILURE,
  answerOfferingsRequest,
} from './offerings.fixtures.ts';
import { type HeldRequest, holdRequests } from './network.support.ts';
import { eventsToApp, startFlow, startTestApp } from './appSystem.support.tsx';
import type { AppActor } from '../../src/machines/app.machine.ts';


type CatalogueSnapshot = SnapshotFrom<typeof offeringsCatalogueMachine>;
const SETTLED = 'xstate.after.fetchDebounce.offeringsCatalogue.settling';
const WAITED = 'xstate.after.fetchDebounce.offeringsCatalogue.waiting';
/** The machine's own events plus the results of its invoked load and its two debounce timers. */
type ModelEvent =
  | OfferingsCatalogueEvent
  | { type: 'xstate.done.actor.loadCatalogue'; output: Partial<OfferingStore> }
  | { type: 'xstate.error.actor.loadCatalogue'; error: Error }
  | { type: typeof SETTLED }
  | { type: typeof WAITED };
type StateAssertions = NonNullable<TestParam<CatalogueSnapshot, ModelEvent>['states']>;
type EventExecutors = NonNullable<TestParam<CatalogueSnapshot, ModelEvent>['events']>;

// ---- Scenarios: which page, which catalogue the user may see, which address. ----

interface Scenario {
  name: string;
  view: 'landing' | 'full';
  api: FakeOfferingsApi;
  /** The address the page is opened at. */
  url: string;
  /** What one successful load gives the store, written out here so that the machine is not its own judge. */
  loaded: Partial<OfferingStore>;
}

const BENEFITS = [MEDICAL, DENTAL, RETIREMENT];
const PRODUCTS = [GYM, MEAL_KITS, PET_INSURANCE];
const UNFEATURED_GYM: OfferingListItem = { ...GYM, featured: false };

const LANDING: Scenario = {
  name: 'landing',
  view: 'landing',
  api: { offerings: CATALOGUE, categories: CATEGORIES },
  url: '/benefits-and-offers',
  loaded: { featuredBenefits: [MEDICAL, RETIREMENT], featuredProducts: [GYM] },
};
/** SPEC §9: no partner offer is featured, so the section falls back to all of them. */
const LANDING_NOTHING_FEATURED: Scenario = {
  ...LANDING,
  name: 'landing, no offer featured',
  api: { offerings: [...BENEFITS, UNFEATURED_GYM, MEAL_KITS, PET_INSURANCE], categories: CATEGORIES },
  loaded: { featuredBenefits: [MEDICAL, RETIREMENT], featuredProducts: [UNFEATURED_GYM, MEAL_KITS, PET_INSURANCE] },
};
/** An employee whose company offers no benefits: only the partner offers. */
const LANDING_NO_BENEFITS: Scenario = {
  ...LANDING,
  name: 'landing, no benefits',
  api: { offerings: PRODUCTS, categories: CATEGORIES },
  loaded: { featuredBenefits: [], featuredProducts: [GYM] },
};
const FULL: Scenario = {
  name: 'full page',
  view: 'full',
  api: { offerings: CATALOGUE, categories: CATEGORIES },
  url: '/benefits-and-offers/all',
  loaded: { allOfferings: CATALOGUE, allBenefits: BENEFITS, allProducts: PRODUCTS, offeringCategories: CATEGORIES },
};
const FULL_FROM_QUERY: Scenario = { ...FULL, name: 'full page, type=benefit&filter=Health', url: '/benefits-and-offers/all?type=benefit&filter=Health' };
/** Only partner offers: the switch would change nothing, so it is not shown. */
const FULL_NO_BENEFITS: Scenario = {
  ...FULL,
  name: 'full page, no benefits',
  api: { offerings: PRODUCTS, categories: CATEGORIES },
  loaded: { allOfferings: PRODUCTS, allBenefits: [], allProducts: PRODUCTS, offeringCategories: CATEGORIES },
};

const inputOf = (scenario: Scenario): OfferingsCatalogueInput =>
  scenario.view === 'landing'
    ? { view: 'landing' }
    : { view: 'full', filter: readOfferingsFilter(new URL(scenario.url, 'http://localhost').searchParams) };

// ---- The rules, restated from SPEC §2 and §4. ----

const cardLabel = (offering: OfferingListItem) =>
  `${offering.provider_name}, ${offering.heading}, ${offering.subheading} ${offering.type === 'benefit' ? '(benefit)' : '(offer)'}`;

function expectedFullList({ category, benefitsOnly }: OfferingsFilter, offerings: OfferingListItem[]): OfferingListItem[] {
  return offerings
    .filter((offering) => !benefitsOnly || offering.type === 'benefit')
    .filter((offering) => category === 'All' || offering.categories.includes(category));
}

/** The cards of the page, in order, as the store holds them. */
function cardsShown(snapshot: CatalogueSnapshot): OfferingListItem[] {
  const { context } = snapshot;
  if (context.view === 'landing') return [...(context.featuredBenefits ?? []), ...(context.featuredProducts ?? [])];
  return expectedFullList(context, context.allOfferings ?? []);
}

/** The two cards whose logos break in the model: the first and the last card of the page as first loaded. */
function logoCards(scenario: Scenario): [OfferingListItem, OfferingListItem] {
  const cards = scenario.view === 'landing'
    ? [...(scenario.loaded.featuredBenefits ?? []), ...(scenario.loaded.featuredProducts ?? [])]
    : (scenario.loaded.allOfferings ?? []);
  return [cards[0] as OfferingListItem, cards.at(-1) as OfferingListItem];
}

const failuresOf = (snapshot: CatalogueSnapshot, offering: OfferingListItem) => snapshot.context.logoFailures[offering.id];
/** A logo shows until it fails, again after the refetch it caused has landed, and never after the 4th failure. */
function logoShown(snapshot: CatalogueSnapshot, offering: OfferingListItem): boolean {
  const failure = failuresOf(snapshot, offering);
  return !failure || (failure.count <= LOGO_REFETCH_LIMIT && failure.load < snapshot.context.loads);
}

// ---- The model. ----

const CATEGORY_CHOICES = ['All', 'Health', 'Pet', 'Legal'];

function eventsFor(scenario: Scenario) {
  const [firstCard, lastCard] = logoCards(scenario);
  return (snapshot: CatalogueSnapshot): ModelEvent[] => {
    const { context } = snapshot;
    const events: ModelEvent[] = [];
    const loaded = context.loads > 0;
    if (snapshot.matches('loading')) {
      const output = { ...scenario.loaded };
      if (context.offeringCategories !== null) delete output.offeringCategories;
      events.push({ type: 'xstate.done.actor.loadCatalogue', output }, { type: 'xstate.error.actor.loadCatalogue', error: new Error('500') });
    }
    if (snapshot.matches('failed')) events.push({ type: 'RETRY' });
    if (snapshot.matches('settling')) events.push({ type: SETTLED });
    if (snapshot.matches('waiting')) events.push({ type: WAITED });
    const unfiltered = context.category === 'All' && !context.benefitsOnly;
    if (loaded && unfiltered && logoShown(snapshot, firstCard)) events.push({ type: 'LOGO_FAILED', offeringId: firstCard.id });
    // A second broken logo while a refetch is pending or under way.
    if (loaded && unfiltered && !failuresOf(snapshot, lastCard) && (snapshot.matches('waiting') || snapshot.matches('loading'))) {
      events.push({ type: 'LOGO_FAILED', offeringId: lastCard.id });
    }
    if (scenario.view === 'full' && snapshot.matches('ready') && Object.keys(context.logoFailures).length === 0) {
      for (const category of CATEGORY_CHOICES.filter((choice) => choice !== context.category)) {
        events.push({ type: 'SELECT_CATEGORY', category });
      }
      const benefits = context.allBenefits?.length ?? 0;
      if (benefits > 0 && benefits < (context.allOfferings?.length ?? 0)) {
        events.push({ type: 'SET_BENEFITS_ONLY', benefitsOnly: !context.benefitsOnly });
      }
    }
    return events;
  };
}

function describeEvent(event: ModelEvent | undefined): string {
  if (!event) return 'start';
  switch (event.type) {
    case 'SELECT_CATEGORY':
      return `${event.type} ${event.category}`;
    case 'SET_BENEFITS_ONLY':
      return `${event.type} ${event.benefitsOnly}`;
    case 'LOGO_FAILED':
      return `${event.type} #${event.offeringId}`;
    default:
      return event.type;
  }
}

const modelLogic = offeringsCatalogueMachine as unknown as ActorLogic<CatalogueSnapshot, ModelEvent, OfferingsCatalogueInput>;

function traversalOf(scenario: Scenario): Partial<TestModelOptions<CatalogueSnapshot, ModelEvent, OfferingsCatalogueInput>> {
  const [firstCard, lastCard] = logoCards(scenario);
  // Failures past the limit all look alike (a walk through a fixed list of events may break a logo again and again).
  const logo = (snapshot: CatalogueSnapshot, card: OfferingListItem) =>
    `${Math.min(failuresOf(snapshot, card)?.count ?? 0, LOGO_REFETCH_LIMIT + 1)}${logoShown(snapshot, card) ? '' : ' hidden'}`;
  return {
    input: inputOf(scenario),
    events: eventsFor(scenario),
    serializeEvent: (event) => describeEvent(event),
    serializeState: (snapshot) => {
      const { context } = snapshot;
      return [
        JSON.stringify(snapshot.value),
        context.loads > 0 ? 'loaded' : 'empty',
        context.category,
        context.benefitsOnly ? 'benefits' : 'all',
        `first logo ${logo(snapshot, firstCard)}`,
        `last logo ${logo(snapshot, lastCard)}`,
      ].join(' | ');
    },
  };
}

function modelOf(scenario: Scenario) {
  return new TestModel(modelLogic, {
    ...traversalOf(scenario),
    stateMatcher: (snapshot, key) => snapshot.matches(key as 'ready'),
  });
}

/** A refetch asks for the offerings only: the categories are already there. */
const { offeringCategories: _categories, ...OFFERINGS_ONLY } = FULL.loaded;
const done = (scenario: Scenario): ModelEvent => ({ type: 'xstate.done.actor.loadCatalogue', output: scenario.loaded });

/** A named walk through the given events. */
function scenarioPath(scenario: Scenario, events: ModelEvent[]) {
  return modelOf(scenario)
    .getPathsFromEvents(events, {
      ...traversalOf(scenario),
      events,
      fromState: createActor(offeringsCatalogueMachine, { input: inputOf(scenario) }).getSnapshot(),
    })
    .map((path) => ({ scenario, path }));
}

const paths: { scenario: Scenario; path: TestPath<CatalogueSnapshot, ModelEvent> }[] = [
  ...modelOf(LANDING).getShortestPaths().map((path) => ({ scenario: LANDING, path })),
  ...modelOf(FULL).getShortestPaths().map((path) => ({ scenario: FULL, path })),
  ...scenarioPath(LANDING, [done(LANDING), { type: SETTLED }, { type: 'REQUEST_BENEFITS_HELP' }]),
  ...scenarioPath(LANDING, [{ type: 'xstate.error.actor.loadCatalogue', error: new Error('500') }, { type: 'RETRY' }, done(LANDING)]),
  // A refetch that fails keeps the cards; trying again loads them anew.
  ...scenarioPath(FULL, [
    done(FULL),
    { type: SETTLED },
    { type: 'LOGO_FAILED', offeringId: MEDICAL.id },
    { type: 'xstate.error.actor.loadCatalogue', error: new Error('500') },
    { type: 'RETRY' },
    { type: 'xstate.done.actor.loadCatalogue', output: OFFERINGS_ONLY },
  ]),
  ...scenarioPath(LANDING_NOTHING_FEATURED, [done(LANDING_NOTHING_FEATURED), { type: SETTLED }]),
  ...scenarioPath(LANDING_NO_BENEFITS, [done(LANDING_NO_BENEFITS), { type: SETTLED }]),
  ...scenarioPath(FULL_FROM_QUERY, [
    done(FULL_FROM_QUERY),
    { type: SETTLED },
    { type: 'SET_BENEFITS_ONLY', benefitsOnly: false },
    { type: 'SELECT_CATEGORY', category: 'Wellness' },
  ]),
  ...scenarioPath(FULL_NO_BENEFITS, [done(FULL_NO_BENEFITS), { type: SETTLED }, { type: 'SELECT_CATEGORY', category: 'Pet' }]),
  // A logo that breaks while a refetch is under way: the refetch in flight is dropped for one after a quiet period.
  ...scenarioPath(FULL, [
    done(FULL),
    { type: SETTLED },
    { type: 'LOGO_FAILED', offeringId: MEDICAL.id },
    { type: 'LOGO_FAILED', offeringId: PET_INSURANCE.id },
    { type: WAITED },
    { type: 'xstate.done.actor.loadCatalogue', output: OFFERINGS_ONLY },
  ]),
  // A logo that breaks after a refetch failed: the refetch it asks for leaves at once.
  ...scenarioPath(FULL, [
    done(FULL),
    { type: SETTLED },
    { type: 'LOGO_FAILED', offeringId: MEDICAL.id },
    { type: 'xstate.error.actor.loadCatalogue', error: new Error('500') },
    { type: 'LOGO_FAILED', offeringId: PET_INSURANCE.id },
    { type: 'xstate.done.actor.loadCatalogue', output: OFFERINGS_ONLY },
  ]),
  // Every broken logo of a burst waits for the same quiet period: the second one starts the wait again.
  ...scenarioPath(FULL, [
    done(FULL),
    { type: SETTLED },
    { type: 'LOGO_FAILED', offeringId: MEDICAL.id },
    { type: 'xstate.done.actor.loadCatalogue', output: OFFERINGS_ONLY },
    { type: 'LOGO_FAILED', offeringId: MEDICAL.id },
    { type: 'LOGO_FAILED', offeringId: PET_INSURANCE.id },
    { type: WAITED },
  ]),
];

// ---- The rendered pages, the fake network and the clock. ----

let pendingFetches: HeldRequest[];
let clock: SimulatedClock;
let app: AppActor;
let appEvents: ReturnType<typeof eventsToApp>;
let user: UserEvent;
let actor: Actor<typeof offeringsCatalogueMachine>;
let router: ReturnType<typeof createMemoryRouter>;
let currentScenario: Scenario;
/** What the test expects in the address, and whether the categories were ever answered. */
let expectedSearch: string;
let categoriesAnswered: boolean;
let previous: CatalogueSnapshot | null;

const unanswered = () => pendingFetches.filter((pending) => !('answered' in pending));
function answerAll(response: (request: Request) => Response) {
  for (const pending of unanswered()) {
    Object.assign(pending, { answered: true });
    const answer = response(pending.request);
    if (answer.ok && new URL(pending.request.url).pathname === '/api/v1/offering_categories') categoriesAnswered = true;
    pending.answer(answer);
  }
}
const requested = (list: HeldRequest[]) =>
  list.map(({ request }) => {
    const url = new URL(request.url);
    return `${request.method} ${url.pathname}${decodeURIComponent(url.search)}`;
  }).sort();

function expectedRequests(scenario: Scenario): string[] {
  if (scenario.view === 'landing') {
    return [
      'GET /api/v1/offerings?types=benefit&prefer_featured=true&limit=6',
      'GET /api/v1/offerings?types=product&prefer_featured=true&limit=6',
    ];
  }
  return ['GET /api/v1/offerings?types=benefit,product', ...(categoriesAnswered ? [] : ['GET /api/v1/offering_categories'])].sort();
}

const page = () => {
  const element = screen.getByRole('heading', { level: 1 }).closest('.lc-offerings-page');
  if (!element) throw new Error('the offerings page is not rendered');
  return element as HTMLElement;
};
const cardOf = (offering: OfferingListItem) => screen.getByRole('button', { name: cardLabel(offering) });
const cardList = (label: string) => screen.queryByRole('list', { name: label });

function expectCards(label: string, offerings: OfferingListItem[]) {
  const list = cardList(label);
  if (offerings.length === 0) {
    expect(list).not.toBeInTheDocument();
    return;
  }
  expect(list).toBeInTheDocument();
  const cards = within(list as HTMLElement).getAllByRole('button');
  expect(cards.map((card) => card.getAttribute('aria-label'))).toEqual(offerings.map(cardLabel));
}

/** The logo is decorative: the provider's name is written beside it. */
const logoOf = (offering: OfferingListItem) => cardOf(offering).querySelector('img');

function expectLogos(snapshot: CatalogueSnapshot) {
  for (const offering of cardsShown(snapshot)) {
    expect(within(cardOf(offering)).getByText(offering.provider_name)).toBeInTheDocument();
    if (logoShown(snapshot, offering)) expect(logoOf(offering)).toHaveAttribute('src', offering.provider_logo_url);
    else expect(logoOf(offering)).toBeNull();
  }
}

function expectLanding(snapshot: CatalogueSnapshot) {
  expect(screen.getByRole('heading', { level: 1, name: 'Benefits & Offers' })).toBeInTheDocument();
  expect(screen.getByRole('heading', { name: 'Need help with your benefits?' })).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Request help' })).toBeInTheDocument();
  // Under the lists once they are in (or have failed): never pushed down by their arrival.
  if (snapshot.context.loads > 0 || snapshot.matches('failed')) {
    expect(screen.getByText(/general overview/)).toHaveTextContent(/employment status, provider and location/);
  } else {
    expect(screen.queryByText(/general overview/)).not.toBeInTheDocument();
  }
  const { featuredBenefits, featuredProducts } = snapshot.context.loads > 0 ? currentScenario.loaded : {};
  const benefits = screen.queryByRole('region', { name: 'Your Benefits' });
  if (featuredBenefits?.length) {
    expect(within(benefits as HTMLElement).getByRole('link', { name: /^View all/ })).toHaveAttribute('href', '/benefits-and-offers/all?type=benefit');
  } else {
    expect(benefits).not.toBeInTheDocument();
  }
  expectCards('Your Benefits', featuredBenefits ?? []);
  const offers = screen.queryByRole('region', { name: 'Exclusive Partner Offers' });
  if (featuredProducts?.length) {
    expect(within(offers as HTMLElement).getByRole('link', { name: /^View all/ })).toHaveAttribute('href', '/benefits-and-offers/all');
  } else {
    expect(offers).not.toBeInTheDocument();
  }
  expectCards('Exclusive Partner Offers', featuredProducts ?? []);
  // Landing cards carry no corner badge.
  expect(page().querySelector('.lc-offering-card__badge')).toBeNull();
}

function expectFull(snapshot: CatalogueSnapshot) {
  const { context } = snapshot;
  const loaded = context.loads > 0;
  expect(screen.getByRole('heading', { level: 1, name: 'All benefits & offers' })).toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'Back to Benefits & Offers' })).toHaveAttribute('href', '/benefits-and-offers');
  expect(router.state.location.search).toBe(expectedSearch);

  const filter = screen.queryByRole('radiogroup', { name: 'Filter by category' });
  if (categoriesAnswered) {
    const tiles = within(filter as HTMLElement).getAllByRole('radio');
    expect(tiles.map((tile) => tile.closest('label')?.textContent)).toEqual(['All', ...CATEGORIES.map((category) => category.name)]);
    const checked = tiles.filter((tile) => (tile as HTMLInputElement).checked).map((tile) => tile.closest('label')?.textContent);
    expect(checked).toEqual([context.category]);
  } else {
    expect(filter).not.toBeInTheDocument();
  }

  const all = loaded ? (currentScenario.loaded.allOfferings ?? []) : [];
  const benefitCount = all.filter((offering) => offering.type === 'benefit').length;
  const toggle = screen.queryByRole('switch', { name: 'Show only my benefits' });
  if (benefitCount > 0 && benefitCount < all.length) {
    if (context.benefitsOnly) expect(toggle).toBeChecked();
    else expect(toggle).not.toBeChecked();
  } else {
    expect(toggle).not.toBeInTheDocument();
  }

  const shown = expectedFullList(context, all);
  expectCards('Benefits and offers', shown);
  for (const offering of shown) {
    expect(cardOf(offering).querySelector('.lc-offering-card__badge') !== null).toBe(offering.type === 'benefit');
  }
  const noResults = screen.queryByText('Sorry, no results have been found');
  if (loaded && shown.length === 0) expect(noResults).toBeInTheDocument();
  else expect(noResults).not.toBeInTheDocument();
}

function expectPage(snapshot: CatalogueSnapshot, { busy }: { busy: boolean }) {
  if (currentScenario.view === 'landing') expectLanding(snapshot);
  else expectFull(snapshot);
  expectLogos(snapshot);
  expect(page()).toHaveAttribute('aria-busy', String(busy));
  // Screen readers hear 'Loading' once while the first load is under way (the other placeholders are hidden).
  const heardLoading = screen.queryAllByText('Loading').filter((element) => !element.closest('[aria-hidden="true"]'));
  expect(heardLoading).toHaveLength(snapshot.context.loads === 0 && busy ? 1 : 0);
}

/** Outside `loading` nothing is in flight: the debounce holds every fetch back. */
const expectNothingInFlight = () => expect(requested(unanswered())).toEqual([]);

const stateAssertions: StateAssertions = {
  loading: async (snapshot) => {
    expectPage(snapshot, { busy: true });
    await waitFor(() => expect(requested(unanswered())).toEqual(expectedRequests(currentScenario)));
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
  },
  settling: (snapshot) => {
    expectPage(snapshot, { busy: false });
    expectNothingInFlight();
  },
  waiting: (snapshot) => {
    expectPage(snapshot, { busy: true });
    expectNothingInFlight();
  },
  ready: (snapshot) => {
    expectPage(snapshot, { busy: false });
    expectNothingInFlight();
  },
  failed: (snapshot) => {
    expectPage(snapshot, { busy: false });
    expectNothingInFlight();
    expect(screen.getByRole('alert')).toHaveTextContent("We couldn't load the benefits and offers. Please try again.");
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  },
};

const checkedStates: StateAssertions = Object.fromEntries(
  Object.entries(stateAssertions).map(([key, assertion]) => [
    key,
    async (snapshot: CatalogueSnapshot) => {
      await assertion(snapshot);
      previous = snapshot;
    },
  ]),
);

/** Lets the answered fetches run through the HTTP client and the actor, until the load has finished. */
async function untilLoadEnds() {
  await waitFor(() => expect(actor.getSnapshot().matches('loading')).toBe(false));
}

/** Lets every request the HTTP client is about to send reach the fake network (one macrotask turn, no waiting). */
const requestsSent = () => act(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));

/** Moves the machine's clock to 1 ms before the debounce ends (nothing happens), then to its end. */
async function passQuietPeriod() {
  const before = pendingFetches.length;
  act(() => clock.increment(FETCH_DEBOUNCE_MS - 1));
  await requestsSent();
  expect(pendingFetches).toHaveLength(before);
  act(() => clock.increment(1));
}

function expectReplacedAddress(filter: OfferingsFilter) {
  expectedSearch = `?type=${filter.benefitsOnly ? 'benefit' : 'all'}&filter=${encodeURIComponent(filter.category)}`;
  expect(router.state.location.search).toBe(expectedSearch);
  expect(router.state.historyAction).toBe('REPLACE');
}

/** SPEC §9: a change of filter or switch brings a new list, which animates in over 0.4 s. */
function expectReanimated(listBefore: HTMLElement | null) {
  const listAfter = cardList('Benefits and offers');
  if (!listAfter) return;
  expect(listAfter).not.toBe(listBefore);
  expect(listAfter).toHaveClass('lc-offering-list--animated');
  expect(listAfter).toHaveStyle({ animationDuration: '0.4s' });
}

const eventExecutors: EventExecutors = {
  'xstate.done.actor.loadCatalogue': async () => {
    await act(async () => answerAll((request) => answerOfferingsRequest(currentScenario.api, request)));
    await untilLoadEnds();
  },
  'xstate.error.actor.loadCatalogue': async () => {
    await act(async () => answerAll(SERVER_FAILURE));
    await untilLoadEnds();
  },
  [SETTLED]: passQuietPeriod,
  [WAITED]: passQuietPeriod,
  RETRY: async () => {
    await user.click(screen.getByRole('button', { name: 'Try again' }));
  },
  LOGO_FAILED: async ({ event }) => {
    const { offeringId } = event as Extract<ModelEvent, { type: 'LOGO_FAILED' }>;
    const offering = cardsShown(previous as CatalogueSnapshot).find((card) => card.id === offeringId) as OfferingListItem;
    const countBefore = failuresOf(previous as CatalogueSnapshot, offering)?.count ?? 0;
    const fetchesBefore = pendingFetches.length;
    const inFlight = unanswered();
    fireEvent.error(logoOf(offering) as HTMLImageElement);
    await requestsSent();
    // The broken logo gives way to the provider's initial until the refetch lands.
    expect(logoOf(offering)).toBeNull();
    expect(within(cardOf(offering)).getByText(offering.provider_name.charAt(0))).toBeInTheDocument();
    const refetches = countBefore < LOGO_REFETCH_LIMIT;
    const quiet = previous?.matches('ready') || previous?.matches('failed');
    // Leading edge: after a quiet period the refetch leaves at once; otherwise it waits.
    expect(pendingFetches.length - fetchesBefore).toBe(refetches && quiet ? expectedRequests(currentScenario).length : 0);
    if (refetches && inFlight.length > 0) {
      // The superseded load's answer arrives and changes nothing.
      await act(async () => {
        for (const pending of inFlight) {
          Object.assign(pending, { answered: true });
          pending.answer(answerOfferingsRequest(currentScenario.api, pending.request));
        }
      });
    }
  },
  SELECT_CATEGORY: async ({ event }) => {
    const { category } = event as Extract<OfferingsCatalogueEvent, { type: 'SELECT_CATEGORY' }>;
    const listBefore = cardList('Benefits and offers');
    await user.click(screen.getByRole('radio', { name: category }));
    expectReplacedAddress({ category, benefitsOnly: previous?.context.benefitsOnly ?? false });
    expectReanimated(listBefore);
  },
  SET_BENEFITS_ONLY: async ({ event }) => {
    const { benefitsOnly } = event as Extract<OfferingsCatalogueEvent, { type: 'SET_BENEFITS_ONLY' }>;
    const listBefore = cardList('Benefits and offers');
    await user.click(screen.getByRole('switch', { name: 'Show only my benefits' }));
    expectReplacedAddress({ category: previous?.context.category ?? 'All', benefitsOnly });
    expectReanimated(listBefore);
  },
  REQUEST_BENEFITS_HELP: async () => {
    await user.click(screen.getByRole('button', { name: 'Request help' }));
    expect(appEvents).toEqual([{ type: 'START_SURVEY', survey: { id: 720, name: 'Help me with my benefits' } }]);
  },
};

function renderScenario(scenario: Scenario) {
  currentScenario = scenario;
  expectedSearch = new URL(scenario.url, 'http://localhost').search;
  categoriesAnswered = false;
  previous = null;
  clock = new SimulatedClock();
  app = startTestApp({ clock });
  appEvents = eventsToApp(app);
  actor = startFlow(app, offeringsCatalogueMachine, inputOf(scenario));
  const drawer = startFlow(app, offeringDrawerMachine);
  // The full page's search has a model of its own (search.model.test.tsx); here it stays idle.
  const search = startFlow(app, offeringsSearchMachine);
  const View = scenario.view === 'landing' ? OfferingsLandingView : OfferingsFullView;
  router = createMemoryRouter(
    [
      { path: '/benefits-and-offers', element: <View catalogue={actor} drawer={drawer} search={search} /> },
      { path: '/benefits-and-offers/all', element: <View catalogue={actor} drawer={drawer} search={search} /> },
    ],
    { initialEntries: [scenario.url] },
  );
  setRouter(router);
  render(<RouterProvider router={router} />);
}

describe('offerings catalogue machine against the landing and full pages', () => {
  beforeEach(() => {
    user = userEvent.setup();
    pendingFetches = holdRequests();
    vi.spyOn(console, 'error').mockImplementation(() => {});
  });

  afterEach(() => {
    app.stop();
    setRouter(null);
    vi.restoreAllMocks();
  });

  const described = paths.map(({ scenario, path }) =>
    [`${scenario.name}: ${path.steps.slice(1).map((step) => describeEvent(step.event)).join(' > ') || 'start'}`, scenario, path] as const,
  );
  it.each(described)('%s', async (_description, scenario, path) => {
    renderScenario(scenario);
    await path.test({ states: checkedStates, events: eventExecutors });
  });
});

describe('offerings catalogue model coverage', () => {
  it('asserts and reaches every state, and executes every event', () => {
    expectFullCoverage(offeringsCatalogueMachine, paths.map(({ path }) => path), stateAssertions, eventExecutors);
  });

  it('walks the paths the rules call for', () => {
    const descriptions = paths.map(({ scenario, path }) => `${scenario.name}: ${path.steps.map((step) => describeEvent(step.event)).join(' > ')}`);
    const scenarios: Record<string, RegExp> = {
      'logo refetch limit reached': /(LOGO_FAILED #1\b.*){4}/,
      'refetch from a quiet period': /offeringsCatalogue\.settling > LOGO_FAILED #1$/,
      'filter, then the switch': /SELECT_CATEGORY \w+ > SET_BENEFITS_ONLY true|SET_BENEFITS_ONLY true > SELECT_CATEGORY/,
      // Each step's state is asserted, so a walk through Legal sees the empty result.
      'no results': /SELECT_CATEGORY Legal\b/,
      'failure and retry': /xstate\.error\.actor\.loadCatalogue > RETRY/,
      'a logo broken during a refetch waits for a quiet period': /LOGO_FAILED #1 > LOGO_FAILED #13 > xstate\.after\.fetchDebounce\.offeringsCatalogue\.waiting/,
      'a logo broken after a failed refetch refetches at once': /xstate\.error\.actor\.loadCatalogue > LOGO_FAILED #13 > xstate\.done\.actor\.loadCatalogue$/,
    };
    expectScenariosWalked(descriptions, scenarios);
  });
});
