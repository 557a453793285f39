import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Actor, SimulatedClock, createActor, fromPromise } from 'xstate';
import type { OfferingListItem } from '../../src/contract/offerings.ts';
import type { AppActor } from '../../src/machines/app.machine.ts';
import { offeringDrawerMachine } from '../../src/machines/offeringDrawer.machine.ts';
import { type LoadCatalogueInput, type OfferingStore, offeringsCatalogueMachine } from '../../src/machines/offeringsCatalogue.machine.ts';
import { requestsListMachine } from '../../src/machines/requestsList.machine.ts';
import { type OfferingsSearchActor, offeringsSearchMachine } from '../../src/machines/offeringsSearch.machine.ts';
import { type RequestsSearchActor, requestsSearchMachine } from '../../src/machines/requestsSearch.machine.ts';
import { SEARCH_FAILED } from '../../src/machines/search.ts';
import type { ClientRequest, RequestLists } from '../../src/services/threadRules.ts';
import { RequestsView } from '../../src/views/Requests.tsx';
import { OfferingsFullView } from '../../src/views/offerings/OfferingsFull.tsx';
import { inApp, startFlow, startTestApp } from './appSystem.support.tsx';
import {
  type EventExecutors,
  type StateAssertions,
  doneEvent,
  errorEvent,
  expectFullCoverage,
  expectScenariosWalked,
  flowModel,
  pendingCalls,
  runPath,
  settlementExecutors,
} from './modelPaths.support.ts';
import { DENTAL, MEDICAL } from './offerings.fixtures.ts';

type SearchMachine = typeof requestsSearchMachine | typeof offeringsSearchMachine;
type SearchSnapshot = ReturnType<SearchMachine['transition']>;

/** A call the screen's other flow makes and nobody answers: the screen stays as it first shows. */
const unanswered = <Output, Input = unknown>() => fromPromise<Output, Input>(() => new Promise<Output>(() => {}));

function request(id: number, name: string, status: string): ClientRequest {
  return {
    id,
    external_id: `R-${id}`,
    name,
    status,
    issued_at: '2025-03-03T09:00:00Z',
    created_at: '2025-03-03T09:00:00Z',
    details: null,
    survey_category_name: 'Car',
    survey_category_image_url: null,
    messages: [],
  };
}

/** One screen's search: its machine, what a search finds, and how the screen shows it. */
interface ScreenSpec {
  name: string;
  machine: SearchMachine;
  /** The machine whose searches wait for the path to answer them. */
  withPendingSearch: () => SearchMachine;
  fieldLabel: string;
  /** What 'car' finds (two results); 'cars' finds nothing. */
  found: readonly (ClientRequest | OfferingListItem)[];
  resultsLabel: string;
  /** The text of each result as the list shows it, in order. */
  shownNames: string[];
  render: (app: AppActor, search: Actor<SearchMachine>) => void;
  /** The screen's usual content is on screen (the search is idle). */
  expectUsualContent: () => void;
}

