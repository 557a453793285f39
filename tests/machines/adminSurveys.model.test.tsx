import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Actor, createActor } from 'xstate';
import type { AdminSurveyCategory, AdminTemplate, AdminTemplateSummary } from '../../src/contract/adminCatalogue.ts';
import {
  CATEGORY_IMAGE_REQUIRED,
  type SurveysCatalogue,
  adminSurveysMachine,
  categoryRequestOf,
  templateDetailsRequestOf,
} from '../../src/machines/adminSurveys.machine.ts';
import { IMAGE_STILL_UPLOADING, SAVE_FAILED } from '../../src/machines/adminForms.ts';
import { networkError, serverRefusal } from './httpFailures.support.ts';
import { AdminSurveysView } from '../../src/views/admin/AdminSurveysView.tsx';
import {
  IMAGE_UPLOAD_REPORTS,
  PRESIGNED_LOGO,
  type SentCall,
  expectFieldMessages,
  fakeAdminApi,
  imageUploadExecutors,
  itWaitsForTheFormImage,
} from './adminApi.support.ts';
import { FakeXMLHttpRequest } from './fakeXMLHttpRequest.support.ts';
import {
  type EventExecutors,
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

type Machine = typeof adminSurveysMachine;
type SurveysSnapshot = ReturnType<Machine['transition']>;

// ---- The catalogue as the server answers it ----

const category = (fields: Pick<AdminSurveyCategory, 'id' | 'slug' | 'name' | 'template_count'>): AdminSurveyCategory => ({
  image_url: `/images/categories/${fields.slug}.svg`,
  image_upload_key: null,
  ...fields,
});
const template = (fields: Pick<AdminTemplateSummary, 'id' | 'slug' | 'name' | 'category_id'> & Partial<AdminTemplateSummary>): AdminTemplateSummary => ({
  for_alpha: true,
  version: 1,
  created_at: '2026-01-05T09:00:00.000Z',
  ...fields,
});

const CAR = category({ id: 1, slug: 'car', name: 'Car', template_count: 1 });
const PET = category({ id: 6, slug: 'pet', name: 'Pet', template_count: 1 });
const RENEW = template({ id: 101, slug: 'renew-car-registration', name: 'Renew my car registration', category_id: CAR.id, version: 3 });
const VET = template({ id: 601, slug: 'book-vet', name: 'Book a vet appointment', category_id: PET.id });
const WELCOME = template({ id: 603, slug: 'welcome', name: 'Welcome to Life Concierge', category_id: null, for_alpha: false });
const CATALOGUE: SurveysCatalogue = { categories: [CAR, PET], templates: [RENEW, VET, WELCOME] };

const GARDEN = {
  ...category({ id: 10, slug: 'garden', name: 'Garden', template_count: 0 }),
  image_upload_key: 'uploads/new-logo',
  image_url: '/api/v1/catalogue_images/uploads%2Fnew-logo',
};
const CARS = { ...CAR, name: 'Cars' };
const VET_MOVED: AdminTemplate = { ...VET, name: 'Book a vet visit', category_id: CAR.id, questions: [] };

const SLUG_TAKEN = 'The slug "garden" is already used.';
const UNKNOWN_CATEGORY = 'There is no such survey category';
const networkDown = networkError();

// ---- The model ----

const { paths, titled } = flowModel(adminSurveysMachine, {
  events: [
    doneEvent('loadSurveys', CATALOGUE, 'list'),
    doneEvent('loadSurveys', { categories: [], templates: [] }, 'empty catalogue'),
    errorEvent('loadSurveys', networkDown, 'list fails'),
    { label: 'retry', event: { type: 'RETRY' } },
    { label: 'show Pet templates', event: { type: 'FILTER', categoryFilter: PET.id } },
    { label: 'show templates in no category', event: { type: 'FILTER', categoryFilter: 'none' } },
    { label: 'show all templates', event: { type: 'FILTER', categoryFilter: 'all' } },
    { label: 'new category', event: { type: 'NEW_CATEGORY' } },
    { label: 'edit Car', event: { type: 'EDIT_CATEGORY', categoryId: CAR.id } },
    { label: 'type the name', event: { type: 'CHANGE_CATEGORY', changes: { name: 'Garden' } } },
    { label: 'type a bad slug', event: { type: 'CHANGE_CATEGORY', changes: { slug: 'Garden Yard' } } },
    { label: 'fix the slug', event: { type: 'CHANGE_CATEGORY', changes: { slug: 'garden' } } },
    { label: 'rename Car', event: { type: 'CHANGE_CATEGORY', changes: { name: 'Cars' } } },
    // What the image's upload (a child actor of the screen's machine) tells it.
    { label: 'image uploaded', event: IMAGE_UPLOAD_REPORTS.uploaded },
    { label: 'image upload fails', event: IMAGE_UPLOAD_REPORTS.failed },
    { label: 'remove the uploaded image', event: IMAGE_UPLOAD_REPORTS.cleared },
    { label: 'save', event: { type: 'SAVE' } },
    doneEvent('saveCategory', GARDEN, 'category created'),
    doneEvent('saveCategory', CARS, 'category updated'),
    errorEvent('saveCategory', serverRefusal(409, SLUG_TAKEN, { slug: SLUG_TAKEN }), 'slug taken'),
    errorEvent('saveCategory', networkDown, 'save fails'),
    { label: 'cancel', event: { type: 'CANCEL' } },
    { label: 'keep editing', event: { type: 'KEEP_EDITING' } },
    { label: 'discard', event: { type: 'DISCARD' } },
    { label: 'edit the vet template', event: { type: 'EDIT_TEMPLATE', templateId: VET.id } },
    { label: 'clear the name', event: { type: 'CHANGE_TEMPLATE', changes: { name: '' } } },
    { label: 'rename the template', event: { type: 'CHANGE_TEMPLATE', changes: { name: 'Book a vet visit' } } },
    { label: 'move it to Car', event: { type: 'CHANGE_TEMPLATE', changes: { category_id: CAR.id } } },
    doneEvent('saveTemplate', VET_MOVED, 'template saved'),
    errorEvent('saveTemplate', serverRefusal(422, 'Invalid input', { category_id: UNKNOWN_CATEGORY }), 'unknown category'),
  ],
  offer: ({ context }, { label }) => {
    const { categoryForm, templateForm, notice, categories, categoryFilter, fieldErrors, formError } = context;
    const draft = categoryForm?.draft;
    const isNew = categoryForm?.categoryId === null;
    const isCar = categoryForm?.categoryId === CAR.id;
    const details = templateForm?.draft;
    const untouched = notice === null && categories !== null && categories.length > 0;
    const clean = Object.keys(fieldErrors).length === 0 && formError === null;
    switch (label) {
      case 'show Pet templates':
        return untouched && categoryFilter === 'all';
      case 'show templates in no category':
        return untouched && categoryFilter === PET.id;
      case 'show all templates':
        return untouched && categoryFilter === 'none';
      case 'new category':
      case 'edit Car':
      case 'edit the vet template':
        return untouched && categoryFilter === 'all';
      case 'type the name':
        return isNew && draft?.name === '' && !clean;
      case 'type a bad slug':
        return isNew && draft?.name === 'Garden' && draft.slug === '';
      case 'fix the slug':
        return draft?.slug === 'Garden Yard' && fieldErrors.slug !== undefined;
      case 'rename Car':
        return isCar && draft?.name === 'Car';
      case 'image uploaded':
      case 'image upload fails':
        return isNew && draft?.slug === 'garden' && draft.image_upload_key === null;
      case 'remove the uploaded image':
        return isNew && draft?.image_upload_key === PRESIGNED_LOGO.key;
      case 'save':
        return (
          (isNew && draft?.name === '' && clean) ||
          (draft?.slug === 'Garden Yard' && fieldErrors.slug === undefined) ||
          (isNew && draft?.slug === 'garden' && formError === null && draft.image_upload_key !== null) ||
          (isCar && draft?.name === 'Cars') ||
          (details?.name === '' && clean) ||
          details?.category_id === CAR.id
        );
      case 'category created':
      case 'slug taken':
        return isNew;
      case 'category updated':
      case 'save fails':
        return isCar;
      case 'cancel':
        // Closing a form before anything is typed, and leaving a changed one (which asks first).
        return (
          (isNew && draft?.name === '' && clean) ||
          (details?.name === VET.name && clean) ||
          (isCar && draft?.name === 'Cars' && clean) ||
          (details?.category_id === CAR.id && clean)
        );
      case 'clear the name':
        return details?.name === VET.name;
      case 'rename the template':
        return details?.name === '' && !clean;
      case 'move it to Car':
        return details?.name === 'Book a vet visit' && details.category_id === PET.id;
      default:
        return true;
    }
  },
});

// ---- The rendered screen and the fake server ----

let user: UserEvent;
let actor: Actor<Machine>;
let sent: SentCall[];

const dialog = () => screen.getByRole('dialog');
const field = (name: string | RegExp) => within(dialog()).getByRole('textbox', { name });
const grid = (name: string) => screen.getByRole('grid', { name, hidden: true });
const bodyRows = (name: string) => within(grid(name)).getAllByRole('row', { hidden: true }).slice(1);

function expectCategoryRows(categories: AdminSurveyCategory[]) {
  if (categories.length === 0) {
    expect(grid('Survey categories')).toHaveTextContent('No survey categories yet. Create the first one.');
    return;
  }
  const rows = bodyRows('Survey categories');
  expect(rows).toHaveLength(categories.length);
  categories.forEach((expected, index) => {
    const row = rows[index] as HTMLElement;
    expect(within(row).getByRole('rowheader', { hidden: true })).toHaveTextContent(`${expected.name}${expected.slug}`);
    expect(row.querySelector('img')).toHaveAttribute('src', expected.image_url);
    expect(within(row).getAllByRole('gridcell', { hidden: true })[0]).toHaveTextContent(String(expected.template_count));
  });
}

function expectTemplateRows({ context }: SurveysSnapshot) {
  const { templates, categories, categoryFilter } = context;
  const shown = (templates ?? []).filter((entry) =>
    categoryFilter === 'all' ? true : categoryFilter === 'none' ? entry.category_id === null : entry.category_id === categoryFilter,
  );
  if (shown.length === 0) {
    expect(grid('Request templates')).toHaveTextContent('No request templates here yet.');
    return;
  }
  const rows = bodyRows('Request templates');
  expect(rows).toHaveLength(shown.length);
  shown.forEach((expected, index) => {
    const row = rows[index] as HTMLElement;
    expect(within(row).getByRole('rowheader', { hidden: true })).toHaveTextContent(`${expected.name}${expected.slug}`);
    const [categoryName, forAlpha, version] = within(row).getAllByRole('gridcell', { hidden: true }).map((cell) => cell.textContent);
    expect(categoryName).toBe(categories?.find((entry) => entry.id === expected.category_id)?.name ?? 'No category');
    expect(forAlpha).toBe(expected.for_alpha ? 'Yes' : 'No');
    expect(version).toBe(String(expected.version));
    expect(within(row).getByRole('link', { name: `Edit questions of ${expected.name}`, hidden: true })).toHaveAttribute(
      'href',
      `/console/admin/surveys/${expected.id}`,
    );
  });
}

/** What the screen shows in every state: the lists (unless loading or failed), the notice, the busy mark. */
function expectFrame(snapshot: SurveysSnapshot, { busy }: { busy: boolean }) {
  const { context } = snapshot;
  expect(screen.getByRole('region', { name: 'Surveys', hidden: true })).toHaveAttribute('aria-busy', String(busy));
  if (context.categories) expectCategoryRows(context.categories);
  if (context.templates) expectTemplateRows(snapshot);
  if (context.notice) expect(screen.getByRole('status', { hidden: true })).toHaveTextContent(context.notice);
  else expect(screen.queryByRole('status', { hidden: true })).not.toBeInTheDocument();
}

function expectCategoryForm({ context }: SurveysSnapshot) {
  const { categoryForm: form, fieldErrors, formError } = context;
  if (!form) throw new Error('No category form in the model');
  expect(dialog()).toHaveAccessibleName(form.categoryId === null ? 'New survey category' : 'Edit Car');
  const fields = { name: field('Name'), slug: field('Slug') };
  expect(fields.name).toHaveValue(form.draft.name);
  expect(fields.slug).toHaveValue(form.draft.slug);
  expectFieldMessages(fields, fieldErrors);
  const image = within(dialog()).getByRole('group', { name: 'Image' });
  if (form.imageUrl) expect(within(image).getByRole('img', { name: /^Current image of/ })).toHaveAttribute('src', form.imageUrl);
  else expect(within(image).queryByRole('img', { name: /^Current image of/ })).not.toBeInTheDocument();
  // The uploader says itself when an upload fails; these are the form's own messages.
  const alerts = within(dialog()).queryAllByRole('alert').map((alert) => alert.textContent);
  const formMessages = [CATEGORY_IMAGE_REQUIRED, IMAGE_STILL_UPLOADING, SLUG_TAKEN, SAVE_FAILED];
  expect(alerts.filter((text) => formMessages.includes(text ?? ''))).toEqual([fieldErrors.image_upload_key, formError].filter(Boolean));
  return within(dialog()).getByRole('button', { name: /^(Create category|Save changes)$/ });
}

function expectTemplateForm({ context }: SurveysSnapshot) {
  const { templateForm: form, fieldErrors, formError } = context;
  if (!form) throw new Error('No template form in the model');
  expect(dialog()).toHaveAccessibleName(`Edit ${VET.name}`);
  const name = field('Name');
  expect(name).toHaveValue(form.draft.name);
  expect(within(dialog()).queryByRole('textbox', { name: 'Slug' })).not.toBeInTheDocument();
  expect(within(dialog()).getByText(`Slug: ${VET.slug}`)).toBeInTheDocument();
  expect(within(dialog()).getByRole('checkbox', { name: /For alpha/ })).toBeChecked();
  const categoryPicker = within(dialog()).getByRole('button', { name: /Category/ });
  expect(categoryPicker).toHaveTextContent(form.draft.category_id === CAR.id ? 'Car' : 'Pet');
  expectFieldMessages({ name }, fieldErrors);
  if (fieldErrors.category_id) expect(within(dialog()).getByText(fieldErrors.category_id)).toBeInTheDocument();
  if (formError) expect(within(dialog()).getByRole('alert')).toHaveTextContent(formError);
  return within(dialog()).getByRole('button', { name: 'Save changes' });
}

const states: StateAssertions<Machine> = {
  loading: (snapshot) => {
    expectFrame(snapshot, { busy: true });
    expect(screen.getByText('Loading')).toBeInTheDocument();
    // Both lists at once, reaching the server in either order.
    expect(sent.slice(-2)).toEqual(
      expect.arrayContaining([
        { method: 'GET', path: 'admin/survey_categories', body: undefined },
        { method: 'GET', path: 'admin/survey_templates', body: undefined },
      ]),
    );
  },
  failed: (snapshot) => {
    expectFrame(snapshot, { busy: false });
    expect(screen.getByRole('alert')).toHaveTextContent("We couldn't load the survey categories and templates. Please try again.");
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  },
  list: (snapshot) => {
    expectFrame(snapshot, { busy: false });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    const filterLabels = { all: 'All categories', none: 'No category' } as const;
    const { categoryFilter } = snapshot.context;
    const shownFilter = typeof categoryFilter === 'number' ? 'Pet' : filterLabels[categoryFilter];
    expect(screen.getByRole('button', { name: /Show templates in/ })).toHaveTextContent(shownFilter);
  },
  editingCategory: (snapshot) => {
    expectFrame(snapshot, { busy: false });
    expect(expectCategoryForm(snapshot)).not.toHaveAttribute('aria-busy');
  },
  savingCategory: (snapshot) => {
    expectFrame(snapshot, { busy: true });
    expect(expectCategoryForm(snapshot)).toHaveAttribute('aria-busy', 'true');
    const form = snapshot.context.categoryForm!;
    const request = form.categoryId === null ? { method: 'POST', path: 'admin/survey_categories' } : { method: 'PATCH', path: `admin/survey_categories/${form.categoryId}` };
    expect(sent.at(-1)).toEqual({ ...request, body: categoryRequestOf(form) });
  },
  editingTemplate: (snapshot) => {
    expectFrame(snapshot, { busy: false });
    expect(expectTemplateForm(snapshot)).not.toHaveAttribute('aria-busy');
  },
  confirmingDiscard: (snapshot) => {
    expectFrame(snapshot, { busy: false });
    const unsaved = snapshot.context.categoryForm ? 'Your changes to this category have not been saved.' : 'Your changes to this template have not been saved.';
    expect(screen.getByRole('alertdialog', { name: 'Discard your changes?' })).toHaveTextContent(unsaved);
  },
  savingTemplate: (snapshot) => {
    expectFrame(snapshot, { busy: true });
    expect(expectTemplateForm(snapshot)).toHaveAttribute('aria-busy', 'true');
    const form = snapshot.context.templateForm!;
    expect(sent.at(-1)).toEqual({ method: 'PATCH', path: `admin/survey_templates/${form.templateId}`, body: templateDetailsRequestOf(form.draft) });
  },
};

const typeInto = async (input: HTMLElement, text: string) => {
  await user.clear(input);
  if (text) await user.type(input, text);
};

const choose = async (select: RegExp, option: string) => {
  await user.click(screen.getByRole('button', { name: select }));
  await user.click(screen.getByRole('option', { name: option }));
};

const events: EventExecutors<Machine> = {
  ...settlementExecutors(adminSurveysMachine, pendingCalls),
  RETRY: () => user.click(screen.getByRole('button', { name: 'Try again' })),
  FILTER: ({ event }) => {
    if (typeof event.categoryFilter === 'number') return user.click(screen.getByRole('button', { name: 'Show templates of Pet' }));
    return choose(/Show templates in/, event.categoryFilter === 'none' ? 'No category' : 'All categories');
  },
  NEW_CATEGORY: () => user.click(screen.getByRole('button', { name: 'New category' })),
  EDIT_CATEGORY: () => user.click(screen.getByRole('button', { name: 'Edit Car' })),
  CHANGE_CATEGORY: ({ event }) => {
    const changes = event.changes as { name?: string; slug?: string };
    return changes.name !== undefined ? typeInto(field('Name'), changes.name) : typeInto(field('Slug'), changes.slug ?? '');
  },
  ...imageUploadExecutors(() => user, dialog),
  SAVE: () => user.click(within(dialog()).getByRole('button', { name: /^(Create category|Save changes)$/ })),
  CANCEL: () => user.click(within(dialog()).getByRole('button', { name: 'Cancel' })),
  DISCARD: () => user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Discard changes' })),
  KEEP_EDITING: () => user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Keep editing' })),
  EDIT_TEMPLATE: () => user.click(screen.getByRole('button', { name: `Edit details of ${VET.name}` })),
  CHANGE_TEMPLATE: ({ event }) => {
    const changes = event.changes as { name?: string; category_id?: number };
    return changes.name !== undefined ? typeInto(field('Name'), changes.name) : choose(/Category/, 'Car');
  },
};

function openScreen() {
  user = userEvent.setup();
  pendingCalls.clear();
  FakeXMLHttpRequest.sent = [];
  vi.stubGlobal('XMLHttpRequest', FakeXMLHttpRequest);
  sent = fakeAdminApi([
    { method: 'GET', path: /^admin\/survey_categories$/, id: 'loadSurveys', answer: (loaded: SurveysCatalogue) => ({ categories: loaded.categories }) },
    { method: 'GET', path: /^admin\/survey_templates$/, id: 'loadSurveys', answer: (loaded: SurveysCatalogue) => ({ templates: loaded.templates }) },
    { method: 'POST', path: /^admin\/survey_categories$/, id: 'saveCategory', answer: (saved: AdminSurveyCategory) => ({ category: saved }) },
    { method: 'PATCH', path: /^admin\/survey_categories\/\d+$/, id: 'saveCategory', answer: (saved: AdminSurveyCategory) => ({ category: saved }) },
    { method: 'PATCH', path: /^admin\/survey_templates\/\d+$/, id: 'saveTemplate', answer: (saved: AdminTemplate) => ({ template: saved }) },
  ]);
  actor = createActor(adminSurveysMachine).start();
  render(<AdminSurveysView surveys={actor} />);
}

function closeScreen() {
  cleanup();
  actor.stop();
  vi.unstubAllGlobals();
}

describe('admin surveys machine against the surveys screen', () => {
  beforeEach(openScreen);
  afterEach(closeScreen);

  it.each(titled)('$title', async ({ path }) => {
    await runPath(path, () => actor.getSnapshot(), states, events);
  });
});

describe("the category form's image, an upload that is a child actor of the screen's machine", () => {
  beforeEach(async () => {
    openScreen();
    await pendingCalls.settle(doneEvent('loadSurveys', CATALOGUE, 'list').event);
    await user.click(screen.getByRole('button', { name: 'New category' }));
    await typeInto(field('Name'), 'Garden');
    await typeInto(field('Slug'), 'garden');
  });
  afterEach(closeScreen);

  itWaitsForTheFormImage({
    saves: 'category',
    dialog,
    user: () => user,
    saveButton: 'Create category',
    stillUploading: IMAGE_STILL_UPLOADING,
    isEditing: () => actor.getSnapshot().matches('editingCategory'),
    sent: () => sent,
    savedWith: { path: 'admin/survey_categories', body: { image_upload_key: PRESIGNED_LOGO.key } },
  });
});

describe('admin surveys model coverage', () => {
  it('asserts every state and executes every event', () => {
    expectFullCoverage(adminSurveysMachine, paths, states, events);
  });

  it('walks the paths the rules call for', () => {
    expectScenariosWalked(
      titled.map(({ title }) => title),
      {
        'an empty catalogue': /^start → empty catalogue$/,
        'failure and retry': /list fails → retry$/,
        'templates filtered by category': /show Pet templates → show templates in no category → show all templates$/,
        'an empty form is checked before it is sent': /new category → save → type the name/,
        'a bad slug is named beside its field': /type a bad slug → save → fix the slug/,
        'a category is created with its image': /image uploaded → save → category created/,
        'a slug clash keeps what was typed': /save → slug taken/,
        'a failed image upload': /image upload fails/,
        'an uploaded image removed': /image uploaded → remove the uploaded image/,
        'a category is renamed': /edit Car → rename Car → save → category updated$/,
        'a failed save keeps the form': /save → save fails$/,
        'a template needs a name': /edit the vet template → clear the name → save → rename the template/,
        "a template's details are saved": /move it to Car → save → template saved$/,
        'an unknown category is named on its field': /move it to Car → save → unknown category$/,
        'cancel': /edit the vet template → cancel$/,
        'leaving a changed category asks, and discards only when told': /rename Car → cancel → discard$/,
        'leaving changed details can be taken back': /move it to Car → cancel → keep editing/,
      },
    );
  });
});
