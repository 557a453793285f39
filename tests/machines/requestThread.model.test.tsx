import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Actor, type ActorLogic, type SnapshotFrom, createActor, getInitialSnapshot, getNextSnapshot } from 'xstate';
import { TestModel, type TestModelOptions, type TestPath } from 'xstate/graph';
import type { LiveEvent } from '../../src/contract/events.ts';
import { MESSAGE_BODY_MAX, MESSAGE_ERRORS, type Message } from '../../src/contract/requests.ts';
import {
  type RequestThreadInput,
  THREAD_TEXT,
  requestThreadMachine,
  threadLiveUpdates,
  uploadErrorOf,
} from '../../src/machines/requestThread.machine.ts';
import type { UploadReport } from '../../src/machines/upload.machine.ts';
import type { LiveUpdatesOptions, LiveUpdatesStatus, subscribeToLiveUpdates } from '../../src/services/liveUpdates.ts';
import { type ClientRequest, charactersLeft, charactersLeftText, lastOwnDelivery } from '../../src/services/threadRules.ts';
import { LIVE_UPDATES_PAUSED, RequestThreadView } from '../../src/views/Request.tsx';
import { ENTER_SENDS_HINT, FAILED_FIRST_HINT } from '../../src/views/requests/Composer.tsx';
import { relativeTime } from '../../src/widgets/format.ts';
import { FakeXMLHttpRequest } from './fakeXMLHttpRequest.support.ts';
import { serverRefusal } from './httpFailures.support.ts';
import {
  type EventExecutors,
  type ModelEvent,
  type StateAssertions,
  expectFullCoverage,
  expectScenariosWalked,
  runPath,
} from './modelPaths.support.ts';
import { startFlow, startTestApp } from './appSystem.support.tsx';
import type { AppActor } from '../../src/machines/app.machine.ts';
import { type OpenLiveStream, serveLiveStream } from './liveStream.support.ts';
import { type HeldRequest, type SentCall, errorAnswer, fakeNetwork, holdRequests } from './network.support.ts';

// Every post's Idempotency-Key is this one here, so that the model's context and the screen's agree; whether a retry
// keeps its key and a new message gets a new one is nextPost's rule (tests/unit/idempotentPost.test.ts).
const POST_KEY = '00000000-0000-4000-8000-000000000001';
vi.spyOn(crypto, 'randomUUID').mockReturnValue(POST_KEY);
beforeEach(() => {
  vi.spyOn(crypto, 'randomUUID').mockReturnValue(POST_KEY);
});

type ThreadSnapshot = SnapshotFrom<typeof requestThreadMachine>;
type Machine = typeof requestThreadMachine;

// ---- The request, its thread, and what the server answers. ----

const REQUEST_ID = 42;
const INPUT: RequestThreadInput = { requestId: REQUEST_ID, author: { fullName: 'Tess Thread', initials: 'TT' } };
const at = (minute: number) => new Date(Date.UTC(2025, 2, 1, 9, minute)).toISOString();
const GARAGE_PHOTO = 'f0c1a2.png';
const QUOTE_PDF = '9b8e7d.pdf';
const UPLOADED_PHOTO = 'c4d5e6.png';

const CONCIERGE_REPLY: Message = {
  id: 11,
  body_html: '<p>Here is the garage I <strong>recommend</strong>.</p>',
  source: 'life_concierge',
  source_name: 'Casey',
  external_created_at: at(10),
  attachment_keys: [GARAGE_PHOTO],
};
const EMPLOYEE_NOTE: Message = {
  id: 12,
  body_html: '<p>Thanks!</p>',
  source: 'user',
  source_name: 'Tess Thread',
  external_created_at: at(20),
  attachment_keys: [],
};
const LIVE_REPLY: Message = {
  id: 13,
  body_html: '<p>The quote is attached.</p>',
  source: 'life_concierge',
  source_name: 'Casey',
  external_created_at: at(30),
  attachment_keys: [QUOTE_PDF],
};

/** The messages arrive newest first: the screen puts them in order. */
const REQUEST: ClientRequest = {
  id: REQUEST_ID,
  external_id: 'R-42',
  name: 'Renew my car registration',
  status: 'open',
  issued_at: at(0),
  created_at: at(0),
  details: 'Plate number: 7ABC123\nState: <Oregon>',
  survey_category_name: 'Car',
  survey_category_image_url: null,
  messages: [EMPLOYEE_NOTE, CONCIERGE_REPLY],
  seen_by_staff_message_id: null,
};
const BARE_REQUEST: ClientRequest = { ...REQUEST, id: REQUEST_ID, details: null, messages: [] };

/** Issue 31: a long thread answers its newest page; two older pages come as the employee scrolls up. */
const threadMessage = (id: number, source: Message['source']): Message => ({
  id,
  body_html: `<p>Message ${id}</p>`,
  source,
  source_name: source === 'user' ? 'Tess Thread' : 'Casey',
  external_created_at: at(60 + id),
  attachment_keys: [],
});
const LONG_REQUEST: ClientRequest = {
  ...REQUEST,
  external_id: 'R-42-long',
  messages: [threadMessage(21, 'user'), threadMessage(22, 'life_concierge')],
  has_older_messages: true,
};
const OLDER_PAGES: Record<number, { messages: Message[]; has_older_messages: boolean }> = {
  21: { messages: [threadMessage(19, 'user'), threadMessage(20, 'life_concierge')], has_older_messages: true },
  19: { messages: [threadMessage(18, 'life_concierge')], has_older_messages: false },
};
const isLongThread = (snapshot: ThreadSnapshot) => snapshot.context.request?.external_id === LONG_REQUEST.external_id;
const oldestShown = (snapshot: ThreadSnapshot) => Math.min(...(snapshot.context.request as ClientRequest).messages.map((message) => message.id));
/** Issue 32: the concierge's reply has not been read yet (the server counts it). */
const UNREAD_REQUEST: ClientRequest = { ...REQUEST, unread_count: 1 };

const TEXT = 'Tuesday works.';
const BLANK = '   ';
const TEXT_TYPED_WHILE_SENDING = 'Tuesday works. Wednesday too.';
/** One character over the limit: the counter says so and Send stays disabled. */
const TOO_LONG = 'x'.repeat(MESSAGE_BODY_MAX + 1);

const SENT_MESSAGE_ID = 14;

/** The server's answer to a message: the whole thread with it (id 14), as of now. */
function afterSending(snapshot: ThreadSnapshot): ClientRequest {
  const { request, outgoing } = snapshot.context;
  const key = outgoing?.attachmentKey;
  const sent: Message = {
    id: SENT_MESSAGE_ID,
    body_html: `<p>${outgoing?.body}</p>`,
    source: 'user',
    source_name: INPUT.author.fullName,
    external_created_at: at(40),
    attachment_keys: key ? [key] : [],
  };
  const current = request as ClientRequest;
  return { ...current, messages: [...current.messages.filter((message) => message.id !== sent.id), sent] };
}
/** What a refetch finds: the concierge's reply and the status change, missed while no stream was open. */
function refreshed(snapshot: ThreadSnapshot): ClientRequest {
  const current = snapshot.context.request as ClientRequest;
  return { ...current, status: 'in_progress', messages: [...current.messages.filter((message) => message.id !== LIVE_REPLY.id), LIVE_REPLY] };
}

