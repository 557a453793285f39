import { act, configure, render, screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ActorLogic, type EventObject, SimulatedClock, type SnapshotFrom, createActor, fromPromise } from 'xstate';
import { TestModel } from 'xstate/graph';
import { type AppActor, type RequestCreationActor, type SessionActor, appMachine } from '../../src/machines/app.machine.ts';
import { inApp, sessionOf, signedInSession } from './appSystem.support.tsx';
import type { NextScreenItem, SubmittedRequest } from '../../src/contract/surveys.ts';
import { requestCreationMachine } from '../../src/machines/requestCreation.machine.ts';
import {
  type AnswerDraft,
  type PostAnswerInput,
  SURVEY_MESSAGES,
  SURVEY_UPLOADS,
  TYPING_INDICATOR_DELAY_MS,
  UPLOAD_ANSWER_DELAY_MS,
  surveyMachine,
} from '../../src/machines/survey.machine.ts';
import { SYSTEM_IDS } from '../../src/machines/system.ts';
import { flushAnalytics } from '../../src/services/analytics.ts';
import type { StoredAnswer } from '../../src/services/surveys.ts';
import RequestCreationDrawer from '../../src/views/requestCreation/RequestCreationDrawer.tsx';
import {
  type EventExecutors,
  type ModelPath,
  PendingCalls,
  type StateAssertions,
  expectFullCoverage,
  expectScenariosWalked,
  runPath,
} from './modelPaths.support.ts';
import {
  ANALYTICS_ROUTE,
  ERROR_REPORTS_ROUTE,
  type SentCall,
  fakeNetwork,
  reportErrorsToTheServer,
  reportedErrors,
  trackedEvents,
} from './network.support.ts';
import { employeeUser } from './users.fixtures.ts';

reportErrorsToTheServer();

type SurveySnapshot = SnapshotFrom<typeof surveyMachine>;
type Machine = typeof surveyMachine;

// ---- The survey under test: one question of every type, as the server sends them. ----

const SURVEY = { id: 1001, name: 'Anything else' };
const SURVEY_SESSION_ID = 41;

function screenItem(
  id: number,
  label: string,
  type: NextScreenItem['question']['type'],
  options: { optional?: boolean; universal?: string; last?: boolean; select?: { label: string; value: string }[] } = {},
): NextScreenItem {
  const optional = options.optional ?? false;
  return {
    id,
    question: { id, label, type, optional, ...(options.select ? { select_options: options.select } : {}) },
    universal_answer: options.universal ?? null,
    optional,
    last_question: options.last ?? false,
    // The questions below are numbered 1 to 6 in order.
    position: id,
    question_count: 6,
  };
}

const QUESTIONS: NextScreenItem[] = [
  screenItem(1, 'What can we take off your plate?', 'TextInput'),
  screenItem(2, 'Tell us the details', 'MultilineTextInput', { optional: true }),
  screenItem(3, 'When do you need it done?', 'SingleSelectInput', {
    select: [
      { label: 'As soon as possible', value: 'as_soon_as_possible' },
      { label: 'This week', value: 'this_week' },
    ],
  }),
  screenItem(4, 'Do you have a document or photo that would help?', 'SingleUploadInput'),
  screenItem(5, 'What is the best phone number to reach you?', 'PhoneNumberInput', { universal: '2125551212' }),
  screenItem(6, 'Which email should we send updates to?', 'ManagedEmailInput', { universal: 'ada@example.com', last: true }),
];
const [TEXT_Q, MULTILINE_Q, SELECT_Q, UPLOAD_Q, PHONE_Q, EMAIL_Q] = QUESTIONS as [
  NextScreenItem, NextScreenItem, NextScreenItem, NextScreenItem, NextScreenItem, NextScreenItem,
];

const FIRST_ANSWER = 'Renew my car registration';
const EDITED_ANSWER = 'Renew my passport';
const BAD_EMAIL = 'ada@';
const UPLOAD_KEY = 'uploads/8f14e45f';
const PHOTO = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'photo.png', { type: 'image/png' });
/** The file an edit of the upload answer takes instead (the fake storage gives every file the same key). */
const RECEIPT = new File(['%PDF-1.7\n%%EOF\n'], 'receipt.pdf', { type: 'application/pdf' });

/** What the server is sent for each question, and how the answer then reads (SPEC §5 rules restated). */
const SENT_VALUES: Record<number, string> = {
  [TEXT_Q.id]: FIRST_ANSWER,
  [MULTILINE_Q.id]: '',
  [SELECT_Q.id]: 'this_week',
  [UPLOAD_Q.id]: UPLOAD_KEY,
  [PHONE_Q.id]: '2125551212',
  [EMAIL_Q.id]: 'ada@example.com',
};
const SHOWN_ANSWERS: Record<number, string> = {
  [MULTILINE_Q.id]: 'Skipped',
  [SELECT_Q.id]: 'This week',
  [UPLOAD_Q.id]: 'photo.png',
  [PHONE_Q.id]: '(212) 555-1212',
  [EMAIL_Q.id]: 'ada@example.com',
};

