import { type SnapshotFrom, and, assertEvent, assign, enqueueActions, fromCallback, fromPromise, not, sendTo, setup } from 'xstate';
import { type ConsoleQueue, type ConsoleRequest, STATUS_TRANSITIONS, type StaffMember } from '../contract/console.ts';
import type { LiveEvent } from '../contract/events.ts';
import { MESSAGE_BODY_MAX, type RequestStatus } from '../contract/requests.ts';
import {
  addInternalNote,
  assignRequest,
  changeRequestStatus,
  claimRequest,
  fetchConsoleRequest,
  listStaff,
  markRequestRead,
  previewReply,
  replyToRequest,
  setWaitingOnEmployee,
} from '../services/console.ts';
import { reportError } from '../services/errorReporting.ts';
import { serverMessage, statusOf } from '../services/http.ts';
import { type PendingPost, nextPost } from './idempotentPost.ts';
import type { LiveUpdate } from './liveUpdates.machine.ts';
import { liveUpdatesOf, theParent } from './system.ts';
import { type UploadActor, type UploadReport, isUploading, uploadMachine, uploadedKey } from './upload.machine.ts';

export const REQUEST_LOAD_ERROR = "We couldn't load this request. Please try again.";
export const REQUEST_NOT_FOUND = 'This request does not exist (or no longer does).';
export const ACTION_FAILED = 'That did not work. Please try again.';
export const PREVIEW_FAILED = "The preview couldn't be made. Your text is unchanged.";

/** The two things a concierge writes: a reply the employee sees, or a note only staff see. */
export type Composer = 'reply' | 'note';

export interface ConsoleRequestContext {
  requestId: number;
  request: ConsoleRequest | null;
  /** Everyone the request can be assigned to. */
  staff: StaffMember[];
  loadError: string | null;
  /** The last claim, assignment or status change that failed, in the server's words where it gave any. */
  actionError: string | null;
  sendError: string | null;
  /** The reply or note being sent, or that failed to send: see idempotentPost.ts. */
  pendingPost: PendingPost | null;
  composer: Composer;
  replyText: string;
  noteText: string;
  /** The reply's one optional file (its child actor, 'upload'): it goes with the reply once uploaded. */
  upload: UploadActor;
  /** The sanitised HTML of the active composer's text, as the server would store it. */
  previewHtml: string | null;
  previewError: string | null;
  /** Live news arrived while another call was under way: the thread is fetched again once it ends. */
  stale: boolean;
}

export interface ConsoleRequestInput {
  requestId: number;
}

export type ConsoleRequestEvent =
  | { type: 'RETRY' }
  /** Assign to me (an In Queue request goes In Progress). */
  | { type: 'CLAIM' }
  | { type: 'ASSIGN'; assigneeId: number }
  | { type: 'CHANGE_STATUS'; status: RequestStatus }
  /** Issue 28: the request waits on the employee (its turnaround clock stops until they write), or no longer does. */
  | { type: 'SET_WAITING'; waiting: boolean }
  | { type: 'SELECT_COMPOSER'; composer: Composer }
  | { type: 'EDIT'; text: string }
  | UploadReport
  | { type: 'SHOW_PREVIEW' }
  | { type: 'SHOW_EDITOR' }
  | { type: 'SEND' }
  /** Passed on from the console's live stream. */
  | { type: 'LIVE_EVENT'; event: LiveEvent }
  | { type: 'LIVE_POLL' };

export interface OpenedRequest {
  request: ConsoleRequest;
  staff: StaffMember[];
}

/**
 * The request as it now is, marked read when it has unread employee messages: opening it (or watching a new
 * message arrive) is reading it. A failed read marker only leaves the message counted as unread.
 */
export async function fetchAndMarkRead(requestId: number): Promise<ConsoleRequest> {
  const request = await fetchConsoleRequest(requestId);
  if (request.unread_count === 0) return request;
  try {
    await markRequestRead(requestId);
    return { ...request, unread_count: 0 };
  } catch (error) {
    void reportError(error, { component: 'ConsoleRequest', feature: 'console' });
    return request;
  }
}

export async function openRequest(requestId: number): Promise<OpenedRequest> {
  const [request, staff] = await Promise.all([fetchAndMarkRead(requestId), listStaff()]);
  return { request, staff };
}

