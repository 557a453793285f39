import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { type Mock, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Actor, createActor } from 'xstate';
import { type AdminSurveyCategory, type AdminTemplate, OPTION_VALUES_ERROR } from '../../src/contract/adminCatalogue.ts';
import type { AdminCollectionContext, RecordPageInput } from '../../src/machines/adminCollection.ts';
import {
  type QuestionDraft,
  type QuestionEdit,
  type TemplateDraft,
  SURVEYS_PATH,
  TEMPLATE_LOAD_ERROR,
  adminTemplateQuestionsMachine,
  createRequestOf,
  questionsRequestOf,
  savedNotice,
  templatePath,
} from '../../src/machines/adminTemplateQuestions.machine.ts';
import { type NavigateOptions, setRouter } from '../../src/services/navigation.ts';
import { type AdminTemplateQuestionsActor, AdminTemplateQuestionsView, QUESTION_TYPE_LABELS } from '../../src/views/admin/AdminTemplateQuestionsView.tsx';
import { type SentCall, expectFieldMessages, fakeAdminApi } from './adminApi.support.ts';
import { clean, typeInto } from './adminCollection.support.tsx';
import { networkError, serverRefusal } from './httpFailures.support.ts';
import {
  type EventExecutors,
  type LabelledEvent,
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

/**
 * The question editor (adminTemplateQuestions.machine.ts, a record's page of the admin collection factory), every
 * path of its statechart run against its real view, for an existing template and a new one.
 */

type Machine = typeof adminTemplateQuestionsMachine;
type Context = AdminCollectionContext<AdminTemplate, TemplateDraft, AdminSurveyCategory[]>;

// ---- The template as the server answers it ----

const PET: AdminSurveyCategory = { id: 6, slug: 'pet', name: 'Pet', image_url: '/images/categories/pet.svg', image_upload_key: null, template_count: 5 };
const WALK: AdminTemplate = {
  id: 42,
  slug: 'walk-my-dog',
  name: 'Walk my dog',
  for_alpha: true,
  category_id: PET.id,
  version: 1,
  created_at: '2026-01-05T09:00:00.000Z',
  questions: [
    { id: 901, label: "What is your dog's name?", type: 'TextInput', optional: false, prefill: null, select_options: null },
    {
      id: 902,
      label: 'Which walk would suit?',
      type: 'SingleSelectInput',
      optional: false,
      prefill: null,
      select_options: [
        { label: 'A short walk', value: 'short' },
        { label: 'A long walk', value: 'long' },
      ],
    },
  ],
};
const WALK_V2 = { ...WALK, version: 2 };
const [NAME_QUESTION, WALK_QUESTION] = WALK.questions as [AdminTemplate['questions'][number], AdminTemplate['questions'][number]];
const OPENED = { item: WALK, choices: [PET] };

const networkDown = networkError();
const SLUG_TAKEN = 'The slug "walk-my-dog" is already used.';

// ---- The models: an existing template's questions, and a new template ----

const contextOf = (snapshot: { context: unknown }) => snapshot.context as Context;
/** The editor's state, as its factory-made statechart does not type it. */
const isIn = (snapshot: unknown, state: string) => (snapshot as { matches(value: string): boolean }).matches(state);

const edit = (label: string, questionEdit: QuestionEdit): LabelledEvent => ({ label, event: { type: 'EDIT_DRAFT', edit: questionEdit } });
const commonEvents: LabelledEvent[] = [
  errorEvent('open', networkDown, 'load fails'),
  { label: 'retry', event: { type: 'RETRY' } },
  { label: 'save', event: { type: 'SAVE' } },
  errorEvent('save', networkDown, 'save fails'),
  { label: 'back to surveys', event: { type: 'CANCEL' } },
  { label: 'keep editing', event: { type: 'KEEP_EDITING' } },
  { label: 'discard', event: { type: 'DISCARD' } },
];
const ADDED = 'Anything else?';

const existing = flowModel(adminTemplateQuestionsMachine, {
  input: { itemId: WALK.id } satisfies RecordPageInput,
  events: [
    ...commonEvents,
    doneEvent('open', OPENED, 'loaded'),
    edit('add a question', { kind: 'addQuestion' }),
    edit('type the new question', { kind: 'changeQuestion', question: 2, changes: { label: ADDED } }),
    edit('make it long text', { kind: 'changeQuestion', question: 2, changes: { type: 'MultilineTextInput' } }),
    edit('make it optional', { kind: 'changeQuestion', question: 2, changes: { optional: true } }),
    edit('pre-fill it with the address', { kind: 'changeQuestion', question: 2, changes: { prefilled: true } }),
    edit('move it up', { kind: 'moveQuestion', question: 2, by: -1 }),
    edit('move it down', { kind: 'moveQuestion', question: 1, by: 1 }),
    edit('remove it', { kind: 'removeQuestion', question: 2 }),
    edit('clear the first question', { kind: 'changeQuestion', question: 0, changes: { label: '' } }),
    edit('add an option', { kind: 'addOption', question: 1 }),
    edit('name the option', { kind: 'changeOption', question: 1, option: 2, changes: { label: 'A run' } }),
    edit('remove the option', { kind: 'removeOption', question: 1, option: 2 }),
    { label: 'preview', event: { type: 'PREVIEW' } },
    { label: 'start again', event: { type: 'RESTART_PREVIEW' } },
    { label: 'close the preview', event: { type: 'CLOSE_PREVIEW' } },
    doneEvent('save', WALK_V2, 'saved as version 2'),
    doneEvent('save', WALK, 'saved in place'),
    errorEvent('save', serverRefusal(422, 'Invalid input', { 'questions.1.select_options': OPTION_VALUES_ERROR }), 'options refused'),
  ],
  offer: (snapshot, { label }) => {
    const context = contextOf(snapshot);
    const { notice, fieldErrors, announcement } = context;
    const questions = context.form?.draft.questions ?? [];
    const [first, walk, added] = questions;
    const asLoaded = notice === null && clean(context) && questions.length === 2 && first?.label === NAME_QUESTION.label && walk?.options.length === 2;
    const addedSetUp = added?.prefilled === true && announcement?.includes('moved') === true;
    const optionNamed = walk?.options[2]?.label === 'A run';
    switch (label) {
      case 'add a question':
      case 'add an option':
      case 'clear the first question':
        return asLoaded && announcement === null;
      case 'type the new question':
        return added?.label === '';
      case 'make it long text':
        return added?.label === ADDED && added.type === 'TextInput';
      case 'make it optional':
        return added?.type === 'MultilineTextInput' && !added.optional;
      case 'pre-fill it with the address':
        return added?.optional === true && !added.prefilled;
      case 'move it up':
        return added?.prefilled === true && announcement?.includes('moved') !== true;
      case 'move it down':
        return walk?.label === ADDED && walk.prefilled;
      case 'remove it':
        return addedSetUp;
      case 'name the option':
        return walk?.options[2]?.label === '';
      case 'remove the option':
        return walk?.options[2]?.label === 'A run';
      case 'save':
        // As loaded; with the first question's text cleared; with the added question set up and moved back.
        return (asLoaded && announcement === null) || (first?.label === '' && clean(context)) || addedSetUp;
      case 'preview':
        // As loaded; with an option added; and, refused, once the cleared first question was named on saving.
        return (asLoaded && announcement === null) || optionNamed || (first?.label === '' && fieldErrors['questions.0.label'] !== undefined);
      case 'back to surveys':
        // Before the template opens, and when it fails to; as loaded, it leaves; changed, it asks first (in the preview too).
        if (isIn(snapshot, 'opening') || isIn(snapshot, 'failed')) return context.loadError === null || isIn(snapshot, 'failed');
        if (isIn(snapshot, 'previewing')) return (asLoaded && announcement === null) || optionNamed;
        return (asLoaded && announcement === null) || (first?.label === '' && clean(context));
      case 'saved as version 2':
      case 'saved in place':
      case 'options refused':
      case 'save fails':
        return asLoaded || questions.length === 3;
      default:
        return true;
    }
  },
});

const created = flowModel(adminTemplateQuestionsMachine, {
  input: { itemId: null } satisfies RecordPageInput,
  events: [
    ...commonEvents,
    doneEvent('open', { item: null, choices: [PET] }, 'categories loaded'),
    { label: 'type the name', event: { type: 'CHANGE', changes: { name: WALK.name } } },
    { label: 'type the slug', event: { type: 'CHANGE', changes: { slug: WALK.slug } } },
    { label: 'choose Pet', event: { type: 'CHANGE', changes: { category_id: PET.id } } },
    edit('type the question', { kind: 'changeQuestion', question: 0, changes: { label: NAME_QUESTION.label } }),
    doneEvent('save', { ...WALK, questions: [NAME_QUESTION] }, 'created'),
    errorEvent('save', serverRefusal(409, SLUG_TAKEN, { slug: SLUG_TAKEN }), 'slug taken'),
  ],
  offer: (snapshot, { label }) => {
    const { fieldErrors, formError, notice, form } = contextOf(snapshot);
    const draft = form?.draft;
    const hasErrors = Object.keys(fieldErrors).length > 0;
    switch (label) {
      case 'type the name':
        return draft?.name === '' && hasErrors;
      case 'type the slug':
        return draft?.name === WALK.name && draft.slug === '';
      case 'choose Pet':
        return draft?.slug === WALK.slug && draft.category_id === null;
      case 'type the question':
        return draft?.category_id === PET.id && draft.questions[0]?.label === '';
      case 'save':
        return form?.itemId === null && notice === null && formError === null && fieldErrors.slug === undefined &&
          ((draft?.name === '' && !hasErrors) || draft?.questions[0]?.label === NAME_QUESTION.label);
      case 'back to surveys':
        // Untouched, it leaves; with a name typed, it asks first.
        return isIn(snapshot, 'editing') && (draft?.name === '' || draft?.slug === '') && !hasErrors;
      default:
        return true;
    }
  },
});

// ---- The rendered editor and the fake server ----

let user: UserEvent;
let actor: Actor<Machine>;
let sent: SentCall[];
let navigateTo: Mock<(to: string, options?: NavigateOptions) => unknown>;
/** How many calls had been sent when the preview opened: the preview sends none. */
let sentBeforePreview = 0;

const editor = () => screen.getByRole('region', { name: /^(New request template|Walk my dog|Request template)$/, hidden: true });
const preview = () => within(editor()).getByRole('region', { name: 'Preview', hidden: true });
const questionGroup = (position: number) => within(editor()).getByRole('group', { name: new RegExp(`^Question ${position}$`), hidden: true });

/** The messages about the question at `index`, by their path inside it. */
const errorsOf = (fieldErrors: Record<string, string>, index: number) =>
  Object.fromEntries(Object.entries(fieldErrors).flatMap(([path, message]) => (path.startsWith(`questions.${index}.`) ? [[path.split('.').slice(2).join('.'), message]] : [])));

function expectQuestion(question: QuestionDraft, position: number, errors: Record<string, string>) {
  const group = questionGroup(position);
  const label = within(group).getByRole('textbox', { name: 'Question', hidden: true });
  expect(label).toHaveValue(question.label);
  expectFieldMessages({ label }, errors);
  expect(within(group).getByRole('button', { name: /Answer type/, hidden: true })).toHaveTextContent(QUESTION_TYPE_LABELS[question.type]);
  expect(within(group).getByRole('checkbox', { name: /^Optional/, hidden: true }).matches(':checked')).toBe(question.optional);
  const prefill = within(group).queryByRole('checkbox', { name: /^Pre-fill/, hidden: true });
  if (question.type === 'SingleSelectInput' || question.type === 'SingleUploadInput') expect(prefill).toBeNull();
  else expect(prefill?.matches(':checked')).toBe(question.prefilled);
  const options = within(group).queryByRole('group', { name: `Options of question ${position}`, hidden: true });
  if (question.type !== 'SingleSelectInput') {
    expect(options).toBeNull();
    return;
  }
  question.options.forEach((option, index) => {
    expect(within(options!).getByRole('textbox', { name: `Option ${index + 1}`, hidden: true })).toHaveValue(option.label);
    expect(within(options!).getByRole('textbox', { name: `Value of option ${index + 1}`, hidden: true })).toHaveValue(option.value);
  });
  if (errors.select_options) expect(within(options!).getByRole('alert', { hidden: true })).toHaveTextContent(errors.select_options);
  else expect(within(options!).queryByRole('alert', { hidden: true })).toBeNull();
}

/** The draft as the editor shows it: details (of a new template), every question, and each message beside its field. */
function expectEditor(snapshot: { context: unknown }, { busy }: { busy: boolean }) {
  expect(editor()).toHaveAttribute('aria-busy', String(busy));
  const { form, fieldErrors, formError, notice, announcement } = contextOf(snapshot);
  const { draft, record: template } = form!;
  if (template) {
    expect(within(editor()).getByText(`version ${template.version}`)).toBeInTheDocument();
  } else {
    const name = within(editor()).getByRole('textbox', { name: 'Name', hidden: true });
    const slug = within(editor()).getByRole('textbox', { name: 'Slug', hidden: true });
    expect(name).toHaveValue(draft.name);
    expect(slug).toHaveValue(draft.slug);
    expectFieldMessages({ name, slug }, fieldErrors);
    expect(within(editor()).getByRole('button', { name: /Category/, hidden: true })).toHaveTextContent(draft.category_id === PET.id ? 'Pet' : 'No category');
  }
  expect(within(editor()).queryAllByRole('group', { name: /^Question \d+$/, hidden: true })).toHaveLength(draft.questions.length);
  draft.questions.forEach((question, index) => expectQuestion(question, index + 1, errorsOf(fieldErrors, index)));
  if (notice) expect(within(editor()).getByRole('status', { hidden: true })).toHaveTextContent(notice);
  if (formError) expect(within(editor()).getByText(formError)).toBeInTheDocument();
  if (announcement) expect(within(editor()).getByText(announcement)).toHaveAttribute('aria-live', 'polite');
  return within(editor()).getByRole('button', { name: template ? 'Save questions' : 'Create template', hidden: true });
}

const states: StateAssertions<Machine> = {
  opening: (snapshot) => {
    expect(editor()).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByText('Loading')).toBeInTheDocument();
    const templateId = contextOf(snapshot).opening?.itemId;
    const template = templateId ? [{ method: 'GET', path: `admin/survey_templates/${templateId}`, body: undefined }] : [];
    // The template and the categories at once, reaching the server in either order.
    const categories = { method: 'GET', path: 'admin/survey_categories', body: undefined };
    expect(sent.slice(-template.length - 1)).toEqual(expect.arrayContaining([...template, categories]));
  },
  failed: () => {
    expect(screen.getByRole('alert')).toHaveTextContent(TEMPLATE_LOAD_ERROR);
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  },
  editing: (snapshot) => {
    expect(expectEditor(snapshot, { busy: false })).not.toHaveAttribute('aria-busy');
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(within(preview()).getByRole('button', { name: 'Preview' })).toBeEnabled();
    const { form, notice } = contextOf(snapshot);
    if (notice?.includes('created')) expect(navigateTo).toHaveBeenCalledWith(templatePath(form!.itemId!), { replace: true });
    else expect(navigateTo).not.toHaveBeenCalled();
  },
  confirmingDiscard: (snapshot) => {
    expectEditor(snapshot, { busy: false });
    const unsaved = contextOf(snapshot).form?.itemId === null ? 'This template has not been created yet.' : 'Your changes to these questions have not been saved.';
    expect(screen.getByRole('alertdialog', { name: 'Discard your changes?' })).toHaveTextContent(unsaved);
  },
  left: () => {
    expect(navigateTo).toHaveBeenCalledWith(SURVEYS_PATH, undefined);
  },
  saving: (snapshot) => {
    expect(expectEditor(snapshot, { busy: true })).toHaveAttribute('aria-busy', 'true');
    const { form } = contextOf(snapshot);
    expect(sent.at(-1)).toEqual(
      form!.itemId === null
        ? { method: 'POST', path: 'admin/survey_templates', body: createRequestOf(form!.draft) }
        : { method: 'PUT', path: `admin/survey_templates/${form!.itemId}/questions`, body: questionsRequestOf(form!.draft) },
    );
  },
  previewing: (snapshot) => {
    expect(within(preview()).getByRole('status')).toHaveTextContent('Nothing you answer here is saved or sent');
    // The conversation begins again with the first question, as employees get it.
    expect(within(preview()).getByRole('textbox', { name: contextOf(snapshot).form!.draft.questions[0]!.label })).toHaveValue('');
    expect(within(preview()).queryByRole('list', { name: 'Your answers so far' })).not.toBeInTheDocument();
    // The draft waits, unchanged, until the preview is closed.
    expect(within(editor()).getByRole('button', { name: 'Add a question' })).toBeDisabled();
    expect(sent).toHaveLength(sentBeforePreview);
  },
};

