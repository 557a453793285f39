import { assign, fromPromise, setup } from 'xstate';
import { getExpiringUrl } from '../services/uploads.ts';
import { serverMessage } from '../services/http.ts';
import { leaveFor } from '../services/navigation.ts';

/**
 * SPEC §2 Attachment route: the URL-decoded file key is looked up for a short-lived file address and the browser
 * is sent there; the page itself never renders unless the lookup fails.
 */
export const attachmentMachine = setup({
  types: {
    input: {} as { fileKey: string },
    context: {} as { fileKey: string; error: string | null },
  },
  actors: {
    lookUpFileAddress: fromPromise<string, { key: string }>(({ input }) => getExpiringUrl(input.key)),
  },
  actions: {
    goToFile: (_, address: string) => leaveFor(address),
  },
}).createMachine({
  id: 'attachment',
  context: ({ input }) => ({ fileKey: input.fileKey, error: null }),
  initial: 'lookingUp',
  states: {
    lookingUp: {
      invoke: {
        id: 'lookUpFileAddress',
        src: 'lookUpFileAddress',
        input: ({ context }) => ({ key: safeDecode(context.fileKey) }),
        onDone: { target: 'leaving', actions: { type: 'goToFile', params: ({ event }) => event.output } },
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => serverMessage(event.error, 'We could not open that file.') }),
        },
      },
    },
    leaving: { type: 'final' },
    failed: {},
  },
});

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