/** A file the employee picks, as the test makes it. */
interface PickedFile {
  name: string;
  type: string;
  size: number;
}
const PHOTO: PickedFile = { name: 'registration.png', type: 'image/png', size: 2048 };
/** A photo the browser gives no type (as some do for HEIC): the uploader takes it by its extension. */
const HEIC_PHOTO: PickedFile = { name: 'IMG_0001.HEIC', type: '', size: 4096 };
const NOTES: PickedFile = { name: 'notes.txt', type: 'text/plain', size: 20 };
const UPLOADED_HEIC = 'd7e8f9.heic';
const previewUrlOf = (key: string) => `http://localhost:3000/api/storage/${key}?expires=1&signature=s`;

const UPLOAD_REFUSED = { status: 415, statusText: 'Unsupported Media Type', responseText: '{"error":"Only images or PDFs are allowed."}' };
const UPLOAD_REFUSED_MESSAGE =
  'There was an error uploading your file: Only images or PDFs are allowed. We have been notified of the error, but you are welcome to try again.';

// ---- The model. ----

const done = (id: string, output: unknown, label: string): ModelEvent => ({ type: `xstate.done.actor.${id}`, output, label });
const failure = (id: string, error: unknown, label: string): ModelEvent => ({ type: `xstate.error.actor.${id}`, error, label });
const NOT_FOUND = failure('loadRequest', serverRefusal(404, 'Request not found'), 'not found');
const OLDER_PAGE = (snapshot: ThreadSnapshot) => done('loadOlderMessages', OLDER_PAGES[oldestShown(snapshot)], 'older page');
const OLDER_FAILED = failure('loadOlderMessages', serverRefusal(500, 'An unexpected error occurred'), 'server error');
const SERVER_DOWN = failure('loadRequest', serverRefusal(500, 'An unexpected error occurred'), 'server error');
const SEND_REFUSED = failure('sendMessage', serverRefusal(422, MESSAGE_ERRORS.fileNotFound), 'refused');
/** A 422 names the field at fault by its path; the screen says only the problem. */
const FIELD_REFUSAL = { error: `message.body: ${MESSAGE_ERRORS.tooLong}`, fields: { 'message.body': MESSAGE_ERRORS.tooLong } };

const hasMessage = (snapshot: ThreadSnapshot, message: Message) =>
  snapshot.context.request?.messages.some((candidate) => candidate.id === message.id) ?? false;

/** Nothing typed in the message box, nothing on its way or failed. */
function composerAtRest(snapshot: ThreadSnapshot): boolean {
  const { draft, outgoing } = snapshot.context;
  return snapshot.matches({ ready: { composer: 'editing' } }) && draft === '' && !outgoing && !hasSent(snapshot);
}
const hasSent = (snapshot: ThreadSnapshot) => snapshot.context.request?.messages.some((message) => message.id === SENT_MESSAGE_ID) ?? false;

/**
 * The thread's upload (a child actor) tells the thread when the storage refused the file: 'We have been notified'.
 * The upload's own states (under way, uploaded) the model of the thread cannot enter (its child is not run); the
 * tests after the model's cover the thread with its upload.
 */
const UPLOAD_HTTP_FAILURE: ModelEvent & UploadReport = {
  type: 'UPLOAD_FAILED',
  uploadId: 'upload',
  failure: { kind: 'http', ...UPLOAD_REFUSED },
};

/** The thread as first loaded, its previews settled, nothing live has happened. */
function threadAtRest(snapshot: ThreadSnapshot): boolean {
  const { liveStatus, request, previews } = snapshot.context;
  return snapshot.matches({ ready: { sync: 'upToDate' } }) && liveStatus === 'connecting' && request?.status === 'open' &&
    !hasMessage(snapshot, LIVE_REPLY) && Object.values(previews).every((preview) => preview !== 'loading') &&
    (request.seen_by_staff_message_id ?? null) === null;
}

/**
 * The events offered in each state, kept finite: live events happen to a quiet message box, the message box is used
 * on a quiet thread; the named scenarios below mix the two.
 */
function eventsFor(snapshot: ThreadSnapshot): ModelEvent[] {
  const { context } = snapshot;
  const events: ModelEvent[] = [];
  if (snapshot.matches('loading')) {
    events.push(done('loadRequest', REQUEST, 'request'), NOT_FOUND, SERVER_DOWN);
    if (context.loadFailure === null) events.push(done('loadRequest', BARE_REQUEST, 'bare request'), done('loadRequest', LONG_REQUEST, 'long thread'));
  }
  if (snapshot.matches('failed') && context.loadFailure === 'failed') events.push({ type: 'RETRY' });
  if (!snapshot.matches('ready')) return events;
  // A long thread is scrolled up, page by page; the rest of the thread is the same as a short one's.
  if (isLongThread(snapshot)) {
    if (snapshot.can({ type: 'LOAD_OLDER' })) events.push({ type: 'LOAD_OLDER' });
    if (snapshot.matches({ ready: { history: 'loadingOlder' } })) events.push(OLDER_PAGE(snapshot), OLDER_FAILED);
    return events;
  }

  for (const [key, preview] of Object.entries(context.previews)) {
    if (preview === 'loading') events.push({ type: 'PREVIEW_READY', key, url: previewUrlOf(key) });
    if (preview !== 'failed' && composerAtRest(snapshot)) events.push({ type: 'PREVIEW_FAILED', key });
  }
  if (composerAtRest(snapshot) && threadAtRest(snapshot)) {
    events.push(
      { type: 'LIVE_STATUS', status: 'polling' },
      { type: 'MESSAGE_RECEIVED', message: LIVE_REPLY },
      { type: 'REQUEST_UPDATED', status: 'in_progress' },
      { type: 'REFRESH' },
      { type: 'SEEN_BY_STAFF', messageId: EMPLOYEE_NOTE.id },
    );
  }
  if (snapshot.matches({ ready: { sync: 'refreshing' } })) {
    events.push(done('refreshRequest', refreshed(snapshot), 'caught up'), failure('refreshRequest', new Error('offline'), 'offline'));
  }
  if (context.liveStatus === 'polling' && snapshot.matches({ ready: { sync: 'upToDate' } })) events.push({ type: 'LIVE_STATUS', status: 'live' });

  // One message per generated path; sending again is a named scenario.
  if (!threadAtRest(snapshot) || hasSent(snapshot)) return events;
  if (snapshot.matches({ ready: { composer: 'editing' } })) {
    if (context.draft === '') events.push({ type: 'DRAFT_CHANGED', text: TEXT }, { type: 'DRAFT_CHANGED', text: BLANK }, { type: 'DRAFT_CHANGED', text: TOO_LONG });
    if (snapshot.can({ type: 'SEND' })) events.push({ type: 'SEND' });
  }
  if (snapshot.matches({ ready: { composer: 'sending' } })) events.push(done('sendMessage', afterSending(snapshot), 'sent'), SEND_REFUSED);
  if (snapshot.matches({ ready: { composer: 'failed' } })) events.push({ type: 'RETRY_SEND' }, { type: 'DISCARD_FAILED' });
  return events;
}

function describeEvent(event: ModelEvent | undefined): string {
  if (!event) return 'start';
  if (typeof event.label === 'string') return `${event.type} (${event.label})`;
  const text = typeof event.text === 'string' && event.text.length > 40 ? `${event.text.length} characters` : event.text;
  const detail = text ?? event.status ?? (event.message as Message | undefined)?.id ?? event.messageId ?? event.key;
  return detail === undefined ? event.type : `${event.type} ${JSON.stringify(detail)}`;
}

