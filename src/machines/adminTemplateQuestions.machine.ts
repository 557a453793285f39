import {
  type AdminQuestion,
  type AdminSurveyCategory,
  type AdminTemplate,
  type CreateTemplateRequest,
  type QuestionInput,
  type ReplaceQuestionsRequest,
  createTemplateRequest,
  replaceQuestionsRequest,
} from '../contract/adminCatalogue.ts';
import { type NextScreenItem, PREFILL_TYPES, type QuestionPrefill, type QuestionType, type SelectOption } from '../contract/surveys.ts';
import { createTemplate, fetchTemplate, listSurveyCategories, replaceQuestions } from '../services/adminSurveys.ts';
import { type CollectionForm, adminCollectionMachine } from './adminCollection.ts';
import { type FieldErrors, moved, replaced } from './adminForms.ts';
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

/** The editor's draft: a new template's details (an existing template's are edited on the surveys screen), and its questions. */
export interface TemplateDraft extends TemplateDetailsDraft {
  questions: QuestionDraft[];
}

export type QuestionChanges = Partial<Pick<QuestionDraft, 'label' | 'type' | 'optional' | 'prefilled'>>;

/** An edit of the questions and a single select's options (places are 0-based). */
export type QuestionEdit =
  | { kind: 'addQuestion' }
  | { kind: 'changeQuestion'; question: number; changes: QuestionChanges }
  | { kind: 'moveQuestion'; question: number; by: -1 | 1 }
  | { kind: 'removeQuestion'; question: number }
  | { kind: 'addOption'; question: number }
  | { kind: 'changeOption'; question: number; option: number; changes: Partial<SelectOption> }
  | { kind: 'removeOption'; question: number; option: number };

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

export const questionsRequestOf = (draft: TemplateDraft): ReplaceQuestionsRequest => ({ questions: draft.questions.map(questionInputOf) });

