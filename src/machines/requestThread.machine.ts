import { and, assertEvent, assign, enqueueActions, fromCallback, fromPromise, not, sendTo, setup } from 'xstate';
import type { LiveUpdate } from './liveUpdates.machine.ts';
import { liveUpdatesOf, theApp } from './system.ts';
import type { LiveUpdatesStatus, subscribeToLiveUpdates } from '../services/liveUpdates.ts';
import { MESSAGE_BODY_MAX, type Message, type RequestStatus } from '../contract/requests.ts';
import { reportError } from '../services/errorReporting.ts';
import { refusalInWords, statusOf } from '../services/http.ts';
import { createMessage, fetchOlderMessages, fetchRequest } from '../services/requests.ts';
import type { ClientRequest } from '../services/threadRules.ts';
import {
  attachmentKind,
  oldestMessageId,
  uploadErrorMessage,
  uploadHttpFailureReason,
  uploadNetworkFailureReason,
  withMessage,
  withOlderMessages,
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

/**
 * The employee's message on its way, or that failed to go: shown at the end of the thread with its state until the
 * server's thread holds it. Its post keeps one Idempotency-Key through every retry (idempotentPost.ts).
 */
export interface OutgoingMessage {
  body: string;
  /** The key of the file it carries (the uploader is emptied for the next message as this one goes). */
  attachmentKey: string | null;
  post: PendingPost;
  /** The newest message id of the thread when it left: a message of mine with a greater id and its content is it. */
  afterMessageId: number;
  /** Why the last attempt failed, in words; null while it is on its way. */
  error: string | null;
}

/** An image attachment's preview: its expiring address, or a link instead when there is none. */
export type Preview = 'loading' | 'failed' | { url: string };

export type LoadFailure = 'notFound' | 'failed';

export interface RequestThreadContext extends RequestThreadInput {
  request: ClientRequest | null;
  loadFailure: LoadFailure | null;
  draft: string;
  /** The message being sent, or that failed to send. */
  outgoing: OutgoingMessage | null;
  /** The message's one optional file (its child actor, 'upload'): it goes with the message once uploaded. */
  upload: UploadActor;
  liveStatus: LiveUpdatesStatus;
  /** By attachment key, for image attachments. */
  previews: Record<string, Preview>;
  /** The newest message known read by the employee (issue 32): a concierge's message after it is unread. */
  readUpTo: number;
}

export type RequestThreadEvent =
  | { type: 'RETRY' }
  | { type: 'DRAFT_CHANGED'; text: string }
  | UploadReport
  | { type: 'SEND' }
  /** Send the message that failed again, under the same Idempotency-Key. */
  | { type: 'RETRY_SEND' }
  /** Give up the message that failed: its text goes back into the message box, to be edited. */
  | { type: 'DISCARD_FAILED' }
  | { type: 'MESSAGE_RECEIVED'; message: Message }
  | { type: 'REQUEST_UPDATED'; status: RequestStatus }
  /** Staff have read the thread up to this message. */
  | { type: 'SEEN_BY_STAFF'; messageId: number }
  /** Refetch the request: the live stream has just (re)opened, or it is down and this is a poll. */
  | { type: 'REFRESH' }
  | { type: 'LIVE_STATUS'; status: LiveUpdatesStatus }
  | { type: 'PREVIEW_READY'; key: string; url: string }
  | { type: 'PREVIEW_FAILED'; key: string }
  /** The end of the thread is in view, in the visible tab: the employee has seen every message. */
  | { type: 'END_OF_THREAD_SEEN' }
  /** The start of what is loaded came into view (scrolled up), or 'Load earlier messages' was pressed (issue 31). */
  | { type: 'LOAD_OLDER' };

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
  loadingOlder: 'Loading earlier messages…',
  olderFailed: "We couldn't load the earlier messages.",
  loadOlder: 'Load earlier messages',
} as const;

/** A page of a long thread's older messages, as GET /api/v1/requests/{id}/messages answers it. */
type OlderMessages = Awaited<ReturnType<typeof fetchOlderMessages>>;

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