function describeState(snapshot: ThreadSnapshot): string {
  const { request, draft, outgoing, liveStatus, previews, loadFailure } = snapshot.context;
  return JSON.stringify({
    value: snapshot.value,
    request: request && {
      details: request.details !== null,
      status: request.status,
      messages: request.messages.map((message) => message.id),
      older: request.has_older_messages ?? false,
      seen: request.seen_by_staff_message_id ?? null,
    },
    draft: draft.length > 40 ? draft.length : draft,
    outgoing: outgoing && { body: outgoing.body, error: outgoing.error, post: outgoing.post.content },
    liveStatus,
    previews,
    loadFailure,
  });
}

const modelLogic = requestThreadMachine as unknown as ActorLogic<ThreadSnapshot, ModelEvent, RequestThreadInput>;
const traversal: Partial<TestModelOptions<ThreadSnapshot, ModelEvent, RequestThreadInput>> = {
  input: INPUT,
  // A model that stops being finite fails here, at once, instead of filling the memory.
  limit: 1000,
  events: eventsFor,
  serializeEvent: (event) => describeEvent(event),
  serializeState: (snapshot) => describeState(snapshot),
};
const model = new TestModel(modelLogic, { ...traversal, stateMatcher: (snapshot, key) => snapshot.matches(key as 'ready') });

/**
 * A named walk, step by step from the start (the model's own traversal would explore every event of the walk in
 * every state). The result of a call that depends on the state so far is computed as the walk goes.
 */
function scenario(walk: (ModelEvent | ((snapshot: ThreadSnapshot) => ModelEvent))[]): TestPath<ThreadSnapshot, ModelEvent>[] {
  let snapshot = getInitialSnapshot(requestThreadMachine, INPUT);
  const steps = [{ state: snapshot, event: { type: 'xstate.init' } as ModelEvent }];
  for (const step of walk) {
    const event = typeof step === 'function' ? step(snapshot) : step;
    snapshot = getNextSnapshot(requestThreadMachine, snapshot, event as Parameters<typeof actor.send>[0]);
    steps.push({ state: snapshot, event });
  }
  const path = { state: snapshot, steps, weight: steps.length };
  return [{ ...path, description: steps.map((step) => describeEvent(step.event)).join(' → '), test: (params) => model.testPath(path, params) }];
}

const LOADED = done('loadRequest', REQUEST, 'request');
const SETTLE_PREVIEW: ModelEvent = { type: 'PREVIEW_READY', key: GARAGE_PHOTO, url: previewUrlOf(GARAGE_PHOTO) };
const SENT = (snapshot: ThreadSnapshot) => done('sendMessage', afterSending(snapshot), 'sent');

const paths: TestPath<ThreadSnapshot, ModelEvent>[] = [
  ...model.getShortestPaths(),
  // The server is back: try again.
  ...scenario([SERVER_DOWN, { type: 'RETRY' }, LOADED]),
  // While the stream is down the screen polls (through every attempt to reconnect); a poll catches up, then the
  // stream is back.
  ...scenario([LOADED, SETTLE_PREVIEW, { type: 'LIVE_STATUS', status: 'polling' }, { type: 'LIVE_STATUS', status: 'connecting' }, { type: 'REFRESH' },
    (snapshot) => done('refreshRequest', refreshed(snapshot), 'caught up'), { type: 'LIVE_STATUS', status: 'live' }]),
  // A poll that fails changes nothing on screen.
  ...scenario([LOADED, SETTLE_PREVIEW, { type: 'REFRESH' }, failure('refreshRequest', new Error('offline'), 'offline')]),
  // The same reply delivered twice is shown once.
  ...scenario([LOADED, SETTLE_PREVIEW, { type: 'MESSAGE_RECEIVED', message: LIVE_REPLY }, { type: 'MESSAGE_RECEIVED', message: LIVE_REPLY }]),
  // The employee's own message comes back on the stream before the send call answers.
  ...scenario([LOADED, SETTLE_PREVIEW, { type: 'DRAFT_CHANGED', text: TEXT }, { type: 'SEND' },
    (snapshot) => ({ type: 'MESSAGE_RECEIVED', message: afterSending(snapshot).messages.at(-1) }), SENT]),
  // Typing on while the message is on its way: the new text stays in the box.
  ...scenario([LOADED, SETTLE_PREVIEW, { type: 'DRAFT_CHANGED', text: TEXT }, { type: 'SEND' },
    { type: 'DRAFT_CHANGED', text: TEXT_TYPED_WHILE_SENDING }, SENT]),
  // Two messages in a row.
  ...scenario([LOADED, SETTLE_PREVIEW, { type: 'DRAFT_CHANGED', text: TEXT }, { type: 'SEND' }, SENT, { type: 'DRAFT_CHANGED', text: TEXT },
    { type: 'SEND' }]),
  // A refused send keeps the text in the thread, and goes again with Retry (under the same Idempotency-Key).
  ...scenario([LOADED, SETTLE_PREVIEW, { type: 'DRAFT_CHANGED', text: TEXT }, { type: 'SEND' }, SEND_REFUSED, { type: 'RETRY_SEND' }, SENT]),
  // Or its text goes back into the box with Edit, beside what was typed meanwhile.
  ...scenario([LOADED, SETTLE_PREVIEW, { type: 'DRAFT_CHANGED', text: TEXT }, { type: 'SEND' }, SEND_REFUSED,
    { type: 'DRAFT_CHANGED', text: TEXT_TYPED_WHILE_SENDING }, { type: 'DISCARD_FAILED' }]),
  // A refusal that names a field says only the problem, in words.
  ...scenario([LOADED, SETTLE_PREVIEW, { type: 'DRAFT_CHANGED', text: TEXT }, { type: 'SEND' },
    failure('sendMessage', serverRefusal(422, FIELD_REFUSAL.error, FIELD_REFUSAL.fields), 'field refused')]),
  // Staff read my last message: it says Seen; a later message of mine says Sent until they read again.
  ...scenario([LOADED, SETTLE_PREVIEW, { type: 'SEEN_BY_STAFF', messageId: EMPLOYEE_NOTE.id }, { type: 'DRAFT_CHANGED', text: TEXT },
    { type: 'SEND' }, SENT, { type: 'SEEN_BY_STAFF', messageId: CONCIERGE_REPLY.id }]),
  // Issue 32: the end of the thread seen, an unread reply is read (reported to the employee's unread replies);
  // seen again with nothing new, nothing is reported.
  ...scenario([done('loadRequest', UNREAD_REQUEST, 'request with an unread reply'), SETTLE_PREVIEW, { type: 'END_OF_THREAD_SEEN' },
    { type: 'END_OF_THREAD_SEEN' }]),
  // A reply that arrives live is read once the end of the thread is seen.
  ...scenario([LOADED, SETTLE_PREVIEW, { type: 'MESSAGE_RECEIVED', message: LIVE_REPLY }, { type: 'END_OF_THREAD_SEEN' }]),
  // Issue 31: a long thread scrolled up to its start (a page failing on the way, tried again by its button); a refetch
  // then answers the newest page again, and the older messages stay, the welcome first.
  ...scenario([done('loadRequest', LONG_REQUEST, 'long thread'), { type: 'LOAD_OLDER' }, OLDER_FAILED, { type: 'LOAD_OLDER' }, OLDER_PAGE,
    { type: 'LOAD_OLDER' }, OLDER_PAGE, { type: 'REFRESH' }, done('refreshRequest', LONG_REQUEST, 'newest page')]),
  // The storage refuses the file (SPEC §8); the text goes without it, and the message box is empty again.
  ...scenario([LOADED, SETTLE_PREVIEW, UPLOAD_HTTP_FAILURE, { type: 'DRAFT_CHANGED', text: TEXT }, { type: 'SEND' }, SENT]),
];