const SCREENS: ScreenSpec[] = [
  {
    name: 'the Requests screen',
    machine: requestsSearchMachine,
    withPendingSearch: () => requestsSearchMachine.provide({ actors: { search: pendingCalls.logic() } }),
    fieldLabel: 'Search your requests',
    found: [request(1, 'Renew the car registration', 'in_progress'), request(2, 'Sell my car', 'open')],
    resultsLabel: 'Requests found',
    shownNames: ['Renew the car registration', 'Sell my car'],
    render: (app, search) => {
      // The lists never answer here: their own model is requestsList.model.test.tsx.
      const requests = startFlow(app, requestsListMachine.provide({ actors: { loadRequests: unanswered<RequestLists>() } }));
      // Inside the app: the found requests show their unread replies, which the app's system keeps.
      render(
        inApp(
          app,
          <MemoryRouter>
            <RequestsView requests={requests} search={search as RequestsSearchActor} />
          </MemoryRouter>,
        ),
      );
    },
    expectUsualContent: () => expect(screen.getByText('Loading')).toBeInTheDocument(),
  },
  {
    name: 'the full Benefits & Offers page',
    machine: offeringsSearchMachine,
    withPendingSearch: () => offeringsSearchMachine.provide({ actors: { search: pendingCalls.logic() } }),
    fieldLabel: 'Search benefits & offers',
    found: [MEDICAL, DENTAL],
    resultsLabel: 'Benefits and offers found',
    shownNames: [MEDICAL.heading, DENTAL.heading],
    render: (app, search) => {
      // The catalogue never answers here: its own model is offeringsCatalogue.model.test.tsx.
      const catalogue = startFlow(
        app,
        offeringsCatalogueMachine.provide({ actors: { loadCatalogue: unanswered<Partial<OfferingStore>, LoadCatalogueInput>() } }),
        { view: 'full', filter: { category: 'All', benefitsOnly: false } },
      );
      const drawer = startFlow(app, offeringDrawerMachine);
      render(
        <MemoryRouter>
          <OfferingsFullView catalogue={catalogue} drawer={drawer} search={search as OfferingsSearchActor} />
        </MemoryRouter>,
      );
    },
    expectUsualContent: () => expect(document.querySelector('.lc-offerings-filters')).toBeInTheDocument(),
  },
];

