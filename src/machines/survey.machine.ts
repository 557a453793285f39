import { type ErrorActorEvent, and, assign, enqueueActions, fromPromise, or, sendTo, setup, stateIn, stopChild } from 'xstate';
import {
  type NextScreenItem,
  type SubmittedRequest,
  checkAnswer,
  formatPhone,
  phoneDigits,
} from '../contract/surveys.ts';
import { track } from '../services/analytics.ts';
import { reportError } from '../services/errorReporting.ts';
import { serverMessage } from '../services/http.ts';
import {
  type StoredAnswer,
  answerQuestion,
  beginSurvey,
  fetchNextScreenItem,
  submitSurvey,
} from '../services/surveys.ts';
import { theParent } from './system.ts';
import { type UploadReport, uploadMachine } from './upload.machine.ts';

/** SPEC §9: the typing indicator shows when the next question takes longer than this. */
export const TYPING_INDICATOR_DELAY_MS = 250;
/** SPEC §9: after a file is chosen (and uploaded) in an upload question, the answer is given this much later. */
export const UPLOAD_ANSWER_DELAY_MS = 200;

/** What a survey is begun with: a request template (its id and name). */
export interface SurveyTemplate {
  id: number;
  name: string;
}

export interface SurveyInput {
  survey: SurveyTemplate;
  /** The user has never created a request: the confirmation celebrates with confetti. */
  firstRequest: boolean;
}

/** What is typed or chosen for a question, before it is sent. */
export interface AnswerDraft {
  /** Text as typed (a phone as masked), an option value, or an upload key. */
  value: string;
  /** The chosen file's name (upload questions); empty otherwise. */
  fileName: string;
}

/** SPEC §3 local question state of an answered or skipped question. */
export interface AnsweredQuestion {
  item: NextScreenItem;
  /** As the server stored it: trimmed text, a 10-digit phone, an option value, an upload key; '' when skipped. */
  value: string;
  /** How the answer reads (SPEC "customAnswerDisplay"): the option's label, the masked phone, the file name. */
  display: string;
  skipped: boolean;
}

/** An earlier answer being changed. */
export interface AnswerEdit {
  questionId: number;
  /** The draft the edit started from: the edit "changed" once the draft differs from it. */
  original: AnswerDraft;
  draft: AnswerDraft;
  /** The answer breaks a SPEC §5 rule (shown on the field). */
  fieldError: string | null;
  /** Saving failed on the server's side (shown as an error message). */
  error: string | null;
}

/** The answer on its way to the server. */
interface PendingAnswer {
  questionId: number;
  value: string;
  fileName: string;
}

export interface SurveyContext {
  survey: SurveyTemplate;
  firstRequest: boolean;
  /** The survey session ("user request survey"), once begun. */
  userRequestSurveyId: number | null;
  answered: AnsweredQuestion[];
  /** The question being asked. */
  current: NextScreenItem | null;
  draft: AnswerDraft;
  pending: PendingAnswer | null;
  /** The current answer breaks a SPEC §5 rule. */
  fieldError: string | null;
  /** A call of the conversation failed; shown with a way to try again. */
  error: string | null;
  edit: AnswerEdit | null;
  /** The request the survey became. */
  request: SubmittedRequest | null;
}

/**
 * The uploads of upload questions (child actors): the question being asked, and the answer being edited. Their
 * files are presigned without a request: the request does not exist yet.
 */
export const SURVEY_UPLOADS = { question: 'upload', edit: 'editUpload' } as const;

export type SurveyEvent =
  /** The current answer is typed or chosen. */
  | { type: 'CHANGE'; value: string }
  /** From either upload (`uploadId`): a file was uploaded, or the uploaded one removed. */
  | UploadReport
  | { type: 'ANSWER' }
  | { type: 'SKIP' }
  | { type: 'RETRY' }
  | { type: 'EDIT'; questionId: number }
  | { type: 'CHANGE_EDIT'; value: string }
  | { type: 'SAVE_EDIT' }
  | { type: 'CANCEL_EDIT' }
  | { type: 'KEEP_EDITING' }
  | { type: 'DISCARD_EDIT' }
  | { type: 'SUBMIT' }
  /** The drawer is closed (close button, Escape or backdrop). */
  | { type: 'CLOSE' }
  | { type: 'STAY' }
  | { type: 'CONFIRM_CANCEL' };