// ---- The fake network (msw holds the API's requests, XMLHttpRequest the file bytes) and the live stream. ----

type PendingFetch = HeldRequest;
let fetches: PendingFetch[];

const describeFetch = ({ request }: PendingFetch) => `${request.method} ${new URL(request.url).pathname}${new URL(request.url).search}`;
/** The request the server holds for `method` and `path`, once it has arrived (requests reach msw asynchronously). */
async function takeFetch(method: string, path: string): Promise<PendingFetch> {
  const index = await waitFor(() => {
    const found = fetches.findIndex((pending) => pending.request.method === method && describeFetch(pending).startsWith(`${method} ${path}`));
    if (found === -1) throw new Error(`no ${method} ${path} is pending; pending: ${fetches.map(describeFetch).join(', ')}`);
    return found;
  });
  return fetches.splice(index, 1)[0] as PendingFetch;
}
const pendingCalls = (method: string, path: string) =>
  fetches.filter((pending) => pending.request.method === method && new URL(pending.request.url).pathname === path);
const json = (body: unknown, status = 200) => Response.json(body, { status });
const answer = (pending: PendingFetch, response: Response) => act(async () => pending.answer(response));

let live: { onEvent: (event: LiveEvent) => void; options: LiveUpdatesOptions } | null;
/**
 * The thread's live stream, which each step drives (the live service itself is tested against a real server:
 * tests/server/realtime.client.test.ts).
 */
const subscribeToDrivenStream: typeof subscribeToLiveUpdates = (onEvent, options = {}) => {
  live = { onEvent, options };
  return () => {
    live = null;
  };
};
const deliver = (effect: (stream: NonNullable<typeof live>) => void) =>
  act(async () => {
    if (!live) throw new Error('the thread is not listening to live updates');
    effect(live);
  });

// ---- What the employee sees. ----

let user: UserEvent;
let actor: Actor<Machine>;
let consoleError: ReturnType<typeof vi.spyOn>;

const THREAD_PATH = `/api/v1/requests/${REQUEST_ID}`;
const MESSAGES_PATH = `${THREAD_PATH}/messages`;
const AVATARS: Record<string, string> = { Casey: 'C', 'Life Concierge': 'LC', 'Tess Thread': 'TT' };
const byTime = (a: Message, b: Message) => Date.parse(a.external_created_at) - Date.parse(b.external_created_at);

/** 'Your message', '(optional)' with a file. */
const messageBox = () => screen.getByRole('textbox', { name: /^Your message/ });
const sendButton = () => screen.getByRole('button', { name: /Send$/ });
const attachButton = () => screen.getByRole('button', { name: 'Attach an image or PDF' });
const fileInput = () => document.querySelector<HTMLInputElement>('.lc-composer input[type="file"]') as HTMLInputElement;
const PRESIGN_PATH = '/api/v1/uploads/presigned_url';

/** The uploader loads at the first press of its stand-in button; then its file input takes the file. */
async function pick(picked: PickedFile) {
  if (!fileInput()) {
    await user.click(attachButton());
    await waitFor(() => expect(fileInput()).toBeTruthy());
  }
  await user.upload(fileInput(), new File([new Uint8Array(picked.size)], picked.name, { type: picked.type }));
}

/** The uploader refuses a text file (SPEC §5, in its own words), and drops what it held. */
async function pickRefusedFile() {
  await pick(NOTES);
  expect(screen.getByRole('alert')).toHaveTextContent('notes.txt has an invalid file type. Only images or PDFs are allowed.');
}

function expectAttachments(item: HTMLElement, message: Message, snapshot: ThreadSnapshot) {
  for (const key of message.attachment_keys) {
    const href = `/attachments/${encodeURIComponent(key)}`;
    const preview = snapshot.context.previews[key];
    const link = within(item).getAllByRole('link').find((candidate) => candidate.getAttribute('href') === href);
    expect(link, `a link to ${key}`).toBeDefined();
    expect(link).toHaveAttribute('target', '_blank');
    if (key.endsWith('.pdf')) expect(link).toHaveTextContent('Open PDF');
    else if (preview === 'loading') expect(link).toHaveTextContent('Loading image');
    else if (preview === 'failed') expect(link).toHaveTextContent('Open image');
    else expect(within(link as HTMLElement).getByRole('img', { name: /Image attachment/ })).toHaveAttribute('src', previewUrlOf(key));
  }
  if (message.attachment_keys.length === 0) expect(within(item).queryByRole('list', { name: 'Attachments' })).not.toBeInTheDocument();
}

/** How my messages went: the one on its way (or not sent) says so, else my last one says Sent or Seen. */
/** The message on its way, while the thread does not hold it yet (the stream may bring it before the answer). */
function shownOutgoing(snapshot: ThreadSnapshot) {
  const { outgoing } = snapshot.context;
  return outgoing && hasSent(snapshot) && outgoing.afterMessageId < SENT_MESSAGE_ID ? null : outgoing;
}

function expectDeliveries(snapshot: ThreadSnapshot, items: HTMLElement[]) {
  const { request } = snapshot.context;
  const outgoing = shownOutgoing(snapshot);
  const lines = items.map((item) => item.querySelector(':scope .lc-message-bubble__delivery')?.textContent ?? null);
  const expected = items.map(() => null as string | null);
  if (outgoing) {
    expected[expected.length - 1] = outgoing.error ? `Not sent: ${outgoing.error}` : 'Sending…';
  } else {
    const own = lastOwnDelivery(request as ClientRequest);
    const index = own ? items.findIndex((item) => item.dataset.delivery !== undefined) : -1;
    if (own) {
      expect(index, 'my last message says how it went').toBeGreaterThanOrEqual(0);
      expected[index] = own.delivery === 'seen' ? 'Seen' : 'Sent';
    }
  }
  expect(lines).toEqual(expected);
}

