import { assertEvent, assign, fromCallback, fromPromise, setup } from 'xstate';
import type { LiveEvent } from '../contract/events.ts';
import type { UnreadReplies } from '../services/requests.ts';
import type { LiveUpdate } from './liveUpdates.machine.ts';
import { liveUpdatesOf } from './system.ts';

/**
 * The employee's unread replies (issue 32 point 1), a long-lived actor of the app's system (app.machine.ts): the count
 * of each request and their total, which the navigation, the lists, the Dashboard and the tab title show. It keeps
 * them while the signed-in employee's frame is shown (the frame says so), live: a concierge's reply, or a read on
 * another tab or device of theirs, makes it read the counts again. A thread read to its end (requestThread) reports
 * the read here, and the server tells the employee's other streams.
 */

export interface ReadReport {
  requestId: number;
  /** The newest message the employee has seen. */
  messageId: number;
}

export interface UnreadRepliesContext {
  /** Unread replies by request id; a request with none is absent. */
  byRequest: Record<number, number>;
  /** The read being reported, while it is. */
  reading: ReadReport | null;
}

export type UnreadRepliesEvent =
  /** The signed-in employee's frame is shown (AppLayout): counts are kept, live. */
  | { type: 'EMPLOYEE_SHOWN' }
  /** It is gone (signed out, or a staff member's frame): nothing is kept. */
  | { type: 'EMPLOYEE_LEFT' }
  /** The employee has seen a thread to its end (requestThread.machine.ts). */
  | ({ type: 'READ_UP_TO' } & ReadReport)
  | LiveUpdate;

/** Whether a live event changes the employee's unread replies: a concierge's message, or a read elsewhere. */
export function changesUnreadReplies(event: LiveEvent): boolean {
  return (event.type === 'message.created' && event.message.source === 'life_concierge') || event.type === 'request.read';
}

/** The live stream's events and polls, through the system's one stream. */
const liveUpdates = fromCallback<LiveUpdate>(({ system, self, receive, sendBack }) =>
  liveUpdatesOf({ system, self, receive })((event) => sendBack({ type: 'LIVE_EVENT', event }), { onPoll: () => sendBack({ type: 'LIVE_POLL' }) }),
);

export const unreadRepliesMachine = setup({
  types: {
    context: {} as UnreadRepliesContext,
    events: {} as UnreadRepliesEvent,
  },
  actors: {
    liveUpdates,
    // The requests client (and the contract's schemas with it) loads with the first count.
    fetchUnreadReplies: fromPromise<UnreadReplies>(async () => (await import('../services/requests.ts')).fetchUnreadReplies()),
    reportRead: fromPromise<number, ReadReport>(async ({ input }) =>
      (await import('../services/requests.ts')).markRequestRead(input.requestId, input.messageId),
    ),
  },
  guards: {
    changesUnreadReplies: ({ event }) => event.type === 'LIVE_EVENT' && changesUnreadReplies(event.event),
  },
  actions: {
    storeCounts: assign((_, unread: UnreadReplies) => ({ byRequest: unread.byRequest })),
    keepReport: assign(({ event }) => {
      assertEvent(event, 'READ_UP_TO');
      return { reading: { requestId: event.requestId, messageId: event.messageId } };
    }),
    /** What the server says is left unread on the request just read. */
    storeReadCount: assign(({ context }, unreadCount: number) => {
      const { [context.reading!.requestId]: _read, ...others } = context.byRequest;
      return { byRequest: unreadCount > 0 ? { ...others, [context.reading!.requestId]: unreadCount } : others, reading: null };
    }),
    forgetCounts: assign({ byRequest: {}, reading: null }),
  },
}).createMachine({
  id: 'unreadReplies',
  context: { byRequest: {}, reading: null },
  initial: 'idle',
  states: {
    idle: {
      on: { EMPLOYEE_SHOWN: 'watching' },
    },
    watching: {
      invoke: { id: 'liveUpdates', src: 'liveUpdates' },
      on: {
        EMPLOYEE_LEFT: { target: 'idle', actions: 'forgetCounts' },
        READ_UP_TO: { target: '.reporting', actions: 'keepReport' },
        LIVE_EVENT: { guard: 'changesUnreadReplies', target: '.loading' },
        // The stream (re)opened, or it is down and this is a poll: whatever happened meanwhile is read again.
        LIVE_POLL: { target: '.loading' },
      },
      initial: 'loading',
      states: {
        loading: {
          invoke: {
            id: 'fetchUnreadReplies',
            src: 'fetchUnreadReplies',
            onDone: { target: 'ready', actions: { type: 'storeCounts', params: ({ event }) => event.output } },
            // The counts on screen stay; the next poll or news tries again.
            onError: 'ready',
          },
        },
        ready: {},
        reporting: {
          invoke: {
            id: 'reportRead',
            src: 'reportRead',
            input: ({ context }) => context.reading!,
            // The request's count clears at once; the others are read again, for news that came meanwhile.
            onDone: { target: 'loading', actions: { type: 'storeReadCount', params: ({ event }) => event.output } },
            // Not recorded: the counts are read again, and the thread is reported again when next seen to its end.
            onError: { target: 'loading', actions: assign({ reading: null }) },
          },
          // Not cut short by news: the counts are read again once it is answered.
          on: { LIVE_EVENT: {}, LIVE_POLL: {} },
        },
      },
    },
  },
});
