import type { ActorRefFrom } from 'xstate';
import type { OfferingListItem } from '../contract/offerings.ts';
import { searchOfferings } from '../services/offerings.ts';
import { searchMachine } from './search.ts';

/** The full Benefits & Offers page's search of the catalogue the employee may see (issue 32). */
export const offeringsSearchMachine = searchMachine<OfferingListItem>('offeringsSearch', searchOfferings);
export type OfferingsSearchActor = ActorRefFrom<typeof offeringsSearchMachine>;
