import { and, assertEvent, assign, enqueueActions, fromPromise, setup } from 'xstate';
import type { FilledSavedReply, SavedReply } from '../contract/assignment.ts';
import { fillSavedReply, listUsableSavedReplies } from '../services/assignment.ts';
import { serverMessage, statusOf } from '../services/http.ts';

/**
 * The composer's saved replies (issue 28): typing `/` at the start of a word opens a list searchable by short code or
 * title; choosing one fetches it filled in for the request (the employee's first name, the request's name, the
 * concierge's name) and hands it to the composer in place of the `/`. Escape or Cancel closes it, leaving the text
 * as typed.
 */

export const SAVED_REPLY_TEXT = {
  loadFailed: 'We could not load the saved replies. Please try again.',
  fillFailed: 'We could not insert that reply. Please try again.',
  inserted: (reply: Pick<SavedReply, 'title'>) => `Saved reply "${reply.title}" inserted.`,
} as const;

/** Whether the edit was a `/` typed at the start of the text or of a word: what opens the list. */
export function typedSlashAtWordStart(before: string, after: string): boolean {
  return after === `${before}/` && (before === '' || /\s$/.test(before));
}

/** The replies a search matches: short codes that start with it first, then titles that contain it. */
export function matchingReplies(replies: readonly SavedReply[], query: string): SavedReply[] {
  const typed = query.trim().replace(/^\//, '').toLowerCase();
  if (typed === '') return [...replies];
  const byCode = replies.filter((reply) => reply.short_code.startsWith(typed));
  const byTitle = replies.filter((reply) => !byCode.includes(reply) && reply.title.toLowerCase().includes(typed));
  return [...byCode, ...byTitle];
}

/** The composer's text with the reply in place of the `/` that opened the list (or after the text, without one). */
export function withReplyInserted(text: string, reply: string): string {
  return text.endsWith('/') ? `${text.slice(0, -1)}${reply}` : `${text}${text === '' || /\s$/.test(text) ? '' : ' '}${reply}`;
}

const errorOf = ({ event }: { event: { error: unknown } }) => event.error;

export interface SavedReplyPickerContext {
  requestId: number;
  /** The active replies, once loaded (kept for the next `/`). */
  replies: SavedReply[] | null;
  query: string;
  /** The reply being filled in. */
  chosen: SavedReply | null;
  error: string | null;
  /** What the last insertion did, for screen readers. */
  announcement: string | null;
}

export type SavedReplyPickerEvent =
  | { type: 'TYPED'; before: string; after: string }
  | { type: 'SEARCH'; query: string }
  | { type: 'CHOOSE'; replyId: number }
  | { type: 'CLOSE' }
  | { type: 'RETRY' };

/** Told to the composer: the filled-in reply to put in place of the `/`. */
export type SavedReplyPickerEmitted = { type: 'inserted'; bodyMarkdown: string };

export const savedReplyPickerMachine = setup({
  types: {
    context: {} as SavedReplyPickerContext,
    events: {} as SavedReplyPickerEvent,
    emitted: {} as SavedReplyPickerEmitted,
    input: {} as { requestId: number },
  },
  actors: {
    listReplies: fromPromise<SavedReply[]>(() => listUsableSavedReplies()),
    fillReply: fromPromise<FilledSavedReply, { replyId: number; requestId: number }>(({ input }) => fillSavedReply(input.replyId, input.requestId)),
  },
  guards: {
    opensList: ({ event }) => event.type === 'TYPED' && typedSlashAtWordStart(event.before, event.after),
    hasReplies: ({ context }) => context.replies !== null,
    isOffered: ({ context, event }) => event.type === 'CHOOSE' && matchingReplies(context.replies ?? [], context.query).some((reply) => reply.id === event.replyId),
  },
  actions: {
    startSearch: assign({ query: '', error: null, announcement: null }),
    storeReplies: assign((_, replies: SavedReply[]) => ({ replies })),
    storeQuery: assign(({ event }) => {
      assertEvent(event, 'SEARCH');
      return { query: event.query };
    }),
    storeChosen: assign(({ context, event }) => {
      assertEvent(event, 'CHOOSE');
      return { chosen: context.replies?.find((reply) => reply.id === event.replyId) ?? null, error: null };
    }),
    insertFilled: enqueueActions(({ context, enqueue }, filled: FilledSavedReply) => {
      enqueue.emit({ type: 'inserted', bodyMarkdown: filled.body_markdown });
      enqueue.assign({ announcement: context.chosen ? SAVED_REPLY_TEXT.inserted(context.chosen) : null, chosen: null });
    }),
    showFillError: assign((_, error: unknown) => ({
      error: statusOf(error) === 404 ? serverMessage(error) : SAVED_REPLY_TEXT.fillFailed,
      chosen: null,
    })),
  },
}).createMachine({
  id: 'savedReplyPicker',
  context: ({ input }) => ({ requestId: input.requestId, replies: null, query: '', chosen: null, error: null, announcement: null }),
  initial: 'closed',
  states: {
    closed: {
      on: {
        // The list is loaded the first time it opens; later opens show it at once.
        TYPED: [
          { guard: and(['opensList', 'hasReplies']), target: 'choosing.searching', actions: 'startSearch' },
          { guard: 'opensList', target: 'choosing.loading', actions: 'startSearch' },
        ],
      },
    },
    choosing: {
      initial: 'loading',
      on: { CLOSE: '#savedReplyPicker.closed' },
      states: {
        loading: {
          tags: 'busy',
          invoke: {
            id: 'listReplies',
            src: 'listReplies',
            onDone: { target: 'searching', actions: { type: 'storeReplies', params: ({ event }) => event.output } },
            onError: { target: 'loadFailed', actions: assign({ error: SAVED_REPLY_TEXT.loadFailed }) },
          },
        },
        loadFailed: {
          on: { RETRY: { target: 'loading', actions: assign({ error: null }) } },
        },
        searching: {
          on: {
            SEARCH: { actions: 'storeQuery' },
            CHOOSE: { guard: 'isOffered', target: 'filling', actions: 'storeChosen' },
          },
        },
        filling: {
          tags: 'busy',
          invoke: {
            id: 'fillReply',
            src: 'fillReply',
            input: ({ context }) => ({ replyId: context.chosen!.id, requestId: context.requestId }),
            onDone: {
              target: '#savedReplyPicker.closed',
              actions: { type: 'insertFilled', params: ({ event }) => event.output },
            },
            onError: { target: 'searching', actions: { type: 'showFillError', params: errorOf } },
          },
        },
      },
    },
  },
});
