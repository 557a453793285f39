import { type ActorRefFrom, type SnapshotFrom, assertEvent, assign, fromPromise, setup, stopChild } from 'xstate';
import {
  type AdminQuestion,
  type AdminSurveyCategory,
  type AdminTemplate,
  type CreateTemplateRequest,
  type QuestionInput,
  createTemplateRequest,
  replaceQuestionsRequest,
} from '../contract/adminCatalogue.ts';
import { type NextScreenItem, PREFILL_TYPES, type QuestionPrefill, type QuestionType, type SelectOption } from '../contract/surveys.ts';
import { createTemplate, fetchTemplate, listSurveyCategories, replaceQuestions } from '../services/adminSurveys.ts';
import { navigate } from '../services/navigation.ts';
import { type FieldErrors, errorOf, failureOf, fieldErrorsOfIssues, withoutErrorsFor } from './adminForms.ts';
import { EMPTY_TEMPLATE_DETAILS, type TemplateDetailsDraft } from './adminSurveyTemplates.machine.ts';
import { PREVIEW_PREFILLS, surveyPreviewOf } from './surveyPreview.ts';

export const TEMPLATE_LOAD_ERROR = "We couldn't load this request template. Please try again.";
export const SURVEYS_PATH = '/console/admin/surveys';
export const templatePath = (templateId: number) => `${SURVEYS_PATH}/${templateId}`;

/** The one source each question type can be pre-filled from (PREFILL_TYPES the other way round). */
export const PREFILL_OF_TYPE = Object.fromEntries(
  Object.entries(PREFILL_TYPES).map(([prefill, type]) => [type, prefill]),
) as Partial<Record<QuestionType, QuestionPrefill>>;

/** A question as typed. `key` tells the questions apart while they are added, moved and removed. */
export interface QuestionDraft {
  key: number;
  label: string;
  type: QuestionType;
  optional: boolean;
  /** Pre-filled from what the employee told us, for a type that has such a source (PREFILL_OF_TYPE). */
  prefilled: boolean;
  /** Kept while the type is changed back and forth; sent for a single select only. */
  options: SelectOption[];
}

export type QuestionChanges = Partial<Pick<QuestionDraft, 'label' | 'type' | 'optional' | 'prefilled'>>;

export function questionInputOf(question: QuestionDraft): QuestionInput {
  const { label, type, optional, prefilled, options } = question;
  return {
    label,
    type,
    optional,
    prefill: prefilled ? (PREFILL_OF_TYPE[type] ?? null) : null,
    select_options: type === 'SingleSelectInput' ? options : null,
  };
}

export function createRequestOf(details: TemplateDetailsDraft, questions: readonly QuestionDraft[]): CreateTemplateRequest {
  return { ...details, questions: questions.map(questionInputOf) };
}

/** The value an option is stored under, from its label: 'As soon as possible' -> 'as_soon_as_possible'. */
function optionValueOf(label: string): string {
  return label.trim().toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '');
}

/** A single select asks for two options at least: it starts with two empty ones. */
const NEW_OPTIONS: SelectOption[] = [
  { label: '', value: '' },
  { label: '', value: '' },
];

function draftOf(question: AdminQuestion, key: number): QuestionDraft {
  return {
    key,
    label: question.label,
    type: question.type,
    optional: question.optional,
    prefilled: question.prefill !== null,
    options: question.select_options ?? [],
  };
}

/** How the preview asks a question: as the server would send it, with sample pre-filled answers. */
function previewItemsOf(questions: readonly QuestionDraft[]): NextScreenItem[] {
  return questions.map((question, index) => {
    const { label, type, optional, prefill, select_options: options } = questionInputOf(question);
    const id = index + 1;
    return {
      id,
      question: { id, label: label.trim(), type, optional: optional ?? false, ...(options ? { select_options: options } : {}) },
      universal_answer: prefill ? PREVIEW_PREFILLS[prefill] : null,
      optional: optional ?? false,
      last_question: index === questions.length - 1,
    };
  });
}

