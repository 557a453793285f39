import { assertEvent, assign, fromPromise, setup } from 'xstate';
import type { AvailabilityResponse, TeamMember } from '../contract/assignment.ts';
import { fetchAvailability, setAvailability } from '../services/assignment.ts';

/**
 * The console's availability switch (issue 28): whether the concierge takes new requests automatically, loaded on
 * entry with who else on the team is available, and saved as soon as it is switched. A save that fails puts the
 * saved state back, with the error.
 */

export const AVAILABILITY_TEXT = {
  loadFailed: 'We could not load your availability. Please try again.',
  saveFailed: 'We could not change your availability. Please try again.',
} as const;

export interface ConsoleAvailabilityContext {
  /** The caller as the server holds them. */
  me: TeamMember | null;
  team: TeamMember[];
  /** The position the switch shows: the one being saved while it is. */
  shown: boolean;
  error: string | null;
}

export type ConsoleAvailabilityEvent = { type: 'SET_AVAILABLE'; available: boolean } | { type: 'RETRY' };

export const consoleAvailabilityMachine = setup({
  types: {
    context: {} as ConsoleAvailabilityContext,
    events: {} as ConsoleAvailabilityEvent,
  },
  actors: {
    loadAvailability: fromPromise<AvailabilityResponse>(() => fetchAvailability()),
    saveAvailability: fromPromise<AvailabilityResponse, boolean>(({ input }) => setAvailability(input)),
  },
  guards: {
    isChange: ({ context, event }) => event.type === 'SET_AVAILABLE' && event.available !== context.me?.available,
  },
  actions: {
    storeAvailability: assign((_, answer: AvailabilityResponse) => ({ me: answer.me, team: answer.team, shown: answer.me.available, error: null })),
    showSwitched: assign(({ event }) => {
      assertEvent(event, 'SET_AVAILABLE');
      return { shown: event.available, error: null };
    }),
    putSavedBack: assign(({ context }) => ({ shown: context.me?.available ?? false, error: AVAILABILITY_TEXT.saveFailed })),
  },
}).createMachine({
  id: 'consoleAvailability',
  context: { me: null, team: [], shown: false, error: null },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'loadAvailability',
        src: 'loadAvailability',
        onDone: { target: 'ready', actions: { type: 'storeAvailability', params: ({ event }) => event.output } },
        onError: { target: 'loadFailed', actions: assign({ error: AVAILABILITY_TEXT.loadFailed }) },
      },
    },
    loadFailed: {
      on: { RETRY: 'loading' },
    },
    ready: {
      on: { SET_AVAILABLE: { guard: 'isChange', target: 'saving', actions: 'showSwitched' } },
    },
    saving: {
      tags: 'busy',
      invoke: {
        id: 'saveAvailability',
        src: 'saveAvailability',
        input: ({ context }) => context.shown,
        onDone: { target: 'ready', actions: { type: 'storeAvailability', params: ({ event }) => event.output } },
        onError: { target: 'ready', actions: 'putSavedBack' },
      },
    },
  },
});