const choose = async (scope: HTMLElement, select: RegExp, option: string) => {
  await user.click(within(scope).getByRole('button', { name: select }));
  await user.click(screen.getByRole('option', { name: option }));
};
const inQuestion = (name: string) => () => user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name }));

function editQuestions(questionEdit: QuestionEdit) {
  if (questionEdit.kind === 'addQuestion') return user.click(within(editor()).getByRole('button', { name: 'Add a question' }));
  const position = questionEdit.question + 1;
  const group = questionGroup(position);
  switch (questionEdit.kind) {
    case 'changeQuestion': {
      const { label, type, optional } = questionEdit.changes;
      if (label !== undefined) return typeInto(user, within(group).getByRole('textbox', { name: 'Question' }), label);
      if (type !== undefined) return choose(group, /Answer type/, QUESTION_TYPE_LABELS[type]);
      if (optional !== undefined) return user.click(within(group).getByRole('checkbox', { name: /^Optional/ }));
      return user.click(within(group).getByRole('checkbox', { name: /^Pre-fill with the employee's address/ }));
    }
    case 'moveQuestion':
      return user.click(within(group).getByRole('button', { name: `Move ${questionEdit.by === -1 ? 'up' : 'down'} question ${position}` }));
    case 'removeQuestion':
      return user.click(within(group).getByRole('button', { name: `Remove question ${position}` }));
    case 'addOption':
      return user.click(within(group).getByRole('button', { name: 'Add an option' }));
    case 'changeOption':
      return typeInto(user, within(group).getByRole('textbox', { name: `Option ${questionEdit.option + 1}` }), questionEdit.changes.label ?? '');
    case 'removeOption':
      return user.click(within(group).getByRole('button', { name: `Remove option ${questionEdit.option + 1} of question ${position}` }));
  }
}

const events: EventExecutors<Machine> = {
  ...settlementExecutors(adminTemplateQuestionsMachine, pendingCalls),
  RETRY: () => user.click(screen.getByRole('button', { name: 'Try again' })),
  CHANGE: ({ event }) => {
    const changes = event.changes as Partial<TemplateDraft>;
    if (changes.name !== undefined) return typeInto(user, within(editor()).getByRole('textbox', { name: 'Name' }), changes.name);
    if (changes.slug !== undefined) return typeInto(user, within(editor()).getByRole('textbox', { name: 'Slug' }), changes.slug);
    return choose(editor(), /Category/, 'Pet');
  },
  EDIT_DRAFT: async ({ event }) => {
    const questionEdit = event.edit as QuestionEdit;
    await editQuestions(questionEdit);
    // A new question takes the focus, ready for its text; after one is removed, the list's heading has it.
    if (questionEdit.kind === 'addQuestion') expect(within(questionGroup(3)).getByRole('textbox', { name: 'Question' })).toHaveFocus();
    if (questionEdit.kind === 'removeQuestion') expect(screen.getByRole('heading', { name: 'Questions' })).toHaveFocus();
  },
  SAVE: () => user.click(within(editor()).getByRole('button', { name: /^(Create template|Save questions)$/ })),
  CANCEL: () => user.click(within(editor()).getByRole('button', { name: 'Back to surveys' })),
  DISCARD: inQuestion('Discard changes'),
  KEEP_EDITING: inQuestion('Keep editing'),
  PREVIEW: async () => {
    sentBeforePreview = sent.length;
    await user.click(within(preview()).getByRole('button', { name: 'Preview' }));
  },
  RESTART_PREVIEW: async () => {
    // An answer in the preview leads on to the next question, as it would for an employee; nothing is sent.
    await user.type(within(preview()).getByRole('textbox', { name: NAME_QUESTION.label }), 'Rex');
    await user.click(within(preview()).getByRole('button', { name: 'Continue' }));
    expect(await within(preview()).findByRole('radiogroup', { name: WALK_QUESTION.label })).toBeInTheDocument();
    expect(within(preview()).getByRole('list', { name: 'Your answers so far' })).toHaveTextContent('Rex');
    await user.click(within(preview()).getByRole('button', { name: 'Start again' }));
  },
  CLOSE_PREVIEW: () => user.click(within(preview()).getByRole('button', { name: 'Close the preview' })),
};

function renderEditor(input: RecordPageInput) {
  actor = createActor(adminTemplateQuestionsMachine, { input }).start();
  render(<AdminTemplateQuestionsView editor={actor as unknown as AdminTemplateQuestionsActor} />);
}

beforeEach(() => {
  user = userEvent.setup();
  pendingCalls.clear();
  navigateTo = vi.fn<(to: string, options?: NavigateOptions) => unknown>();
  setRouter({ navigate: navigateTo });
  sent = fakeAdminApi([
    { method: 'GET', path: /^admin\/survey_templates\/\d+$/, id: 'open', answer: (opened: typeof OPENED) => ({ template: opened.item }) },
    { method: 'GET', path: /^admin\/survey_categories$/, id: 'open', answer: (opened: typeof OPENED) => ({ categories: opened.choices }) },
    { method: 'PUT', path: /^admin\/survey_templates\/\d+\/questions$/, id: 'save', answer: (saved: AdminTemplate) => ({ template: saved }) },
    { method: 'POST', path: /^admin\/survey_templates$/, id: 'save', answer: (saved: AdminTemplate) => ({ template: saved }) },
  ]);
});

afterEach(() => {
  cleanup();
  actor.stop();
  setRouter(null);
});

describe('the question editor of an existing template', () => {
  beforeEach(() => renderEditor({ itemId: WALK.id }));
  // The longest paths type several questions and options.
  it.each(existing.titled)('$title', async ({ path }) => {
    await runPath(path, () => actor.getSnapshot(), states, events);
  }, 60_000);
});

describe('the question editor of a new template', () => {
  beforeEach(() => renderEditor({ itemId: null }));
  it.each(created.titled)('$title', async ({ path }) => {
    await runPath(path, () => actor.getSnapshot(), states, events);
  }, 60_000);
});

describe('question editor model coverage', () => {
  it('asserts every state and executes every event', () => {
    expectFullCoverage(adminTemplateQuestionsMachine, [...existing.paths, ...created.paths], states, events);
  });

  it('walks the paths the rules call for', () => {
    expectScenariosWalked(
      [...existing.titled, ...created.titled].map(({ title }) => title),
      {
        'failure and retry': /load fails → retry$/,
        'a question is added, set up, moved and removed':
          /add a question → type the new question → make it long text → make it optional → pre-fill it with the address → move it up → move it down → remove it$/,
        'an option is added, named and removed': /add an option → name the option → remove the option$/,
        'a question without text is named beside it': /clear the first question → save → preview$/,
        'a new version is saved': /loaded → save → saved as version 2$/,
        'a version is changed in place': /loaded → save → saved in place$/,
        "the server's message is shown beside the options": /save → options refused$/,
        'a failed save keeps the draft': /save → save fails$/,
        'the preview starts again': /loaded → preview → start again$/,
        'the preview closes': /loaded → preview → close the preview$/,
        'an untouched editor is left at once': /loaded → back to surveys$/,
        'a changed editor asks before it is left': /clear the first question → back to surveys → (keep editing|discard)$/,
        'a template that failed to open can still be left': /load fails → back to surveys$/,
        'leaving from the preview asks when the draft changed': /name the option → preview → back to surveys → (keep editing|discard)$/,
        'a new template is checked before it is sent': /categories loaded → save → type the name/,
        'a new template is created': /type the question → save → created$/,
        'a slug clash is named on the slug': /type the question → save → slug taken$/,
      },
    );
  });
});

describe('what a save says', () => {
  it('names the version, and says when employees who began earlier keep theirs', () => {
    expect(savedNotice(WALK_V2, WALK)).toBe(
      'Questions saved as version 2. Employees who began this request on version 1 keep the questions they began with; new requests get these.',
    );
    expect(savedNotice(WALK, WALK)).toBe('Questions saved as version 1. No employee had begun it yet, so it was changed in place.');
    expect(savedNotice(WALK, null)).toBe('Walk my dog created, with version 1 of its questions.');
  });
});