function expectThread(snapshot: ThreadSnapshot) {
  const request = snapshot.context.request as ClientRequest;
  const outgoing = shownOutgoing(snapshot);
  const log = screen.getByRole('log', { name: 'Conversation' });
  const messages = [...request.messages].sort(byTime);
  if (!request.details && messages.length === 0 && !outgoing) {
    expect(log).toHaveTextContent('No messages yet');
    expect(within(log).queryByRole('listitem')).not.toBeInTheDocument();
    return;
  }
  expect(log).not.toHaveTextContent('No messages yet');
  const items = within(log).getAllByRole('listitem').filter((item) => item.classList.contains('lc-message-bubble'));
  expectDeliveries(snapshot, items);
  const withoutOutgoing = outgoing ? items.slice(0, -1) : items;
  if (outgoing) {
    const bubble = items.at(-1) as HTMLElement;
    // The message on its way (or not sent) is last, in my words, escaped as the server will store it.
    expect(bubble.querySelector('.lc-message-bubble__author')).toHaveTextContent('You');
    expect(bubble.querySelector('.lc-message-bubble__body')?.innerHTML ?? '').toBe(outgoing.body ? `<p>${outgoing.body}</p>` : '');
    const retry = within(bubble).queryByRole('button', { name: 'Retry' });
    if (outgoing.error) expect(retry).toBeInTheDocument();
    else expect(retry).not.toBeInTheDocument();
  }
  // Issue 31: the welcome opens the thread, so it shows once the thread's start is loaded.
  const opensWithWelcome = request.details !== null && !request.has_older_messages;
  const shown = opensWithWelcome ? withoutOutgoing.slice(1) : withoutOutgoing;
  if (opensWithWelcome) {
    // SPEC §4: the concierge's welcome comes first, then the details, one line each, as text.
    const [welcome] = items as [HTMLElement];
    expect(welcome).toHaveTextContent("We've received your request, and your concierge will be in contact with you soon.");
    expect(welcome.querySelector('.lc-message-bubble__body')?.innerHTML).toContain('Plate number: 7ABC123<br>State: &lt;Oregon&gt;');
    expect(welcome.querySelector('[data-source]')).toHaveTextContent('LC');
  }
  expect(shown).toHaveLength(messages.length);
  messages.forEach((message, index) => {
    const item = shown[index] as HTMLElement;
    const fromUser = message.source === 'user';
    expect(item.querySelector('.lc-message-bubble__author')).toHaveTextContent(fromUser ? 'You' : message.source_name);
    expect(item.querySelector('[data-source]')).toHaveTextContent(AVATARS[message.source_name] as string);
    expect(item.querySelector('.lc-message-bubble__body')?.innerHTML).toBe(message.body_html);
    expect(within(item).getByText(relativeTime(message.external_created_at))).toBeInTheDocument();
    expectAttachments(item, message, snapshot);
  });
}

/** The message box; what it shows of its upload is what the screen's upload (its child actor) is in. */
function expectComposer(snapshot: ThreadSnapshot) {
  const { draft, outgoing } = snapshot.context;
  const upload = actor.getSnapshot().context.upload.getSnapshot();
  expect(messageBox()).toHaveValue(draft);
  // The box's own alerts (the uploader adds its own, about the file it was given), and the failed message's.
  const alerts = screen.queryAllByRole('alert').map((alert) => alert.textContent ?? '');
  const uploadError = uploadErrorOf(upload);
  expect(alerts.filter((text) => text.startsWith('There was an error uploading your file: '))).toEqual(uploadError ? [uploadError] : []);
  expect(alerts.filter((text) => text.startsWith('Not sent'))).toEqual(outgoing?.error ? [`Not sent: ${outgoing.error}RetryEdit`] : []);
  // Never a field's path: the problem in words.
  expect(alerts.join(' ')).not.toContain('message.body');
  // The hint under the box (jsdom is no touch screen: Enter sends), and the counter near the limit.
  const description = document.querySelector('.lc-composer .lc-field__description');
  const left = charactersLeft(draft);
  const hint = outgoing?.error ? FAILED_FIRST_HINT : ENTER_SENDS_HINT;
  expect(description).toHaveTextContent(left === null ? hint : `${hint} ${charactersLeftText(left)}`, { normalizeWhitespace: true });
  // The next file can be picked while a message goes.
  expect(attachButton()).toBeEnabled();
  // Until its first press, a stand-in button holds the uploader's place (its code loads then).
  const uploader = document.querySelector<HTMLElement>('.lc-file-uploader');
  const progress = uploader ? within(uploader).queryByRole('progressbar') : null;
  if (upload.matches('busy')) expect(progress).toHaveAccessibleName('Uploading');
  else if (upload.matches('uploaded')) {
    expect(progress).toHaveAccessibleName('Uploaded');
    expect(screen.getByText((upload.context.file as File).name)).toBeInTheDocument();
  } else expect(progress).not.toBeInTheDocument();
}

const stateAssertions: StateAssertions<Machine> = {
  loading: (snapshot) => {
    expect(screen.getByRole('heading', { level: 1, name: 'Request Details' })).toBeInTheDocument();
    expect(document.querySelector('.lc-request')).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByText('Loading')).toBeInTheDocument();
    expect(pendingCalls('GET', THREAD_PATH)).toHaveLength(1);
    expect(screen.queryByRole('log', { name: 'Conversation' })).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(snapshot.context.request).toBeNull();
  },
  failed: (snapshot) => {
    expect(screen.getByRole('heading', { level: 1, name: 'Request Details' })).toBeInTheDocument();
    const notFound = snapshot.context.loadFailure === 'notFound';
    expect(screen.getByRole('alert')).toHaveTextContent(notFound ? THREAD_TEXT.notFound : THREAD_TEXT.loadFailed);
    const retry = screen.queryByRole('button', { name: 'Try again' });
    if (notFound) expect(retry).not.toBeInTheDocument();
    else expect(retry).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to requests' })).toHaveAttribute('href', '/requests');
    expect(screen.queryByRole('log', { name: 'Conversation' })).not.toBeInTheDocument();
  },
  ready: (snapshot) => {
    const request = snapshot.context.request as ClientRequest;
    expect(screen.getByRole('heading', { level: 1, name: request.name })).toBeInTheDocument();
    const label = { open: 'In Queue', in_progress: 'In Progress', closed: 'Completed' }[request.status] ?? 'Unknown';
    expect(document.querySelector('.lc-request__meta')).toHaveTextContent(`${label}Requested ${relativeTime(request.issued_at)}`);
    expect(screen.getByRole('link', { name: 'Back to requests' })).toHaveAttribute('href', '/requests');
    expect(document.querySelector('.lc-request')).toHaveAttribute('aria-busy', 'false');
    expect(screen.queryByText('Loading')).not.toBeInTheDocument();
    const polling = snapshot.context.liveStatus === 'polling';
    expect(document.querySelector('.lc-request__live')).toHaveTextContent(polling ? LIVE_UPDATES_PAUSED : '');
    expect(live).not.toBeNull();
  },
  'ready.sync': (snapshot) => expectThread(snapshot),
  'ready.sync.upToDate': () => expect(pendingCalls('GET', THREAD_PATH)).toHaveLength(0),
  'ready.sync.refreshing': () => expect(pendingCalls('GET', THREAD_PATH)).toHaveLength(1),
  'ready.history': (snapshot) => {
    const older = document.querySelector('.lc-thread__older');
    if (!snapshot.context.request?.has_older_messages) expect(older).not.toBeInTheDocument();
    else expect(older).toBeInTheDocument();
  },
  'ready.history.idle': (snapshot) => {
    expect(pendingCalls('GET', MESSAGES_PATH)).toHaveLength(0);
    expect(screen.queryByText(THREAD_TEXT.loadingOlder)).not.toBeInTheDocument();
    // The start of what is loaded waits to be scrolled to, while there is more.
    expect(document.querySelector('.lc-thread__start') !== null).toBe(snapshot.context.request?.has_older_messages === true);
  },
  'ready.history.loadingOlder': (snapshot) => {
    const [pending] = pendingCalls('GET', MESSAGES_PATH);
    expect(new URL((pending as PendingFetch).request.url).searchParams.get('before')).toBe(String(oldestShown(snapshot)));
    expect(screen.getByText(THREAD_TEXT.loadingOlder)).toHaveAttribute('role', 'status');
  },
  'ready.history.olderFailed': () => {
    expect(screen.getByRole('alert')).toHaveTextContent(THREAD_TEXT.olderFailed);
    expect(screen.getByRole('button', { name: THREAD_TEXT.loadOlder })).toBeInTheDocument();
    expect(pendingCalls('GET', MESSAGES_PATH)).toHaveLength(0);
  },
  'ready.composer': () => {
    expect(screen.getByRole('form', { name: 'Send a message' })).toBeInTheDocument();
    expect(messageBox()).toBeRequired();
  },
  'ready.composer.editing': (snapshot) => {
    expectComposer(snapshot);
    // SPEC §5: blank text is not sent; nor is text over the limit.
    const text = snapshot.context.draft.trim();
    expect(sendButton()).toHaveProperty('disabled', text === '' || text.length > MESSAGE_BODY_MAX);
    expect(pendingCalls('POST', MESSAGES_PATH)).toHaveLength(0);
  },
  'ready.composer.sending': async (snapshot) => {
    expectComposer(snapshot);
    expect(sendButton()).toHaveAttribute('aria-busy', 'true');
    await expectMessageSent(snapshot);
  },
  'ready.composer.failed': () => {
    // One message at a time: the one not sent goes again (or back into the box) first.
    expect(sendButton()).toBeDisabled();
    expect(pendingCalls('POST', MESSAGES_PATH)).toHaveLength(0);
  },
};

