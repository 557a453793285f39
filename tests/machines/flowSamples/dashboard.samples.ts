// Samples for `npm run flows` (scripts/flows.ts) and the model-based tests: dashboard.machine.ts.

import type { OpenRequestLists } from '../../../src/machines/dashboard.machine.ts';

/** Payloads for `npm run flows` (scripts/flows.ts): a user with nothing yet, and the suggestions of a pet owner. */
export const flowSamples = {
  events: [
    { type: 'xstate.done.actor.fetchRequests', output: { open: [], inProgress: [] } satisfies OpenRequestLists },
    { type: 'xstate.done.actor.fetchSuggestions', output: [] },
  ],
};