/** The id of the request's newest message (ids grow with time; read markers compare them), 0 for none. */
const newestMessageId = (request: ClientRequest) => Math.max(0, ...request.messages.map((message) => message.id));

/** The newest message of the request that its employee has read: all of it, unless the server counts replies unread. */
function readUpToOf(request: ClientRequest, before: number): number {
  return Math.max(before, (request.unread_count ?? 0) > 0 ? 0 : newestMessageId(request));
}

/** The newest message, when the thread has a concierge's message after the employee's last read. */
function unseenReply({ request, readUpTo }: RequestThreadContext): number | null {
  if (!request?.messages.some((message) => message.source === 'life_concierge' && message.id > readUpTo)) return null;
  return newestMessageId(request);
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
        if (event.type === 'request.seen') sendBack({ type: 'SEEN_BY_STAFF', messageId: event.seen_by_staff_message_id });
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
    loadOlderMessages: fromPromise<OlderMessages, { requestId: number; before: number }>(({ input }) =>
      fetchOlderMessages(input.requestId, input.before),
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
    /** Text, or a file alone (an employee's message may be a photo without words). */
    hasContent: ({ context }) => context.draft.trim() !== '' || attachmentKeyOf(context) !== null,
    isWithinLimit: ({ context }) => context.draft.trim().length <= MESSAGE_BODY_MAX,
    /** The message waits for its file's key; the employee may cancel the upload by removing the file. */
    isUploading: ({ context }) => isUploading(context.upload.getSnapshot()),
    isHttpFailure: ({ event }) => event.type === 'UPLOAD_FAILED' && event.failure.kind === 'http',
    isNotFound: (_, error: unknown) => isNotFound(error),
    hasUnseenReply: ({ context }) => unseenReply(context) !== null,
    hasOlderMessages: ({ context }) => context.request?.has_older_messages === true && oldestMessageId(context.request) !== null,
  },
  actions: {
    storeRequest: assign(({ context }, request: ClientRequest) => ({
      request: withShownMessages(request, context.request),
      loadFailure: null,
      readUpTo: readUpToOf(request, context.readUpTo),
    })),
    /** The employee's unread replies (unreadReplies.machine.ts, through the app that loads them) report the read. */
    reportRead: sendTo(theApp, ({ context }) => ({
      type: 'READ_UP_TO' as const,
      requestId: context.requestId,
      messageId: unseenReply(context)!,
    })),
    markSeen: assign(({ context }) => ({ readUpTo: unseenReply(context)! })),
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
    storeOlderMessages: assign(({ context }, page: OlderMessages) => ({
      request: context.request && withOlderMessages(context.request, page),
    })),
    addMessage: assign(({ context, event }) => {
      assertEvent(event, 'MESSAGE_RECEIVED');
      return { request: context.request && withMessage(context.request, event.message) };
    }),
    updateStatus: assign(({ context, event }) => {
      assertEvent(event, 'REQUEST_UPDATED');
      return { request: context.request && { ...context.request, status: event.status } };
    }),
    storeSeen: assign(({ context, event }) => {
      assertEvent(event, 'SEEN_BY_STAFF');
      const known = context.request?.seen_by_staff_message_id ?? null;
      // Announcements can arrive out of order with a refetch: how far staff have read only grows.
      const seen = known === null ? event.messageId : Math.max(known, event.messageId);
      return { request: context.request && { ...context.request, seen_by_staff_message_id: seen } };
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
    /** The message leaves the box for the thread, where it shows as sending; the box is free for the next one. */
    startSending: assign(({ context }) => {
      const body = context.draft.trim();
      const attachmentKey = attachmentKeyOf(context);
      const outgoing: OutgoingMessage = {
        body,
        attachmentKey,
        post: nextPost(null, { body, attachmentKey }),
        afterMessageId: Math.max(0, ...(context.request?.messages ?? []).map((message) => message.id)),
        error: null,
      };
      return { outgoing, draft: '' };
    }),
    /** The file went with the message: the uploader is empty for the next one. */
    emptyUploader: sendTo('upload', { type: 'RESET' }),
    /** Sent again, the message keeps its Idempotency-Key: stored already although its answer was lost, it is not stored twice. */
    clearSendError: assign(({ context }) => ({ outgoing: context.outgoing && { ...context.outgoing, error: null } })),
    clearOutgoing: assign({ outgoing: null }),
    storeSendError: assign(({ context }, error: unknown) => ({
      outgoing: context.outgoing && { ...context.outgoing, error: refusalInWords(error) },
    })),
    /** Nothing is lost: the failed text comes first, then whatever was typed since. */
    restoreFailedText: assign(({ context }) => ({
      draft: [context.outgoing?.body ?? '', context.draft].filter((text) => text.trim() !== '').join('\n\n'),
      outgoing: null,
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
    liveStatus: 'connecting',
    previews: {},
    readUpTo: 0,
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
        SEEN_BY_STAFF: { actions: 'storeSeen' },
        LIVE_STATUS: { actions: 'storeLiveStatus' },
        PREVIEW_READY: { actions: 'storePreview' },
        PREVIEW_FAILED: { actions: 'storePreview' },
        DRAFT_CHANGED: { actions: 'storeDraft' },
        UPLOAD_FAILED: { guard: 'isHttpFailure', actions: 'reportUploadHttpError' },
        END_OF_THREAD_SEEN: { guard: 'hasUnseenReply', actions: ['reportRead', 'markSeen'] },
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
        /**
         * Issue 31: a long thread opens at its newest page; older pages load one at a time as the employee scrolls up
         * to the start of what is loaded (the view keeps their place on the page).
         */
        history: {
          initial: 'idle',
          states: {
            idle: {
              on: { LOAD_OLDER: { guard: 'hasOlderMessages', target: 'loadingOlder' } },
            },
            loadingOlder: {
              invoke: {
                id: 'loadOlderMessages',
                src: 'loadOlderMessages',
                input: ({ context }) => ({ requestId: context.requestId, before: oldestMessageId(context.request!)! }),
                onDone: {
                  target: 'idle',
                  actions: [{ type: 'storeOlderMessages', params: ({ event }) => event.output }, 'lookUpPreviews'],
                },
                onError: { target: 'olderFailed' },
              },
            },
            /** Said above the thread, with a button to try again; scrolling up again tries too. */
            olderFailed: {
              on: { LOAD_OLDER: { guard: 'hasOlderMessages', target: 'loadingOlder' } },
            },
          },
        },
        composer: {
          initial: 'editing',
          states: {
            editing: {
              on: {
                SEND: {
                  guard: and(['hasContent', 'isWithinLimit', not('isUploading')]),
                  target: 'sending',
                  actions: ['startSending', 'emptyUploader'],
                },
              },
            },
            /** One message goes at a time: the box takes the next one's text meanwhile. */
            sending: {
              tags: 'sending',
              invoke: {
                id: 'sendMessage',
                src: 'sendMessage',
                input: ({ context }) => {
                  const outgoing = context.outgoing!;
                  return {
                    requestId: context.requestId,
                    body: outgoing.body,
                    sourceName: context.author.fullName,
                    attachmentKey: outgoing.attachmentKey ?? undefined,
                    idempotencyKey: outgoing.post.key,
                  };
                },
                onDone: {
                  target: 'editing',
                  actions: ['clearOutgoing', { type: 'storeRequest', params: ({ event }) => event.output }, 'lookUpPreviews'],
                },
                onError: {
                  target: 'failed',
                  actions: { type: 'storeSendError', params: failureOf },
                },
              },
            },
            /** The message stays in the thread, marked as not sent, until it is sent again or given up. */
            failed: {
              on: {
                RETRY_SEND: { target: 'sending', actions: 'clearSendError' },
                DISCARD_FAILED: { target: 'editing', actions: 'restoreFailedText' },
              },
            },
          },
        },
      },
    },
  },
});