/** The message on its way, with its Idempotency-Key and the key of its file, if it has one. */
async function expectMessageSent(snapshot: ThreadSnapshot) {
  const [pending] = pendingCalls('POST', MESSAGES_PATH);
  const outgoing = snapshot.context.outgoing!;
  const key = outgoing.attachmentKey;
  expect((pending as PendingFetch).request.headers.get('idempotency-key')).toBe(outgoing.post.key);
  expect(await (pending as PendingFetch).request.clone().json()).toEqual({
    message: { body: outgoing.body, source: 'user', source_name: 'Tess Thread', ...(key ? { attachment_keys: [key] } : {}) },
  });
}

/** The upload the uploader has started: its presign answered, then its bytes sent. */
async function transferStarted(key: string): Promise<FakeXMLHttpRequest> {
  await answer(await takeFetch('POST', PRESIGN_PATH), json({ presigned_url: `/api/storage/${key}?signature=s`, key }));
  await waitFor(() => expect(FakeXMLHttpRequest.sent).toHaveLength(1));
  return FakeXMLHttpRequest.sent.pop() as FakeXMLHttpRequest;
}

const eventExecutors: EventExecutors<Machine> = {
  'xstate.done.actor.loadRequest': async ({ event }) => answer(await takeFetch('GET', THREAD_PATH), json({ success: true, request: event.output })),
  'xstate.error.actor.loadRequest': async ({ event }) => answer(await takeFetch('GET', THREAD_PATH), errorAnswer(event.error)),
  'xstate.done.actor.refreshRequest': async ({ event }) => answer(await takeFetch('GET', THREAD_PATH), json({ success: true, request: event.output })),
  'xstate.error.actor.refreshRequest': async () => answer(await takeFetch('GET', THREAD_PATH), json({ error: 'Service Unavailable' }, 503)),
  'xstate.done.actor.sendMessage': async ({ event }) => answer(await takeFetch('POST', MESSAGES_PATH), json({ success: true, request: event.output }, 201)),
  'xstate.error.actor.sendMessage': async ({ event }) => answer(await takeFetch('POST', MESSAGES_PATH), errorAnswer(event.error)),
  RETRY: async () => {
    await user.click(screen.getByRole('button', { name: 'Try again' }));
  },
  'xstate.done.actor.loadOlderMessages': async ({ event }) =>
    answer(await takeFetch('GET', `${MESSAGES_PATH}?before=`), json({ success: true, ...(event.output as object) })),
  'xstate.error.actor.loadOlderMessages': async ({ event }) => answer(await takeFetch('GET', `${MESSAGES_PATH}?before=`), errorAnswer(event.error)),
  // Scrolled up to the start of what is loaded; after a failure, its button.
  LOAD_OLDER: async () => {
    if (actor.getSnapshot().matches({ ready: { history: 'olderFailed' } })) await user.click(screen.getByRole('button', { name: THREAD_TEXT.loadOlder }));
    else await act(async () => FakeIntersectionObserver.showAll());
  },
  LIVE_STATUS: ({ event }) => deliver((stream) => stream.options.onStatusChange?.(event.status as LiveUpdatesStatus)),
  REFRESH: () => deliver((stream) => stream.options.onPoll?.()),
  MESSAGE_RECEIVED: async ({ event }) => {
    const message = event.message as Message;
    // Another request's news is not this thread's.
    await deliver((stream) => stream.onEvent({ type: 'message.created', request_id: REQUEST_ID + 1, message: { ...message, id: 999 } }));
    await deliver((stream) => stream.onEvent({ type: 'message.created', request_id: REQUEST_ID, message }));
  },
  REQUEST_UPDATED: async ({ event }) => {
    await deliver((stream) =>
      stream.onEvent({ type: 'request.updated', request_id: REQUEST_ID + 1, status: 'closed', updated_at: at(50) }),
    );
    await deliver((stream) =>
      stream.onEvent({ type: 'request.updated', request_id: REQUEST_ID, status: event.status as 'in_progress', updated_at: at(50) }),
    );
  },
  PREVIEW_READY: async ({ event }) => {
    const key = event.key as string;
    const pending = await takeFetch('GET', `/api/v1/uploads/expiring_url?key=${key}`);
    await answer(pending, json({ expiring_url: `/api/storage/${key}?expires=1&signature=s` }));
  },
  PREVIEW_FAILED: async ({ event }) => {
    const key = event.key as string;
    if (actor.getSnapshot().context.previews[key] === 'loading') {
      await answer(await takeFetch('GET', `/api/v1/uploads/expiring_url?key=${key}`), json({ error: 'File not found' }, 404));
    } else {
      fireEvent.error(screen.getByRole('img', { name: /Image attachment/ }));
    }
  },
  DRAFT_CHANGED: ({ event }) => {
    fireEvent.change(messageBox(), { target: { value: event.text } });
  },
  UPLOAD_FAILED: async ({ event }) => {
    const { status, statusText, responseText } = (event as unknown as Extract<UploadReport, { type: 'UPLOAD_FAILED' }>).failure as typeof UPLOAD_REFUSED;
    await pick(PHOTO);
    const transfer = await transferStarted(UPLOADED_PHOTO);
    consoleError.mockClear();
    await act(async () => transfer.respond(status, statusText, responseText));
    // SPEC §8, with the server's reason, beside the uploader's own message.
    expect(screen.getByText(UPLOAD_REFUSED_MESSAGE)).toBeInTheDocument();
    expect(screen.getByText(`Error uploading ${PHOTO.name}`)).toBeInTheDocument();
    // 'We have been notified': the failure goes to error tracking (the console, with reporting off).
    expect(consoleError).toHaveBeenCalledWith('Error in RequestThread (request messages)', expect.any(Error), expect.anything());
  },
  // Issue 32: the end of the thread comes into view; an unread reply's read goes to the employee's unread replies.
  END_OF_THREAD_SEEN: async () => {
    const { request, readUpTo } = actor.getSnapshot().context;
    const reported = readReports.length;
    await act(async () => FakeIntersectionObserver.showAll());
    const unseen = request!.messages.some((message) => message.source === 'life_concierge' && message.id > readUpTo);
    const newest = Math.max(...request!.messages.map((message) => message.id));
    expect(readReports.slice(reported)).toEqual(unseen ? [{ type: 'READ_UP_TO', requestId: REQUEST_ID, messageId: newest }] : []);
  },
  // By keyboard: Enter in the message box (Shift+Enter adds a line first); the button is pressed in the tests with a file.
  SEND: async () => {
    messageBox().focus();
    // Shift+Enter is left to the box, which adds a line; it sends nothing.
    expect(fireEvent.keyDown(messageBox(), { key: 'Enter', shiftKey: true })).toBe(true);
    expect(actor.getSnapshot().matches({ ready: { composer: 'editing' } })).toBe(true);
    await user.keyboard('{Enter}');
  },
  RETRY_SEND: async () => {
    await user.click(screen.getByRole('button', { name: 'Retry' }));
  },
  DISCARD_FAILED: async () => {
    await user.click(screen.getByRole('button', { name: 'Edit' }));
  },
  SEEN_BY_STAFF: async ({ event }) => {
    await deliver((stream) =>
      stream.onEvent({ type: 'request.seen', request_id: REQUEST_ID + 1, seen_by_staff_message_id: 999 }),
    );
    await deliver((stream) =>
      stream.onEvent({ type: 'request.seen', request_id: REQUEST_ID, seen_by_staff_message_id: event.messageId as number }),
    );
  },
};

