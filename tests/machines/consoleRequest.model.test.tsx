import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Actor, type ActorRefFrom, createActor, createMachine } from 'xstate';
import type { ConsoleRequest, MarkReadResponse, StaffMember, ThreadEntry } from '../../src/contract/console.ts';
import type { LiveEvent } from '../../src/contract/events.ts';
import { type OpenedRequest, consoleRequestMachine } from '../../src/machines/consoleRequest.machine.ts';
import { isUploading, uploadedKey } from '../../src/machines/upload.machine.ts';
import { IDEMPOTENCY_KEY_HEADER } from '../../src/contract/common.constants.ts';
import type { PresignedUrlResponse } from '../../src/contract/uploads.ts';
import { networkError, serverRefusal } from './httpFailures.support.ts';
import { ConsoleRequestView } from '../../src/views/console/ConsoleRequestView.tsx';
import {
  type EventExecutors,
  type ModelEvent,
  type StateAssertions,
  doneEvent,
  errorEvent,
  expectFullCoverage,
  expectScenariosWalked,
  flowModel,
  pendingCalls,
  runPath,
  settlementExecutors,
} from './modelPaths.support.ts';
import { COLLEAGUE, ME, OPEN_REQUEST as FIXTURE_REQUEST, STAFF, at, employeeMessage, wireMessage } from './console.fixtures.ts';
import type { ConsoleServiceLevel } from '../../src/contract/sla.ts';
import { FakeXMLHttpRequest } from './fakeXMLHttpRequest.support.ts';
import { inApp, startTestApp } from './appSystem.support.tsx';
import type { AppActor } from '../../src/machines/app.machine.ts';
import { type FakeNetwork, type SentCall, fakeNetwork } from './network.support.ts';

// Every post's Idempotency-Key is this one here, so that the model's context and the screen's agree; whether a retry
// keeps its key and a new message gets a new one is nextPost's rule (tests/unit/idempotentPost.test.ts).
const POST_KEY = '00000000-0000-4000-8000-000000000001';
vi.spyOn(crypto, 'randomUUID').mockReturnValue(POST_KEY);
beforeEach(() => {
  vi.spyOn(crypto, 'randomUUID').mockReturnValue(POST_KEY);
});

/**
 * The console's calls as the server answers them, each waiting as a pending call of its own (the executors below
 * settle them one by one, as the server would answer them): the request, the staff list and the read mark that
 * opening it needs, each change, the preview, and the file picker's presign. The file's bytes go to the fake
 * XMLHttpRequest.
 */
/** Issue 28: the request's turnaround, on track, its first response due. */
const ON_TRACK: ConsoleServiceLevel = {
  target: 'first_response',
  state: 'on_track',
  due_at: '2099-01-06T12:00:00.000Z',
  waiting_on_employee: false,
  first_response_minutes: 240,
  resolution_minutes: 1620,
  first_response_due_at: '2099-01-06T12:00:00.000Z',
  resolution_due_at: '2099-01-08T17:00:00.000Z',
  first_responded_at: null,
  first_response_met: null,
  resolution_met: null,
  time_zone: 'Europe/Paris',
};
const OPEN_REQUEST: ConsoleRequest = { ...FIXTURE_REQUEST, service_level: ON_TRACK };
/** Marked waiting on the employee: the clock stands still, nothing is due. */
const WAITING: ConsoleRequest = {
  ...OPEN_REQUEST,
  service_level: { ...ON_TRACK, waiting_on_employee: true, due_at: null, first_response_due_at: null, resolution_due_at: null },
};
const PATH = `console/requests/${OPEN_REQUEST.id}`;
const request = ({ method, path }: { method: 'GET' | 'POST'; path: string }, id: string) => ({
  method,
  path: new RegExp(`^${path}$`),
  id,
  answer: (output: ConsoleRequest) => ({ request: output }),
});
function fakeConsoleApi(): FakeNetwork {
  return fakeNetwork([
    request({ method: 'GET', path: PATH }, 'fetch'),
    { method: 'GET', path: /^console\/staff$/, id: 'staff', answer: (staff: StaffMember[]) => ({ staff }) },
    { method: 'POST', path: new RegExp(`^${PATH}/read$`), id: 'markRead', answer: (marked: MarkReadResponse) => marked },
    request({ method: 'POST', path: `${PATH}/claim` }, 'claim'),
    request({ method: 'POST', path: `${PATH}/assign` }, 'assign'),
    request({ method: 'POST', path: `${PATH}/status` }, 'changeStatus'),
    request({ method: 'POST', path: `${PATH}/waiting` }, 'setWaiting'),
    request({ method: 'POST', path: `${PATH}/messages` }, 'send'),
    request({ method: 'POST', path: `${PATH}/notes` }, 'send'),
    { method: 'POST', path: /^console\/preview$/, id: 'preview', answer: (html: string) => ({ body_html: html }) },
    { method: 'POST', path: /^uploads\/presigned_url$/, id: 'presign', answer: (presigned: PresignedUrlResponse) => presigned },
  ]);
}

type Machine = typeof consoleRequestMachine;
type RequestSnapshot = ReturnType<Machine['transition']>;
const REQUEST_ID = OPEN_REQUEST.id;
let network: FakeNetwork;

/** The last call the server received on `path`, and its request (for its headers). */
function lastCallTo(path: string): { call: SentCall | undefined; request: Request | undefined } {
  const index = network.sent.findLastIndex((call) => call.path === path);
  return { call: network.sent[index], request: network.requests[index] };
}
const callsTo = (path: string) => network.sent.filter((call) => call.path === path).length;

