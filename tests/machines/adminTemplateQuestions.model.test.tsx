import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { type Mock, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Actor, createActor } from 'xstate';
import { type AdminSurveyCategory, type AdminTemplate, OPTION_VALUES_ERROR } from '../../src/contract/adminCatalogue.ts';
import {
  type AdminTemplateQuestionsInput,
  type LoadedEditor,
  type QuestionDraft,
  adminTemplateQuestionsMachine,
  createRequestOf,
  questionInputOf,
  savedNotice,
} from '../../src/machines/adminTemplateQuestions.machine.ts';
import { networkError, serverRefusal } from './httpFailures.support.ts';
import { type NavigateOptions, setRouter } from '../../src/services/navigation.ts';
import { AdminTemplateQuestionsView, QUESTION_TYPE_LABELS } from '../../src/views/admin/AdminTemplateQuestionsView.tsx';
import { type SentCall, expectFieldMessages, fakeAdminApi } from './adminApi.support.ts';
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

type Machine = typeof adminTemplateQuestionsMachine;
type EditorSnapshot = ReturnType<Machine['transition']>;

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
/** The keys the editor gives the loaded questions, and the next one it gives. */
const NAME_KEY = 1;
const WALK_KEY = 2;
const ADDED_KEY = 3;

const networkDown = networkError();
const SLUG_TAKEN = 'The slug "walk-my-dog" is already used.';

// ---- The models: an existing template's questions, and a new template ----

const commonEvents: LabelledEvent[] = [
  errorEvent('loadEditor', networkDown, 'load fails'),
  { label: 'retry', event: { type: 'RETRY' } },
  { label: 'save', event: { type: 'SAVE' } },
  errorEvent('saveQuestions', networkDown, 'save fails'),
];