const SUBMITTED: SubmittedRequest = {
  id: 77,
  external_id: 'REQ-77',
  name: SURVEY.name,
  status: 'open',
  issued_at: '2026-11-21T10:00:00.000Z',
  created_at: '2026-11-21T10:00:00.000Z',
  details: 'What can we take off your plate?: Renew my car registration',
  survey_category_name: 'Wildcard',
  survey_category_image_url: '/seed/categories/wildcard.svg',
};

const networkFailure = new TypeError('Failed to fetch');
/** What every failed call of the conversation reports (SPEC §7): the network failure, from the conversation. */
const FAILURE_REPORT = expect.objectContaining({
  name: 'TypeError',
  message: 'Failed to fetch',
  component: 'SurveyConversation',
  feature: 'request creation',
});

// ---- The model ----

type ModelEvent = EventObject & Record<string, unknown>;

const conversationIs = (snapshot: SurveySnapshot, state: string) => snapshot.matches(`active.conversation.${state}` as never);
const editIs = (snapshot: SurveySnapshot, state: string) => snapshot.matches(`active.edit.${state}` as never);

function storedAnswer(input: PostAnswerInput): StoredAnswer {
  return { id: 900 + input.questionId, object_satisfied_id: input.questionId, value: input.value };
}

/** The answer the user gives to the question being asked, on the main line of the model. */
function answerEvents(snapshot: SurveySnapshot): ModelEvent[] {
  const { current, draft, fieldError } = snapshot.context;
  if (!current) return [];
  switch (current.id) {
    case TEXT_Q.id:
      return draft.value === '' ? [{ type: 'CHANGE', value: FIRST_ANSWER }] : [{ type: 'ANSWER' }];
    case MULTILINE_Q.id:
      // SPEC §4: an optional question may be skipped.
      return [{ type: 'SKIP' }];
    case SELECT_Q.id:
      return draft.value === '' ? [{ type: 'CHANGE', value: 'this_week' }] : [{ type: 'ANSWER' }];
    // The question's upload (a child actor of the survey) tells it of the uploaded file, and of its removal.
    case UPLOAD_Q.id:
      return conversationIs(snapshot, 'asking.uploadSettling')
        ? [
            { type: 'UPLOAD_CLEARED', uploadId: SURVEY_UPLOADS.question },
            { type: `xstate.after.uploadAnswer.survey.active.conversation.asking.uploadSettling` },
          ]
        : [{ type: 'UPLOADED', uploadId: SURVEY_UPLOADS.question, key: UPLOAD_KEY, fileName: PHOTO.name }];
    case PHONE_Q.id:
      return [{ type: 'ANSWER' }];
    case EMAIL_Q.id:
      // A wrong e-mail is refused on the field (SPEC §5), then corrected.
      if (draft.value === BAD_EMAIL) return fieldError ? [{ type: 'CHANGE', value: 'ada@example.com' }] : [{ type: 'ANSWER' }];
      return [{ type: 'CHANGE', value: BAD_EMAIL }, { type: 'ANSWER' }];
    default:
      return [];
  }
}

const isEditedFirstAnswer = (snapshot: SurveySnapshot) =>
  snapshot.context.answered.some((entry) => entry.item.id === TEXT_Q.id && entry.value === EDITED_ANSWER);

/**
 * The edit of the upload answer, on the summary: its own upload (a child actor of the survey) takes another file,
 * whose removal leaves no answer; that edit is then cancelled.
 */
function uploadEditEvents({ context: { edit } }: SurveySnapshot): ModelEvent[] {
  if (!edit) return [];
  if (edit.draft.fileName === edit.original.fileName) {
    return [{ type: 'UPLOADED', uploadId: SURVEY_UPLOADS.edit, key: UPLOAD_KEY, fileName: RECEIPT.name }];
  }
  return edit.draft.value === '' ? [{ type: 'CANCEL_EDIT' }] : [{ type: 'UPLOAD_CLEARED', uploadId: SURVEY_UPLOADS.edit }];
}

