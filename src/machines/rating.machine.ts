import { assertEvent, assign, fromPromise, setup } from 'xstate';
import { RATING_COMMENT_MAX, RATING_SCORE_LABELS, type RatingRequest, type RatingState } from '../contract/ratings.ts';
import { refusalInWords, statusOf } from '../services/http.ts';
import { fetchPendingRating, fetchRatingState, fetchRatingStateByLink, saveRating, saveRatingByLink } from '../services/ratings.ts';

/**
 * "How did we do?" (issue 28 part 3): the employee rates a completed request 1 to 5 with an optional comment. One flow
 * for its three places: the request page (`requestId`), the Dashboard's card (no request: the latest one waiting for
 * a rating) and the page a completion e-mail's signed link opens (`token`, with the link's score preselected). Nothing
 * is saved until the employee sends it, so a link followed by a mail scanner rates nothing. A rating may be changed
 * until its window closes; then it is shown, no longer asked for.
 */

export const RATING_TEXT = {
  question: 'How did we do?',
  loadFailed: 'We could not load your rating. Please try again.',
  saveFailed: 'We could not save your rating. Please try again.',
  thanks: 'Thank you for your rating.',
  closed: 'The time to rate this request has passed.',
  commentTooLong: `Please keep your comment under ${RATING_COMMENT_MAX.toLocaleString('en-US')} characters.`,
} as const;

/** A score as the rating screens say it, e.g. "5 – Excellent". */
export const scoreInWords = (score: number) => `${score} – ${RATING_SCORE_LABELS[score]}`;

export interface RatingInput {
  /** The request rated; null on the Dashboard, whose card rates the latest request waiting for it. */
  requestId: number | null;
  /** A completion e-mail's signed link, which stands for the session. */
  token: string | null;
  /** The score of the link followed (1-5), shown chosen until the employee sends or changes it. */
  preselected: number | null;
}

export interface RatingContext extends RatingInput {
  state: RatingState | null;
  score: number | null;
  comment: string;
  error: string | null;
}

export type RatingEvent =
  | { type: 'PICK'; score: number }
  | { type: 'EDIT_COMMENT'; comment: string }
  | { type: 'SUBMIT' }
  | { type: 'CHANGE' }
  | { type: 'RETRY' };

function loadRatingState({ requestId, token }: Pick<RatingInput, 'requestId' | 'token'>): Promise<RatingState | null> {
  if (requestId === null) return fetchPendingRating();
  return token ? fetchRatingStateByLink(requestId, token) : fetchRatingState(requestId);
}

function sendRating({ requestId, token, rating }: { requestId: number; token: string | null; rating: RatingRequest }): Promise<RatingState> {
  return token ? saveRatingByLink(requestId, token, rating) : saveRating(requestId, rating);
}

const isValidScore = (score: number | null): score is number => score !== null && Number.isInteger(score) && score >= 1 && score <= 5;

export const ratingMachine = setup({
  types: {
    context: {} as RatingContext,
    events: {} as RatingEvent,
    input: {} as RatingInput,
  },
  actors: {
    loadRating: fromPromise<RatingState | null, Pick<RatingInput, 'requestId' | 'token'>>(({ input }) => loadRatingState(input)),
    saveRating: fromPromise<RatingState, { requestId: number; token: string | null; rating: RatingRequest }>(({ input }) => sendRating(input)),
  },
  guards: {
    nothingToRate: (_, state: RatingState | null) => state === null || state.completed_at === null,
    windowClosed: (_, state: RatingState | null) => state?.changeable_until !== null && new Date(state!.changeable_until!) <= new Date(),
    linkChoseScore: ({ context }) => isValidScore(context.preselected),
    alreadyRated: (_, state: RatingState | null) => state?.rating !== null,
    canSubmit: ({ context }) => isValidScore(context.score) && context.comment.length <= RATING_COMMENT_MAX,
  },
  actions: {
    storeState: assign((_, state: RatingState | null) => ({
      state,
      score: state?.rating?.score ?? null,
      comment: state?.rating?.comment ?? '',
      error: null,
    })),
    takeLinkScore: assign(({ context }) => ({ score: context.preselected })),
    pick: assign(({ event }) => {
      assertEvent(event, 'PICK');
      return { score: event.score, error: null };
    }),
    editComment: assign(({ event }) => {
      assertEvent(event, 'EDIT_COMMENT');
      return { comment: event.comment };
    }),
    // A link's score counts once: once sent, a retry or a change starts from what the employee has chosen since.
    forgetLinkScore: assign({ preselected: null }),
    // A refusal (a link expired, the window closed) says why; anything else is the flow's own words.
    showError: assign((_, { error, fallback }: { error: unknown; fallback: string }) => {
      const status = statusOf(error);
      return { error: status !== null && status < 500 ? refusalInWords(error, fallback) : fallback };
    }),
  },
}).createMachine({
  id: 'rating',
  context: ({ input }) => ({ ...input, state: null, score: null, comment: '', error: null }),
  initial: 'loading',
  states: {
    loading: {
      tags: 'busy',
      invoke: {
        id: 'loadRating',
        src: 'loadRating',
        input: ({ context }) => ({ requestId: context.requestId, token: context.token }),
        onDone: [
          { guard: { type: 'nothingToRate', params: ({ event }) => event.output }, target: 'nothingToRate', actions: { type: 'storeState', params: ({ event }) => event.output } },
          { guard: { type: 'windowClosed', params: ({ event }) => event.output }, target: 'closed', actions: { type: 'storeState', params: ({ event }) => event.output } },
          { guard: 'linkChoseScore', target: 'asking', actions: [{ type: 'storeState', params: ({ event }) => event.output }, 'takeLinkScore'] },
          { guard: { type: 'alreadyRated', params: ({ event }) => event.output }, target: 'rated', actions: { type: 'storeState', params: ({ event }) => event.output } },
          { target: 'asking', actions: { type: 'storeState', params: ({ event }) => event.output } },
        ],
        onError: { target: 'failed', actions: { type: 'showError', params: ({ event }) => ({ error: event.error, fallback: RATING_TEXT.loadFailed }) } },
      },
    },
    failed: {
      on: { RETRY: 'loading' },
    },
    nothingToRate: {},
    closed: {},
    asking: {
      on: {
        PICK: { actions: 'pick' },
        EDIT_COMMENT: { actions: 'editComment' },
        SUBMIT: { guard: 'canSubmit', target: 'saving', actions: 'forgetLinkScore' },
      },
    },
    saving: {
      tags: 'busy',
      invoke: {
        id: 'saveRating',
        src: 'saveRating',
        input: ({ context }) => ({
          requestId: context.state!.request_id,
          token: context.token,
          rating: { score: context.score!, comment: context.comment.trim() === '' ? null : context.comment },
        }),
        onDone: { target: 'rated.thanked', actions: { type: 'storeState', params: ({ event }) => event.output } },
        onError: { target: 'asking', actions: { type: 'showError', params: ({ event }) => ({ error: event.error, fallback: RATING_TEXT.saveFailed }) } },
      },
    },
    rated: {
      initial: 'shown',
      states: {
        shown: {},
        thanked: {},
      },
      on: { CHANGE: 'asking' },
    },
  },
});