const existing = flowModel(adminTemplateQuestionsMachine, {
  input: { templateId: WALK.id } satisfies AdminTemplateQuestionsInput,
  events: [
    ...commonEvents,
    doneEvent('loadEditor', { template: WALK, categories: [PET] } satisfies LoadedEditor, 'loaded'),
    { label: 'add a question', event: { type: 'ADD_QUESTION' } },
    { label: 'type the new question', event: { type: 'CHANGE_QUESTION', key: ADDED_KEY, changes: { label: 'Anything else?' } } },
    { label: 'make it long text', event: { type: 'CHANGE_QUESTION', key: ADDED_KEY, changes: { type: 'MultilineTextInput' } } },
    { label: 'make it optional', event: { type: 'CHANGE_QUESTION', key: ADDED_KEY, changes: { optional: true } } },
    { label: 'pre-fill it with the address', event: { type: 'CHANGE_QUESTION', key: ADDED_KEY, changes: { prefilled: true } } },
    { label: 'move it up', event: { type: 'MOVE_QUESTION', key: ADDED_KEY, offset: -1 } },
    { label: 'move it down', event: { type: 'MOVE_QUESTION', key: ADDED_KEY, offset: 1 } },
    { label: 'remove it', event: { type: 'REMOVE_QUESTION', key: ADDED_KEY } },
    { label: 'clear the first question', event: { type: 'CHANGE_QUESTION', key: NAME_KEY, changes: { label: '' } } },
    { label: 'add an option', event: { type: 'ADD_OPTION', key: WALK_KEY } },
    { label: 'name the option', event: { type: 'CHANGE_OPTION', key: WALK_KEY, index: 2, changes: { label: 'A run' } } },
    { label: 'remove the option', event: { type: 'REMOVE_OPTION', key: WALK_KEY, index: 2 } },
    { label: 'preview', event: { type: 'PREVIEW' } },
    { label: 'start again', event: { type: 'RESTART_PREVIEW' } },
    { label: 'close the preview', event: { type: 'CLOSE_PREVIEW' } },
    doneEvent('saveQuestions', WALK_V2, 'saved as version 2'),
    doneEvent('saveQuestions', WALK, 'saved in place'),
    errorEvent('saveQuestions', serverRefusal(422, 'Invalid input', { 'questions.1.select_options': OPTION_VALUES_ERROR }), 'options refused'),
  ],
  offer: ({ context }, { label }) => {
    const { questions, notice, fieldErrors, questionErrors, formError, announcement } = context;
    const clean = Object.keys(fieldErrors).length === 0 && Object.keys(questionErrors).length === 0 && formError === null;
    const added = questions.find((question) => question.key === ADDED_KEY);
    const walk = questions.find((question) => question.key === WALK_KEY);
    const first = questions[0];
    const asLoaded = notice === null && clean && questions.length === 2 && first?.label === NAME_QUESTION.label && walk?.options.length === 2;
    switch (label) {
      case 'add a question':
      case 'add an option':
      case 'clear the first question':
        return asLoaded && announcement === null;
      case 'type the new question':
        return added?.label === '';
      case 'make it long text':
        return added?.label === 'Anything else?' && added.type === 'TextInput';
      case 'make it optional':
        return added?.type === 'MultilineTextInput' && !added.optional;
      case 'pre-fill it with the address':
        return added?.optional === true && !added.prefilled;
      case 'move it up':
        return added?.prefilled === true && questions.at(-1)?.key === ADDED_KEY;
      case 'move it down':
        return added?.prefilled === true && questions[1]?.key === ADDED_KEY;
      case 'remove it':
        return added?.prefilled === true && questions.at(-1)?.key === ADDED_KEY && announcement?.includes('moved') === true;
      case 'name the option':
        return walk?.options[2]?.label === '';
      case 'remove the option':
        return walk?.options[2]?.label === 'A run';
      case 'save':
        // As loaded; with the first question's text cleared; with the added question set up and moved back.
        return (
          (asLoaded && announcement === null) ||
          (first?.label === '' && clean) ||
          (added?.prefilled === true && questions.at(-1)?.key === ADDED_KEY && announcement?.includes('moved') === true)
        );
      case 'preview':
        // As loaded; and, refused, once the cleared first question was named on saving.
        return (asLoaded && announcement === null) || (first?.label === '' && questionErrors[NAME_KEY]?.label !== undefined);
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
  input: { templateId: null } satisfies AdminTemplateQuestionsInput,
  events: [
    ...commonEvents,
    doneEvent('loadEditor', { template: null, categories: [PET] } satisfies LoadedEditor, 'categories loaded'),
    { label: 'type the name', event: { type: 'CHANGE_DETAILS', changes: { name: WALK.name } } },
    { label: 'type the slug', event: { type: 'CHANGE_DETAILS', changes: { slug: WALK.slug } } },
    { label: 'choose Pet', event: { type: 'CHANGE_DETAILS', changes: { category_id: PET.id } } },
    { label: 'type the question', event: { type: 'CHANGE_QUESTION', key: 1, changes: { label: NAME_QUESTION.label } } },
    doneEvent('saveQuestions', { ...WALK, questions: [NAME_QUESTION] }, 'created'),
    errorEvent('saveQuestions', serverRefusal(409, SLUG_TAKEN, { slug: SLUG_TAKEN }), 'slug taken'),
  ],
  offer: ({ context }, { label }) => {
    const { details, questions, fieldErrors, formError, notice, templateId } = context;
    const hasErrors = Object.keys(fieldErrors).length > 0;
    switch (label) {
      case 'type the name':
        return details.name === '' && hasErrors;
      case 'type the slug':
        return details.name === WALK.name && details.slug === '';
      case 'choose Pet':
        return details.slug === WALK.slug && details.category_id === null;
      case 'type the question':
        return details.category_id === PET.id && questions[0]?.label === '';
      case 'save':
        return templateId === null && notice === null && formError === null && ((details.name === '' && !hasErrors) || questions[0]?.label === NAME_QUESTION.label) && fieldErrors.slug === undefined;
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
const questionGroup = (position: number) => within(editor()).getByRole('group', { name: new RegExp(`^Question ${position}$`), hidden: true });
const positionOf = (key: number) => actor.getSnapshot().context.questions.findIndex((question) => question.key === key) + 1;

function expectQuestion(question: QuestionDraft, position: number, errors: Record<string, string>) {
  const group = questionGroup(position);
  const label = within(group).getByRole('textbox', { name: 'Question', hidden: true });
  expect(label).toHaveValue(question.label);
  expectFieldMessages({ label }, errors);
  expect(within(group).getByRole('button', { name: /Answer type/, hidden: true })).toHaveTextContent(QUESTION_TYPE_LABELS[question.type]);
  const optional = within(group).getByRole('checkbox', { name: /^Optional/, hidden: true });
  if (question.optional) expect(optional).toBeChecked();
  else expect(optional).not.toBeChecked();
  const prefill = within(group).queryByRole('checkbox', { name: /^Pre-fill/, hidden: true });
  if (question.type === 'SingleSelectInput' || question.type === 'SingleUploadInput') expect(prefill).toBeNull();
  else expect(prefill?.matches(':checked')).toBe(question.prefilled);
  const options = within(group).queryByRole('group', { name: `Options of question ${position}`, hidden: true });
  if (question.type !== 'SingleSelectInput') {
    expect(options).toBeNull();
    return;
  }
  question.options.forEach((option, index) => {
    const optionLabel = within(options!).getByRole('textbox', { name: `Option ${index + 1}`, hidden: true });
    const optionValue = within(options!).getByRole('textbox', { name: `Value of option ${index + 1}`, hidden: true });
    expect(optionLabel).toHaveValue(option.label);
    expect(optionValue).toHaveValue(option.value);
  });
  if (errors.select_options) expect(within(options!).getByRole('alert', { hidden: true })).toHaveTextContent(errors.select_options);
  else expect(within(options!).queryByRole('alert', { hidden: true })).toBeNull();
}

/** The draft as the editor shows it: details (of a new template), every question, and each message beside its field. */
function expectEditor({ context }: EditorSnapshot, { busy }: { busy: boolean }) {
  expect(editor()).toHaveAttribute('aria-busy', String(busy));
  const { questions, questionErrors, fieldErrors, formError, notice, template, details } = context;
  if (context.templateId === null) {
    const name = within(editor()).getByRole('textbox', { name: 'Name', hidden: true });
    const slug = within(editor()).getByRole('textbox', { name: 'Slug', hidden: true });
    expect(name).toHaveValue(details.name);
    expect(slug).toHaveValue(details.slug);
    expectFieldMessages({ name, slug }, fieldErrors);
    expect(within(editor()).getByRole('button', { name: /Category/, hidden: true })).toHaveTextContent(details.category_id === PET.id ? 'Pet' : 'No category');
  } else if (template) {
    expect(within(editor()).getByText(`version ${template.version}`)).toBeInTheDocument();
  }
  expect(within(editor()).queryAllByRole('group', { name: /^Question \d+$/, hidden: true })).toHaveLength(questions.length);
  questions.forEach((question, index) => expectQuestion(question, index + 1, questionErrors[question.key] ?? {}));
  if (notice) expect(within(editor()).getByRole('status', { hidden: true })).toHaveTextContent(notice);
  if (formError) expect(within(editor()).getByText(formError)).toBeInTheDocument();
  if (context.announcement) expect(within(editor()).getByText(context.announcement)).toHaveAttribute('aria-live', 'polite');
  return within(editor()).getByRole('button', { name: context.templateId === null ? 'Create template' : 'Save questions', hidden: true });
}

const states: StateAssertions<Machine> = {
  loading: ({ context }) => {
    expect(editor()).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByText('Loading')).toBeInTheDocument();
    const template = context.templateId === null ? [] : [{ method: 'GET', path: `admin/survey_templates/${context.templateId}`, body: undefined }];
    // The template and the categories at once, reaching the server in either order.
    const categories = { method: 'GET', path: 'admin/survey_categories', body: undefined };
    expect(sent.slice(-template.length - 1)).toEqual(expect.arrayContaining([...template, categories]));
  },
  failed: () => {
    expect(screen.getByRole('alert')).toHaveTextContent("We couldn't load this request template. Please try again.");
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  },
  editing: (snapshot) => {
    expect(expectEditor(snapshot, { busy: false })).not.toHaveAttribute('aria-busy');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    if (snapshot.context.template && snapshot.context.notice?.includes('created')) {
      expect(navigateTo).toHaveBeenCalledWith(`/console/admin/surveys/${snapshot.context.template.id}`, { replace: true });
    } else {
      expect(navigateTo).not.toHaveBeenCalled();
    }
  },
  saving: (snapshot) => {
    expect(expectEditor(snapshot, { busy: true })).toHaveAttribute('aria-busy', 'true');
    const { context } = snapshot;
    const request = createRequestOf(context.details, context.questions);
    expect(sent.at(-1)).toEqual(
      context.templateId === null
        ? { method: 'POST', path: 'admin/survey_templates', body: request }
        : { method: 'PUT', path: `admin/survey_templates/${context.templateId}/questions`, body: { questions: context.questions.map(questionInputOf) } },
    );
  },
  previewing: ({ context }) => {
    const preview = screen.getByRole('dialog', { name: context.template?.name ?? 'New request' });
    expect(within(preview).getByRole('status')).toHaveTextContent('Nothing you answer here is saved or sent');
    // The conversation begins again with the first question, as employees get it.
    expect(within(preview).getByRole('textbox', { name: context.questions[0]!.label })).toHaveValue('');
    expect(within(preview).queryByRole('list', { name: 'Your answers so far' })).not.toBeInTheDocument();
    expect(sent).toHaveLength(sentBeforePreview);
  },
};

const typeInto = async (input: HTMLElement, text: string) => {
  await user.clear(input);
  if (text) await user.type(input, text);
};

const choose = async (scope: HTMLElement, select: RegExp, option: string) => {
  await user.click(within(scope).getByRole('button', { name: select }));
  await user.click(screen.getByRole('option', { name: option }));
};

const events: EventExecutors<Machine> = {
  ...settlementExecutors(adminTemplateQuestionsMachine, pendingCalls),
  RETRY: () => user.click(screen.getByRole('button', { name: 'Try again' })),
  CHANGE_DETAILS: ({ event }) => {
    const changes = event.changes as { name?: string; slug?: string; category_id?: number };
    if (changes.name !== undefined) return typeInto(within(editor()).getByRole('textbox', { name: 'Name' }), changes.name);
    if (changes.slug !== undefined) return typeInto(within(editor()).getByRole('textbox', { name: 'Slug' }), changes.slug);
    return choose(editor(), /Category/, 'Pet');
  },
  ADD_QUESTION: async () => {
    await user.click(within(editor()).getByRole('button', { name: 'Add a question' }));
    // The new question takes the focus, ready for its text.
    expect(within(questionGroup(positionOf(ADDED_KEY))).getByRole('textbox', { name: 'Question' })).toHaveFocus();
  },
  CHANGE_QUESTION: ({ event }) => {
    const group = questionGroup(positionOf(event.key as number));
    const changes = event.changes as Partial<QuestionDraft>;
    if (changes.label !== undefined) return typeInto(within(group).getByRole('textbox', { name: 'Question' }), changes.label);
    if (changes.type !== undefined) return choose(group, /Answer type/, QUESTION_TYPE_LABELS[changes.type]);
    if (changes.optional !== undefined) return user.click(within(group).getByRole('checkbox', { name: /^Optional/ }));
    return user.click(within(group).getByRole('checkbox', { name: /^Pre-fill with the employee's address/ }));
  },
  MOVE_QUESTION: ({ event }) => {
    const position = positionOf(event.key as number);
    return user.click(within(questionGroup(position)).getByRole('button', { name: `Move ${event.offset === -1 ? 'up' : 'down'} question ${position}` }));
  },
  REMOVE_QUESTION: async ({ event }) => {
    const position = positionOf(event.key as number);
    await user.click(within(questionGroup(position)).getByRole('button', { name: `Remove question ${position}` }));
    expect(screen.getByRole('heading', { name: 'Questions' })).toHaveFocus();
  },
  ADD_OPTION: () => user.click(within(questionGroup(positionOf(WALK_KEY))).getByRole('button', { name: 'Add an option' })),
  CHANGE_OPTION: ({ event }) => {
    const index = event.index as number;
    return typeInto(within(questionGroup(positionOf(WALK_KEY))).getByRole('textbox', { name: `Option ${index + 1}` }), (event.changes as { label: string }).label);
  },
  REMOVE_OPTION: ({ event }) => {
    const position = positionOf(WALK_KEY);
    return user.click(within(questionGroup(position)).getByRole('button', { name: `Remove option ${(event.index as number) + 1} of question ${position}` }));
  },
  SAVE: () => user.click(within(editor()).getByRole('button', { name: /^(Create template|Save questions)$/ })),
  PREVIEW: async () => {
    sentBeforePreview = sent.length;
    await user.click(within(editor()).getByRole('button', { name: 'Preview' }));
  },
  RESTART_PREVIEW: async () => {
    // An answer in the preview leads on to the next question, as it would for an employee; nothing is sent.
    const preview = screen.getByRole('dialog');
    await user.type(within(preview).getByRole('textbox', { name: NAME_QUESTION.label }), 'Rex');
    await user.click(within(preview).getByRole('button', { name: 'Continue' }));
    expect(await within(preview).findByRole('radiogroup', { name: WALK_QUESTION.label })).toBeInTheDocument();
    expect(within(preview).getByRole('list', { name: 'Your answers so far' })).toHaveTextContent('Rex');
    await user.click(within(preview).getByRole('button', { name: 'Start again' }));
  },
  CLOSE_PREVIEW: () => user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Close' })),
};

function renderEditor(input: AdminTemplateQuestionsInput) {
  actor = createActor(adminTemplateQuestionsMachine, { input }).start();
  render(<AdminTemplateQuestionsView editor={actor} />);
}

beforeEach(() => {
  user = userEvent.setup();
  pendingCalls.clear();
  navigateTo = vi.fn<(to: string, options?: NavigateOptions) => unknown>();
  setRouter({ navigate: navigateTo });
  sent = fakeAdminApi([
    { method: 'GET', path: /^admin\/survey_templates\/\d+$/, id: 'loadEditor', answer: (loaded: LoadedEditor) => ({ template: loaded.template }) },
    { method: 'GET', path: /^admin\/survey_categories$/, id: 'loadEditor', answer: (loaded: LoadedEditor) => ({ categories: loaded.categories }) },
    { method: 'PUT', path: /^admin\/survey_templates\/\d+\/questions$/, id: 'saveQuestions', answer: (saved: AdminTemplate) => ({ template: saved }) },
    { method: 'POST', path: /^admin\/survey_templates$/, id: 'saveQuestions', answer: (saved: AdminTemplate) => ({ template: saved }) },
  ]);
});

afterEach(() => {
  cleanup();
  actor.stop();
  setRouter(null);
});

describe("the question editor of an existing template", () => {
  beforeEach(() => renderEditor({ templateId: WALK.id }));
  it.each(existing.titled)('$title', async ({ path }) => {
    await runPath(path, () => actor.getSnapshot(), states, events);
  });
});

describe('the question editor of a new template', () => {
  beforeEach(() => renderEditor({ templateId: null }));
  it.each(created.titled)('$title', async ({ path }) => {
    await runPath(path, () => actor.getSnapshot(), states, events);
  });
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
        'a new template is checked before it is sent': /categories loaded → save → type the name/,
        'a new template is created': /type the question → save → created$/,
        'a slug clash is named on the slug': /type the question → save → slug taken$/,
      },
    );
  });
});

describe('what a save says', () => {
  it('names the version, and says when employees who began earlier keep theirs', () => {
    expect(savedNotice(WALK, WALK_V2)).toBe(
      'Questions saved as version 2. Employees who began this request on version 1 keep the questions they began with; new requests get these.',
    );
    expect(savedNotice(WALK, WALK)).toBe('Questions saved as version 1. No employee had begun it yet, so it was changed in place.');
    expect(savedNotice(null, WALK)).toBe('Walk my dog created, with version 1 of its questions.');
  });
});
