import type { ActorRefFrom } from 'xstate';
import { searchRequests } from '../services/requests.ts';
import type { ClientRequest } from '../services/threadRules.ts';
import { searchMachine } from './search.ts';

/** The Requests screen's search of the employee's own requests (issue 32). */
export const requestsSearchMachine = searchMachine<ClientRequest>('requestsSearch', searchRequests);
export type RequestsSearchActor = ActorRefFrom<typeof requestsSearchMachine>;
