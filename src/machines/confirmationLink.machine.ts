import { assign, fromPromise, setup } from 'xstate';
import { accountErrorMessage, requestConfirmationLink } from '../services/account.ts';
import { EMAIL_CONFIRMATION_MESSAGES } from '../services/account.messages.ts';

/**
 * 'Send the link again' on Benefits & Offers while the address is unconfirmed (issue 9 point 9): each press asks the
 * server for a new link; the notice says it was sent, or why not (e.g. too many links this hour), and may be pressed
 * again.
 */
export const confirmationLinkMachine = setup({
  types: {
    context: {} as { error: string | null },
    events: {} as { type: 'SEND' },
  },
  actors: {
    requestLink: fromPromise<void>(() => requestConfirmationLink()),
  },
}).createMachine({
  id: 'confirmationLink',
  context: { error: null },
  initial: 'idle',
  states: {
    idle: { on: { SEND: 'sending' } },
    sending: {
      tags: ['busy'],
      entry: assign({ error: null }),
      invoke: {
        id: 'requestLink',
        src: 'requestLink',
        onDone: 'sent',
        onError: {
          target: 'failed',
          actions: assign({
            error: ({ event }) => accountErrorMessage(event.error, EMAIL_CONFIRMATION_MESSAGES.linkRequestFailed),
          }),
        },
      },
    },
    sent: { on: { SEND: 'sending' } },
    failed: { on: { SEND: 'sending' } },
  },
});
