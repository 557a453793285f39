import { assign, fromPromise, setup } from 'xstate';
import { getExpiringUrl } from '../services/uploads.ts';

/**
 * One image attachment's thumbnail in the console's thread (issue 32 point 2: images show as thumbnails for both
 * sides): its short-lived address is looked up, then the image shows; without an address, or when the image itself
 * cannot be shown (its address expired or broke), it is offered as a link instead.
 */
export const imagePreviewMachine = setup({
  types: {
    input: {} as { fileKey: string },
    context: {} as { fileKey: string; url: string | null },
    events: {} as { type: 'IMAGE_FAILED' },
  },
  actors: {
    lookUpPreview: fromPromise<string, { key: string }>(({ input }) => getExpiringUrl(input.key)),
  },
}).createMachine({
  id: 'imagePreview',
  context: ({ input }) => ({ fileKey: input.fileKey, url: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'lookUpPreview',
        src: 'lookUpPreview',
        input: ({ context }) => ({ key: context.fileKey }),
        onDone: { target: 'shown', actions: assign({ url: ({ event }) => event.output }) },
        onError: { target: 'failed' },
      },
    },
    shown: {
      on: { IMAGE_FAILED: { target: 'failed', actions: assign({ url: null }) } },
    },
    failed: {},
  },
});
