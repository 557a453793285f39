import { assign, enqueueActions, fromPromise, setup } from 'xstate';
import { AccountError } from '../services/account.ts';
import { reportError } from '../services/errorReporting.ts';
import { SYSTEM_IDS, inSystem } from './system.ts';

/**
 * The statechart of a link the server e-mailed (unlock, e-mail confirmation): the call starts at once; the screen shows
 * loading, then success or failure. A failure shows the server's message, else the flow's fallback, and is reported
 * (errorReporting leaves out the messages of links that are simply wrong). A link that changes what the signed-in
 * user is (a confirmed address grants companies) `refreshesUser`: the system's session then fetches the user again.
 */
export function emailedLinkMachine<Id extends string>(flow: {
  id: Id;
  use: (token: string) => Promise<void>;
  fallbackError: string;
  refreshesUser?: boolean;
}) {
  return setup({
    types: {
      context: {} as { token: string; error: string | null },
      input: {} as { token: string },
    },
    actors: {
      use: fromPromise<void, { token: string }>(({ input }) => flow.use(input.token)),
    },
    actions: {
      reportFailure: (_, { error }: { error: unknown }) => void reportError(error, { feature: flow.id }),
      refreshUser: enqueueActions(({ enqueue }) => {
        if (flow.refreshesUser) enqueue.sendTo(inSystem(SYSTEM_IDS.session), { type: 'REFRESH_USER' });
      }),
    },
  }).createMachine({
    id: flow.id,
    context: ({ input }) => ({ token: input.token, error: null }),
    initial: 'loading',
    states: {
      loading: {
        invoke: {
          id: flow.id,
          src: 'use',
          input: ({ context }) => ({ token: context.token }),
          onDone: 'success',
          onError: {
            target: 'failure',
            actions: [
              assign({
                error: ({ event }) => (event.error instanceof AccountError ? event.error.message : flow.fallbackError),
              }),
              { type: 'reportFailure', params: ({ event }) => ({ error: event.error }) },
            ],
          },
        },
      },
      success: { type: 'final', entry: 'refreshUser' },
      failure: { type: 'final' },
    },
  });
}