export function createRequestOf({ questions, ...details }: TemplateDraft): CreateTemplateRequest {
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

const blankQuestion = (key: number): QuestionDraft => ({ key, label: '', type: 'TextInput', optional: false, prefilled: false, options: [] });

/** A new template begins with one blank question. */
export const EMPTY_TEMPLATE_DRAFT: TemplateDraft = { ...EMPTY_TEMPLATE_DETAILS, questions: [blankQuestion(1)] };

function questionDraftOf(question: AdminQuestion, key: number): QuestionDraft {
  const { label, type, optional, prefill, select_options: options } = question;
  return { key, label, type, optional, prefilled: prefill !== null, options: options ?? [] };
}

export function templateDraftOf({ name, slug, for_alpha, category_id, questions }: AdminTemplate): TemplateDraft {
  return { name, slug, for_alpha, category_id, questions: questions.map((question, index) => questionDraftOf(question, index + 1)) };
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

/** The name the preview shows: the template's, or the new one's as typed. */
export const previewNameOf = (form: CollectionForm<TemplateDraft, AdminTemplate>) => form.record?.name ?? (form.draft.name.trim() || 'New request');

/** Options not yet filled in are named one by one; that their empty values clash says nothing more. */
function questionMessages(errors: FieldErrors): FieldErrors {
  const named = (path: string) => Object.keys(errors).some((other) => other.startsWith(`${path}.`));
  return Object.fromEntries(Object.entries(errors).filter(([path]) => !(/^questions\.\d+\.select_options$/.test(path) && named(path))));
}

/** What a save tells: the version, and that employees who began an earlier one keep it. */
export function savedNotice(after: AdminTemplate, before: AdminTemplate | null): string {
  if (before === null) return `${after.name} created, with version ${after.version} of its questions.`;
  if (after.version === before.version) {
    return `Questions saved as version ${after.version}. No employee had begun it yet, so it was changed in place.`;
  }
  return (
    `Questions saved as version ${after.version}. Employees who began this request on version ${before.version} ` +
    'keep the questions they began with; new requests get these.'
  );
}

/** The server names a question's pre-fill `prefill`. */
const questionPath = (question: number, field: string) => `questions.${question}.${field === 'prefilled' ? 'prefill' : field}`;

/** The questions after an edit, the messages that no longer hold (by place, once places change), and what it did. */
function editedQuestions(questions: QuestionDraft[], edit: QuestionEdit): { questions: QuestionDraft[]; stale: string[]; announcement?: string } {
  const inQuestion = (change: (question: QuestionDraft) => QuestionDraft) => replaced(questions, edit.kind === 'addQuestion' ? -1 : edit.question, change);
  const withOptions = (change: (options: SelectOption[]) => SelectOption[]) => inQuestion((question) => ({ ...question, options: change(question.options) }));
  switch (edit.kind) {
    case 'addQuestion': {
      const key = Math.max(0, ...questions.map((question) => question.key)) + 1;
      return { questions: [...questions, blankQuestion(key)], stale: ['questions'], announcement: `Question ${questions.length + 1} added.` };
    }
    case 'changeQuestion': {
      const { changes } = edit;
      const changed = inQuestion((question) => {
        const becomesSelect = changes.type === 'SingleSelectInput' && question.options.length === 0;
        return { ...question, ...changes, ...(becomesSelect ? { options: NEW_OPTIONS } : {}) };
      });
      // A new type may change what the options and the pre-fill mean: their messages go with it.
      const fields = [...Object.keys(changes), ...('type' in changes ? ['select_options', 'prefill'] : [])];
      return { questions: changed, stale: fields.map((field) => questionPath(edit.question, field)) };
    }
    case 'moveQuestion': {
      const to = edit.question + edit.by;
      if (to < 0 || to >= questions.length) return { questions, stale: [] };
      const announcement = `Question ${edit.question + 1} moved ${edit.by < 0 ? 'up' : 'down'} to ${to + 1}.`;
      return { questions: moved(questions, edit.question, edit.by), stale: ['questions'], announcement };
    }
    case 'removeQuestion':
      return {
        questions: questions.filter((_, index) => index !== edit.question),
        stale: ['questions'],
        announcement: `Question ${edit.question + 1} removed.`,
      };
    case 'addOption':
      return { questions: withOptions((options) => [...options, { label: '', value: '' }]), stale: [questionPath(edit.question, 'select_options')] };
    case 'changeOption': {
      const { changes } = edit;
      const changed = withOptions((options) =>
        replaced(options, edit.option, (option) => {
          // The value follows the label until it is typed itself.
          const valueFollows = changes.label !== undefined && changes.value === undefined && option.value === optionValueOf(option.label);
          return { ...option, ...changes, ...(valueFollows ? { value: optionValueOf(changes.label ?? '') } : {}) };
        }),
      );
      return { questions: changed, stale: [questionPath(edit.question, 'select_options')] };
    }
    case 'removeOption':
      // The options after it move up a place: messages about them by place no longer fit.
      return { questions: withOptions((options) => options.filter((_, index) => index !== edit.option)), stale: [questionPath(edit.question, 'select_options')] };
  }
}

/** The template (null: a new one) and the categories a new one can be put in. */
async function openEditor(templateId: number | null): Promise<{ item: AdminTemplate | null; choices: AdminSurveyCategory[] }> {
  const [item, choices] = await Promise.all([templateId === null ? null : fetchTemplate(templateId), listSurveyCategories()]);
  return { item, choices };
}

type TemplateRequest = CreateTemplateRequest | ReplaceQuestionsRequest;

/**
 * The question editor of one request template (issue 13), a record's page of the admin collection factory: a draft
 * of the template's questions (with a new template's details), each question added, removed, moved, with its label,
 * type (SPEC §3), optional flag, pre-fill where the type has one, and a single select's options. It is checked with
 * the contract before it is saved or previewed; a save replaces the whole list and says which version it made. The
 * preview runs the employee conversation on the draft, locally.
 */
export const adminTemplateQuestionsMachine = adminCollectionMachine<
  'adminTemplateQuestions',
  AdminTemplate,
  TemplateDraft,
  TemplateRequest,
  AdminTemplate,
  AdminSurveyCategory[],
  never,
  QuestionEdit
>({
  id: 'adminTemplateQuestions',
  loadError: TEMPLATE_LOAD_ERROR,
  page: { back: SURVEYS_PATH, addressOf: (template) => templatePath(template.id) },
  nameOf: (template) => template.name,
  form: {
    empty: EMPTY_TEMPLATE_DRAFT,
    draftOf: templateDraftOf,
    schema: (isNew) => (isNew ? createTemplateRequest : replaceQuestionsRequest),
    requestOf: (draft, isNew) => (isNew ? createRequestOf(draft) : questionsRequestOf(draft)),
    // A new template's request is createRequestOf's (requestOf above).
    create: (request) => createTemplate(request as CreateTemplateRequest),
    update: replaceQuestions,
    messagesOf: questionMessages,
    savedNotice,
    edit: (draft, edit) => {
      const { questions, ...rest } = editedQuestions(draft.questions, edit);
      return { draft: { ...draft, questions }, ...rest };
    },
    open: { call: openEditor, loadError: TEMPLATE_LOAD_ERROR },
    preview: {
      schema: replaceQuestionsRequest,
      requestOf: questionsRequestOf,
      start: (form) => {
        const name = previewNameOf(form);
        return {
          logic: surveyPreviewOf(previewItemsOf(form.draft.questions), name),
          input: { survey: { id: form.itemId ?? 0, name }, firstRequest: false },
        };
      },
    },
  },
});
