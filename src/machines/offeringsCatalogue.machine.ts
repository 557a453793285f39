import { type SnapshotFrom, assertEvent, assign, fromPromise, sendTo, setup } from 'xstate';
import { theApp } from './system.ts';
import { BENEFITS_HELP_SURVEY, type OfferingCategory, type OfferingListItem } from '../contract/offerings.ts';
import { reportError } from '../services/errorReporting.ts';
import { navigate } from '../services/navigation.ts';
import { fetchFeaturedOfferings, fetchOfferingCategories, fetchOfferings } from '../services/offerings.ts';

export const OFFERINGS_LANDING_PATH = '/benefits-and-offers';
export const OFFERINGS_FULL_PATH = '/benefits-and-offers/all';
/** The filter tile that keeps every offering, and the filter's default (SPEC §2 OfferingsFull). */
export const ALL_CATEGORIES = 'All';
/** SPEC §9: the landing and list fetches are debounced by 1000 ms. */
export const FETCH_DEBOUNCE_MS = 1000;
/** SPEC §9: a card whose logo fails to load refetches the offerings at most 3 times. */
export const LOGO_REFETCH_LIMIT = 3;

/** Which page the catalogue serves: the landing needs the featured lists, the full page everything. */
export type CatalogueView = 'landing' | 'full';

/** SPEC §3 "Offering store contents" (offeringDetails belong to the drawer). Null: not loaded yet. */
export interface OfferingStore {
  allOfferings: OfferingListItem[] | null;
  allBenefits: OfferingListItem[] | null;
  allProducts: OfferingListItem[] | null;
  featuredBenefits: OfferingListItem[] | null;
  featuredProducts: OfferingListItem[] | null;
  offeringCategories: OfferingCategory[] | null;
}

/** The full page's filter, kept in the address as `type` (benefit or all) and `filter` (a category name). */
export interface OfferingsFilter {
  benefitsOnly: boolean;
  category: string;
}

/** SPEC §2: the switch starts on when type=benefit; the filter comes from `filter`, default All. */
export function readOfferingsFilter(query: URLSearchParams): OfferingsFilter {
  return { benefitsOnly: query.get('type') === 'benefit', category: query.get('filter') || ALL_CATEGORIES };
}

export function offeringsFilterQuery({ benefitsOnly, category }: OfferingsFilter): string {
  return new URLSearchParams({ type: benefitsOnly ? 'benefit' : 'all', filter: category }).toString();
}

/** How often a card's logo failed, and which load of the offerings it failed with. */
export interface LogoFailure {
  count: number;
  load: number;
}

export interface OfferingsCatalogueContext extends OfferingStore, OfferingsFilter {
  view: CatalogueView;
  /** Successful loads so far: a logo that failed is tried again with the next one. */
  loads: number;
  /** By offering id. */
  logoFailures: Record<number, LogoFailure>;
}

export interface OfferingsCatalogueInput {
  view: CatalogueView;
  /** The full page's filter as its address gives it. */
  filter?: OfferingsFilter;
}

export type OfferingsCatalogueEvent =
  | { type: 'SELECT_CATEGORY'; category: string }
  | { type: 'SET_BENEFITS_ONLY'; benefitsOnly: boolean }
  | { type: 'LOGO_FAILED'; offeringId: number }
  | { type: 'RETRY' }
  /** The landing page's 'Request help' button. */
  | { type: 'REQUEST_BENEFITS_HELP' };

export interface LoadCatalogueInput {
  view: CatalogueView;
  /** The categories are loaded once: a refetch for a broken logo needs only the offerings. */
  withCategories: boolean;
}