export interface SendInput {
  requestId: number;
  composer: Composer;
  text: string;
  attachmentKey: string | null;
  idempotencyKey: string;
}

export function send({ requestId, composer, text, attachmentKey, idempotencyKey }: SendInput): Promise<ConsoleRequest> {
  return composer === 'note'
    ? addInternalNote(requestId, text, idempotencyKey)
    : replyToRequest(requestId, { bodyMarkdown: text, attachmentKey: attachmentKey ?? undefined }, idempotencyKey);
}

/** What the active composer would send. */
function outgoing(context: ConsoleRequestContext) {
  return {
    composer: context.composer,
    text: composerText(context).trim(),
    attachmentKey: context.composer === 'reply' ? uploadedKey(context.upload.getSnapshot()) : null,
  };
}

/** What the concierge has written in the active composer. */
export function composerText({ composer, replyText, noteText }: Pick<ConsoleRequestContext, 'composer' | 'replyText' | 'noteText'>): string {
  return composer === 'reply' ? replyText : noteText;
}

function hasSendableText(context: ConsoleRequestContext): boolean {
  const text = composerText(context).trim();
  return text.length > 0 && text.length <= MESSAGE_BODY_MAX;
}

/** Whether a live event says something this view does not show yet. */
export function isNewsFor(request: ConsoleRequest | null, event: LiveEvent): boolean {
  if (!request || event.request_id !== request.id) return false;
  switch (event.type) {
    case 'message.created':
      return !request.thread.some((entry) => entry.kind === 'message' && entry.id === event.message.id);
    case 'note.created':
      return !request.thread.some((entry) => entry.kind === 'note' && entry.id === event.note_id);
    case 'request.updated':
      return event.status !== request.status || event.updated_at !== request.updated_at;
    // How far staff have read is the employee's news (the console shows each staff member their own unread), and an
    // employee's own reading is never sent to staff streams.
    case 'request.seen':
    case 'request.read':
      return false;
    // A target of this request turned at risk or breached: its turnaround shows anew.
    case 'sla.alert':
      return true;
  }
}

/** The server's refusal (its message, else the generic one); the fallback when it could not be reached. */
const errorMessageOf = (error: unknown, fallback: string) => (statusOf(error) === null ? fallback : serverMessage(error));

const requestIdInput = ({ context }: { context: ConsoleRequestContext }) => context.requestId;
const STORE_CHANGE = [{ type: 'store', params: ({ event }: { event: { output: ConsoleRequest } }) => event.output }, 'announceChange'] as const;
const errorOf = ({ event }: { event: { error: unknown } }) => event.error;
const ACTION_FAILURE = { target: 'idle', actions: { type: 'showActionError', params: errorOf } } as const;
/** Live news while a call is under way is fetched once the call ends. */
const NOTE_NEWS_WHILE_BUSY = {
  LIVE_EVENT: { guard: 'isNews', actions: 'markStale' },
  LIVE_POLL: { actions: 'markStale' },
} as const;

/** What the concierge asks of the request: one call at a time. */
const COMMANDS = {
  CLAIM: { target: 'claiming', actions: 'clearActionError' },
  ASSIGN: { target: 'assigning', actions: 'clearActionError' },
  CHANGE_STATUS: { guard: 'isAllowedStatus', target: 'changingStatus', actions: 'clearActionError' },
  SET_WAITING: { guard: 'canSetWaiting', target: 'settingWaiting', actions: 'clearActionError' },
  SEND: {
    guard: and(['canSend', not('isReplyAwaitingFile')]),
    target: 'sending',
    actions: ['clearSendError', 'preparePost'],
  },
} as const;
/** The same, taken over a refresh in the background, which is made again once the command is done. */
const COMMANDS_OVER_A_REFRESH = {
  CLAIM: { ...COMMANDS.CLAIM, actions: ['markStale', COMMANDS.CLAIM.actions] },
  ASSIGN: { ...COMMANDS.ASSIGN, actions: ['markStale', COMMANDS.ASSIGN.actions] },
  CHANGE_STATUS: { ...COMMANDS.CHANGE_STATUS, actions: ['markStale', COMMANDS.CHANGE_STATUS.actions] },
  SET_WAITING: { ...COMMANDS.SET_WAITING, actions: ['markStale', COMMANDS.SET_WAITING.actions] },
  SEND: { ...COMMANDS.SEND, actions: ['markStale', ...COMMANDS.SEND.actions] },
} as const;

