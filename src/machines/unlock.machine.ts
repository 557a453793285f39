import { assign, fromPromise, setup } from 'xstate';
import { ACCOUNT_MESSAGES, AccountError, unlockAccount } from '../services/account.ts';
import { reportError } from '../services/errorReporting.ts';

/** Unlock from an e-mailed link: the call starts at once; the screen shows loading, then success or failure. */
export const unlockMachine = setup({
  types: {
    context: {} as { unlockToken: string; error: string | null },
    input: {} as { unlockToken: string },
  },
  actors: {
    unlock: fromPromise<void, { unlockToken: string }>(({ input }) => unlockAccount(input.unlockToken)),
  },
  actions: {
    // errorReporting leaves out 'Invalid unlock token.' (SPEC §8): a wrong link is not a defect.
    reportFailure: (_, { error }: { error: unknown }) => void reportError(error, { feature: 'unlock' }),
  },
}).createMachine({
  id: 'unlock',
  context: ({ input }) => ({ unlockToken: input.unlockToken, error: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'unlock',
        src: 'unlock',
        input: ({ context }) => ({ unlockToken: context.unlockToken }),
        onDone: 'success',
        onError: {
          target: 'failure',
          actions: [
            assign({
              error: ({ event }) => (event.error instanceof AccountError ? event.error.message : ACCOUNT_MESSAGES.unlockFailed),
            }),
            { type: 'reportFailure', params: ({ event }) => ({ error: event.error }) },
          ],
        },
      },
    },
    success: { type: 'final' },
    failure: { type: 'final' },
  },
});