/** The part of the store a page needs, fetched side by side. */
export async function loadCatalogue({ view, withCategories }: LoadCatalogueInput): Promise<Partial<OfferingStore>> {
  if (view === 'landing') {
    const [featuredBenefits, featuredProducts] = await Promise.all([
      fetchFeaturedOfferings('benefit'),
      fetchFeaturedOfferings('product'),
    ]);
    return { featuredBenefits, featuredProducts };
  }
  const [allOfferings, offeringCategories] = await Promise.all([
    fetchOfferings(),
    withCategories ? fetchOfferingCategories() : undefined,
  ]);
  return {
    allOfferings,
    allBenefits: allOfferings.filter((offering) => offering.type === 'benefit'),
    allProducts: allOfferings.filter((offering) => offering.type === 'product'),
    ...(offeringCategories ? { offeringCategories } : {}),
  };
}

const EMPTY_STORE: OfferingStore = {
  allOfferings: null,
  allBenefits: null,
  allProducts: null,
  featuredBenefits: null,
  featuredProducts: null,
  offeringCategories: null,
};

/** react-router keeps the scroll position for a navigation asked to (the navigation service passes options on). */
const REPLACE_QUERY = { replace: true, preventScrollReset: true };

const REFETCH_FOR_LOGO = { guard: 'logoMayRefetch', actions: 'countLogoFailure' } as const;
/** A logo that failed once too often is only recorded: its card shows the provider's initial instead. */
const GIVE_UP_ON_LOGO = { actions: 'countLogoFailure' } as const;

/**
 * SPEC §2 and §4 Benefits and offers, one actor per page: the offerings store, the full page's filter and switch
 * kept in the address (replacing it), and the fetches, debounced by 1000 ms. The first fetch of a quiet period
 * leaves at once; any further one asked for within 1000 ms of the last (a burst of broken logos) waits until
 * 1000 ms have passed without another request, and is made once.
 */
export const offeringsCatalogueMachine = setup({
  types: {
    context: {} as OfferingsCatalogueContext,
    events: {} as OfferingsCatalogueEvent,
    input: {} as OfferingsCatalogueInput,
  },
  actors: {
    loadCatalogue: fromPromise<Partial<OfferingStore>, LoadCatalogueInput>(({ input }) => loadCatalogue(input)),
  },
  delays: {
    fetchDebounce: FETCH_DEBOUNCE_MS,
  },
  guards: {
    logoMayRefetch: ({ context, event }) =>
      event.type === 'LOGO_FAILED' && (context.logoFailures[event.offeringId]?.count ?? 0) < LOGO_REFETCH_LIMIT,
  },
  actions: {
    store: assign(({ context }, loaded: Partial<OfferingStore>) => ({ ...loaded, loads: context.loads + 1 })),
    countLogoFailure: assign({
      logoFailures: ({ context, event }) => {
        assertEvent(event, 'LOGO_FAILED');
        const count = (context.logoFailures[event.offeringId]?.count ?? 0) + 1;
        return { ...context.logoFailures, [event.offeringId]: { count, load: context.loads } };
      },
    }),
    selectCategory: assign({
      category: ({ event }) => {
        assertEvent(event, 'SELECT_CATEGORY');
        return event.category;
      },
    }),
    setBenefitsOnly: assign({
      benefitsOnly: ({ event }) => {
        assertEvent(event, 'SET_BENEFITS_ONLY');
        return event.benefitsOnly;
      },
    }),
    replaceAddressQuery: ({ context }) => navigate(`${OFFERINGS_FULL_PATH}?${offeringsFilterQuery(context)}`, REPLACE_QUERY),
    startBenefitsHelpRequest: sendTo(theApp, { type: 'START_SURVEY', survey: BENEFITS_HELP_SURVEY }),
    reportLoadFailure: (_, { error }: { error: unknown }) => void reportError(error, { feature: 'offerings' }),
  },
}).createMachine({
  id: 'offeringsCatalogue',
  context: ({ input }) => ({
    ...EMPTY_STORE,
    view: input.view,
    benefitsOnly: input.filter?.benefitsOnly ?? false,
    category: input.filter?.category ?? ALL_CATEGORIES,
    loads: 0,
    logoFailures: {},
  }),
  on: {
    SELECT_CATEGORY: { actions: ['selectCategory', 'replaceAddressQuery'] },
    SET_BENEFITS_ONLY: { actions: ['setBenefitsOnly', 'replaceAddressQuery'] },
    REQUEST_BENEFITS_HELP: { actions: 'startBenefitsHelpRequest' },
  },
  initial: 'loading',
  states: {
    loading: {
      tags: 'fetching',
      invoke: {
        id: 'loadCatalogue',
        src: 'loadCatalogue',
        input: ({ context }) => ({ view: context.view, withCategories: context.offeringCategories === null }),
        onDone: { target: 'settling', actions: { type: 'store', params: ({ event }) => event.output } },
        onError: { target: 'failed', actions: { type: 'reportLoadFailure', params: ({ event }) => ({ error: event.error }) } },
      },
      // A newer request replaces the one in flight, after the quiet period.
      on: { LOGO_FAILED: [{ ...REFETCH_FOR_LOGO, target: 'waiting' }, GIVE_UP_ON_LOGO] },
    },
    /** Loaded less than 1000 ms ago: a request now waits for the quiet period. */
    settling: {
      after: { fetchDebounce: 'ready' },
      on: { LOGO_FAILED: [{ ...REFETCH_FOR_LOGO, target: 'waiting' }, GIVE_UP_ON_LOGO] },
    },
    /** A fetch is due once 1000 ms pass without another request; each request starts the wait again. */
    waiting: {
      tags: 'fetching',
      after: { fetchDebounce: 'loading' },
      on: { LOGO_FAILED: [{ ...REFETCH_FOR_LOGO, target: 'waiting', reenter: true }, GIVE_UP_ON_LOGO] },
    },
    ready: {
      on: { LOGO_FAILED: [{ ...REFETCH_FOR_LOGO, target: 'loading' }, GIVE_UP_ON_LOGO] },
    },
    failed: {
      on: {
        RETRY: 'loading',
        LOGO_FAILED: [{ ...REFETCH_FOR_LOGO, target: 'loading' }, GIVE_UP_ON_LOGO],
      },
    },
  },
});

