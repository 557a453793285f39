// Samples for `npm run flows` (scripts/flows.ts): requestsSearch.machine.ts.

import type { SearchEvent } from '../../../src/machines/search.ts';

/** Text to type (and a blank one), so that the paths go past the debounce to a search and its answer. */
export const flowSamples = {
  events: [
    { type: 'TYPE', text: 'car' },
    { type: 'TYPE', text: '' },
    { type: 'xstate.done.actor.search', output: [] },
  ] satisfies (SearchEvent | { type: 'xstate.done.actor.search'; output: never[] })[],
};
