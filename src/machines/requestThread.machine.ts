import { and, assertEvent, assign, enqueueActions, fromCallback, fromPromise, not, sendTo, setup } from 'xstate';
import type { LiveUpdate } from './liveUpdates.machine.ts';
import { liveUpdatesOf } from './system.ts';
import type { LiveUpdatesStatus, subscribeToLiveUpdates } from '../services/liveUpdates.ts';
import type { Message, RequestStatus } from '../contract/requests.ts';
import { reportError } from '../services/errorReporting.ts';
import { serverMessage, statusOf } from '../services/http.ts';
import { createMessage, fetchRequest } from '../services/requests.ts';
import type { ClientRequest } from '../services/threadRules.ts';
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
import {
  type UploadActor,
  type UploadFailure,
  type UploadReport,
  type UploadSnapshot,
  isUploading,
  uploadMachine,
  uploadedKey,
} from './upload.machine.ts';

/** The signed-in employee, who writes the messages of this thread. */
export interface ThreadAuthor {
  fullName: string;
  initials: string;
}

export interface RequestThreadInput {
  requestId: number;
  author: ThreadAuthor;
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
  /** The message's one optional file (its child actor, 'upload'): it goes with the message once uploaded. */
  upload: UploadActor;
  sendError: string | null;
  /** The message being sent, or that failed to send: see idempotentPost.ts. */
  pendingPost: PendingPost | null;
  liveStatus: LiveUpdatesStatus;
  /** By attachment key, for image attachments. */
  previews: Record<string, Preview>;
}

export type RequestThreadEvent =
  | { type: 'RETRY' }
  | { type: 'DRAFT_CHANGED'; text: string }
  | UploadReport
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

const isNotFound = (error: unknown) => statusOf(error) === 404 || statusOf(error) === 400;

/** The key of the file the message carries: none while it uploads, or when there is none. */
const attachmentKeyOf = (context: RequestThreadContext) => uploadedKey(context.upload.getSnapshot());

/** SPEC §8 message file upload error, while the message's upload has failed. */
export function uploadErrorOf(upload: UploadSnapshot): string | null {
  const { failure } = upload.context;
  if (!failure) return null;
  return uploadErrorMessage(failure.kind === 'http' ? uploadHttpFailureReason(failure) : uploadNetworkFailureReason(failure.error));
}

/** The image keys of the request's messages that have no preview yet. */
function imageKeysToLookUp(context: RequestThreadContext): string[] {
  const keys = (context.request?.messages ?? []).flatMap((message) => message.attachment_keys);
  return [...new Set(keys)].filter((key) => attachmentKind(key) === 'image' && !(key in context.previews));
}

/**
 * New messages and status changes of the thread's request as they happen, and refetches when the stream (re)opens,
 * from the live updates `subscribe` gives (the service's; the model tests pass the stream they drive).
 */
export function threadLiveUpdates(subscribe?: typeof subscribeToLiveUpdates) {
  return fromCallback<LiveUpdate, { requestId: number }>(({ input, system, self, receive, sendBack }) =>
    (subscribe ?? liveUpdatesOf({ system, self, receive }))(
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
    upload: uploadMachine,
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
    /** The message waits for its file's key; the employee may cancel the upload by removing the file. */
    isUploading: ({ context }) => isUploading(context.upload.getSnapshot()),
    isHttpFailure: ({ event }) => event.type === 'UPLOAD_FAILED' && event.failure.kind === 'http',
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
    /**
     * SPEC §8 'We have been notified': an upload answered outside 200-299 goes to error tracking (one that got no
     * answer at all, the upload has reported itself).
     */
    reportUploadHttpError: ({ event }) => {
      assertEvent(event, 'UPLOAD_FAILED');
      const { status, statusText } = event.failure as Extract<UploadFailure, { kind: 'http' }>;
      const error = new Error(`Message attachment upload failed with HTTP ${status} ${statusText}`.trim());
      void reportError(error, { component: 'RequestThread', feature: 'request messages' });
    },
    /** Sent again unchanged after a failure, the message keeps its Idempotency-Key: the server stores it once. */
    startSending: assign(({ context }) => ({
      outgoing: context.draft,
      sendError: null,
      pendingPost: nextPost(context.pendingPost, { body: context.draft, attachmentKey: attachmentKeyOf(context) }),
    })),
    /** Text typed while the message was on its way stays in the box. */
    clearSentMessage: assign(({ context }) => ({
      draft: context.draft === context.outgoing ? '' : context.draft,
      outgoing: null,
      pendingPost: null,
    })),
    /** The file went with the message: the uploader is empty for the next one. */
    emptyUploader: sendTo('upload', { type: 'RESET' }),
    storeSendError: assign((_, error: unknown) => ({
      outgoing: null,
      sendError: serverMessage(error),
    })),
  },
}).createMachine({
  id: 'requestThread',
  context: ({ input, spawn }) => ({
    ...input,
    request: null,
    loadFailure: null,
    draft: '',
    outgoing: null,
    upload: spawn('upload', { id: 'upload', input: { presign: { requestId: input.requestId } } }),
    sendError: null,
    pendingPost: null,
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
        UPLOAD_FAILED: { guard: 'isHttpFailure', actions: 'reportUploadHttpError' },
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
                SEND: { guard: and(['hasText', not('isUploading')]), target: 'sending' },
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
                  attachmentKey: attachmentKeyOf(context) ?? undefined,
                  idempotencyKey: context.pendingPost!.key,
                }),
                onDone: {
                  target: 'editing',
                  actions: [
                    'clearSentMessage',
                    'emptyUploader',
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