describe.each(SCREENS)('search against $name', (spec) => {
  const debounceEnds = `xstate.after.searchDebounce.${spec.machine.id}.typing`;
  const { paths, titled } = flowModel(spec.machine, {
    events: [
      { label: 'open the search', event: { type: 'OPEN' } },
      { label: 'type spaces', event: { type: 'TYPE', text: '  ' } },
      { label: 'type "car"', event: { type: 'TYPE', text: 'car' } },
      { label: 'type "cars"', event: { type: 'TYPE', text: 'cars' } },
      { label: 'clear', event: { type: 'TYPE', text: '' } },
      { label: 'press Enter', event: { type: 'SUBMIT' } },
      { label: 'debounce ends', event: { type: debounceEnds } },
      doneEvent('search', spec.found, 'two found'),
      doneEvent('search', [], 'none found'),
      errorEvent('search', new Error('Failed to fetch'), 'search fails'),
      { label: 'retry', event: { type: 'RETRY' } },
    ],
    offer: ({ context }, { label }) => {
      switch (label) {
        case 'type spaces':
          return context.text === '';
        case 'type "car"':
          return context.text === '' || context.text === '  ';
        case 'type "cars"':
          return context.text === 'car';
        case 'clear':
          return context.text !== '';
        case 'two found':
          return context.query === 'car';
        case 'none found':
          return context.query === 'cars';
        case 'search fails':
          // The first search fails; a later one answers.
          return context.query === 'car' && context.results === null;
        default:
          return true;
      }
    },
    walks: [
      ['open the search', 'type "car"', 'debounce ends', 'two found', 'type "cars"', 'press Enter', 'none found', 'clear'],
      ['open the search', 'type "car"', 'press Enter', 'search fails', 'retry', 'two found'],
    ],
  });

  let user: UserEvent;
  let app: AppActor;
  let actor: Actor<SearchMachine>;
  let clock: SimulatedClock;

  const field = () => screen.getByRole('searchbox', { name: spec.fieldLabel });
  const outcome = () => screen.queryByRole('region', { name: 'Search results' });

  function expectResults(results: readonly unknown[] | null) {
    const list = screen.queryByRole('list', { name: spec.resultsLabel });
    if (!results || results.length === 0) {
      expect(list).not.toBeInTheDocument();
      return;
    }
    const items = within(list as HTMLElement).getAllByRole('listitem');
    expect(items).toHaveLength(results.length);
    items.forEach((item, index) => expect(item).toHaveTextContent(spec.shownNames[index] as string));
  }

  /** Typing or searching: 'Searching…', the last results dimmed below it. */
  function expectSearching({ context }: SearchSnapshot) {
    expect(field()).toHaveValue(context.text);
    expect(outcome()).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByRole('status')).toHaveTextContent('Searching…');
    expectResults(context.results);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  }

  const states: StateAssertions<SearchMachine> = {
    // The screen's first look: a button named like the field, and no field (its code is not loaded yet).
    closed: () => {
      expect(screen.getByRole('button', { name: spec.fieldLabel })).toBeInTheDocument();
      expect(screen.queryByRole('searchbox')).not.toBeInTheDocument();
      expect(outcome()).not.toBeInTheDocument();
      spec.expectUsualContent();
    },
    idle: ({ context }) => {
      expect(field()).toHaveValue(context.text);
      expect(outcome()).not.toBeInTheDocument();
      spec.expectUsualContent();
    },
    typing: expectSearching,
    searching: (snapshot) => {
      expectSearching(snapshot);
      // The search sent is the text typed, trimmed.
      expect(pendingCalls.inputOf('search')).toBe(snapshot.context.query);
    },
    found: ({ context }) => {
      expect(field()).toHaveValue(context.text);
      expect(outcome()).toHaveAttribute('aria-busy', 'false');
      const count = context.results?.length === 0 ? `No results for “${context.query}”` : `2 results for “${context.query}”`;
      expect(screen.getByRole('status')).toHaveTextContent(count);
      expectResults(context.results);
    },
    failed: ({ context }) => {
      expect(field()).toHaveValue(context.text);
      expect(screen.getByRole('alert')).toHaveTextContent(SEARCH_FAILED);
      expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
      expectResults(null);
    },
  };

  const events: EventExecutors<SearchMachine> = {
    ...settlementExecutors(spec.machine, pendingCalls),
    OPEN: async () => {
      await user.click(screen.getByRole('button', { name: spec.fieldLabel }));
      // The field's chunk loads, then the field takes the focus.
      expect(await screen.findByRole('searchbox', { name: spec.fieldLabel })).toHaveFocus();
    },
    TYPE: async ({ event }) => {
      const text = event.text as string;
      if (text === '') {
        // The field's clear button (Escape does the same).
        await user.click(screen.getByRole('button', { name: 'Clear search' }));
        expect(field()).toHaveFocus();
      } else {
        // One change of the field's value, as a keystroke or a paste makes.
        act(() => {
          fireEvent.change(field(), { target: { value: text } });
        });
      }
    },
    SUBMIT: async () => {
      field().focus();
      await user.keyboard('{Enter}');
    },
    RETRY: async () => {
      await user.click(screen.getByRole('button', { name: 'Try again' }));
    },
    [debounceEnds]: () => {
      act(() => clock.increment(299));
      // Not yet: nothing is asked before the debounce ends.
      expect(actor.getSnapshot().value).toBe('typing');
      act(() => clock.increment(1));
    },
  };

  beforeEach(() => {
    user = userEvent.setup();
    pendingCalls.clear();
    app = startTestApp();
    clock = new SimulatedClock();
    actor = createActor(spec.withPendingSearch(), { clock }).start();
    spec.render(app, actor);
  });

  afterEach(() => {
    actor.stop();
    app.stop();
  });

  it.each(titled)('$title', async ({ path }) => {
    await runPath(path, () => actor.getSnapshot(), states, events);
  });

  it('asserts every state and walks every transition', () => {
    expectFullCoverage(spec.machine, paths, states, events);
    expectScenariosWalked(
      titled.map(({ title }) => title),
      {
        'the count and the results after the debounce': /type "car" → debounce ends → two found/,
        'Enter searches at once, and an empty answer says so': /press Enter → none found$/,
        'clearing the field ends the search': /none found → clear$/,
        'a failed search is tried again': /search fails → retry → two found$/,
        'blank text searches nothing': /^start → open the search → type spaces →/,
      },
    );
  });
});