/** The editor's messages: the template's fields and the list (`fieldErrors`), and each question's (by its key). */
interface SortedErrors {
  fieldErrors: FieldErrors;
  questionErrors: Record<number, FieldErrors>;
}

/** Sorts messages keyed by path ('questions.1.select_options.0.label') to the question they are about. */
function sortErrors(fields: FieldErrors, questions: readonly QuestionDraft[]): SortedErrors {
  const sorted: SortedErrors = { fieldErrors: {}, questionErrors: {} };
  for (const [path, message] of Object.entries(fields)) {
    const [, index, rest] = /^questions\.(\d+)\.(.+)$/.exec(path) ?? [];
    const question = index === undefined ? undefined : questions[Number(index)];
    if (!question || rest === undefined) {
      sorted.fieldErrors[path] ??= message;
      continue;
    }
    const errors = (sorted.questionErrors[question.key] ??= {});
    errors[rest] ??= message;
  }
  // Options not yet filled in are named one by one; that their empty values clash says nothing more.
  for (const errors of Object.values(sorted.questionErrors)) {
    if (Object.keys(errors).some((path) => path.startsWith('select_options.'))) delete errors.select_options;
  }
  return sorted;
}

/** The survey conversation running on the draft. */
export type SurveyPreviewActor = ActorRefFrom<ReturnType<typeof surveyPreviewOf>>;

export interface AdminTemplateQuestionsInput {
  /** Null: a new template, created with its first questions. */
  templateId: number | null;
}

export interface AdminTemplateQuestionsContext {
  templateId: number | null;
  /** As last loaded or saved; null until a new template is created. */
  template: AdminTemplate | null;
  categories: AdminSurveyCategory[];
  /** A new template's details (an existing template's are edited on the surveys screen). */
  details: TemplateDetailsDraft;
  questions: QuestionDraft[];
  nextKey: number;
  fieldErrors: FieldErrors;
  questionErrors: Record<number, FieldErrors>;
  formError: string | null;
  loadError: string | null;
  /** What the last save did. */
  notice: string | null;
  /** What the last change of the list did, for screen readers (e.g. 'Question 3 moved up to 2.'). */
  announcement: string | null;
  /** The conversation preview, while it is open. */
  preview: SurveyPreviewActor | null;
}

export type AdminTemplateQuestionsEvent =
  | { type: 'RETRY' }
  | { type: 'CHANGE_DETAILS'; changes: Partial<TemplateDetailsDraft> }
  | { type: 'ADD_QUESTION' }
  | { type: 'CHANGE_QUESTION'; key: number; changes: QuestionChanges }
  | { type: 'MOVE_QUESTION'; key: number; offset: -1 | 1 }
  | { type: 'REMOVE_QUESTION'; key: number }
  | { type: 'ADD_OPTION'; key: number }
  | { type: 'CHANGE_OPTION'; key: number; index: number; changes: Partial<SelectOption> }
  | { type: 'REMOVE_OPTION'; key: number; index: number }
  | { type: 'SAVE' }
  | { type: 'PREVIEW' }
  | { type: 'RESTART_PREVIEW' }
  | { type: 'CLOSE_PREVIEW' };

export interface LoadedEditor {
  template: AdminTemplate | null;
  categories: AdminSurveyCategory[];
}

/** What a save tells: the version, and that employees who began an earlier one keep it. */
export function savedNotice(before: AdminTemplate | null, after: AdminTemplate): string {
  if (before === null) return `${after.name} created, with version ${after.version} of its questions.`;
  if (after.version === before.version) {
    return `Questions saved as version ${after.version}. No employee had begun it yet, so it was changed in place.`;
  }
  return (
    `Questions saved as version ${after.version}. Employees who began this request on version ${before.version} ` +
    'keep the questions they began with; new requests get these.'
  );
}

function updateQuestion(context: AdminTemplateQuestionsContext, key: number, change: (question: QuestionDraft) => QuestionDraft) {
  return context.questions.map((question) => (question.key === key ? change(question) : question));
}