// ---- How the request reads after each change (as the server would answer) ----

let nextEntryId = 100;
function historyEvent(partial: Omit<Extract<ThreadEntry, { kind: 'event' }>, 'kind' | 'id' | 'created_at'>, hours: number): ThreadEntry {
  nextEntryId += 1;
  return { kind: 'event', id: nextEntryId, created_at: at(hours), ...partial };
}
const statusEvent = (from: 'open' | 'in_progress' | 'closed', to: 'open' | 'in_progress' | 'closed', hours: number) =>
  historyEvent({ event: 'status_changed', actor_name: ME.full_name, from_status: from, to_status: to, assignee_name: null }, hours);
const assignedEvent = (assignee: string, hours: number) =>
  historyEvent({ event: 'assigned', actor_name: ME.full_name, from_status: null, to_status: null, assignee_name: assignee }, hours);

/** The open request once `assignee` has it: assigned, then in progress, at hour 3. */
const assignedTo = (assignee: StaffMember): ConsoleRequest => ({
  ...OPEN_REQUEST,
  status: 'in_progress',
  assignee,
  updated_at: at(3),
  thread: [...OPEN_REQUEST.thread, assignedEvent(assignee.full_name, 3), statusEvent('open', 'in_progress', 3)],
});
const CLAIMED = assignedTo(ME);
const ASSIGNED_TO_COLLEAGUE = assignedTo(COLLEAGUE);
const CLOSED: ConsoleRequest = {
  ...CLAIMED,
  status: 'closed',
  closed_at: at(4),
  updated_at: at(4),
  thread: [...CLAIMED.thread, statusEvent('in_progress', 'closed', 4)],
};
const REOPENED: ConsoleRequest = {
  ...CLOSED,
  status: 'in_progress',
  closed_at: null,
  updated_at: at(5),
  thread: [...CLOSED.thread, statusEvent('closed', 'in_progress', 5)],
};

const REPLY_MARKDOWN = 'Hi **Erin**, all set.';
const REPLY_HTML = '<p>Hi <strong>Erin</strong>, all set.</p>';
const NOTE_MARKDOWN = 'Called the vendor';
const FILE = new File(['%PDF-1.7\n%%EOF\n'], 'quote.pdf', { type: 'application/pdf' });
const FILE_KEY = `uploads/k1/${FILE.name}`;
// xstate/graph compares and prints events as JSON, where a File would be {}.
Object.defineProperty(FILE, 'toJSON', { value: () => FILE.name });

function replied(withFile: boolean): ConsoleRequest {
  const reply: ThreadEntry = {
    kind: 'message',
    id: 51,
    body_html: REPLY_HTML,
    source: 'life_concierge',
    source_name: 'Casey',
    external_created_at: at(6),
    attachment_keys: withFile ? [FILE_KEY] : [],
  };
  return { ...OPEN_REQUEST, updated_at: at(6), thread: [...OPEN_REQUEST.thread, reply] };
}
const REPLIED = replied(false);
const REPLIED_WITH_FILE = replied(true);
const NOTED: ConsoleRequest = {
  ...OPEN_REQUEST,
  thread: [
    ...OPEN_REQUEST.thread,
    { kind: 'note', id: 61, body_html: `<p>${NOTE_MARKDOWN}</p>`, author_name: ME.full_name, created_at: at(6) },
  ],
};

/** An employee writes while the request is open in the console. */
const NEWS = employeeMessage(71, 'One more thing: the deadline is Friday.', 7);
const LIVE_NEWS: LiveEvent = { type: 'message.created', request_id: REQUEST_ID, message: wireMessage(NEWS) };
const withNews = (request: ConsoleRequest): ConsoleRequest => ({ ...request, updated_at: at(7), thread: [...request.thread, NEWS] });

const REFUSED = serverRefusal(409, 'A request that is In Progress cannot be moved to In Progress.');
const UNREACHABLE = networkError();

// ---- The model ----

const opened: OpenedRequest = { request: OPEN_REQUEST, staff: STAFF };
const STATUS_CHANGES = [
  { from: OPEN_REQUEST, to: CLAIMED, status: 'in_progress', label: 'start work', done: 'started' },
  { from: CLAIMED, to: CLOSED, status: 'closed', label: 'mark completed', done: 'completed' },
  { from: CLOSED, to: REOPENED, status: 'in_progress', label: 'reopen', done: 'reopened' },
] as const;
/** The request as a refresh for news finds it, by what it was before. */
const REFRESHES = [
  { base: OPEN_REQUEST, label: 'refreshed open' },
  { base: CLAIMED, label: 'refreshed in_progress' },
  { base: ASSIGNED_TO_COLLEAGUE, label: 'refreshed assigned' },
  { base: REPLIED, label: 'refreshed replied' },
] as const;

/** Nothing written yet: the composer as it opens. */
const composerUntouched = ({ context }: RequestSnapshot) =>
  context.composer === 'reply' && context.replyText === '' && context.noteText === '';
/** A reply written, no note, nothing failed. */
const onlyAReply = ({ context }: RequestSnapshot) =>
  context.composer === 'reply' && context.replyText !== '' && context.noteText === '' && context.sendError === null;