/** Edits happen on the last question of the conversation and on the summary, to the first answer (and the upload). */
function editEvents(snapshot: SurveySnapshot): ModelEvent[] {
  const { edit, current, draft, error } = snapshot.context;
  const onLastQuestion = conversationIs(snapshot, 'asking') && current?.id === EMAIL_Q.id && draft.value === EMAIL_Q.universal_answer;
  const onSummary = conversationIs(snapshot, 'review') && error === null;
  if (!onLastQuestion && !onSummary) return [];
  if (editIs(snapshot, 'idle')) {
    if (isEditedFirstAnswer(snapshot)) return [];
    return [{ type: 'EDIT', questionId: TEXT_Q.id }, ...(onSummary ? [{ type: 'EDIT', questionId: UPLOAD_Q.id }] : [])];
  }
  if (editIs(snapshot, 'confirmingDiscard')) return [{ type: 'KEEP_EDITING' }, { type: 'DISCARD_EDIT' }];
  if (edit?.questionId === UPLOAD_Q.id) return editIs(snapshot, 'editing') ? uploadEditEvents(snapshot) : [];
  if (editIs(snapshot, 'saving')) {
    const done = { type: 'xstate.done.actor.saveEdit', output: storedAnswer({ userRequestSurveyId: SURVEY_SESSION_ID, questionId: TEXT_Q.id, value: EDITED_ANSWER }) };
    return edit?.error ? [done] : [done, { type: 'xstate.error.actor.saveEdit', error: networkFailure }];
  }
  if (!edit) return [];
  return edit.draft.value === edit.original.value
    ? [{ type: 'CHANGE_EDIT', value: EDITED_ANSWER }, { type: 'CANCEL_EDIT' }]
    : [{ type: 'SAVE_EDIT' }, { type: 'CANCEL_EDIT' }];
}

function eventsFor(snapshot: SurveySnapshot): ModelEvent[] {
  if (snapshot.status !== 'active') return [];
  // The cancel confirmation is modal: it is answered before anything else, unless the submission it interrupted
  // gets through first (then nothing is left to ask).
  if (snapshot.matches({ active: { leaving: 'confirming' } })) {
    const submitted = conversationIs(snapshot, 'submitting')
      ? [{ type: 'xstate.done.actor.submitSurvey', output: SUBMITTED, duringQuestion: true }]
      : [];
    return [{ type: 'STAY' }, { type: 'CONFIRM_CANCEL' }, ...submitted];
  }
  const { answered, current, pending, error, draft } = snapshot.context;
  const events: ModelEvent[] = [];
  const editIsOpen = !editIs(snapshot, 'idle');

  if (conversationIs(snapshot, 'beginning')) {
    events.push({ type: 'xstate.done.actor.beginSurvey', output: SURVEY_SESSION_ID });
    events.push({ type: 'xstate.error.actor.beginSurvey', error: networkFailure });
  }
  if (conversationIs(snapshot, 'beginFailed') || conversationIs(snapshot, 'nextFailed')) events.push({ type: 'RETRY' });
  if (conversationIs(snapshot, 'loadingNext')) {
    if (conversationIs(snapshot, 'loadingNext.waiting')) {
      events.push({ type: 'xstate.after.typingIndicator.survey.active.conversation.loadingNext.waiting' });
    }
    events.push({ type: 'xstate.done.actor.fetchNextItem', output: QUESTIONS[answered.length] ?? null });
    if (answered.length === 0) events.push({ type: 'xstate.error.actor.fetchNextItem', error: networkFailure });
  }
  if (conversationIs(snapshot, 'asking') && !editIsOpen) events.push(...answerEvents(snapshot));
  if (conversationIs(snapshot, 'answering') && pending) {
    events.push({ type: 'xstate.done.actor.postAnswer', output: storedAnswer({ userRequestSurveyId: SURVEY_SESSION_ID, ...pending }) });
    if (current?.id === TEXT_Q.id) events.push({ type: 'xstate.error.actor.postAnswer', error: networkFailure });
  }
  if (conversationIs(snapshot, 'review') && !editIsOpen) events.push({ type: 'SUBMIT' });
  if (conversationIs(snapshot, 'submitting')) {
    events.push({ type: 'xstate.done.actor.submitSurvey', output: SUBMITTED });
    if (!isEditedFirstAnswer(snapshot)) events.push({ type: 'xstate.error.actor.submitSurvey', error: networkFailure });
  }
  events.push(...editEvents(snapshot));

  // Closing the drawer: at the start, on the first question, on the summary (with an edit open), while submitting
  // and when done.
  const onFirstQuestion = conversationIs(snapshot, 'asking') && current?.id === TEXT_Q.id && draft.value === '' && error === null;
  const onSummary = conversationIs(snapshot, 'review') && error === null && !isEditedFirstAnswer(snapshot);
  const whileSubmitting = conversationIs(snapshot, 'submitting') && !isEditedFirstAnswer(snapshot);
  if (conversationIs(snapshot, 'beginning') || onFirstQuestion || onSummary || whileSubmitting || conversationIs(snapshot, 'confirmation')) {
    events.push({ type: 'CLOSE' });
  }
  return events;
}