/**
 * One request in the console: its employee, survey answers and thread (messages, internal notes, history); claim,
 * assign and status changes (open -> in_progress -> closed, and reopen); a Markdown reply with one file, or an
 * internal note, each with a server-rendered preview. Opening it marks it read; live news refreshes it in place.
 */
export const consoleRequestMachine = setup({
  types: {
    context: {} as ConsoleRequestContext,
    events: {} as ConsoleRequestEvent,
    input: {} as ConsoleRequestInput,
  },
  actors: {
    upload: uploadMachine,
    openRequest: fromPromise<OpenedRequest, number>(({ input }) => openRequest(input)),
    refresh: fromPromise<ConsoleRequest, number>(({ input }) => fetchAndMarkRead(input)),
    claim: fromPromise<ConsoleRequest, number>(({ input }) => claimRequest(input)),
    assign: fromPromise<ConsoleRequest, { requestId: number; assigneeId: number }>(({ input }) =>
      assignRequest(input.requestId, input.assigneeId),
    ),
    changeStatus: fromPromise<ConsoleRequest, { requestId: number; status: RequestStatus }>(({ input }) =>
      changeRequestStatus(input.requestId, input.status),
    ),
    setWaiting: fromPromise<ConsoleRequest, { requestId: number; waiting: boolean }>(({ input }) =>
      setWaitingOnEmployee(input.requestId, input.waiting),
    ),
    send: fromPromise<ConsoleRequest, SendInput>(({ input }) => send(input)),
    preview: fromPromise<string, string>(({ input }) => previewReply(input)),
    /** The system's live stream, which the console's queue shares: its news and polls mark the request stale. */
    liveUpdates: fromCallback<LiveUpdate>(({ system, self, receive, sendBack }) =>
      liveUpdatesOf({ system, self, receive })((event) => sendBack({ type: 'LIVE_EVENT', event }), {
        onPoll: () => sendBack({ type: 'LIVE_POLL' }),
      }),
    ),
  },
  guards: {
    canSend: ({ context }) => hasSendableText(context),
    /** A reply waits for its file to finish uploading (or to be removed); a note carries no file. */
    isReplyAwaitingFile: ({ context }) => context.composer === 'reply' && isUploading(context.upload.getSnapshot()),
    hasText: ({ context }) => composerText(context).trim().length > 0,
    isAllowedStatus: ({ context, event }) =>
      event.type === 'CHANGE_STATUS' &&
      context.request !== null &&
      STATUS_TRANSITIONS[context.request.status].includes(event.status),
    /** A request with a running turnaround clock, asked to change whether it waits on the employee. */
    canSetWaiting: ({ context, event }) =>
      event.type === 'SET_WAITING' &&
      context.request?.service_level != null &&
      context.request.status !== 'closed' &&
      context.request.service_level.waiting_on_employee !== event.waiting,
    isNews: ({ context, event }) => event.type === 'LIVE_EVENT' && isNewsFor(context.request, event.event),
    isStale: ({ context }) => context.stale,
  },
  actions: {
    storeOpened: assign((_, opened: OpenedRequest) => ({ request: opened.request, staff: opened.staff, loadError: null })),
    store: assign((_, request: ConsoleRequest) => ({ request })),
    showLoadError: assign((_, error: unknown) => ({
      loadError: statusOf(error) === 404 ? REQUEST_NOT_FOUND : REQUEST_LOAD_ERROR,
    })),
    clearActionError: assign({ actionError: null }),
    showActionError: assign((_, error: unknown) => ({ actionError: errorMessageOf(error, ACTION_FAILED) })),
    showSendError: assign((_, error: unknown) => ({ sendError: errorMessageOf(error, ACTION_FAILED) })),
    clearSendError: assign({ sendError: null }),
    /** The reply or note keeps its Idempotency-Key until it is stored: sent again unchanged, it is the same post. */
    preparePost: assign(({ context }) => ({ pendingPost: nextPost(context.pendingPost, outgoing(context)) })),
    selectComposer: assign(({ event }) => {
      assertEvent(event, 'SELECT_COMPOSER');
      return { composer: event.composer, previewHtml: null, previewError: null, sendError: null };
    }),
    edit: assign(({ context, event }) => {
      assertEvent(event, 'EDIT');
      return context.composer === 'reply' ? { replyText: event.text } : { noteText: event.text };
    }),
    showPreview: assign((_, html: string) => ({ previewHtml: html, previewError: null })),
    showPreviewError: assign({ previewHtml: null, previewError: PREVIEW_FAILED }),
    clearPreview: assign({ previewHtml: null, previewError: null }),
    /** The sent text (and the reply's file) are gone from the composer. */
    clearSent: assign(({ context }) =>
      context.composer === 'reply'
        ? { replyText: '', previewHtml: null, previewError: null, pendingPost: null }
        : { noteText: '', previewHtml: null, previewError: null, pendingPost: null },
    ),
    /** A sent reply took its file: the reply's uploader is empty for the next one. */
    emptyReplyUploader: enqueueActions(({ context, enqueue }) => {
      if (context.composer === 'reply') enqueue.sendTo('upload', { type: 'RESET' });
    }),
    markStale: assign({ stale: true }),
    clearStale: assign({ stale: false }),
    /** After every change to the request, read markers included: the queue that opened it catches up (consoleQueue.machine.ts). */
    announceChange: sendTo(theParent, { type: 'REFRESH' }),
    /**
     * A claimed request is the claimer's, in progress: the queue that opened it shows 'In Progress: mine' (issue 32),
     * where it is listed and marked as the open one, rather than the queue it has just left. Choosing the queue
     * loads it, so no REFRESH is needed besides.
     */
    showClaimedQueue: sendTo(theParent, { type: 'SELECT_QUEUE', queue: 'in_progress_mine' satisfies ConsoleQueue }),
  },
}).createMachine({
  id: 'consoleRequest',
  context: ({ input, spawn }) => ({
    requestId: input.requestId,
    request: null,
    staff: [],
    loadError: null,
    actionError: null,
    sendError: null,
    pendingPost: null,
    composer: 'reply',
    replyText: '',
    noteText: '',
    upload: spawn('upload', { id: 'upload', input: { presign: { requestId: input.requestId } } }),
    previewHtml: null,
    previewError: null,
    stale: false,
  }),
  invoke: { id: 'liveUpdates', src: 'liveUpdates' },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'openRequest',
        src: 'openRequest',
        input: requestIdInput,
        onDone: {
          target: 'loaded',
          actions: [{ type: 'storeOpened', params: ({ event }) => event.output }, 'announceChange'],
        },
        onError: { target: 'failed', actions: { type: 'showLoadError', params: errorOf } },
      },
    },
    failed: {
      on: { RETRY: 'loading' },
    },
    loaded: {
      type: 'parallel',
      on: {
        EDIT: { actions: 'edit' },
      },
      states: {
        /** Calls that change the request, one at a time. */
        activity: {
          initial: 'idle',
          states: {
            idle: {
              always: { guard: 'isStale', target: 'refreshing' },
              on: {
                ...COMMANDS,
                LIVE_EVENT: { guard: 'isNews', target: 'refreshing' },
                LIVE_POLL: 'refreshing',
              },
            },
            claiming: {
              invoke: {
                id: 'claim',
                src: 'claim',
                input: requestIdInput,
                onDone: { target: 'idle', actions: [STORE_CHANGE[0], 'showClaimedQueue'] },
                onError: ACTION_FAILURE,
              },
              on: NOTE_NEWS_WHILE_BUSY,
            },
            assigning: {
              invoke: {
                id: 'assign',
                src: 'assign',
                input: ({ context, event }) => {
                  assertEvent(event, 'ASSIGN');
                  return { requestId: context.requestId, assigneeId: event.assigneeId };
                },
                onDone: { target: 'idle', actions: STORE_CHANGE },
                onError: ACTION_FAILURE,
              },
              on: NOTE_NEWS_WHILE_BUSY,
            },
            changingStatus: {
              invoke: {
                id: 'changeStatus',
                src: 'changeStatus',
                input: ({ context, event }) => {
                  assertEvent(event, 'CHANGE_STATUS');
                  return { requestId: context.requestId, status: event.status };
                },
                onDone: { target: 'idle', actions: STORE_CHANGE },
                onError: ACTION_FAILURE,
              },
              on: NOTE_NEWS_WHILE_BUSY,
            },
            settingWaiting: {
              invoke: {
                id: 'setWaiting',
                src: 'setWaiting',
                input: ({ context, event }) => {
                  assertEvent(event, 'SET_WAITING');
                  return { requestId: context.requestId, waiting: event.waiting };
                },
                onDone: { target: 'idle', actions: STORE_CHANGE },
                onError: ACTION_FAILURE,
              },
              on: NOTE_NEWS_WHILE_BUSY,
            },
            sending: {
              invoke: {
                id: 'send',
                src: 'send',
                input: ({ context }) => ({
                  requestId: context.requestId,
                  ...outgoing(context),
                  idempotencyKey: context.pendingPost!.key,
                }),
                onDone: {
                  target: ['idle', '#consoleRequest.loaded.composer.writing'],
                  actions: [...STORE_CHANGE, 'emptyReplyUploader', 'clearSent'],
                },
                onError: { target: 'idle', actions: { type: 'showSendError', params: errorOf } },
              },
              on: NOTE_NEWS_WHILE_BUSY,
            },
            /** Live news: the request is fetched again (and marked read) without disturbing the screen. */
            refreshing: {
              entry: 'clearStale',
              invoke: {
                id: 'refresh',
                src: 'refresh',
                input: requestIdInput,
                onDone: { target: 'idle', actions: STORE_CHANGE },
                // The next live event or poll tries again; what is shown stays as it was.
                onError: 'idle',
              },
              // The refresh goes on behind a screen that stays usable: the concierge's command is not lost to it,
              // it takes over, and the refresh is made again once the command is done.
              on: { ...NOTE_NEWS_WHILE_BUSY, ...COMMANDS_OVER_A_REFRESH },
            },
          },
        },
        /** The active composer: writing Markdown, or looking at how it will read. */
        composer: {
          initial: 'writing',
          states: {
            writing: {
              on: {
                SELECT_COMPOSER: { actions: 'selectComposer' },
                SHOW_PREVIEW: { guard: 'hasText', target: 'previewing' },
              },
            },
            previewing: {
              invoke: {
                id: 'preview',
                src: 'preview',
                input: ({ context }) => composerText(context),
                onDone: { target: 'showingPreview', actions: { type: 'showPreview', params: ({ event }) => event.output } },
                onError: { target: 'showingPreview', actions: 'showPreviewError' },
              },
              on: {
                SELECT_COMPOSER: { target: 'writing', actions: 'selectComposer' },
                SHOW_EDITOR: { target: 'writing', actions: 'clearPreview' },
              },
            },
            showingPreview: {
              on: {
                SELECT_COMPOSER: { target: 'writing', actions: 'selectComposer' },
                SHOW_EDITOR: { target: 'writing', actions: 'clearPreview' },
              },
            },
          },
        },
      },
    },
  },
});

export type ConsoleRequestSnapshot = SnapshotFrom<typeof consoleRequestMachine>;

// ---- Selectors ----

/** Staff are told apart by e-mail: the signed-in user's record carries no numeric id. */
const sameEmail = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

export function isAssignedTo(request: ConsoleRequest, email: string): boolean {
  return request.assignee !== null && sameEmail(request.assignee.email, email);
}

/** Whom the request can be handed to: every staff member but its current assignee and the one handing it. */
export function assignableStaff(context: Pick<ConsoleRequestContext, 'staff' | 'request'>, myEmail: string): StaffMember[] {
  return context.staff.filter(
    (member) => !sameEmail(member.email, myEmail) && member.id !== context.request?.assignee?.id,
  );
}

export function isBusy(snapshot: ConsoleRequestSnapshot): boolean {
  return ['claiming', 'assigning', 'changingStatus', 'settingWaiting', 'sending'].some((state) =>
    snapshot.matches({ loaded: { activity: state as 'idle' } }),
  );
}