/** The browser's IntersectionObserver, whose elements come into view when the test says so. */
class FakeIntersectionObserver {
  static observers = new Set<FakeIntersectionObserver>();
  private readonly elements: Element[] = [];
  private readonly callback: IntersectionObserverCallback;
  constructor(callback: IntersectionObserverCallback) {
    this.callback = callback;
    FakeIntersectionObserver.observers.add(this);
  }
  observe(element: Element) {
    this.elements.push(element);
  }
  disconnect() {
    FakeIntersectionObserver.observers.delete(this);
  }
  static showAll() {
    for (const observer of FakeIntersectionObserver.observers) {
      const entries = observer.elements.map((target) => ({ target, isIntersecting: true }) as IntersectionObserverEntry);
      observer.callback(entries, observer as unknown as IntersectionObserver);
    }
  }
}

/** The reads the thread reported (READ_UP_TO): run on its own, the thread sends them to itself, which ignores them. */
let readReports: unknown[];

/** The Request screen on its own actor, with the fake network and live stream. */
function openScreen() {
  user = userEvent.setup({ applyAccept: false });
  fetches = holdRequests();
  FakeXMLHttpRequest.sent = [];
  live = null;
  vi.stubGlobal('XMLHttpRequest', FakeXMLHttpRequest);
  URL.createObjectURL = vi.fn(() => 'blob:http://localhost:3000/preview');
  URL.revokeObjectURL = vi.fn();
  consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
  const machine = requestThreadMachine.provide({ actors: { liveUpdates: threadLiveUpdates(subscribeToDrivenStream) } });
  vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
  FakeIntersectionObserver.observers.clear();
  readReports = [];
  actor = createActor(machine, {
    input: INPUT,
    inspect: (inspection) => {
      if (inspection.type === '@xstate.event' && inspection.event.type === 'READ_UP_TO') readReports.push(inspection.event);
    },
  }).start();
  render(
    <MemoryRouter>
      <RequestThreadView thread={actor} />
    </MemoryRouter>,
  );
}

function leaveScreen() {
  actor.stop();
  // Leaving the screen closes the live stream.
  expect(live).toBeNull();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
}

describe('request thread machine against the Request screen', () => {
  beforeEach(openScreen);
  afterEach(leaveScreen);

  it.each(paths.map((path) => [path.steps.map((step) => describeEvent(step.event as ModelEvent)).join(' → '), path] as const))(
    '%s',
    async (_title, path) => {
      await runPath(path, () => actor.getSnapshot(), stateAssertions, eventExecutors);
    },
  );
});

describe('the message box with its upload, a child actor of the thread', () => {
  beforeEach(async () => {
    openScreen();
    await answer(await takeFetch('GET', THREAD_PATH), json({ success: true, request: REQUEST }));
    fireEvent.change(messageBox(), { target: { value: TEXT } });
  });
  afterEach(leaveScreen);

  const answerSend = async (response: Response) => answer(await takeFetch('POST', MESSAGES_PATH), response);
  const uploaded = async (file: PickedFile, key: string) => {
    await pick(file);
    const transfer = await transferStarted(key);
    expect((transfer.body as File).name).toBe(file.name);
    await act(async () => transfer.respond(200, 'OK'));
    expect(screen.getByRole('progressbar', { name: 'Uploaded' })).toBeInTheDocument();
  };

  it('sends the file with the message once uploaded; Send waits for the upload, which Remove cancels', async () => {
    await pick(PHOTO);
    // The upload begins with a presign for this request.
    await waitFor(() => expect(pendingCalls('POST', PRESIGN_PATH)).toHaveLength(1));
    expect(await pendingCalls('POST', PRESIGN_PATH)[0]?.request.clone().json()).toEqual({ upload: { filename: PHOTO.name }, request_id: REQUEST_ID });
    expect(screen.getByRole('progressbar', { name: 'Uploading' })).toBeInTheDocument();
    expect(sendButton()).toBeDisabled();
    messageBox().focus();
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(actor.getSnapshot().matches({ ready: { composer: 'editing' } })).toBe(true);

    // Removed, the file's upload is cancelled (its presign is left unanswered, nothing is uploaded).
    await user.click(screen.getByRole('button', { name: `Remove ${PHOTO.name}` }));
    await takeFetch('POST', PRESIGN_PATH);
    expect(FakeXMLHttpRequest.sent).toHaveLength(0);
    expect(sendButton()).toBeEnabled();

    // A file the uploader refuses, picked while another uploads, ends that upload too.
    await pick(PHOTO);
    await waitFor(() => expect(sendButton()).toBeDisabled());
    await pickRefusedFile();
    await takeFetch('POST', PRESIGN_PATH);
    expect(sendButton()).toBeEnabled();

    // A photo the browser gives no type uploads as any other. With a file, the text is optional.
    expect(messageBox()).toBeRequired();
    await uploaded(HEIC_PHOTO, UPLOADED_HEIC);
    expect(messageBox()).not.toBeRequired();
    await user.click(sendButton());
    await waitFor(() => expect(pendingCalls('POST', MESSAGES_PATH)).toHaveLength(1));
    await expectMessageSent(actor.getSnapshot());
    expect(actor.getSnapshot().context.outgoing?.attachmentKey).toBe(UPLOADED_HEIC);
    // The message box is empty for the next message as soon as this one goes, its uploader too.
    expect(messageBox()).toHaveValue('');
    await waitFor(() => expect(document.querySelector('.lc-file-uploader__file')).toBeNull());
    await answerSend(json({ success: true, request: afterSending(actor.getSnapshot()) }, 201));
    await waitFor(() => expect(actor.getSnapshot().context.outgoing).toBeNull());

    // The uploader takes the next file.
    await pick(PHOTO);
    await waitFor(() => expect(pendingCalls('POST', PRESIGN_PATH)).toHaveLength(1));
    expect(screen.getByText(PHOTO.name)).toBeInTheDocument();
  });

  it('keeps the file with the message when the send fails, and sends it again with Retry as the same post', async () => {
    await uploaded(PHOTO, UPLOADED_PHOTO);
    await user.click(sendButton());
    await waitFor(() => expect(pendingCalls('POST', MESSAGES_PATH)).toHaveLength(1));
    await expectMessageSent(actor.getSnapshot());
    // A new key would be another post: the retry must not ask for one.
    vi.spyOn(crypto, 'randomUUID').mockReturnValue('00000000-0000-4000-8000-000000000002');
    await answerSend(json({ error: 'Service Unavailable' }, 503));
    expect(await screen.findByRole('alert', { name: '' })).toHaveTextContent('Not sent: Service Unavailable');

    await user.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(pendingCalls('POST', MESSAGES_PATH)).toHaveLength(1));
    const retried = pendingCalls('POST', MESSAGES_PATH)[0] as PendingFetch;
    // The same post: its key and its file.
    expect(retried.request.headers.get('idempotency-key')).toBe(POST_KEY);
    expect((await retried.request.clone().json()).message.attachment_keys).toEqual([UPLOADED_PHOTO]);
    await answerSend(json({ success: true, request: afterSending(actor.getSnapshot()) }, 201));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument());
  });

  it('sends a file alone, without text (beyond SPEC)', async () => {
    fireEvent.change(messageBox(), { target: { value: '' } });
    expect(sendButton()).toBeDisabled();
    await uploaded(PHOTO, UPLOADED_PHOTO);
    await waitFor(() => expect(sendButton()).toBeEnabled());
    await user.click(sendButton());
    await waitFor(() => expect(pendingCalls('POST', MESSAGES_PATH)).toHaveLength(1));
    expect(await pendingCalls('POST', MESSAGES_PATH)[0]?.request.clone().json()).toEqual({
      message: { body: '', source: 'user', source_name: 'Tess Thread', attachment_keys: [UPLOADED_PHOTO] },
    });
    await answerSend(json({ success: true, request: afterSending(actor.getSnapshot()) }, 201));
    await waitFor(() => expect(actor.getSnapshot().context.outgoing).toBeNull());
  });

  it('says when the upload got no answer (SPEC §8), until another file is chosen', async () => {
    await pick(PHOTO);
    const transfer = await transferStarted(UPLOADED_PHOTO);
    await act(async () => transfer.dispatchEvent(new Event('error')));
    expect(screen.getByText('There was an error uploading your file: The upload could not reach the server. We have been notified of the error, but you are welcome to try again.')).toBeInTheDocument();
    // The upload reported it to error tracking itself.
    expect(consoleError).toHaveBeenCalledWith('Error in FileUploader (uploads)', expect.any(Error), expect.anything());
    expect(sendButton()).toBeEnabled();

    await pick(PHOTO);
    await waitFor(() => expect(pendingCalls('POST', PRESIGN_PATH)).toHaveLength(1));
    expect(screen.queryByText(/^There was an error uploading your file/)).not.toBeInTheDocument();
  });
});

