import { assertEvent, assign, fromPromise, setup } from 'xstate';
import { serverMessage } from '../services/http.ts';

/** The wait after the last keystroke before the search is sent (issue 32; SPEC §9 names no delay for it). */
export const SEARCH_DEBOUNCE_MS = 300;
export const SEARCH_FAILED = "We couldn't search just now. Please try again.";

export interface SearchContext<Result> {
  /** What is in the search field. */
  text: string;
  /** What the results answer (or the search under way asks). */
  query: string;
  /** Null until a search has answered; kept while the next one is typed or under way. */
  results: Result[] | null;
  error: string | null;
}

export type SearchEvent =
  /** The screen's search button: the field opens (its code loads then, not with the screen), focused. */
  | { type: 'OPEN' }
  /** The field changed; blank (emptied, cleared with its button or Escape) ends the search. */
  | { type: 'TYPE'; text: string }
  /** Enter: search now, without waiting for the debounce. */
  | { type: 'SUBMIT' }
  | { type: 'RETRY' };

const isBlank = (text: string) => text.trim() === '';

/** The field emptied: the screen shows what it shows without a search. */
const END_SEARCH = { guard: 'isBlank', target: 'idle', actions: 'forget' } as const;
const TYPE_MORE = { target: 'typing', actions: 'setText' } as const;

/**
 * A search box's flow, for one kind of result (issue 32 point 5): typing waits `searchDebounce` after the last
 * keystroke, Enter searches at once, an emptied field ends the search. The results of the last search stay on screen
 * while the next is typed or under way.
 */
export function searchMachine<Result>(id: string, search: (query: string) => Promise<Result[]>) {
  return setup({
    types: {
      context: {} as SearchContext<Result>,
      events: {} as SearchEvent,
    },
    actors: {
      search: fromPromise<Result[], string>(({ input }) => search(input)),
    },
    guards: {
      isBlank: ({ event }) => event.type === 'TYPE' && isBlank(event.text),
    },
    delays: {
      searchDebounce: SEARCH_DEBOUNCE_MS,
    },
    actions: {
      setText: assign({
        text: ({ event }) => {
          assertEvent(event, 'TYPE');
          return event.text;
        },
      }),
      takeQuery: assign({ query: ({ context }) => context.text.trim() }),
      storeResults: assign((_, results: Result[]) => ({ results, error: null })),
      showError: assign((_, error: unknown) => ({ error: serverMessage(error, SEARCH_FAILED) })),
      clearError: assign({ error: null }),
      forget: assign({ text: '', query: '', results: null, error: null }),
    },
  }).createMachine({
    id,
    context: { text: '', query: '', results: null, error: null },
    initial: 'closed',
    states: {
      /**
       * The screen shows a search button, not the field: most visits do not search, and the field's code stays out of
       * the screen's first load (DESIGN §9 weight budget).
       */
      closed: {
        on: { OPEN: 'idle' },
      },
      /** Nothing searched: the screen shows its usual content. */
      idle: {
        on: { TYPE: [{ guard: 'isBlank', actions: 'setText' }, TYPE_MORE] },
      },
      /** Typed less than `searchDebounce` ago; each keystroke starts the wait again. */
      typing: {
        // A failure no longer applies to what is being typed.
        entry: 'clearError',
        after: { searchDebounce: { target: 'searching', actions: 'takeQuery' } },
        on: {
          TYPE: [END_SEARCH, { ...TYPE_MORE, reenter: true }],
          SUBMIT: { target: 'searching', actions: 'takeQuery' },
        },
      },
      searching: {
        tags: 'busy',
        entry: 'clearError',
        invoke: {
          id: 'search',
          src: 'search',
          input: ({ context }) => context.query,
          onDone: { target: 'found', actions: { type: 'storeResults', params: ({ event }) => event.output } },
          onError: { target: 'failed', actions: { type: 'showError', params: ({ event }: { event: { error: unknown } }) => event.error } },
        },
        on: { TYPE: [END_SEARCH, TYPE_MORE] },
      },
      found: {
        on: { TYPE: [END_SEARCH, TYPE_MORE] },
      },
      failed: {
        on: {
          TYPE: [END_SEARCH, TYPE_MORE],
          RETRY: 'searching',
        },
      },
    },
  });
}

/** Whether the screen shows the search's results (or its progress, or its failure) instead of its usual content. */
export const isSearching = (snapshot: { matches: (state: 'idle' | 'closed') => boolean }) =>
  !snapshot.matches('idle') && !snapshot.matches('closed');

/** Whether the screen shows the search field (rather than the button that opens it). */
export const isSearchOpen = (snapshot: { matches: (state: 'closed') => boolean }) => !snapshot.matches('closed');