/** The question's messages without those of the given fields (and of their nested paths). */
function questionErrorsWithout(context: AdminTemplateQuestionsContext, key: number, fields: readonly string[]) {
  const own = context.questionErrors[key] ?? {};
  const kept = withoutErrorsFor(own, fields);
  const { [key]: _before, ...others } = context.questionErrors;
  return Object.keys(kept).length > 0 ? { ...others, [key]: kept } : others;
}

const positionOf = (context: AdminTemplateQuestionsContext, key: number) => context.questions.findIndex((question) => question.key === key);

function checkDraft(context: AdminTemplateQuestionsContext) {
  const questions = context.questions.map(questionInputOf);
  return context.template === null && context.templateId === null
    ? createTemplateRequest.safeParse({ ...context.details, questions })
    : replaceQuestionsRequest.safeParse({ questions });
}

/**
 * The question editor of one request template (issue 13). It loads the template (or, for a new one, the
 * categories) and edits a draft of its questions: added, removed, moved, each with its label, type (SPEC §3),
 * optional flag, pre-fill where the type has one, and a single select's options. The draft is checked with the
 * contract before it is saved or previewed; the server's refusals are shown beside the fields they name, and
 * nothing typed is lost on a failure. A save replaces the whole list and says which version it made. The preview
 * runs the employee conversation on the draft, locally.
 */