function describeEvent(event: EventObject | undefined): string {
  if (!event) return 'start';
  const { type, ...payload } = event as ModelEvent;
  const shortType = type.replace(/^xstate\.after\.(\w+)\..*$/, 'after $1');
  if ('error' in payload) return `${shortType} (failed)`;
  if ('duringQuestion' in payload) return `${shortType} (while the cancel question is open)`;
  if ('output' in payload) {
    const output = payload.output as { id?: number; value?: string } | number | null;
    return `${shortType} ${JSON.stringify(output === null || typeof output === 'number' ? output : (output.value ?? output.id))}`;
  }
  return Object.keys(payload).length ? `${shortType} ${JSON.stringify(payload)}` : shortType;
}

/**
 * A state is its value, its context, and the event that led to it: so the shortest paths also cover transitions that
 * come back to a state already seen (Stay, Keep editing, Try again).
 */
function serializeState(snapshot: SurveySnapshot, event: EventObject | undefined): string {
  const { answered, current, draft, fieldError, error, edit, request, pending } = snapshot.context;
  return JSON.stringify({
    value: snapshot.value,
    status: snapshot.status,
    answered: answered.map((entry) => [entry.item.id, entry.value]),
    current: current?.id,
    draft,
    pending,
    fieldError,
    error,
    edit,
    request: request?.id,
  }) + ` via ${describeEvent(event)}`;
}

const INPUT = { survey: SURVEY, firstRequest: true };
const model = new TestModel(surveyMachine as unknown as ActorLogic<SurveySnapshot, EventObject, typeof INPUT>, {
  input: INPUT,
  events: (snapshot) => eventsFor(snapshot),
  serializeEvent: (event) => describeEvent(event),
  serializeState: (snapshot, event) => serializeState(snapshot, event),
  stateMatcher: (snapshot, key) => snapshot.matches(key as never),
});
const paths = model.getShortestPaths() as unknown as ModelPath<Machine>[];
const titled = paths.map((path) => ({ title: path.steps.slice(1).map((step) => describeEvent(step.event)).join(' → '), path }));

// ---- The real drawer, its actors and their fake surroundings ----

const pendingCalls = new PendingCalls();
const USER = employeeUser(
  { external_id: 'u-1', full_name: 'Ada Park', first_name: 'Ada', initials: 'AP', email: 'ada@example.com' },
);

let user: UserEvent;
let clock: SimulatedClock;
let app: AppActor;
let session: SessionActor;
let requestCreation: RequestCreationActor;
let survey: ReturnType<RequestCreationActor['getSnapshot']>['children']['survey'];
/** The calls the server received: the uploader's presign and the analytics batches (the survey's own are provided). */
let sent: SentCall[];

class AutoAnsweringXhr extends EventTarget {
  readonly upload = new EventTarget();
  status = 0;
  statusText = '';
  responseText = '';
  withCredentials = false;
  open() {}
  setRequestHeader() {}
  getResponseHeader() {
    return null;
  }
  abort() {}
  send() {
    queueMicrotask(() => {
      this.status = 200;
      this.dispatchEvent(new Event('load'));
    });
  }
}

/**
 * The app with the drawer's statechart to load, on a simulated clock: the survey's delays are scheduled by the app's
 * actor system, whose clock is its root's (startTestApp's root runs on real time).
 */
function startApp() {
  clock = new SimulatedClock();
  const machine = requestCreationMachine.provide({
    actors: {
      surveyConversation: surveyMachine.provide({
        actors: {
          beginSurvey: pendingCalls.logic(),
          fetchNextItem: pendingCalls.logic(),
          postAnswer: pendingCalls.logic(),
          submitSurvey: pendingCalls.logic(),
        },
      }),
    },
  });
  const appOnClock = appMachine.provide({
    actors: { session: signedInSession(USER), loadRequestCreation: fromPromise(async () => machine) },
  });
  app = createActor(appOnClock, { systemId: SYSTEM_IDS.app, clock }).start();
  session = sessionOf(app);
}

async function beginSurvey() {
  await waitFor(() => expect(session.getSnapshot().context.user).not.toBeNull());
  // What the Dashboard, a category page or Benefits & Offers do; the app loads the drawer and hands the survey over.
  act(() => app.send({ type: 'START_SURVEY', survey: SURVEY }));
  await waitFor(() => expect(app.getSnapshot().matches({ requestCreation: 'running' })).toBe(true));
  requestCreation = app.system.get(SYSTEM_IDS.requestCreation) as RequestCreationActor;
  survey = requestCreation.getSnapshot().children.survey;
  render(inApp(app, <RequestCreationDrawer actor={requestCreation} />));
}

const surveySnapshot = () => (survey as NonNullable<typeof survey>).getSnapshot();
const drawer = () => screen.getByRole('dialog', { name: SURVEY.name });
const continueButton = () => within(drawer()).getByRole('button', { name: /^Continue/ });
const saveButton = () => within(drawer()).getByRole('button', { name: /^Save/ });
/** SPEC §4, verbatim. */
const LEAVE_QUESTION = "Wait! You're almost there. Are you sure you want to stop now?";
const DISCARD_QUESTION = "Are you sure you want to cancel your edit and discard any changes you've made?";
/** A field named by its question (whose label may end with '(optional)'). */
const labelled = (label: string) => new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);
const answerRows = () => within(drawer()).queryByRole('list', { name: 'Your answers so far' });