/** Told to the actor that began the survey. */
export interface SurveySubmittedEvent {
  type: 'SURVEY_SUBMITTED';
  request: SubmittedRequest;
}

export interface PostAnswerInput {
  userRequestSurveyId: number;
  questionId: number;
  value: string;
}

/** Failure messages of the conversation (SPEC §8 leaves them open); the server's own error wins when it gives one. */
export const SURVEY_MESSAGES = {
  beginFailed: 'We could not start your request. Please try again.',
  nextFailed: 'We could not load the next question. Please try again.',
  answerFailed: 'We could not save your answer. Please try again.',
  submitFailed: 'We could not submit your request. Please try again.',
} as const;

const EMPTY_DRAFT: AnswerDraft = { value: '', fileName: '' };

/** The draft a question starts with: what the user already told us (SPEC §3 universal_answer), a phone masked. */
function draftFor(item: NextScreenItem): AnswerDraft {
  const known = item.universal_answer ?? '';
  const digits = item.question.type === 'PhoneNumberInput' ? phoneDigits(known) : null;
  return { value: digits ? formatPhone(digits) : known, fileName: '' };
}

/** How a stored answer reads. */
export function answerDisplay(item: NextScreenItem, value: string, fileName: string): string {
  switch (item.question.type) {
    case 'SingleSelectInput':
      return item.question.select_options?.find((option) => option.value === value)?.label ?? value;
    case 'PhoneNumberInput': {
      const digits = phoneDigits(value);
      return digits ? formatPhone(digits) : value;
    }
    case 'SingleUploadInput':
      return fileName || value;
    default:
      return value;
  }
}

/** The draft an edit of an earlier answer starts from. */
function draftOf(entry: AnsweredQuestion): AnswerDraft {
  const isPhone = entry.item.question.type === 'PhoneNumberInput';
  return {
    value: isPhone ? entry.display : entry.value,
    fileName: entry.item.question.type === 'SingleUploadInput' ? entry.display : '',
  };
}

/** The answered list with this answer in its place (answering again replaces). */
function withAnswer(answered: AnsweredQuestion[], entry: AnsweredQuestion): AnsweredQuestion[] {
  const index = answered.findIndex((candidate) => candidate.item.id === entry.item.id);
  return index === -1 ? [...answered, entry] : answered.map((candidate, at) => (at === index ? entry : candidate));
}

function entryFromStored(item: NextScreenItem, stored: StoredAnswer, fileName: string): AnsweredQuestion {
  return { item, value: stored.value, display: answerDisplay(item, stored.value, fileName), skipped: stored.value === '' };
}

function questionOf(context: SurveyContext, questionId: number): NextScreenItem | undefined {
  return context.answered.find((entry) => entry.item.id === questionId)?.item;
}

const failureOf = ({ event }: { event: ErrorActorEvent }) => ({ error: event.error });
const QUESTION_UPLOAD = { type: 'isFrom', params: { uploadId: SURVEY_UPLOADS.question } } as const;
const EDIT_UPLOAD = { type: 'isFrom', params: { uploadId: SURVEY_UPLOADS.edit } } as const;