export const adminTemplateQuestionsMachine = setup({
  types: {
    context: {} as AdminTemplateQuestionsContext,
    events: {} as AdminTemplateQuestionsEvent,
    input: {} as AdminTemplateQuestionsInput,
  },
  actors: {
    loadEditor: fromPromise<LoadedEditor, { templateId: number | null }>(async ({ input }) => {
      const [template, categories] = await Promise.all([
        input.templateId === null ? null : fetchTemplate(input.templateId),
        listSurveyCategories(),
      ]);
      return { template, categories };
    }),
    saveQuestions: fromPromise<AdminTemplate, { templateId: number | null; template: CreateTemplateRequest }>(({ input }) =>
      input.templateId === null ? createTemplate(input.template) : replaceQuestions(input.templateId, { questions: input.template.questions }),
    ),
  },
  guards: {
    draftIsValid: ({ context }) => checkDraft(context).success,
    questionsAreValid: ({ context }) => replaceQuestionsRequest.safeParse({ questions: context.questions.map(questionInputOf) }).success,
    isExisting: ({ context }) => context.templateId !== null,
  },
  actions: {
    storeLoaded: assign(({ context }, { template, categories }: LoadedEditor) => {
      if (template) return { template, categories, loadError: null, ...questionsOf(template, context.nextKey) };
      // A new template begins with one blank question.
      return { categories, loadError: null, questions: [blankQuestion(context.nextKey)], nextKey: context.nextKey + 1 };
    }),
    clearLoadError: assign({ loadError: null }),
    showLoadError: assign({ loadError: TEMPLATE_LOAD_ERROR }),
    changeDetails: assign(({ context, event }) => {
      assertEvent(event, 'CHANGE_DETAILS');
      const fieldErrors = withoutErrorsFor(context.fieldErrors, Object.keys(event.changes));
      return { details: { ...context.details, ...event.changes }, fieldErrors, notice: null };
    }),
    addQuestion: assign(({ context }) => {
      const { questions: _tooFew, ...fieldErrors } = context.fieldErrors;
      return {
        questions: [...context.questions, blankQuestion(context.nextKey)],
        nextKey: context.nextKey + 1,
        fieldErrors,
        notice: null,
        announcement: `Question ${context.questions.length + 1} added.`,
      };
    }),
    changeQuestion: assign(({ context, event }) => {
      assertEvent(event, 'CHANGE_QUESTION');
      const questions = updateQuestion(context, event.key, (question) => {
        const changed = { ...question, ...event.changes };
        const becomesSelect = event.changes.type === 'SingleSelectInput' && question.options.length === 0;
        return becomesSelect ? { ...changed, options: NEW_OPTIONS } : changed;
      });
      // A new type may change what the options and the pre-fill mean: their messages go with it.
      const fields = [...Object.keys(event.changes), ...('type' in event.changes ? ['select_options', 'prefill'] : [])];
      return { questions, questionErrors: questionErrorsWithout(context, event.key, fields), notice: null };
    }),
    moveQuestion: assign(({ context, event }) => {
      assertEvent(event, 'MOVE_QUESTION');
      const from = positionOf(context, event.key);
      const to = from + event.offset;
      if (from === -1 || to < 0 || to >= context.questions.length) return {};
      const questions = [...context.questions];
      const [moved] = questions.splice(from, 1);
      questions.splice(to, 0, moved as QuestionDraft);
      return {
        questions,
        notice: null,
        announcement: `Question ${from + 1} moved ${event.offset < 0 ? 'up' : 'down'} to ${to + 1}.`,
      };
    }),
    removeQuestion: assign(({ context, event }) => {
      assertEvent(event, 'REMOVE_QUESTION');
      const position = positionOf(context, event.key);
      const { [event.key]: _removed, ...questionErrors } = context.questionErrors;
      return {
        questions: context.questions.filter((question) => question.key !== event.key),
        questionErrors,
        notice: null,
        announcement: `Question ${position + 1} removed.`,
      };
    }),
    addOption: assign(({ context, event }) => {
      assertEvent(event, 'ADD_OPTION');
      const questions = updateQuestion(context, event.key, (question) => ({ ...question, options: [...question.options, { label: '', value: '' }] }));
      return { questions, questionErrors: questionErrorsWithout(context, event.key, ['select_options']), notice: null };
    }),
    changeOption: assign(({ context, event }) => {
      assertEvent(event, 'CHANGE_OPTION');
      const questions = updateQuestion(context, event.key, (question) => ({
        ...question,
        options: question.options.map((option, index) => {
          if (index !== event.index) return option;
          const changed = { ...option, ...event.changes };
          // The value follows the label until it is typed itself.
          const valueFollows = event.changes.label !== undefined && event.changes.value === undefined && option.value === optionValueOf(option.label);
          return valueFollows ? { ...changed, value: optionValueOf(changed.label) } : changed;
        }),
      }));
      const fields = ['select_options', ...Object.keys(event.changes).map((field) => `select_options.${event.index}.${field}`)];
      return { questions, questionErrors: questionErrorsWithout(context, event.key, fields), notice: null };
    }),
    removeOption: assign(({ context, event }) => {
      assertEvent(event, 'REMOVE_OPTION');
      const questions = updateQuestion(context, event.key, (question) => ({
        ...question,
        options: question.options.filter((_, index) => index !== event.index),
      }));
      // The options after it move up a place: messages about them by place no longer fit.
      return { questions, questionErrors: questionErrorsWithout(context, event.key, ['select_options']), notice: null };
    }),
    showInvalidDraft: assign(({ context }) => {
      const checked = checkDraft(context);
      return { ...sortErrors(checked.success ? {} : fieldErrorsOfIssues(checked.error.issues), context.questions), formError: null, notice: null };
    }),
    showInvalidQuestions: assign(({ context }) => {
      const checked = replaceQuestionsRequest.safeParse({ questions: context.questions.map(questionInputOf) });
      return { ...sortErrors(checked.success ? {} : fieldErrorsOfIssues(checked.error.issues), context.questions), formError: null, notice: null };
    }),
    clearErrors: assign({ fieldErrors: {}, questionErrors: {}, formError: null, notice: null }),
    showSaveFailure: assign(({ context }, error: unknown) => {
      const { fieldErrors, formError } = failureOf(error);
      return { ...sortErrors(fieldErrors, context.questions), formError };
    }),
    storeSaved: assign(({ context }, template: AdminTemplate) => ({
      template,
      templateId: template.id,
      ...questionsOf(template, context.nextKey),
      notice: savedNotice(context.template, template),
      announcement: null,
    })),
    /** A created template has an address of its own: reloading the page edits it, rather than creating another. */
    showTemplateAddress: ({ context }) => navigate(templatePath(context.templateId as number), { replace: true }),
    startPreview: assign(({ context, spawn }) => {
      const name = context.template?.name ?? (context.details.name.trim() || 'New request');
      const logic = surveyPreviewOf(previewItemsOf(context.questions), name);
      // Each preview runs its own logic, on the draft of the moment.
      return { preview: spawn(logic, { input: { survey: { id: context.templateId ?? 0, name }, firstRequest: false } }) };
    }),
    stopPreview: stopChild(({ context }) => context.preview ?? ''),
    forgetPreview: assign({ preview: null }),
  },
}).createMachine({
  id: 'adminTemplateQuestions',
  context: ({ input }) => ({
    templateId: input.templateId,
    template: null,
    categories: [],
    details: EMPTY_TEMPLATE_DETAILS,
    questions: [],
    nextKey: 1,
    fieldErrors: {},
    questionErrors: {},
    formError: null,
    loadError: null,
    notice: null,
    announcement: null,
    preview: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      tags: 'busy',
      entry: 'clearLoadError',
      invoke: {
        id: 'loadEditor',
        src: 'loadEditor',
        input: ({ context }) => ({ templateId: context.templateId }),
        onDone: { target: 'editing', actions: { type: 'storeLoaded', params: ({ event }) => event.output } },
        onError: { target: 'failed', actions: 'showLoadError' },
      },
    },
    failed: {
      on: { RETRY: 'loading' },
    },
    editing: {
      on: {
        CHANGE_DETAILS: { actions: 'changeDetails' },
        ADD_QUESTION: { actions: 'addQuestion' },
        CHANGE_QUESTION: { actions: 'changeQuestion' },
        MOVE_QUESTION: { actions: 'moveQuestion' },
        REMOVE_QUESTION: { actions: 'removeQuestion' },
        ADD_OPTION: { actions: 'addOption' },
        CHANGE_OPTION: { actions: 'changeOption' },
        REMOVE_OPTION: { actions: 'removeOption' },
        SAVE: [{ guard: 'draftIsValid', target: 'saving', actions: 'clearErrors' }, { actions: 'showInvalidDraft' }],
        PREVIEW: [{ guard: 'questionsAreValid', target: 'previewing' }, { actions: 'showInvalidQuestions' }],
      },
    },
    saving: {
      tags: 'busy',
      invoke: {
        id: 'saveQuestions',
        src: 'saveQuestions',
        input: ({ context }) => ({ templateId: context.templateId, template: createRequestOf(context.details, context.questions) }),
        onDone: [
          {
            guard: 'isExisting',
            target: 'editing',
            actions: { type: 'storeSaved', params: ({ event }) => event.output },
          },
          {
            target: 'editing',
            actions: [{ type: 'storeSaved', params: ({ event }) => event.output }, 'showTemplateAddress'],
          },
        ],
        onError: { target: 'editing', actions: { type: 'showSaveFailure', params: errorOf } },
      },
    },
    /** The draft as the employee conversation; the draft waits, unchanged, until the preview is closed. */
    previewing: {
      entry: 'startPreview',
      exit: ['stopPreview', 'forgetPreview'],
      on: {
        RESTART_PREVIEW: { target: 'previewing', reenter: true },
        CLOSE_PREVIEW: 'editing',
      },
    },
  },
});

function blankQuestion(key: number): QuestionDraft {
  return { key, label: '', type: 'TextInput', optional: false, prefilled: false, options: [] };
}

function questionsOf(template: AdminTemplate, nextKey: number) {
  return {
    questions: template.questions.map((question, index) => draftOf(question, nextKey + index)),
    nextKey: nextKey + template.questions.length,
  };
}

export type AdminTemplateQuestionsSnapshot = SnapshotFrom<typeof adminTemplateQuestionsMachine>;
