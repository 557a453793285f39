import { assertEvent, assign, enqueueActions, fromCallback, fromPromise, setup } from 'xstate';
import type { LiveUpdatesStatus } from '../services/liveUpdates.ts';
import { subscribeToLiveUpdates } from '../services/liveUpdates.ts';
import type { Message, RequestStatus } from '../contract/requests.ts';
import { reportError } from '../services/errorReporting.ts';
import { type ClientRequest, RequestsCallError, createMessage, fetchRequest } from '../services/requests.ts';
import {
  attachmentKind,
  uploadErrorMessage,
  uploadHttpFailureReason,
  uploadNetworkFailureReason,
  withMessage,
  withShownMessages,
} from '../services/threadRules.ts';
import { getExpiringUrl } from '../services/uploads.ts';
import { type PendingPost, nextPost } from './idempotentPost.ts';

/** The signed-in employee, who writes the messages of this thread. */
export interface ThreadAuthor {
  fullName: string;
  initials: string;
}

export interface RequestThreadInput {
  requestId: number;
  author: ThreadAuthor;
}

/** An uploaded file, ready to go with the next message. */
export interface Attachment {
  key: string;
  fileName: string;
}

/** An image attachment's preview: its expiring address, or a link instead when there is none. */
export type Preview = 'loading' | 'failed' | { url: string };

export type LoadFailure = 'notFound' | 'failed';

export interface RequestThreadContext extends RequestThreadInput {
  request: ClientRequest | null;
  loadFailure: LoadFailure | null;
  draft: string;
  /** What the message being sent says: the draft is cleared after sending only if it is still this text. */
  outgoing: string | null;
  attachment: Attachment | null;
  /** SPEC §8 message file upload error. */
  uploadError: string | null;
  sendError: string | null;
  /** The message being sent, or that failed to send: see idempotentPost.ts. */
  pendingPost: PendingPost | null;
  /** Messages sent from this screen: each one empties the message box, file uploader included. */
  messagesSent: number;
  liveStatus: LiveUpdatesStatus;
  /** By attachment key, for image attachments. */
  previews: Record<string, Preview>;
}

export type RequestThreadEvent =
  | { type: 'RETRY' }
  | { type: 'DRAFT_CHANGED'; text: string }
  /** The uploader began uploading a file (whatever the file: it checks files itself). */
  | { type: 'UPLOAD_STARTED' }
  /** The uploader's upload ended; how, it has said first (ATTACHED, UPLOAD_ERROR, UPLOAD_FAILED), if at all. */
  | { type: 'UPLOAD_SETTLED' }
  | { type: 'ATTACHED'; key: string; fileName: string }
  | { type: 'ATTACHMENT_CLEARED' }
  | { type: 'UPLOAD_ERROR'; status: number; statusText: string; responseText: string }
  | { type: 'UPLOAD_FAILED'; error: unknown }
  | { type: 'SEND' }
  | { type: 'MESSAGE_RECEIVED'; message: Message }
  | { type: 'REQUEST_UPDATED'; status: RequestStatus }
  /** Refetch the request: the live stream has just (re)opened, or it is down and this is a poll. */
  | { type: 'REFRESH' }
  | { type: 'LIVE_STATUS'; status: LiveUpdatesStatus }
  | { type: 'PREVIEW_READY'; key: string; url: string }
  | { type: 'PREVIEW_FAILED'; key: string };

export interface SendMessageInput {
  requestId: number;
  body: string;
  sourceName: string;
  attachmentKey?: string;
  idempotencyKey: string;
}

export const THREAD_TEXT = {
  notFound: "We can't find that request.",
  loadFailed: "We couldn't load this request. Please try again.",
  sendFailed: 'Your message was not sent',
} as const;

/** The failure of an invoked call, as guard and action parameters. */
const failureOf = ({ event }: { event: { error: unknown } }) => event.error;

const isNotFound = (error: unknown) =>
  error instanceof RequestsCallError && (error.status === 404 || error.status === 400);

/** The image keys of the request's messages that have no preview yet. */
function imageKeysToLookUp(context: RequestThreadContext): string[] {
  const keys = (context.request?.messages ?? []).flatMap((message) => message.attachment_keys);
  return [...new Set(keys)].filter((key) => attachmentKind(key) === 'image' && !(key in context.previews));
}

/**
 * New messages and status changes of the thread's request as they happen, and refetches when the stream (re)opens,
 * from the live updates `subscribe` gives (the service's; the model tests pass the stream they drive).
 */
export function threadLiveUpdates(subscribe: typeof subscribeToLiveUpdates = subscribeToLiveUpdates) {
  return fromCallback<RequestThreadEvent, { requestId: number }>(({ input, sendBack }) =>
    subscribe(
      (event) => {
        if (event.request_id !== input.requestId) return;
        if (event.type === 'message.created') sendBack({ type: 'MESSAGE_RECEIVED', message: event.message });
        if (event.type === 'request.updated') sendBack({ type: 'REQUEST_UPDATED', status: event.status });
      },
      {
        onPoll: () => sendBack({ type: 'REFRESH' }),
        onStatusChange: (status) => sendBack({ type: 'LIVE_STATUS', status }),
      },
    ),
  );
}

