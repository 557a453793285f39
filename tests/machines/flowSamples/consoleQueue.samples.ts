// Samples for `npm run flows` (scripts/flows.ts) and the model-based tests: consoleQueue.machine.ts.

import type { ConsoleRequestSummary, ConsoleRequestsResponse } from '../../../src/contract/console.ts';
import type { ConsoleQueueEvent } from '../../../src/machines/consoleQueue.machine.ts';

/** A request in the queue; the console request's samples open it. */
export const SAMPLE_REQUEST: ConsoleRequestSummary = {
  id: 1,
  external_id: 'sample',
  name: 'Renew my car registration',
  status: 'open',
  issued_at: '2025-03-01T09:00:00.000Z',
  updated_at: '2025-03-01T09:00:00.000Z',
  closed_at: null,
  survey_category_name: 'Car',
  employee: { id: 2, full_name: 'Sample Employee', email: 'employee@example.com' },
  assignee: null,
  unread_count: 1,
  last_message_at: '2025-03-01T09:05:00.000Z',
};

/** Payloads for `npm run flows` (scripts/flows.ts), so that its paths go past the list call and the search. */
export const flowSamples = {
  events: [
    {
      type: 'xstate.done.actor.listRequests',
      output: { requests: [SAMPLE_REQUEST], counts: { in_queue: 1, in_progress_mine: 0, in_progress: 0, completed: 0 }, total: 1 },
    },
    { type: 'SELECT_QUEUE', queue: 'completed' },
    { type: 'TYPE_SEARCH', text: 'sample' },
    { type: 'LIVE_STATUS', status: 'live' },
    { type: 'LIVE_EVENT', event: { type: 'note.created', request_id: SAMPLE_REQUEST.id, note_id: 1 } },
  ] satisfies (ConsoleQueueEvent | { type: `xstate.done.actor.${string}`; output: ConsoleRequestsResponse })[],
};