const idle = (snapshot: RequestSnapshot) => snapshot.matches({ loaded: { activity: 'idle' } });
const writing = (snapshot: RequestSnapshot) => snapshot.matches({ loaded: { composer: 'writing' } });
const activity = (snapshot: RequestSnapshot, state: 'sending') => snapshot.matches({ loaded: { activity: state } });
/** A call that changes the request is under way: live news is noted, and fetched once it ends. */
const busy = (snapshot: RequestSnapshot) =>
  (['claiming', 'assigning', 'changingStatus', 'settingWaiting', 'sending', 'refreshing'] as const).some((state) =>
    snapshot.matches({ loaded: { activity: state } }),
  );

const { paths, titled } = flowModel(consoleRequestMachine, {
  input: { requestId: REQUEST_ID },
  events: [
    doneEvent('openRequest', opened, 'opened'),
    errorEvent('openRequest', serverRefusal(404, 'Request not found'), 'not found'),
    errorEvent('openRequest', UNREACHABLE, 'open fails'),
    { label: 'retry', event: { type: 'RETRY' } },
    { label: 'claim', event: { type: 'CLAIM' } },
    doneEvent('claim', CLAIMED, 'claimed'),
    errorEvent('claim', UNREACHABLE, 'claim fails'),
    { label: 'assign to Alex', event: { type: 'ASSIGN', assigneeId: COLLEAGUE.id } },
    doneEvent('assign', ASSIGNED_TO_COLLEAGUE, 'assigned'),
    errorEvent('assign', UNREACHABLE, 'assign fails'),
    ...STATUS_CHANGES.flatMap(({ to, status, label, done }) => [
      { label, event: { type: 'CHANGE_STATUS', status } },
      doneEvent('changeStatus', to, done),
    ]),
    errorEvent('changeStatus', REFUSED, 'status change refused'),
    { label: 'mark waiting', event: { type: 'SET_WAITING', waiting: true } },
    doneEvent('setWaiting', WAITING, 'marked waiting'),
    errorEvent('setWaiting', UNREACHABLE, 'waiting fails'),
    { label: 'note tab', event: { type: 'SELECT_COMPOSER', composer: 'note' } },
    { label: 'reply tab', event: { type: 'SELECT_COMPOSER', composer: 'reply' } },
    { label: 'write reply', event: { type: 'EDIT', text: REPLY_MARKDOWN } },
    { label: 'write note', event: { type: 'EDIT', text: NOTE_MARKDOWN } },
    { label: 'preview', event: { type: 'SHOW_PREVIEW' } },
    doneEvent('preview', REPLY_HTML, 'preview made'),
    errorEvent('preview', UNREACHABLE, 'preview fails'),
    { label: 'edit', event: { type: 'SHOW_EDITOR' } },
    { label: 'send', event: { type: 'SEND' } },
    doneEvent('send', REPLIED, 'reply sent'),
    doneEvent('send', NOTED, 'note added'),
    errorEvent('send', UNREACHABLE, 'send fails'),
    { label: 'employee writes', event: { type: 'LIVE_EVENT', event: LIVE_NEWS } },
    { label: 'poll', event: { type: 'LIVE_POLL' } },
    ...REFRESHES.map(({ base, label }) => doneEvent('refresh', withNews(base), label)),
    errorEvent('refresh', UNREACHABLE, 'refresh fails'),
  ],
  offer: (snapshot, { label, event }) => {
    const { context } = snapshot;
    const { request } = context;
    const untouched = composerUntouched(snapshot) && writing(snapshot);
    switch (event.type) {
      case 'RETRY':
        // A request that does not exist offers no retry.
        return context.loadError !== 'This request does not exist (or no longer does).';
      case 'xstate.error.actor.openRequest':
        return context.loadError === null;
      case 'CLAIM':
        return untouched && context.actionError === null && (request === OPEN_REQUEST || request === ASSIGNED_TO_COLLEAGUE);
      case 'ASSIGN':
      case 'SET_WAITING':
        return untouched && request === OPEN_REQUEST && context.actionError === null;
      case 'xstate.error.actor.setWaiting':
        return request === OPEN_REQUEST;
      case 'xstate.error.actor.claim':
      case 'xstate.error.actor.assign':
        return request === OPEN_REQUEST;
      case 'CHANGE_STATUS':
        return untouched && STATUS_CHANGES.some((change) => change.label === label && change.from === request);
      case 'xstate.done.actor.changeStatus':
        return STATUS_CHANGES.some((change) => change.done === label && change.from === request);
      case 'xstate.error.actor.changeStatus':
        return request === CLAIMED && context.actionError === null;
      case 'SELECT_COMPOSER':
        if (request !== OPEN_REQUEST || !idle(snapshot)) return false;
        // A reply's preview left for the note tab; back on the reply tab, the reply waits in its editor.
        if (!writing(snapshot)) return event.composer === 'note' && onlyAReply(snapshot) && context.actionError === null;
        if (event.composer === 'reply' && context.composer === 'note' && context.noteText === '') return context.replyText !== '';
        return event.composer === 'note' ? context.replyText === '' : context.noteText !== '';
      case 'EDIT':
        if (request !== OPEN_REQUEST || !idle(snapshot) || !writing(snapshot)) return false;
        return event.text === REPLY_MARKDOWN
          ? context.composer === 'reply' && context.replyText === ''
          : context.composer === 'note' && context.noteText === '' && context.replyText === '';
      case 'SHOW_PREVIEW':
        return idle(snapshot) && context.sendError === null;
      case 'xstate.error.actor.preview':
        return context.composer === 'reply';
      case 'SEND':
        return request === OPEN_REQUEST;
      case 'xstate.done.actor.send':
        return label === (context.composer === 'note' ? 'note added' : 'reply sent');
      case 'xstate.error.actor.send':
        return context.sendError === null && context.composer === 'note';
      case 'LIVE_EVENT':
      case 'LIVE_POLL':
        // News and polls while nothing is under way, and once during each call (the sending of a reply included).
        if (request !== OPEN_REQUEST) return false;
        if (idle(snapshot)) return untouched;
        return busy(snapshot) && !context.stale && context.actionError === null &&
          (untouched || (writing(snapshot) && activity(snapshot, 'sending') && onlyAReply(snapshot)));
      case 'xstate.done.actor.refresh':
        return REFRESHES.some((refresh) => refresh.label === label && refresh.base === request);
      case 'xstate.error.actor.refresh':
        return request === OPEN_REQUEST;
      default:
        return true;
    }
  },
  // A poll during each call: the shortest paths reach what follows it through news during the call. The shortest
  // paths take the concierge's other commands over a refresh.
  walks: [
    ['opened', 'claim', 'poll', 'claimed', 'refreshed in_progress'],
    ['opened', 'assign to Alex', 'poll', 'assigned', 'refreshed assigned'],
    ['opened', 'start work', 'poll', 'started', 'refreshed in_progress'],
    ['opened', 'write reply', 'send', 'poll', 'reply sent', 'refreshed replied'],
    ['opened', 'employee writes', 'poll', 'refreshed open', 'refreshed open'],
    // A reply sent while news is being fetched: it is sent, and the news fetched again once it is.
    ['opened', 'write reply', 'poll', 'send', 'reply sent', 'refreshed replied'],
  ],
});

