// Samples for `npm run flows` (scripts/flows.ts) and the model-based tests: unreadReplies.machine.ts.

import type { UnreadRepliesEvent } from '../../../src/machines/unreadReplies.machine.ts';
import type { UnreadReplies } from '../../../src/services/requests.ts';

/** Payloads for `npm run flows`, so that its paths go past the guarded transitions (a reply counts, a read clears). */
export const flowSamples = {
  events: [
    { type: 'xstate.done.actor.fetchUnreadReplies', output: { total: 1, byRequest: { 1: 1 } } },
    { type: 'xstate.done.actor.reportRead', output: 0 },
    { type: 'READ_UP_TO', requestId: 1, messageId: 2 },
    {
      type: 'LIVE_EVENT',
      event: {
        type: 'message.created',
        request_id: 1,
        message: { id: 2, body_html: '<p>On it!</p>', source: 'life_concierge', source_name: 'Casey', external_created_at: '2025-03-01T09:05:00.000Z', attachment_keys: [] },
      },
    },
  ] satisfies (UnreadRepliesEvent | { type: `xstate.done.actor.${string}`; output: UnreadReplies | number })[],
};