export const surveyMachine = setup({
  types: {
    context: {} as SurveyContext,
    events: {} as SurveyEvent,
    input: {} as SurveyInput,
    children: {} as {
      upload: 'upload';
      editUpload: 'upload';
      beginSurvey: 'beginSurvey';
      fetchNextItem: 'fetchNextItem';
      postAnswer: 'postAnswer';
      saveEdit: 'postAnswer';
      submitSurvey: 'submitSurvey';
    },
  },
  actors: {
    upload: uploadMachine,
    beginSurvey: fromPromise<number, { requestSurveyId: number }>(({ input }) => beginSurvey(input.requestSurveyId)),
    fetchNextItem: fromPromise<NextScreenItem | null, { userRequestSurveyId: number }>(({ input }) =>
      fetchNextScreenItem(input.userRequestSurveyId),
    ),
    postAnswer: fromPromise<StoredAnswer, PostAnswerInput>(({ input }) =>
      answerQuestion(input.userRequestSurveyId, input.questionId, input.value),
    ),
    submitSurvey: fromPromise<SubmittedRequest, { userRequestSurveyId: number }>(({ input }) =>
      submitSurvey(input.userRequestSurveyId),
    ),
  },
  delays: {
    typingIndicator: TYPING_INDICATOR_DELAY_MS,
    uploadAnswer: UPLOAD_ANSWER_DELAY_MS,
  },
  guards: {
    hasNextItem: (_, { item }: { item: NextScreenItem | null }) => item !== null,
    currentIsOptional: ({ context }) => context.current?.optional === true,
    /** SPEC §5: Continue waits for an answer (for an upload, a file). */
    draftIsFilled: ({ context }) => context.draft.value.trim() !== '',
    editIsFilled: ({ context }) => context.edit !== null && context.edit.draft.value.trim() !== '',
    answerBreaksRule: ({ context }) =>
      context.current === null || !checkAnswer(context.current.question, context.draft.value).ok,
    editBreaksRule: ({ context }) => {
      const question = context.edit && questionOf(context, context.edit.questionId);
      return !question || !context.edit || !checkAnswer(question.question, context.edit.draft.value).ok;
    },
    editChanged: ({ context }) =>
      context.edit !== null &&
      (context.edit.draft.value !== context.edit.original.value || context.edit.draft.fileName !== context.edit.original.fileName),
    noEditOpen: ({ context }) => context.edit === null,
    isAnswered: ({ context, event }) =>
      event.type === 'EDIT' && context.answered.some((entry) => entry.item.id === event.questionId),
    /** Earlier answers are edited while a question waits for its answer, or on the summary. */
    conversationAllowsEdits: or([
      stateIn('#survey.active.conversation.asking'),
      stateIn('#survey.active.conversation.review'),
    ]),
    isConfirmed: stateIn('#survey.active.conversation.confirmation'),
    isFrom: ({ event }, { uploadId }: { uploadId: string }) => 'uploadId' in event && event.uploadId === uploadId,
  },
  actions: {
    /** SPEC §7: begin and answer errors are logged; this app also shows every one of them. */
    logFailure: (_, { error }: { error: unknown }) => {
      void reportError(error, { component: 'SurveyConversation', feature: 'request creation' });
    },
    trackSubmission: ({ context }) =>
      track('request_survey_submit', { survey_id: context.survey.id, survey_name: context.survey.name }),
    /** Tells the actor that began the survey (the request creation drawer); a survey run on its own has none. */
    announceSubmission: sendTo(
      theParent,
      ({ context }) => ({ type: 'SURVEY_SUBMITTED', request: context.request as SubmittedRequest }) satisfies SurveySubmittedEvent,
    ),
    assignFailure: assign((_, { error, fallback }: { error: unknown; fallback: string }) => ({
      error: serverMessage(error, fallback),
    })),
    clearError: assign({ error: null }),
    askNext: assign((_, { item }: { item: NextScreenItem }) => ({
      current: item,
      draft: draftFor(item),
      fieldError: null,
      error: null,
    })),
    /** An upload question gets its own uploader; it goes once the question is answered (see loadingNext). */
    startQuestionUpload: enqueueActions(({ enqueue }, { item }: { item: NextScreenItem }) => {
      if (item.question.type === 'SingleUploadInput') enqueue.spawnChild('upload', { id: SURVEY_UPLOADS.question, input: { presign: {} } });
    }),
    stopQuestionUpload: stopChild(SURVEY_UPLOADS.question),
    changeDraft: assign(({ context, event }) =>
      event.type === 'CHANGE' ? { draft: { ...context.draft, value: event.value }, fieldError: null } : {},
    ),
    takeUpload: assign(({ event }) =>
      event.type === 'UPLOADED' ? { draft: { value: event.key, fileName: event.fileName }, fieldError: null } : {},
    ),
    clearDraft: assign({ draft: EMPTY_DRAFT }),
    refuseAnswer: assign(({ context }) => {
      const check = context.current && checkAnswer(context.current.question, context.draft.value);
      return { fieldError: check && !check.ok ? check.error : null };
    }),
    prepareAnswer: assign(({ context }) => {
      const current = context.current as NextScreenItem;
      const check = checkAnswer(current.question, context.draft.value);
      return {
        pending: { questionId: current.id, value: check.ok ? check.value : '', fileName: context.draft.fileName },
        error: null,
      };
    }),
    prepareSkip: assign(({ context }) => ({
      pending: { questionId: (context.current as NextScreenItem).id, value: '', fileName: '' },
      error: null,
    })),
    commitAnswer: assign(({ context }, { stored }: { stored: StoredAnswer }) => {
      const item = context.current as NextScreenItem;
      return {
        answered: withAnswer(context.answered, entryFromStored(item, stored, context.pending?.fileName ?? '')),
        current: null,
        draft: EMPTY_DRAFT,
        pending: null,
      };
    }),
    keepRequest: assign((_, { request }: { request: SubmittedRequest }) => ({ request, error: null })),
    openEdit: assign(({ context, event }) => {
      if (event.type !== 'EDIT') return {};
      const entry = context.answered.find((candidate) => candidate.item.id === event.questionId) as AnsweredQuestion;
      const draft = draftOf(entry);
      return { edit: { questionId: event.questionId, original: draft, draft, fieldError: null, error: null } };
    }),
    /** The edit of an upload answer gets its own uploader; it goes when the edit ends (see edit.idle). */
    startEditUpload: enqueueActions(({ context, event, enqueue }) => {
      const question = event.type === 'EDIT' ? questionOf(context, event.questionId) : undefined;
      if (question?.question.type === 'SingleUploadInput') enqueue.spawnChild('upload', { id: SURVEY_UPLOADS.edit, input: { presign: {} } });
    }),
    stopEditUpload: stopChild(SURVEY_UPLOADS.edit),
    changeEdit: assign(({ context, event }) => {
      if (event.type !== 'CHANGE_EDIT' || !context.edit) return {};
      return { edit: { ...context.edit, draft: { ...context.edit.draft, value: event.value }, fieldError: null } };
    }),
    /** The edit's uploader uploaded a file (the new answer), or the file it uploaded was removed (no answer). */
    takeEditUpload: assign(({ context, event }) => {
      if (!context.edit) return {};
      const draft = event.type === 'UPLOADED' ? { value: event.key, fileName: event.fileName } : EMPTY_DRAFT;
      return { edit: { ...context.edit, draft, fieldError: null } };
    }),
    refuseEdit: assign(({ context }) => {
      if (!context.edit) return {};
      const question = questionOf(context, context.edit.questionId);
      const check = question && checkAnswer(question.question, context.edit.draft.value);
      return { edit: { ...context.edit, fieldError: check && !check.ok ? check.error : null } };
    }),
    failEdit: assign(({ context }, { error }: { error: unknown }) =>
      context.edit ? { edit: { ...context.edit, error: serverMessage(error, SURVEY_MESSAGES.answerFailed) } } : {},
    ),
    commitEdit: assign(({ context }, { stored }: { stored: StoredAnswer }) => {
      const edit = context.edit as AnswerEdit;
      const item = questionOf(context, edit.questionId) as NextScreenItem;
      return { answered: withAnswer(context.answered, entryFromStored(item, stored, edit.draft.fileName)), edit: null };
    }),
    closeEdit: assign({ edit: null }),
  },
}).createMachine({
  id: 'survey',
  context: ({ input }) => ({
    survey: input.survey,
    firstRequest: input.firstRequest,
    userRequestSurveyId: null,
    answered: [],
    current: null,
    draft: EMPTY_DRAFT,
    pending: null,
    fieldError: null,
    error: null,
    edit: null,
    request: null,
  }),
  initial: 'active',
  states: {
    active: {
      type: 'parallel',
      states: {
        /** SPEC §4: begin, then one question at a time, then the summary, submission and confirmation. */
        conversation: {
          initial: 'beginning',
          states: {
            beginning: {
              tags: ['busy'],
              invoke: {
                id: 'beginSurvey',
                src: 'beginSurvey',
                input: ({ context }) => ({ requestSurveyId: context.survey.id }),
                onDone: {
                  target: 'loadingNext',
                  actions: assign({ userRequestSurveyId: ({ event }) => event.output, error: null }),
                },
                onError: {
                  target: 'beginFailed',
                  actions: [
                    { type: 'logFailure', params: failureOf },
                    { type: 'assignFailure', params: ({ event }) => ({ error: event.error, fallback: SURVEY_MESSAGES.beginFailed }) },
                  ],
                },
              },
            },
            beginFailed: {
              on: { RETRY: { target: 'beginning', actions: 'clearError' } },
            },
            loadingNext: {
              tags: ['busy'],
              entry: 'stopQuestionUpload',
              initial: 'waiting',
              invoke: {
                id: 'fetchNextItem',
                src: 'fetchNextItem',
                input: ({ context }) => ({ userRequestSurveyId: context.userRequestSurveyId as number }),
                // SPEC §4: no next item means the survey is complete.
                onDone: [
                  {
                    guard: { type: 'hasNextItem', params: ({ event }) => ({ item: event.output }) },
                    target: 'asking',
                    actions: [
                      { type: 'askNext', params: ({ event }) => ({ item: event.output as NextScreenItem }) },
                      { type: 'startQuestionUpload', params: ({ event }) => ({ item: event.output as NextScreenItem }) },
                    ],
                  },
                  { target: 'review' },
                ],
                onError: {
                  target: 'nextFailed',
                  actions: [
                    { type: 'logFailure', params: failureOf },
                    { type: 'assignFailure', params: ({ event }) => ({ error: event.error, fallback: SURVEY_MESSAGES.nextFailed }) },
                  ],
                },
              },
              states: {
                waiting: { after: { typingIndicator: 'typing' } },
                /** SPEC §4/§9: the next question is taking over 250 ms. */
                typing: { tags: ['typing'] },
              },
            },
            nextFailed: {
              on: { RETRY: { target: 'loadingNext', actions: 'clearError' } },
            },
            asking: {
              initial: 'idle',
              on: {
                CHANGE: { actions: 'changeDraft' },
                UPLOAD_CLEARED: { guard: QUESTION_UPLOAD, target: '.idle', actions: 'clearDraft' },
                ANSWER: [
                  { guard: and(['draftIsFilled', 'answerBreaksRule']), actions: 'refuseAnswer' },
                  { guard: 'draftIsFilled', target: 'answering', actions: 'prepareAnswer' },
                ],
                SKIP: { guard: 'currentIsOptional', target: 'answering', actions: 'prepareSkip' },
              },
              states: {
                idle: {
                  on: { UPLOADED: { guard: QUESTION_UPLOAD, target: 'uploadSettling', actions: 'takeUpload' } },
                },
                /**
                 * SPEC §4/§9: the uploaded file becomes the answer 200 ms after it was chosen. Another file chosen
                 * meanwhile starts over: its upload first tells the survey the uploaded file is gone (back to idle).
                 */
                uploadSettling: {
                  after: { uploadAnswer: { target: '#survey.active.conversation.answering', actions: 'prepareAnswer' } },
                },
              },
            },
            answering: {
              tags: ['busy'],
              invoke: {
                id: 'postAnswer',
                src: 'postAnswer',
                input: ({ context }) => ({
                  userRequestSurveyId: context.userRequestSurveyId as number,
                  questionId: (context.pending as PendingAnswer).questionId,
                  value: (context.pending as PendingAnswer).value,
                }),
                onDone: { target: 'loadingNext', actions: { type: 'commitAnswer', params: ({ event }) => ({ stored: event.output }) } },
                onError: {
                  target: 'asking',
                  actions: [
                    { type: 'logFailure', params: failureOf },
                    { type: 'assignFailure', params: ({ event }) => ({ error: event.error, fallback: SURVEY_MESSAGES.answerFailed }) },
                    assign({ pending: null }),
                  ],
                },
              },
            },
            /** SPEC §4: every answer, each editable; Submit waits until no answer is being edited. */
            review: {
              on: { SUBMIT: { guard: 'noEditOpen', target: 'submitting', actions: 'clearError' } },
            },
            submitting: {
              tags: ['busy'],
              invoke: {
                id: 'submitSurvey',
                src: 'submitSurvey',
                input: ({ context }) => ({ userRequestSurveyId: context.userRequestSurveyId as number }),
                onDone: {
                  target: 'confirmation',
                  actions: [
                    { type: 'keepRequest', params: ({ event }) => ({ request: event.output }) },
                    'trackSubmission',
                    'announceSubmission',
                  ],
                },
                onError: {
                  target: 'review',
                  actions: [
                    { type: 'logFailure', params: failureOf },
                    { type: 'assignFailure', params: ({ event }) => ({ error: event.error, fallback: SURVEY_MESSAGES.submitFailed }) },
                  ],
                },
              },
            },
            /** '<name> has been added to your requests'; confetti when it was the first. */
            confirmation: {},
          },
        },

        /** One earlier answer at a time is edited, in the conversation or on the summary. */
        edit: {
          initial: 'idle',
          states: {
            idle: {
              entry: 'stopEditUpload',
              on: {
                EDIT: {
                  guard: and(['isAnswered', 'conversationAllowsEdits']),
                  target: 'editing',
                  actions: ['openEdit', 'startEditUpload'],
                },
              },
            },
            editing: {
              on: {
                CHANGE_EDIT: { actions: 'changeEdit' },
                UPLOADED: { guard: EDIT_UPLOAD, actions: 'takeEditUpload' },
                UPLOAD_CLEARED: { guard: EDIT_UPLOAD, actions: 'takeEditUpload' },
                SAVE_EDIT: [
                  { guard: and(['editIsFilled', 'editBreaksRule']), actions: 'refuseEdit' },
                  { guard: 'editIsFilled', target: 'saving' },
                ],
                CANCEL_EDIT: [{ guard: 'editChanged', target: 'confirmingDiscard' }, { target: 'idle', actions: 'closeEdit' }],
              },
            },
            /** 'Are you sure you want to cancel your edit and discard any changes you've made?' */
            confirmingDiscard: {
              on: {
                KEEP_EDITING: 'editing',
                DISCARD_EDIT: { target: 'idle', actions: 'closeEdit' },
              },
            },
            saving: {
              tags: ['busy'],
              invoke: {
                id: 'saveEdit',
                src: 'postAnswer',
                input: ({ context }) => {
                  const edit = context.edit as AnswerEdit;
                  const question = questionOf(context, edit.questionId) as NextScreenItem;
                  const check = checkAnswer(question.question, edit.draft.value);
                  return {
                    userRequestSurveyId: context.userRequestSurveyId as number,
                    questionId: edit.questionId,
                    value: check.ok ? check.value : '',
                  };
                },
                onDone: { target: 'idle', actions: { type: 'commitEdit', params: ({ event }) => ({ stored: event.output }) } },
                onError: {
                  target: 'editing',
                  actions: [{ type: 'logFailure', params: failureOf }, { type: 'failEdit', params: failureOf }],
                },
              },
            },
          },
        },

        /** SPEC §4: closing before the confirmation asks 'Wait! You're almost there. Are you sure you want to stop now?' */
        leaving: {
          initial: 'idle',
          states: {
            idle: {
              on: {
                CLOSE: [{ guard: 'isConfirmed', target: '#survey.closed' }, { target: 'confirming' }],
              },
            },
            confirming: {
              // Closed while submitting, and the request got through: nothing is left to lose, so nothing to ask.
              always: { guard: 'isConfirmed', target: 'idle' },
              on: {
                STAY: 'idle',
                CONFIRM_CANCEL: '#survey.cancelled',
              },
            },
          },
        },
      },
    },
    /** The user stopped before submitting. */
    cancelled: { type: 'final' },
    /** The drawer was closed after the confirmation. */
    closed: { type: 'final' },
  },
});
