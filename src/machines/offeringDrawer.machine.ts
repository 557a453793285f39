import { type SnapshotFrom, assertEvent, assign, enqueueActions, fromPromise, setup } from 'xstate';
import { theApp } from './system.ts';
import { ANALYTICS_CATEGORY } from '../contract/analytics.constants.ts';
import type { OfferingDetail, OfferingListItem } from '../contract/offerings.ts';
import { track } from '../services/analytics.ts';
import { reportError } from '../services/errorReporting.ts';
import { fetchOffering } from '../services/offerings.ts';

export interface OfferingDrawerContext {
  /** The card that opened the drawer (what the drawer shows until the detail arrives). */
  offering: OfferingListItem | null;
  /** SPEC §3 store: the details fetched so far, by offering id. */
  offeringDetails: Record<number, OfferingDetail>;
}

export type OfferingDrawerEvent =
  /** A card was clicked. */
  | { type: 'OPEN'; offering: OfferingListItem }
  | { type: 'CLOSE' }
  | { type: 'RETRY' }
  /** A link of the drawer was followed (it opens by itself; this only reports the click). */
  | { type: 'FOLLOW_LINK'; text: string; url: string }
  /** The help block's button. */
  | { type: 'REQUEST_HELP' };

/** SPEC §7 Telemetry, ui_interaction on a card click. */
export function cardClickProperties(offering: OfferingListItem) {
  return {
    element_type: 'offering_card',
    element_id: offering.type === 'benefit' ? 'offering_benefit_card' : 'offering_product_card',
    category: ANALYTICS_CATEGORY,
    offering_id: offering.id,
    provider_name: offering.provider_name,
    featured: offering.featured,
  } as const;
}

/** SPEC §7 Telemetry, cta_click in the drawer. */
export function ctaClickProperties(offering: OfferingListItem, link: { text: string; url: string }) {
  return {
    cta_type: ANALYTICS_CATEGORY,
    text: link.text,
    url: link.url,
    offering_id: offering.id,
    provider_name: offering.provider_name,
    featured: offering.featured,
  } as const;
}

function openOfferingOf(context: OfferingDrawerContext): OfferingListItem {
  if (!context.offering) throw new Error('The offering drawer is open without an offering');
  return context.offering;
}

function detailOf(context: OfferingDrawerContext): OfferingDetail | null {
  return context.offering ? (context.offeringDetails[context.offering.id] ?? null) : null;
}

/** The detail of the open offering, once fetched (a cached one shows while it is fetched again). */
export function openDetail({ context }: SnapshotFrom<typeof offeringDrawerMachine>): OfferingDetail | null {
  return detailOf(context);
}

/** The survey the help block's button starts, when the offering has one. */
export function helpSurveyOf(detail: OfferingDetail | null): { id: number; name: string } | null {
  if (!detail?.request_survey_cta || detail.request_survey_id === null || detail.request_survey_name === null) return null;
  return { id: detail.request_survey_id, name: detail.request_survey_name };
}

/**
 * SPEC §4 Benefits and offers: a card click opens the drawer for that offering, which fetches the detail while it
 * is open; closing it, or asking for help (which starts the offering's request survey), closes it.
 */
export const offeringDrawerMachine = setup({
  types: {
    context: {} as OfferingDrawerContext,
    events: {} as OfferingDrawerEvent,
  },
  actors: {
    fetchOfferingDetail: fromPromise<OfferingDetail, { id: number }>(({ input }) => fetchOffering(input.id)),
  },
  guards: {
    offersHelp: ({ context }) => helpSurveyOf(detailOf(context)) !== null,
  },
  actions: {
    open: assign({
      offering: ({ event }) => {
        assertEvent(event, 'OPEN');
        return event.offering;
      },
    }),
    storeDetail: assign({
      offeringDetails: ({ context }, detail: OfferingDetail) => ({ ...context.offeringDetails, [detail.id]: detail }),
    }),
    trackCardClick: ({ event }) => {
      assertEvent(event, 'OPEN');
      track('ui_interaction', cardClickProperties(event.offering));
    },
    trackLinkClick: ({ context, event }) => {
      assertEvent(event, 'FOLLOW_LINK');
      if (context.offering) track('cta_click', ctaClickProperties(context.offering, event));
    },
    startHelpRequest: enqueueActions(({ context, enqueue }) => {
      const survey = helpSurveyOf(detailOf(context));
      if (survey) enqueue.sendTo(theApp, { type: 'START_SURVEY', survey });
    }),
    reportLoadFailure: (_, { error }: { error: unknown }) => void reportError(error, { feature: 'offerings' }),
  },
}).createMachine({
  id: 'offeringDrawer',
  context: { offering: null, offeringDetails: {} },
  initial: 'closed',
  states: {
    closed: {
      on: { OPEN: { target: 'open', actions: ['open', 'trackCardClick'] } },
    },
    open: {
      initial: 'loading',
      on: {
        CLOSE: 'closed',
        FOLLOW_LINK: { actions: 'trackLinkClick' },
        // Also while a cached detail is being fetched again.
        REQUEST_HELP: { guard: 'offersHelp', target: 'closed', actions: 'startHelpRequest' },
      },
      states: {
        loading: {
          tags: 'fetching',
          invoke: {
            id: 'fetchOfferingDetail',
            src: 'fetchOfferingDetail',
            input: ({ context }) => ({ id: openOfferingOf(context).id }),
            onDone: { target: 'showing', actions: { type: 'storeDetail', params: ({ event }) => event.output } },
            onError: { target: 'failed', actions: { type: 'reportLoadFailure', params: ({ event }) => ({ error: event.error }) } },
          },
        },
        showing: {},
        failed: {
          on: { RETRY: 'loading' },
        },
      },
    },
  },
});