describe('request thread live over the network', () => {
  let streams: OpenLiveStream[];
  let app: AppActor;
  let sent: SentCall[];
  /** The request as the server has it: what a live event tells is stored before it is sent, as the server does. */
  let stored: ClientRequest;
  const threadCalls = () => sent.filter(({ path }) => path === `requests/${REQUEST_ID}`);
  const liveNotice = () => document.querySelector('.lc-request__live');
  const bubbles = () => screen.getByRole('log', { name: 'Conversation' }).querySelectorAll('.lc-message-bubble');

  beforeEach(() => {
    stored = BARE_REQUEST;
    ({ sent } = fakeNetwork([{ method: 'GET', path: /^requests\/\d+$/, answer: () => ({ success: true, request: stored }) }]));
    streams = serveLiveStream();
    // The stream is the system's (liveUpdates.machine.ts), which the thread subscribes to.
    app = startTestApp();
    actor = startFlow(app, requestThreadMachine, INPUT);
    render(
      <MemoryRouter>
        <RequestThreadView thread={actor} />
      </MemoryRouter>,
    );
  });

  afterEach(() => {
    app.stop();
    vi.unstubAllGlobals();
  });

  it("shows its request's news from the stream, says so when the stream drops, and comes back with a fresh ticket", async () => {
    await waitFor(() => expect(streams.map(({ ticket }) => ticket)).toEqual(['ticket-1']));
    // Opening catches up on what happened meanwhile: the request is fetched again.
    await waitFor(() => expect(threadCalls()).toHaveLength(2));
    await screen.findByRole('log', { name: 'Conversation' });

    const stream = streams[0] as OpenLiveStream;
    await act(async () => stream.send({ type: 'message.created', request_id: REQUEST_ID + 1, message: { ...LIVE_REPLY, id: 999 } }));
    stored = { ...stored, status: 'in_progress', messages: [LIVE_REPLY] };
    await act(async () => stream.send({ type: 'message.created', request_id: REQUEST_ID, message: LIVE_REPLY }));
    await act(async () => stream.send({ type: 'request.updated', request_id: REQUEST_ID, status: 'in_progress', updated_at: at(30) }));
    // Another request's news is not this thread's: only the reply to this one shows.
    await waitFor(() => expect(bubbles()).toHaveLength(1));
    expect(bubbles()[0]).toHaveTextContent('The quote is attached.');
    await waitFor(() => expect(document.querySelector('.lc-request__meta')).toHaveTextContent('In Progress'));
    expect(liveNotice()).toBeEmptyDOMElement();

    await act(async () => stream.drop());
    await waitFor(() => expect(liveNotice()).toHaveTextContent(LIVE_UPDATES_PAUSED));
    // The reconnection comes 0.5-1 s later, with a ticket of its own, and catches up once more.
    await waitFor(() => expect(liveNotice()).toBeEmptyDOMElement(), { timeout: 3000 });
    expect(streams.map(({ ticket }) => ticket)).toEqual(['ticket-1', 'ticket-2']);
    await waitFor(() => expect(threadCalls()).toHaveLength(3));
    expect(bubbles()).toHaveLength(1);
  });
});

describe('request thread model coverage', () => {
  it('asserts and reaches every state, and executes every event', () => {
    expectFullCoverage(requestThreadMachine, paths, stateAssertions, eventExecutors);
  });

  it('walks the paths the rules call for', () => {
    const titles = paths.map((path) => path.steps.map((step) => describeEvent(step.event as ModelEvent)).join(' → '));
    const rules: Record<string, RegExp> = {
      'blank text is not sent': /DRAFT_CHANGED " {3}"/,
      'a text-only message': /DRAFT_CHANGED "Tuesday works\." → SEND → xstate\.done\.actor\.sendMessage/,
      'the upload error, then a message without the file': /UPLOAD_FAILED .*SEND → xstate\.done\.actor\.sendMessage/,
      'a live reply': /MESSAGE_RECEIVED 13/,
      'polling through reconnection attempts': /LIVE_STATUS "polling" → LIVE_STATUS "connecting"/,
      'an empty thread': /bare request/,
      'a failed send, then Retry': /sendMessage \(refused\) → RETRY_SEND → xstate\.done\.actor\.sendMessage/,
      'a failed send back into the box': /DISCARD_FAILED/,
      'a refusal naming a field': /field refused/,
      'Seen, then Sent again for a newer message': /SEEN_BY_STAFF 12 → .*SEND → xstate\.done\.actor\.sendMessage \(sent\) → SEEN_BY_STAFF 11/,
      'text over the limit is not sent': /DRAFT_CHANGED "10001 characters"/,
      'a long thread scrolled up to its start': /long thread.*older page.*older page/,
      'older messages kept through a refetch': /older page.*refreshRequest \(newest page\)/,
    };
    expectScenariosWalked(titles, rules);
  });
});