/**
 * SPEC §2 Request, §4 Message thread, §5 Request messages, §8: the request and its thread, live; the message box
 * (text, one optional image or PDF) and sending.
 */
export const requestThreadMachine = setup({
  types: {
    context: {} as RequestThreadContext,
    events: {} as RequestThreadEvent,
    input: {} as RequestThreadInput,
  },
  actors: {
    loadRequest: fromPromise<ClientRequest, { requestId: number }>(({ input }) => fetchRequest(input.requestId)),
    sendMessage: fromPromise<ClientRequest, SendMessageInput>(({ input }) =>
      createMessage(
        input.requestId,
        { body: input.body, sourceName: input.sourceName, attachmentKey: input.attachmentKey },
        input.idempotencyKey,
      ),
    ),
    liveUpdates: threadLiveUpdates(),
    lookUpPreview: fromCallback<RequestThreadEvent, { key: string }>(({ input, sendBack }) => {
      let cancelled = false;
      getExpiringUrl(input.key).then(
        (url) => !cancelled && sendBack({ type: 'PREVIEW_READY', key: input.key, url }),
        () => !cancelled && sendBack({ type: 'PREVIEW_FAILED', key: input.key }),
      );
      return () => {
        cancelled = true;
      };
    }),
  },
  guards: {
    hasText: ({ context }) => context.draft.trim() !== '',
    isNotFound: (_, error: unknown) => isNotFound(error),
  },
  actions: {
    storeRequest: assign(({ context }, request: ClientRequest) => ({ request: withShownMessages(request, context.request), loadFailure: null })),
    lookUpPreviews: enqueueActions(({ context, enqueue }) => {
      const keys = imageKeysToLookUp(context);
      if (keys.length === 0) return;
      for (const key of keys) enqueue.spawnChild('lookUpPreview', { id: `preview:${key}`, input: { key } });
      enqueue.assign({ previews: { ...context.previews, ...Object.fromEntries(keys.map((key) => [key, 'loading' as const])) } });
    }),
    storePreview: assign(({ context, event }) => {
      assertEvent(event, ['PREVIEW_READY', 'PREVIEW_FAILED']);
      const preview: Preview = event.type === 'PREVIEW_READY' ? { url: event.url } : 'failed';
      return { previews: { ...context.previews, [event.key]: preview } };
    }),
    addMessage: assign(({ context, event }) => {
      assertEvent(event, 'MESSAGE_RECEIVED');
      return { request: context.request && withMessage(context.request, event.message) };
    }),
    updateStatus: assign(({ context, event }) => {
      assertEvent(event, 'REQUEST_UPDATED');
      return { request: context.request && { ...context.request, status: event.status } };
    }),
    /** A reconnection attempt does not end the fallback: polling goes on until a stream is open again. */
    storeLiveStatus: assign(({ context, event }) => {
      assertEvent(event, 'LIVE_STATUS');
      const stillPolling = event.status === 'connecting' && context.liveStatus === 'polling';
      return { liveStatus: stillPolling ? context.liveStatus : event.status };
    }),
    storeDraft: assign(({ event }) => {
      assertEvent(event, 'DRAFT_CHANGED');
      return { draft: event.text };
    }),
    clearUploadError: assign({ uploadError: null }),
    storeAttachment: assign(({ event }) => {
      assertEvent(event, 'ATTACHED');
      return { attachment: { key: event.key, fileName: event.fileName } };
    }),
    forgetAttachment: assign({ attachment: null }),
    showUploadHttpError: assign(({ event }) => {
      assertEvent(event, 'UPLOAD_ERROR');
      return { uploadError: uploadErrorMessage(uploadHttpFailureReason(event)) };
    }),
    /** SPEC §8 'We have been notified': an upload answered outside 200-299 goes to error tracking. */
    reportUploadHttpError: ({ event }) => {
      assertEvent(event, 'UPLOAD_ERROR');
      const error = new Error(`Message attachment upload failed with HTTP ${event.status} ${event.statusText}`.trim());
      void reportError(error, { component: 'RequestThread', feature: 'request messages' });
    },
    /** No answer at all: the uploader has already reported it. */
    showUploadFailure: assign(({ event }) => {
      assertEvent(event, 'UPLOAD_FAILED');
      return { uploadError: uploadErrorMessage(uploadNetworkFailureReason(event.error)) };
    }),
    /** Sent again unchanged after a failure, the message keeps its Idempotency-Key: the server stores it once. */
    startSending: assign(({ context }) => ({
      outgoing: context.draft,
      sendError: null,
      uploadError: null,
      pendingPost: nextPost(context.pendingPost, { body: context.draft, attachmentKey: context.attachment?.key ?? null }),
    })),
    /** Text typed while the message was on its way stays in the box. */
    clearSentMessage: assign(({ context }) => ({
      draft: context.draft === context.outgoing ? '' : context.draft,
      outgoing: null,
      attachment: null,
      pendingPost: null,
      messagesSent: context.messagesSent + 1,
    })),
    storeSendError: assign((_, error: unknown) => ({
      outgoing: null,
      sendError: error instanceof Error && error.message ? error.message : 'An unexpected error occurred',
    })),
  },
}).createMachine({
  id: 'requestThread',
  context: ({ input }) => ({
    ...input,
    request: null,
    loadFailure: null,
    draft: '',
    outgoing: null,
    attachment: null,
    uploadError: null,
    sendError: null,
    pendingPost: null,
    messagesSent: 0,
    liveStatus: 'connecting',
    previews: {},
  }),
  initial: 'loading',
  states: {
    /** SPEC §2: on entry the screen fetches the request. */
    loading: {
      invoke: {
        id: 'loadRequest',
        src: 'loadRequest',
        input: ({ context }) => ({ requestId: context.requestId }),
        onDone: {
          target: 'ready',
          actions: [{ type: 'storeRequest', params: ({ event }) => event.output }, 'lookUpPreviews'],
        },
        onError: [
          {
            guard: { type: 'isNotFound', params: failureOf },
            target: 'failed',
            actions: assign({ loadFailure: 'notFound' }),
          },
          { target: 'failed', actions: assign({ loadFailure: 'failed' }) },
        ],
      },
    },
    failed: {
      on: { RETRY: { target: 'loading' } },
    },
    ready: {
      type: 'parallel',
      invoke: { src: 'liveUpdates', input: ({ context }) => ({ requestId: context.requestId }) },
      on: {
        MESSAGE_RECEIVED: { actions: ['addMessage', 'lookUpPreviews'] },
        REQUEST_UPDATED: { actions: 'updateStatus' },
        LIVE_STATUS: { actions: 'storeLiveStatus' },
        PREVIEW_READY: { actions: 'storePreview' },
        PREVIEW_FAILED: { actions: 'storePreview' },
        DRAFT_CHANGED: { actions: 'storeDraft' },
      },
      states: {
        /** Catching up with the server: after the live stream (re)opens, and on every poll while it is down. */
        sync: {
          initial: 'upToDate',
          states: {
            upToDate: {
              on: { REFRESH: { target: 'refreshing' } },
            },
            refreshing: {
              invoke: {
                id: 'refreshRequest',
                src: 'loadRequest',
                input: ({ context }) => ({ requestId: context.requestId }),
                onDone: {
                  target: 'upToDate',
                  actions: [{ type: 'storeRequest', params: ({ event }) => event.output }, 'lookUpPreviews'],
                },
                // The next poll or reconnection tries again; the thread on screen stays as it is.
                onError: { target: 'upToDate' },
              },
            },
          },
        },
        composer: {
          initial: 'editing',
          states: {
            editing: {
              on: {
                // A new upload replaces the last one's error; an uploaded file it replaces was cleared before.
                UPLOAD_STARTED: { target: 'attaching', actions: 'clearUploadError' },
                ATTACHMENT_CLEARED: { actions: 'forgetAttachment' },
                SEND: { guard: 'hasText', target: 'sending' },
              },
            },
            /**
             * A file is on its way to storage; the message waits for its key (Send is off) and the employee may
             * remove the file, which cancels the upload. The uploader tells how an upload ended before it settles.
             */
            attaching: {
              on: {
                ATTACHED: { target: 'editing', actions: 'storeAttachment' },
                UPLOAD_ERROR: { target: 'editing', actions: ['showUploadHttpError', 'reportUploadHttpError'] },
                UPLOAD_FAILED: { target: 'editing', actions: 'showUploadFailure' },
                // Removed, replaced or refused on the way: nothing was uploaded.
                UPLOAD_SETTLED: { target: 'editing' },
              },
            },
            sending: {
              tags: 'sending',
              entry: 'startSending',
              invoke: {
                id: 'sendMessage',
                src: 'sendMessage',
                input: ({ context }) => ({
                  requestId: context.requestId,
                  body: context.draft,
                  sourceName: context.author.fullName,
                  attachmentKey: context.attachment?.key,
                  idempotencyKey: context.pendingPost!.key,
                }),
                onDone: {
                  target: 'editing',
                  actions: [
                    'clearSentMessage',
                    { type: 'storeRequest', params: ({ event }) => event.output },
                    'lookUpPreviews',
                  ],
                },
                onError: {
                  target: 'editing',
                  actions: { type: 'storeSendError', params: failureOf },
                },
              },
            },
          },
        },
      },
    },
  },
});