function expectAnswersShown(snapshot: SurveySnapshot, container: HTMLElement) {
  for (const entry of snapshot.context.answered) {
    if (snapshot.context.edit?.questionId === entry.item.id) continue;
    const shown = entry.item.id === TEXT_Q.id ? entry.value : SHOWN_ANSWERS[entry.item.id];
    expect(within(container).getByText(entry.item.question.label)).toBeInTheDocument();
    expect(within(container).getByText(shown as string)).toBeInTheDocument();
    expect(within(container).getByRole('button', { name: `Edit your answer to ${entry.item.question.label}` })).toBeInTheDocument();
  }
}

// ---- What the user sees in each state ----

const states: StateAssertions<Machine> = {
  active: () => {
    expect(drawer()).toBeInTheDocument();
  },
  'active.conversation': (snapshot) => {
    const confirmed = conversationIs(snapshot, 'confirmation');
    expect(within(drawer()).queryByText(/has been added to your requests/) !== null).toBe(confirmed);
  },
  'active.conversation.beginning': () => {
    expect(within(drawer()).getByRole('progressbar', { name: 'Loading' })).toBeInTheDocument();
    expect(pendingCalls.inputOf('beginSurvey')).toEqual({ requestSurveyId: SURVEY.id });
  },
  'active.conversation.beginFailed': () => {
    expect(within(drawer()).getByRole('alert')).toHaveTextContent(SURVEY_MESSAGES.beginFailed);
    expect(within(drawer()).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
    // SPEC §7: begin errors are logged, and this app shows them too.
    expect(reportedErrors(sent).at(-1)).toEqual(FAILURE_REPORT);
  },
  'active.conversation.loadingNext': () => {
    expect(pendingCalls.inputOf('fetchNextItem')).toEqual({ userRequestSurveyId: SURVEY_SESSION_ID });
    expect(within(drawer()).queryByRole('button', { name: /^Continue/ })).not.toBeInTheDocument();
  },
  'active.conversation.loadingNext.waiting': () => {
    expect(screen.queryByText('The assistant is typing')).not.toBeInTheDocument();
  },
  'active.conversation.loadingNext.typing': () => {
    expect(within(drawer()).getByText('The assistant is typing')).toBeInTheDocument();
  },
  'active.conversation.nextFailed': () => {
    expect(within(drawer()).getByRole('alert')).toHaveTextContent(SURVEY_MESSAGES.nextFailed);
    expect(within(drawer()).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
    expect(reportedErrors(sent).at(-1)).toEqual(FAILURE_REPORT);
  },
  'active.conversation.asking': (snapshot) => {
    const { current, draft, fieldError, error } = snapshot.context;
    const item = current as NextScreenItem;
    expect(within(drawer()).getAllByText(item.question.label).length).toBeGreaterThan(0);
    // Issue 32: where the question stands.
    expect(drawer().querySelector('.lc-turn--current')).toHaveTextContent(`Question ${item.id} of 6`);
    // SPEC §5: Continue waits for an answer; only an optional question offers Skip.
    if (draft.value.trim() === '') expect(continueButton()).toBeDisabled();
    else expect(continueButton()).toBeEnabled();
    expect(within(drawer()).queryByRole('button', { name: 'Skip' }) !== null).toBe(item.optional);
    const turn = within(drawer().querySelector<HTMLElement>('.lc-turn--current') as HTMLElement);
    if (fieldError) expect(turn.getByText(fieldError)).toBeInTheDocument();
    if (error) expect(turn.getByRole('alert')).toHaveTextContent(SURVEY_MESSAGES.answerFailed);
    else expect(turn.queryByRole('alert')).not.toBeInTheDocument();
    const rows = answerRows();
    if (snapshot.context.answered.length > 0) expectAnswersShown(snapshot, rows as HTMLElement);
    else expect(rows).not.toBeInTheDocument();
    if (item.question.type === 'PhoneNumberInput') {
      // Pre-filled from what the user told us, masked (SPEC §5).
      expect(within(drawer()).getByRole('textbox', { name: labelled(item.question.label) })).toHaveValue('(212) 555-1212');
    }
    if (item.question.type === 'ManagedEmailInput') {
      expect(within(drawer()).getByRole('textbox', { name: labelled(item.question.label) })).toHaveValue(draft.value);
    }
  },
  'active.conversation.asking.idle': (snapshot) => {
    if (snapshot.context.current?.question.type === 'SingleUploadInput') {
      expect(within(drawer()).queryByText(PHOTO.name)).not.toBeInTheDocument();
      expect(continueButton()).toBeDisabled();
    }
  },
  'active.conversation.asking.uploadSettling': () => {
    expect(within(drawer()).getByText(PHOTO.name)).toBeInTheDocument();
    expect(within(drawer()).getByRole('progressbar', { name: /Uploaded/ })).toHaveAttribute('aria-valuenow', '100');
    expect(continueButton()).toBeEnabled();
  },
  'active.conversation.answering': (snapshot) => {
    const questionId = snapshot.context.pending?.questionId as number;
    expect(continueButton()).toHaveAttribute('aria-busy', 'true');
    expect(pendingCalls.inputOf('postAnswer')).toEqual({
      userRequestSurveyId: SURVEY_SESSION_ID,
      questionId,
      value: SENT_VALUES[questionId],
    });
  },
  'active.conversation.review': (snapshot) => {
    const summary = within(drawer()).getByRole('region', { name: 'Review your request' });
    expectAnswersShown(snapshot, summary);
    expect(answerRows()).not.toBeInTheDocument();
    const submit = within(summary).getByRole('button', { name: /^(Submit|Finish editing above)$/ });
    if (snapshot.context.edit) {
      // SPEC §4: no submitting while an answer is being edited.
      expect(submit).toHaveTextContent('Finish editing above');
      expect(submit).toBeDisabled();
    } else {
      expect(submit).toHaveTextContent('Submit');
      expect(submit).toBeEnabled();
    }
    if (snapshot.context.error) expect(within(summary).getByRole('alert')).toHaveTextContent(SURVEY_MESSAGES.submitFailed);
  },
  'active.conversation.submitting': () => {
    const submit = within(drawer()).getByRole('button', { name: /Submitting/ });
    expect(submit).toHaveAttribute('aria-busy', 'true');
    expect(pendingCalls.inputOf('submitSurvey')).toEqual({ userRequestSurveyId: SURVEY_SESSION_ID });
  },
  'active.conversation.confirmation': async () => {
    expect(within(drawer()).getByRole('heading', { name: 'Anything else has been added to your requests' })).toBeInTheDocument();
    expect(within(drawer()).getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard');
    expect(within(drawer()).getByRole('link', { name: 'Requests' })).toHaveAttribute('href', '/requests');
    expect(within(drawer()).getByRole('link', { name: 'Open request' })).toHaveAttribute('href', `/requests/${SUBMITTED.id}`);
    // SPEC §4: the first-ever request is celebrated.
    expect(document.querySelector('.lc-confetti')).not.toBeNull();
    expect(await trackedEvents(sent)).toEqual([
      { name: 'request_survey_submit', properties: { survey_id: SURVEY.id, survey_name: SURVEY.name } },
    ]);
    // SPEC §3: request_count is incremented locally.
    expect(session.getSnapshot().context.user?.request_count).toBe(1);
  },
  'active.edit': () => {},
  'active.edit.idle': () => {
    expect(within(drawer()).queryByRole('button', { name: /^Save/ })).not.toBeInTheDocument();
  },
  'active.edit.editing': (snapshot) => {
    const edit = snapshot.context.edit!;
    if (edit.questionId === UPLOAD_Q.id) {
      const turn = within(drawer().querySelector<HTMLElement>('.lc-turn--editing') as HTMLElement);
      // The answer's file is named until another one is uploaded; Save waits for a file.
      const kept = turn.queryByText(`Current file: ${edit.original.fileName}`);
      if (edit.draft.value === edit.original.value) expect(kept).toBeInTheDocument();
      else expect(kept).not.toBeInTheDocument();
      if (edit.draft.fileName === RECEIPT.name) expect(turn.getByRole('progressbar', { name: 'Uploaded' })).toBeInTheDocument();
      else expect(turn.queryByRole('progressbar')).not.toBeInTheDocument();
      expect(saveButton()).toHaveProperty('disabled', edit.draft.value === '');
    } else {
      expect(within(drawer()).getByRole('textbox', { name: labelled(TEXT_Q.question.label) })).toHaveValue(edit.draft.value);
      expect(saveButton()).toBeEnabled();
    }
    expect(within(drawer()).getByRole('button', { name: 'Cancel' })).toBeEnabled();
    if (edit.error) expect(within(drawer()).getByRole('alert')).toHaveTextContent(SURVEY_MESSAGES.answerFailed);
    expect(screen.queryByText(DISCARD_QUESTION)).not.toBeInTheDocument();
  },
  'active.edit.confirmingDiscard': () => {
    const dialog = screen.getByRole('alertdialog', { name: DISCARD_QUESTION });
    expect(within(dialog).getByRole('button', { name: 'No, keep editing' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Yes, discard changes' })).toBeInTheDocument();
  },
  'active.edit.saving': () => {
    expect(saveButton()).toHaveAttribute('aria-busy', 'true');
    expect(pendingCalls.inputOf('saveEdit')).toEqual({ userRequestSurveyId: SURVEY_SESSION_ID, questionId: TEXT_Q.id, value: EDITED_ANSWER });
  },
  'active.leaving': () => {},
  'active.leaving.idle': () => {
    expect(screen.queryByText(LEAVE_QUESTION)).not.toBeInTheDocument();
  },
  'active.leaving.confirming': () => {
    const dialog = screen.getByRole('alertdialog', { name: LEAVE_QUESTION });
    expect(within(dialog).getByRole('button', { name: 'No, stay' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Yes, cancel' })).toBeInTheDocument();
  },
  cancelled: () => {
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(requestCreation.getSnapshot().value).toBe('closed');
    expect(session.getSnapshot().context.user?.request_count).toBe(0);
  },
  closed: () => {
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(requestCreation.getSnapshot().value).toBe('closed');
  },
};

// ---- What the user does for each event ----

async function replaceText(field: HTMLElement, value: string) {
  await user.clear(field);
  await user.type(field, value);
}

const currentField = (snapshot: SurveySnapshot) =>
  within(drawer()).getByRole('textbox', { name: labelled(snapshot.context.current!.question.label) });

const settle = (event: ModelEvent) => pendingCalls.settle(event);

const events: EventExecutors<Machine> = {
  'xstate.done.actor.beginSurvey': ({ event }) => settle(event),
  'xstate.error.actor.beginSurvey': ({ event }) => settle(event),
  'xstate.done.actor.fetchNextItem': ({ event }) => settle(event),
  'xstate.error.actor.fetchNextItem': ({ event }) => settle(event),
  'xstate.done.actor.postAnswer': ({ event }) => settle(event),
  'xstate.error.actor.postAnswer': ({ event }) => settle(event),
  'xstate.done.actor.submitSurvey': ({ event }) => settle(event),
  'xstate.error.actor.submitSurvey': ({ event }) => settle(event),
  'xstate.done.actor.saveEdit': ({ event }) => settle(event),
  'xstate.error.actor.saveEdit': ({ event }) => settle(event),
  RETRY: async () => {
    await user.click(within(drawer()).getByRole('button', { name: 'Try again' }));
  },
  'xstate.after.typingIndicator.survey.active.conversation.loadingNext.waiting': () => {
    // SPEC §9: not a moment before 250 ms.
    act(() => clock.increment(TYPING_INDICATOR_DELAY_MS - 1));
    expect(screen.queryByText('The assistant is typing')).not.toBeInTheDocument();
    act(() => clock.increment(1));
  },
  CHANGE: async ({ event, state }) => {
    const value = event.value as string;
    if (state.context.current?.question.type === 'SingleSelectInput') {
      const label = state.context.current.question.select_options?.find((option) => option.value === value)?.label as string;
      await user.click(within(drawer()).getByRole('radio', { name: label }));
    } else {
      await replaceText(currentField(state), value);
    }
  },
  ANSWER: async () => {
    await user.click(continueButton());
  },
  SKIP: async () => {
    await user.click(within(drawer()).getByRole('button', { name: 'Skip' }));
  },
  UPLOADED: async ({ event }) => {
    const isEdit = event.uploadId === SURVEY_UPLOADS.edit;
    const file = isEdit ? RECEIPT : PHOTO;
    const turn = drawer().querySelector<HTMLElement>(isEdit ? '.lc-turn--editing' : '.lc-turn--current') as HTMLElement;
    await user.upload(turn.querySelector<HTMLInputElement>('input[type="file"]') as HTMLInputElement, file);
    const uploaded: AnswerDraft = { value: UPLOAD_KEY, fileName: file.name };
    await waitFor(() => expect(isEdit ? surveySnapshot().context.edit?.draft : surveySnapshot().context.draft).toEqual(uploaded));
    // Presigned without a request: the request does not exist yet.
    expect(sent.filter(({ path }) => path === 'uploads/presigned_url').at(-1)).toMatchObject({
      method: 'POST',
      body: { upload: { filename: file.name } },
    });
  },
  UPLOAD_CLEARED: async ({ event }) => {
    const name = event.uploadId === SURVEY_UPLOADS.edit ? RECEIPT.name : PHOTO.name;
    await user.click(within(drawer()).getByRole('button', { name: `Remove ${name}` }));
  },
  'xstate.after.uploadAnswer.survey.active.conversation.asking.uploadSettling': () => {
    // SPEC §9: the file becomes the answer 200 ms after it was chosen, by itself.
    act(() => clock.increment(UPLOAD_ANSWER_DELAY_MS - 1));
    expect(surveySnapshot().matches('active.conversation.asking.uploadSettling' as never)).toBe(true);
    act(() => clock.increment(1));
  },
  EDIT: async ({ event }) => {
    const { question } = QUESTIONS.find((item) => item.id === event.questionId) as NextScreenItem;
    await user.click(within(drawer()).getByRole('button', { name: `Edit your answer to ${question.label}` }));
  },
  CHANGE_EDIT: async ({ event }) => {
    await replaceText(within(drawer()).getByRole('textbox', { name: labelled(TEXT_Q.question.label) }), event.value as string);
  },
  SAVE_EDIT: async () => {
    await user.click(saveButton());
  },
  CANCEL_EDIT: async () => {
    await user.click(within(drawer()).getByRole('button', { name: 'Cancel' }));
  },
  KEEP_EDITING: async () => {
    await user.click(screen.getByRole('button', { name: 'No, keep editing' }));
  },
  DISCARD_EDIT: async () => {
    await user.click(screen.getByRole('button', { name: 'Yes, discard changes' }));
  },
  SUBMIT: async () => {
    await user.click(within(drawer()).getByRole('button', { name: 'Submit' }));
  },
  CLOSE: async ({ state }) => {
    // Escape while a question is asked; the drawer's Close button otherwise (SPEC §4: both ask first).
    if (conversationIs(state, 'asking')) await user.keyboard('{Escape}');
    else await user.click(within(drawer()).getByRole('button', { name: 'Close' }));
  },
  STAY: async () => {
    await user.click(screen.getByRole('button', { name: 'No, stay' }));
  },
  CONFIRM_CANCEL: async () => {
    await user.click(screen.getByRole('button', { name: 'Yes, cancel' }));
  },
};

beforeEach(() => {
  // The confirmation dialogs hide the drawer from assistive technology while they are open (as a modal should);
  // the assertions still read what stays on screen behind them.
  configure({ defaultHidden: true });
  user = userEvent.setup();
  ({ sent } = fakeNetwork([
    {
      method: 'POST',
      path: /^uploads\/presigned_url$/,
      answer: () => ({ presigned_url: `/api/storage/${UPLOAD_KEY}?signature=s`, key: UPLOAD_KEY }),
    },
    ANALYTICS_ROUTE,
    ERROR_REPORTS_ROUTE,
  ]));
  vi.stubGlobal('XMLHttpRequest', AutoAnsweringXhr);
  URL.createObjectURL = vi.fn(() => 'blob:preview');
  URL.revokeObjectURL = vi.fn();
  startApp();
});

afterEach(async () => {
  // What this test tracked leaves now, not in the next test.
  await flushAnalytics();
  configure({ defaultHidden: false });
  app.stop();
  pendingCalls.clear();
  vi.unstubAllGlobals();
});

describe('survey conversation against the request creation drawer', () => {
  it.each(titled)('$title', async ({ path }) => {
    await beginSurvey();
    await runPath(path, surveySnapshot, states, events);
    // Every failed call is reported once, and nothing else is.
    const failures = path.steps.filter(({ event }) => event.type.startsWith('xstate.error')).length;
    await waitFor(() => expect(reportedErrors(sent)).toEqual(Array(failures).fill(FAILURE_REPORT)));
  });
});

describe('survey model coverage', () => {
  it('covers every state and event', () => {
    expectFullCoverage(surveyMachine, paths, states, events);
  });

  it('walks every path the issue names', () => {
    const titles = titled.map(({ title }) => title);
    const scenarios: Record<string, RegExp> = {
      answer: /ANSWER → xstate\.done\.actor\.postAnswer/,
      skip: /SKIP → xstate\.done\.actor\.postAnswer ""/,
      'edit in the conversation': /^(?!.*fetchNextItem null).*EDIT \{"questionId":1\}/,
      'edit on the summary': /fetchNextItem null.* EDIT \{"questionId":1\}/,
      'discard confirmed': /CANCEL_EDIT → DISCARD_EDIT/,
      'discard refused': /CANCEL_EDIT → KEEP_EDITING/,
      'cancel confirmed': /CLOSE → CONFIRM_CANCEL/,
      'cancel refused': /CLOSE → STAY/,
      'closed while submitting, then submitted': /SUBMIT → CLOSE → xstate\.done\.actor\.submitSurvey \(while the cancel question is open\)/,
      'typing indicator': /after typingIndicator/,
      'upload delay': /UPLOADED .* → after uploadAnswer/,
      'an upload answer edited, its new file removed': /UPLOADED \{"uploadId":"editUpload".* → UPLOAD_CLEARED \{"uploadId":"editUpload"\}/,
      submit: /xstate\.done\.actor\.submitSurvey/,
      'submit failure': /xstate\.error\.actor\.submitSurvey \(failed\)/,
      'answer failure': /xstate\.error\.actor\.postAnswer \(failed\)/,
      'begin failure': /xstate\.error\.actor\.beginSurvey \(failed\)/,
    };
    expectScenariosWalked(titles, scenarios);
  });
});