export type OfferingsCatalogueSnapshot = SnapshotFrom<typeof offeringsCatalogueMachine>;

// ---- Selectors: what the pages show, derived from the snapshot. ----

/** Whether the offerings the page shows have arrived at least once ('Sorry, no results' waits for this). */
export function hasLoaded({ context }: OfferingsCatalogueSnapshot): boolean {
  return context.loads > 0;
}

/** SPEC §2: the switch shows only when some benefits exist and there are fewer benefits than offerings. */
export function showsBenefitsSwitch({ context }: OfferingsCatalogueSnapshot): boolean {
  const benefits = context.allBenefits?.length ?? 0;
  return benefits > 0 && benefits < (context.allOfferings?.length ?? 0);
}

/**
 * SPEC §4: the benefits list when the switch is on, else all offerings; a category keeps the offerings whose
 * categories include it, All keeps everything.
 */
export function visibleOfferings({ context }: OfferingsCatalogueSnapshot): OfferingListItem[] {
  const offerings = (context.benefitsOnly ? context.allBenefits : context.allOfferings) ?? [];
  return context.category === ALL_CATEGORIES
    ? offerings
    : offerings.filter((offering) => offering.categories.includes(context.category));
}

export type LogoDisplay = { shown: true; attempt: number } | { shown: false };

/**
 * A logo shows until it fails; it is tried again (attempt changes, so the image reloads) once the refetch it caused
 * has landed, and for good once it has failed more often than the refetch limit.
 */
export function logoDisplay(
  { logoFailures, loads }: Pick<OfferingsCatalogueContext, 'logoFailures' | 'loads'>,
  offeringId: number,
): LogoDisplay {
  const failure = logoFailures[offeringId];
  if (!failure) return { shown: true, attempt: 0 };
  if (failure.count > LOGO_REFETCH_LIMIT || failure.load === loads) return { shown: false };
  return { shown: true, attempt: failure.count };
}