// ---- The rendered request, the fake server ----

let user: UserEvent;
let actor: ActorRefFrom<Machine>;
let changes: number;
/** The queues the request asked its queue to show. */
let queuesShown: string[];
/** The request's parent, standing in for the console's queue: it counts the changes its open request reports. */
let queue: Actor<ReturnType<typeof createMachine>>;
let app: AppActor;

const heading = () => screen.queryByRole('heading', { level: 1 });
const actionsRegion = () => screen.getByRole('region', { name: 'Assignment and status' });
const button = (name: string, container: HTMLElement = document.body) =>
  within(container).getByRole('button', { name: new RegExp(`^(Loading\\s*)?${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) });
const composerPanel = ({ context }: RequestSnapshot) =>
  screen.getByRole('tabpanel', { name: context.composer === 'reply' ? 'Reply to employee' : 'Internal note' });
const textArea = ({ context }: RequestSnapshot) =>
  screen.getByRole('textbox', { name: context.composer === 'reply' ? 'Reply (Markdown)' : 'Note (Markdown)' });

const STATUS_LABELS = { open: 'In Queue', in_progress: 'In Progress', closed: 'Completed' } as const;
const STATUS_BUTTONS = { open: ['Start work'], in_progress: ['Mark completed'], closed: ['Reopen'] } as const;

/** What a loaded request shows, whatever is going on: its facts, its people, its answers, its whole thread. */
function expectRequest({ context }: RequestSnapshot) {
  const request = context.request as ConsoleRequest;
  expect(heading()).toHaveTextContent(request.name);
  const facts = heading()?.parentElement as HTMLElement;
  expect(facts).toHaveTextContent(STATUS_LABELS[request.status]);
  expect(facts).toHaveTextContent(/Requested \d+ (day|month|year)s? ago/);

  const actions = actionsRegion();
  if (request.assignee === null) expect(actions).toHaveTextContent('Unassigned');
  else if (request.assignee.email === ME.email) expect(actions).toHaveTextContent(`Assigned to you (${ME.full_name})`);
  else expect(actions).toHaveTextContent(`Assigned to ${request.assignee.full_name}`);
  const claim = request.assignee === null ? 'Claim' : request.assignee.email === ME.email ? null : 'Assign to me';
  const actionButtons = within(actions).getAllByRole('button').map((element) => element.textContent?.replace(/^Loading/, '').trim());
  // It can go to anyone on the staff but me (I claim instead) and whoever has it.
  const canAssign = STAFF.some((member) => member.email !== ME.email && member.id !== request.assignee?.id);
  expect(actionButtons).toEqual([...(claim ? [claim] : []), ...(canAssign ? ['Assign to…'] : []), ...STATUS_BUTTONS[request.status]]);
  if (context.actionError) expect(within(actions).getByRole('alert')).toHaveTextContent(context.actionError);
  else expect(within(actions).queryByRole('alert')).not.toBeInTheDocument();

  // Issue 28: the turnaround, and the switch that stops its clock while the team waits on the employee.
  const level = request.service_level;
  const targets = screen.queryByRole('region', { name: 'Turnaround targets' });
  if (!level) expect(targets).not.toBeInTheDocument();
  else {
    expect(targets).toHaveTextContent(level.state === 'on_track' ? 'On track' : /./);
    expect(targets).toHaveTextContent('First response4 working hours');
    const waiting = within(targets as HTMLElement).queryByRole('switch', { name: 'Waiting on employee' });
    if (request.status === 'closed') expect(waiting).not.toBeInTheDocument();
    else expect(waiting).toHaveProperty('checked', level.waiting_on_employee);
    if (level.waiting_on_employee) expect(targets).toHaveTextContent('Waiting on employee');
    else expect(targets).toHaveTextContent(/due in \d+ d/);
  }

  const employee = screen.getByRole('region', { name: 'Employee' });
  expect(employee).toHaveTextContent('Erin Employee');
  expect(within(employee).getByRole('link', { name: 'employee@demo.test' })).toHaveAttribute('href', 'mailto:employee@demo.test');
  expect(employee).toHaveTextContent('Acme Corporation');
  const answers = screen.getByRole('region', { name: 'Survey answers' });
  expect(answers).toHaveTextContent('Which plan?Dental');
  expect(within(answers).getByRole('link', { name: 'statement.pdf (opens in a new tab)' })).toHaveAttribute(
    'href',
    '/attachments/uploads%2Fabc%2Fstatement.pdf',
  );

  expectThread(request);
}

/** Each entry says what it is; internal notes are set apart and labelled as never shown to the employee. */
function expectThread(request: ConsoleRequest) {
  const log = screen.getByRole('log', { name: 'Conversation' });
  const items = within(log).getAllByRole('listitem').filter((item) => item.parentElement?.parentElement === log);
  expect(items).toHaveLength(request.thread.length);
  request.thread.forEach((entry, index) => {
    const item = items[index] as HTMLElement;
    if (entry.kind === 'note') {
      expect(item).toHaveTextContent(`Internal note — not visible to the employee${entry.author_name}`);
      expect(item.querySelector('.lc-console-entry--note')).not.toBeNull();
    } else if (entry.kind === 'message') {
      expect(item).toHaveTextContent(entry.source === 'user' ? `${entry.source_name}Employee` : `${entry.source_name}Reply to the employee`);
      expect(item).not.toHaveTextContent('Internal note');
      const files = within(item).queryAllByRole('link', { name: /^Open attachment/ }).map((link) => link.getAttribute('href'));
      expect(files).toEqual(entry.attachment_keys.map((key) => `/attachments/${encodeURIComponent(key)}`));
    } else if (entry.event === 'assigned') {
      expect(item).toHaveTextContent(
        entry.assignee_name === entry.actor_name ? `${entry.actor_name} claimed the request` : `assigned the request to ${entry.assignee_name}`,
      );
    } else {
      expect(item).toHaveTextContent(`moved the request from ${STATUS_LABELS[entry.from_status ?? 'open']} to ${STATUS_LABELS[entry.to_status ?? 'open']}`);
    }
  });
  // The HTML the server made is shown as HTML (sanitised there), not as text.
  const reply = request.thread.find((entry) => entry.kind === 'message' && entry.source === 'life_concierge');
  if (reply) expect(within(log).getByText('Erin', { selector: 'strong' })).toBeInTheDocument();
}

/**
 * The composer: the chosen tab, its text or preview, the reply's file (as the reply's upload, a child actor of the
 * request, has it), and a send button that is off while there is no text.
 */
function expectComposer(snapshot: RequestSnapshot) {
  const { context } = snapshot;
  const upload = actor.getSnapshot().context.upload.getSnapshot();
  expect(screen.getByRole('tab', { name: 'Reply to employee' })).toHaveAttribute('aria-selected', String(context.composer === 'reply'));
  expect(screen.getByRole('tab', { name: 'Internal note' })).toHaveAttribute('aria-selected', String(context.composer === 'note'));
  const panel = composerPanel(snapshot);
  if (context.composer === 'note') expect(panel).toHaveTextContent('Internal note — not visible to the employee');
  const text = context.composer === 'reply' ? context.replyText : context.noteText;
  const send = button(context.composer === 'reply' ? 'Send reply' : 'Add note', panel);
  // A reply also waits for its file's upload; a note carries no file.
  const waitsForFile = context.composer === 'reply' && isUploading(upload);
  if (text.trim() === '' || waitsForFile) expect(send).toBeDisabled();
  else expect(send).toBeEnabled();
  // Why 'Send reply' is off, beside it.
  if (waitsForFile) expect(within(panel).getByText('Uploading…')).toBeVisible();
  else expect(within(panel).queryByText('Uploading…')).not.toBeInTheDocument();
  // One file picker, the reply's: it stays (with its file) behind the note tab.
  expect(document.querySelectorAll('.lc-file-uploader')).toHaveLength(1);
  if (upload.context.file) expect(screen.getByText(upload.context.file.name)).toBeInTheDocument();
  else expect(document.querySelector('.lc-file-uploader__file')).toBeNull();
  if (context.sendError) expect(within(panel).getByText(context.sendError)).toBeInTheDocument();
  else expect(within(panel).queryByText('That did not work. Please try again.')).not.toBeInTheDocument();
}

const notBusy = () => expect(screen.queryAllByRole('button').filter((element) => element.getAttribute('aria-busy') === 'true')).toEqual([]);

const states: StateAssertions<Machine> = {
  loading: () => {
    expect(screen.getByText('Loading')).toBeInTheDocument();
    expect(heading()).not.toBeInTheDocument();
    expect(lastCallTo(PATH).call).toEqual({ method: 'GET', path: PATH, body: undefined });
  },
  failed: ({ context }) => {
    expect(heading()).not.toBeInTheDocument();
    const notFound = context.loadError === 'This request does not exist (or no longer does).';
    expect(screen.getByRole('alert')).toHaveTextContent(notFound ? context.loadError ?? '' : "We couldn't load this request. Please try again.");
    if (notFound) expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
    else expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  },
  loaded: expectRequest,
  'loaded.activity': () => expect(actionsRegion()).toBeInTheDocument(),
  'loaded.activity.idle': () => notBusy(),
  'loaded.activity.claiming': ({ context }) => {
    const claim = context.request?.assignee ? 'Assign to me' : 'Claim';
    expect(button(claim, actionsRegion())).toHaveAttribute('aria-busy', 'true');
    expect(button(STATUS_BUTTONS[context.request?.status ?? 'open'][0], actionsRegion())).toBeDisabled();
    expect(lastCallTo(`${PATH}/claim`).call).toEqual({ method: 'POST', path: `${PATH}/claim`, body: undefined });
  },
  'loaded.activity.assigning': () => {
    expect(button('Assign to…', actionsRegion())).toHaveAttribute('aria-busy', 'true');
    expect(lastCallTo(`${PATH}/assign`).call).toEqual({ method: 'POST', path: `${PATH}/assign`, body: { assignee_id: COLLEAGUE.id } });
  },
  'loaded.activity.changingStatus': ({ context }) => {
    const [label] = STATUS_BUTTONS[context.request?.status ?? 'open'];
    expect(button(label, actionsRegion())).toHaveAttribute('aria-busy', 'true');
    const change = STATUS_CHANGES.find((candidate) => candidate.from === context.request);
    expect(lastCallTo(`${PATH}/status`).call).toEqual({ method: 'POST', path: `${PATH}/status`, body: { status: change?.status } });
  },
  'loaded.activity.settingWaiting': () => {
    expect(screen.getByRole('switch', { name: 'Waiting on employee' })).toBeEnabled();
    expect(button(STATUS_BUTTONS.open[0], actionsRegion())).toBeDisabled();
    expect(lastCallTo(`${PATH}/waiting`).call).toEqual({ method: 'POST', path: `${PATH}/waiting`, body: { waiting: true } });
  },
  'loaded.activity.sending': (snapshot) => {
    const { context } = snapshot;
    const panel = composerPanel(snapshot);
    expect(button(context.composer === 'reply' ? 'Send reply' : 'Add note', panel)).toHaveAttribute('aria-busy', 'true');
    if (writing(snapshot)) expect(textArea(snapshot)).toBeDisabled();
    expectSent(context.composer);
  },
  'loaded.activity.refreshing': () => {
    notBusy();
    expect(lastCallTo(PATH).call).toEqual({ method: 'GET', path: PATH, body: undefined });
  },
  'loaded.composer': (snapshot) => expectComposer(snapshot),
  'loaded.composer.writing': (snapshot) => {
    const { context } = snapshot;
    expect(textArea(snapshot)).toHaveValue(context.composer === 'reply' ? context.replyText : context.noteText);
    expect(within(composerPanel(snapshot)).queryByRole('region', { name: 'Preview' })).not.toBeInTheDocument();
  },
  'loaded.composer.previewing': (snapshot) => {
    const preview = within(composerPanel(snapshot)).getByRole('region', { name: 'Preview' });
    expect(within(preview).getByRole('progressbar', { name: 'Loading' })).toBeInTheDocument();
    expect(lastCallTo('console/preview').call).toEqual({
      method: 'POST',
      path: 'console/preview',
      body: { body_markdown: snapshot.context.composer === 'reply' ? REPLY_MARKDOWN : NOTE_MARKDOWN },
    });
  },
  'loaded.composer.showingPreview': (snapshot) => {
    const panel = composerPanel(snapshot);
    expect(within(panel).queryByRole('textbox')).not.toBeInTheDocument();
    const preview = within(panel).getByRole('region', { name: 'Preview' });
    expect(within(preview).queryByRole('progressbar')).not.toBeInTheDocument();
    if (snapshot.context.previewError) {
      expect(within(preview).getByRole('alert')).toHaveTextContent("The preview couldn't be made. Your text is unchanged.");
    } else {
      // The server's sanitised HTML, rendered as HTML.
      expect(within(preview).getByText('Erin', { selector: 'strong' })).toBeInTheDocument();
    }
  },
};

/** The reply (with the key of its file, when it has one) or note last sent, with its Idempotency-Key. */
function expectSent(composer: 'reply' | 'note') {
  const key = uploadedKey(actor.getSnapshot().context.upload.getSnapshot());
  const sent = lastCallTo(composer === 'reply' ? `${PATH}/messages` : `${PATH}/notes`);
  expect(sent.call).toEqual(
    composer === 'reply'
      ? { method: 'POST', path: `${PATH}/messages`, body: { body_markdown: REPLY_MARKDOWN, ...(key ? { attachment_keys: [key] } : {}) } }
      : { method: 'POST', path: `${PATH}/notes`, body: { body_markdown: NOTE_MARKDOWN } },
  );
  expect(sent.request?.headers.get(IDEMPOTENCY_KEY_HEADER)).toBe(POST_KEY);
}

/** Settles a call of the fake server, as a done or error event would. */
const answer = (id: string, output: unknown) => pendingCalls.settle({ type: `xstate.done.actor.${id}`, output });
const refuse = (id: string, error: unknown) => pendingCalls.settle({ type: `xstate.error.actor.${id}`, error });

/** Each change the request makes is told to the queue that opened it (its lists refresh). */
async function expectAnnounced(settle: () => Promise<void>) {
  const before = changes;
  await settle();
  await waitFor(() => expect(changes).toBe(before + 1));
}

/** The request comes with an unread employee message: opening it (or refreshing it for news) marks it read. */
async function answerFetchMarkingRead(request: ConsoleRequest) {
  await answer('fetch', { ...request, unread_count: 1 });
  await waitFor(() => expect(lastCallTo(`${PATH}/read`).call).toEqual({ method: 'POST', path: `${PATH}/read`, body: undefined }));
  await answer('markRead', { success: true, unread_count: 0 });
}

const settlements = settlementExecutors(consoleRequestMachine, pendingCalls);
const announced = (type: string) => (step: { event: ModelEvent; state: RequestSnapshot }) =>
  expectAnnounced(async () => void (await settlements[type]?.(step)));

const events: EventExecutors<Machine> = {
  ...settlements,
  'xstate.done.actor.openRequest': ({ event }) =>
    expectAnnounced(async () => {
      const { request, staff } = event.output as OpenedRequest;
      await answerFetchMarkingRead(request);
      await answer('staff', staff);
    }),
  'xstate.error.actor.openRequest': async ({ event }) => {
    await refuse('fetch', event.error);
    await answer('staff', STAFF);
  },
  'xstate.done.actor.refresh': ({ event }) => expectAnnounced(() => answerFetchMarkingRead(event.output as ConsoleRequest)),
  'xstate.error.actor.refresh': ({ event }) => refuse('fetch', event.error),
  // A claim shows the queue where the claimed request now is (issue 32): choosing it refreshes the list.
  'xstate.done.actor.claim': async (step) => {
    const before = queuesShown.length;
    await settlements['xstate.done.actor.claim']?.(step);
    await waitFor(() => expect(queuesShown.slice(before)).toEqual(['in_progress_mine']));
  },
  'xstate.done.actor.assign': announced('xstate.done.actor.assign'),
  'xstate.done.actor.changeStatus': announced('xstate.done.actor.changeStatus'),
  'xstate.done.actor.setWaiting': announced('xstate.done.actor.setWaiting'),
  SET_WAITING: () => user.click(screen.getByRole('switch', { name: 'Waiting on employee' })),
  'xstate.done.actor.send': announced('xstate.done.actor.send'),
  RETRY: () => user.click(screen.getByRole('button', { name: 'Try again' })),
  CLAIM: ({ state }) => user.click(button(state.context.request?.assignee ? 'Assign to me' : 'Claim', actionsRegion())),
  ASSIGN: async () => {
    await user.click(button('Assign to…', actionsRegion()));
    const menu = await screen.findByRole('menu', { name: 'Assign to…' });
    // Only people it can go to: not me (I claim instead), not whoever has it.
    expect(within(menu).getAllByRole('menuitem').map((item) => item.textContent)).toEqual([`${COLLEAGUE.full_name}Admin`]);
    await user.click(within(menu).getByRole('menuitem', { name: COLLEAGUE.full_name }));
  },
  CHANGE_STATUS: ({ state }) => user.click(button(STATUS_BUTTONS[state.context.request?.status ?? 'open'][0], actionsRegion())),
  SELECT_COMPOSER: ({ event }) =>
    user.click(screen.getByRole('tab', { name: event.composer === 'note' ? 'Internal note' : 'Reply to employee' })),
  EDIT: ({ event, state }) => user.type(textArea(state), event.text as string),
  SHOW_PREVIEW: ({ state }) => user.click(button('Preview', composerPanel(state))),
  SHOW_EDITOR: ({ state }) => user.click(button('Edit', composerPanel(state))),
  SEND: ({ state }) => user.click(button(state.context.composer === 'reply' ? 'Send reply' : 'Add note', composerPanel(state))),
  // From the system's live stream, which the request subscribes to (liveUpdates.machine.ts).
  LIVE_EVENT: ({ event }) => act(() => actor.send(event as Extract<ModelEvent, { type: 'LIVE_EVENT' }> & { event: LiveEvent })),
  LIVE_POLL: () => act(() => actor.send({ type: 'LIVE_POLL' })),
};

/** The request view on its own actor, with the fake server. */
function openView() {
  user = userEvent.setup({ applyAccept: false });
  pendingCalls.clear();
  vi.clearAllMocks();
  network = fakeConsoleApi();
  FakeXMLHttpRequest.sent = [];
  vi.stubGlobal('XMLHttpRequest', FakeXMLHttpRequest);
  changes = 0;
  queuesShown = [];
  queue = createActor(
    createMachine({
      invoke: { id: 'request', src: consoleRequestMachine, input: { requestId: REQUEST_ID } },
      on: {
        REFRESH: { actions: () => (changes += 1) },
        SELECT_QUEUE: { actions: ({ event }) => queuesShown.push(String(event.queue)) },
      },
    }),
  ).start();
  actor = queue.getSnapshot().children.request as ActorRefFrom<Machine>;
  // The composer's saved-reply picker is a flow of the app's system (useFlow).
  app = startTestApp();
  render(
    inApp(
      app,
      <MemoryRouter>
        <ConsoleRequestView request={actor} me={ME} />
      </MemoryRouter>,
    ),
  );
}

function closeView() {
  queue.stop();
  app.stop();
  vi.unstubAllGlobals();
}

describe('console request machine against the request view', () => {
  beforeEach(openView);
  afterEach(closeView);

  it.each(titled)('$title', async ({ path }) => {
    await runPath(path, () => actor.getSnapshot(), states, events);
  });
});

describe("the reply's file, an upload that is a child actor of the request", () => {
  beforeEach(async () => {
    openView();
    await answerFetchMarkingRead(OPEN_REQUEST);
    await answer('staff', STAFF);
    await user.type(await screen.findByRole('textbox', { name: 'Reply (Markdown)' }), REPLY_MARKDOWN);
  });
  afterEach(closeView);

  const replyPanel = () => screen.getByRole('tabpanel', { name: 'Reply to employee' });
  async function chooseFile() {
    await user.upload(replyPanel().querySelector<HTMLInputElement>('input[type="file"]') as HTMLInputElement, FILE);
    // Staff presign for the request they are answering.
    await waitFor(() =>
      expect(lastCallTo('uploads/presigned_url').call).toEqual({
        method: 'POST',
        path: 'uploads/presigned_url',
        body: { upload: { filename: FILE.name }, request_id: REQUEST_ID },
      }),
    );
  }
  function expectWaitingForFile() {
    expect(within(replyPanel()).getByRole('progressbar', { name: 'Uploading' })).toBeInTheDocument();
    // Why 'Send reply' is off, beside it.
    expect(within(replyPanel()).getByText('Uploading…')).toBeVisible();
    expect(button('Send reply', replyPanel())).toBeDisabled();
  }

  it("goes with the reply once uploaded: 'Send reply' waits for it, and the uploader is empty after the reply", async () => {
    await chooseFile();
    expectWaitingForFile();
    // Ctrl+Enter, which does not go through the disabled button, does not send the reply without its file either.
    await user.type(screen.getByRole('textbox', { name: 'Reply (Markdown)' }), '{Control>}{Enter}{/Control}');
    expect(callsTo(`${PATH}/messages`)).toBe(0);
    // A note carries no file: it does not wait.
    await user.click(screen.getByRole('tab', { name: 'Internal note' }));
    await user.type(screen.getByRole('textbox', { name: 'Note (Markdown)' }), NOTE_MARKDOWN);
    expect(button('Add note', screen.getByRole('tabpanel', { name: 'Internal note' }))).toBeEnabled();
    await user.click(screen.getByRole('tab', { name: 'Reply to employee' }));

    await answer('presign', { key: FILE_KEY, presigned_url: 'http://files.test/put' });
    await waitFor(() => expect(FakeXMLHttpRequest.sent).toHaveLength(1));
    const transfer = FakeXMLHttpRequest.sent[0]!;
    expect({ method: transfer.method, url: transfer.url, body: transfer.body }).toEqual({ method: 'PUT', url: 'http://files.test/put', body: FILE });
    await act(async () => transfer.respond(200));
    await waitFor(() => expect(within(replyPanel()).getByRole('progressbar', { name: 'Uploaded' })).toBeInTheDocument());
    expect(within(replyPanel()).queryByText('Uploading…')).not.toBeInTheDocument();

    await user.click(button('Send reply', replyPanel()));
    await waitFor(() => expect(callsTo(`${PATH}/messages`)).toBe(1));
    expectSent('reply');
    expect(lastCallTo(`${PATH}/messages`).call?.body).toEqual({ body_markdown: REPLY_MARKDOWN, attachment_keys: [FILE_KEY] });
    await answer('send', REPLIED_WITH_FILE);
    await waitFor(() => expect(document.querySelector('.lc-file-uploader__file')).toBeNull());
    expect(screen.getByRole('textbox', { name: 'Reply (Markdown)' })).toHaveValue('');
  });

  it('removed while it uploads, lets the reply go without it', async () => {
    await chooseFile();
    expectWaitingForFile();
    await user.click(within(replyPanel()).getByRole('button', { name: `Remove ${FILE.name}` }));
    expect(within(replyPanel()).queryByText('Uploading…')).not.toBeInTheDocument();
    await user.click(button('Send reply', replyPanel()));
    await waitFor(() => expect(callsTo(`${PATH}/messages`)).toBe(1));
    expect(lastCallTo(`${PATH}/messages`).call?.body).toEqual({ body_markdown: REPLY_MARKDOWN });
    expect(FakeXMLHttpRequest.sent).toHaveLength(0);
    await answer('send', REPLIED);
  });
});

describe('console request model coverage', () => {
  it('asserts every state and executes every event', () => {
    expectFullCoverage(consoleRequestMachine, paths, states, events);
  });

  it('walks the paths the rules call for', () => {
    const titles = titled.map(({ title }) => title);
    const expected: Record<string, RegExp> = {
      'claim, complete, reopen': /claim → claimed → mark completed → completed → reopen → reopened/,
      'start work on an open request': /start work → started/,
      'assign to a colleague, then take it over': /assign to Alex → assigned → claim/,
      'a Markdown reply': /write reply → send → reply sent/,
      'a reply previewed, then sent': /write reply → preview → preview made → send/,
      'an internal note': /note tab → write note → send → note added/,
      'a live employee message': /employee writes → refreshed open/,
      'news while a claim is under way': /claim → employee writes → claimed → refreshed in_progress/,
      'news while an assignment is under way': /assign to Alex → employee writes → assigned → refreshed assigned/,
      'news while a status change is under way': /start work → employee writes → started/,
      'news while a reply is sent': /write reply → send → employee writes → reply sent → refreshed replied/,
      'news while the request is refreshed: it is fetched again': /employee writes → employee writes → refreshed open$/,
      'the note tab leaves the preview being made': /write reply → preview → note tab → reply tab$/,
      'the note tab leaves the preview shown': /write reply → preview → preview made → note tab/,
      'a refused status change': /status change refused/,
      'waiting on the employee stops the clock': /mark waiting → marked waiting/,
      'marking waiting fails': /mark waiting → waiting fails/,
    };
    expectScenariosWalked(titles, expected);
  });
});
