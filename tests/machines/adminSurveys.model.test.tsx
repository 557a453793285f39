/**
 * The surveys screen: its two lists, each a collection machine (adminCollection.support.tsx), run through every
 * transition against the screen, the other list standing loaded beside it.
 */
import { screen, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { expect } from 'vitest';
import { type AnyStateMachine, createActor, fromPromise } from 'xstate';
import type { AdminSurveyCategory, AdminTemplate, AdminTemplateSummary } from '../../src/contract/adminCatalogue.ts';
import { IMAGE_STILL_UPLOADING, SAVE_FAILED } from '../../src/machines/adminForms.ts';
import {
  CATEGORY_IMAGE_REQUIRED,
  type CategoryDraft,
  SURVEYS_LOAD_ERROR,
  adminSurveyCategoriesMachine,
  categoryRequestOf,
} from '../../src/machines/adminSurveyCategories.machine.ts';
import {
  type CategoryFilter,
  type TemplateDetailsDraft,
  adminSurveyTemplatesMachine,
  templateDetailsRequestOf,
} from '../../src/machines/adminSurveyTemplates.machine.ts';
import { AdminSurveysView, type SurveyCategoriesActor, type SurveyTemplatesActor } from '../../src/views/admin/AdminSurveysView.tsx';
import { IMAGE_UPLOAD_REPORTS, PRESIGNED_LOGO, expectFieldMessages } from './adminApi.support.ts';
import { clean, describeCollection, rowsOf, textbox, typeInto, untouched } from './adminCollection.support.tsx';
import { networkError, serverRefusal } from './httpFailures.support.ts';
import { doneEvent, errorEvent } from './modelPaths.support.ts';

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
const TEMPLATES = [RENEW, VET, WELCOME];
const GARDEN = {
  ...category({ id: 10, slug: 'garden', name: 'Garden', template_count: 0 }),
  image_upload_key: 'uploads/new-logo',
  image_url: '/api/v1/catalogue_images/uploads%2Fnew-logo',
};
const VET_MOVED: AdminTemplateSummary = { ...VET, name: 'Book a vet visit', category_id: CAR.id };
const SLUG_TAKEN = 'The slug "garden" is already used.';
const UNKNOWN_CATEGORY = 'There is no such survey category';
const networkDown = networkError();

/** The screen's other list, loaded at once (it makes no call the test waits on). */
function listed<M extends AnyStateMachine>(machine: M, items: unknown[]) {
  return createActor(machine.provide({ actors: { list: fromPromise(async () => items) } })).start();
}

const choose = async (user: UserEvent, select: RegExp, option: string) => {
  await user.click(screen.getByRole('button', { name: select }));
  await user.click(screen.getByRole('option', { name: option }));
};

// ---- Survey categories ----

describeCollection<AdminSurveyCategory, CategoryDraft>({
  machine: adminSurveyCategoriesMachine,
  heading: 'Surveys',
  view: (actor) => (
    <AdminSurveysView categories={actor as unknown as SurveyCategoriesActor} templates={listed(adminSurveyTemplatesMachine, TEMPLATES) as unknown as SurveyTemplatesActor} />
  ),
  routes: [
    { method: 'GET', path: /^admin\/survey_categories$/, id: 'list', answer: (categories: AdminSurveyCategory[]) => ({ categories }) },
    { method: 'POST', path: /^admin\/survey_categories$/, id: 'save', answer: (saved: AdminSurveyCategory) => ({ category: saved }) },
    { method: 'PATCH', path: /^admin\/survey_categories\/\d+$/, id: 'save', answer: (saved: AdminSurveyCategory) => ({ category: saved }) },
  ],
  events: [
    doneEvent('list', [CAR, PET], 'list'),
    doneEvent('list', [], 'no categories'),
    errorEvent('list', networkDown, 'list fails'),
    { label: 'retry', event: { type: 'RETRY' } },
    { label: 'new category', event: { type: 'NEW' } },
    { label: 'edit Car', event: { type: 'EDIT', itemId: CAR.id } },
    { label: 'type the name', event: { type: 'CHANGE', changes: { name: 'Garden' } } },
    { label: 'type a bad slug', event: { type: 'CHANGE', changes: { slug: 'Garden Yard' } } },
    { label: 'fix the slug', event: { type: 'CHANGE', changes: { slug: 'garden' } } },
    { label: 'rename Car', event: { type: 'CHANGE', changes: { name: 'Cars' } } },
    // What the image's upload (a child actor of the screen's machine) tells it.
    { label: 'image uploaded', event: IMAGE_UPLOAD_REPORTS.uploaded },
    { label: 'image upload fails', event: IMAGE_UPLOAD_REPORTS.failed },
    { label: 'remove the uploaded image', event: IMAGE_UPLOAD_REPORTS.cleared },
    { label: 'save', event: { type: 'SAVE' } },
    doneEvent('save', GARDEN, 'category created'),
    doneEvent('save', { ...CAR, name: 'Cars' }, 'category updated'),
    errorEvent('save', serverRefusal(409, SLUG_TAKEN, { slug: SLUG_TAKEN }), 'slug taken'),
    errorEvent('save', networkDown, 'save fails'),
    { label: 'cancel', event: { type: 'CANCEL' } },
    { label: 'keep editing', event: { type: 'KEEP_EDITING' } },
    { label: 'discard', event: { type: 'DISCARD' } },
  ],
  offer: ({ context }, { label }) => {
    const { form, fieldErrors, formError } = context;
    const draft = form?.draft;
    const isNew = form?.itemId === null;
    const isCar = form?.itemId === CAR.id;
    switch (label) {
      case 'new category':
      case 'edit Car':
        return untouched(context);
      case 'type the name':
        return isNew && draft?.name === '' && !clean(context);
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
          (isNew && draft?.name === '' && clean(context)) ||
          (draft?.slug === 'Garden Yard' && fieldErrors.slug === undefined) ||
          (isNew && draft?.slug === 'garden' && formError === null && draft.image_upload_key !== null) ||
          (isCar && draft?.name === 'Cars')
        );
      case 'category created':
      case 'slug taken':
        return isNew;
      case 'category updated':
      case 'save fails':
        return isCar;
      case 'cancel':
        // Closing a form before anything is typed, and leaving a changed one (which asks first).
        return (isNew && draft?.name === '' && clean(context)) || (isCar && draft?.name === 'Cars' && clean(context));
      default:
        return true;
    }
  },
  loadError: SURVEYS_LOAD_ERROR,
  loads: ['GET admin/survey_categories'],
  newLabel: 'New category',
  expectRows: (categories) => {
    if (categories.length === 0) {
      expect(screen.getByRole('grid', { name: 'Survey categories', hidden: true })).toHaveTextContent('No survey categories yet. Create the first one.');
      return;
    }
    const rows = rowsOf('Survey categories');
    expect(rows).toHaveLength(categories.length);
    categories.forEach((expected, index) => {
      const row = rows[index] as HTMLElement;
      expect(within(row).getByRole('rowheader', { hidden: true })).toHaveTextContent(`${expected.name}${expected.slug}`);
      expect(row.querySelector('img')).toHaveAttribute('src', expected.image_url);
      const count = TEMPLATES.filter((entry) => entry.category_id === expected.id).length;
      expect(within(row).getAllByRole('gridcell', { hidden: true })[0]).toHaveTextContent(String(count));
    });
  },
  expectForm: ({ context: { form, fieldErrors, formError } }, dialog) => {
    expect(dialog).toHaveAccessibleName(form!.itemId === null ? 'New survey category' : 'Edit Car');
    const fields = { name: textbox(dialog, 'Name'), slug: textbox(dialog, 'Slug') };
    expect(fields.name).toHaveValue(form!.draft.name);
    expect(fields.slug).toHaveValue(form!.draft.slug);
    expectFieldMessages(fields, fieldErrors);
    const image = within(dialog).getByRole('group', { name: 'Image' });
    if (form!.imageUrl) expect(within(image).getByRole('img', { name: /^Current image of/ })).toHaveAttribute('src', form!.imageUrl);
    else expect(within(image).queryByRole('img', { name: /^Current image of/ })).not.toBeInTheDocument();
    // The uploader says itself when an upload fails; these are the form's own messages.
    const alerts = within(dialog).queryAllByRole('alert').map((alert) => alert.textContent);
    const formMessages = [CATEGORY_IMAGE_REQUIRED, IMAGE_STILL_UPLOADING, SLUG_TAKEN, SAVE_FAILED];
    expect(alerts.filter((text) => formMessages.includes(text ?? ''))).toEqual([fieldErrors.image_upload_key, formError].filter(Boolean));
  },
  saveButton: /^(Create category|Save changes)$/,
  saved: (form) => ({
    ...(form.itemId === null ? { method: 'POST', path: 'admin/survey_categories' } : { method: 'PATCH', path: `admin/survey_categories/${form.itemId}` }),
    body: categoryRequestOf(form.draft, form.itemId === null),
  }),
  unsaved: 'Your changes to this category have not been saved.',
  executors: (user, dialog) => ({
    EDIT: () => user().click(screen.getByRole('button', { name: 'Edit Car' })),
    CHANGE: ({ event }) => {
      const changes = event.changes as Partial<CategoryDraft>;
      return changes.name !== undefined ? typeInto(user(), textbox(dialog(), 'Name'), changes.name) : typeInto(user(), textbox(dialog(), 'Slug'), changes.slug ?? '');
    },
  }),
  scenarios: {
    'an empty catalogue': /^start → no categories$/,
    'failure and retry': /list fails → retry$/,
    'an empty form is checked before it is sent': /new category → save → type the name/,
    'a bad slug is named beside its field': /type a bad slug → save → fix the slug/,
    'a category is created with its image': /image uploaded → save → category created/,
    'a slug clash keeps what was typed': /save → slug taken/,
    'a failed image upload': /image upload fails/,
    'an uploaded image removed': /image uploaded → remove the uploaded image/,
    'a category is renamed': /edit Car → rename Car → save → category updated$/,
    'a failed save keeps the form': /save → save fails$/,
    'leaving a changed category asks, and discards only when told': /rename Car → cancel → discard$/,
  },
  image: {
    saves: 'category',
    stillUploading: IMAGE_STILL_UPLOADING,
    savedWith: { path: 'admin/survey_categories', body: { image_upload_key: PRESIGNED_LOGO.key } },
    fill: async (user) => {
      await typeInto(user, textbox(screen.getByRole('dialog'), 'Name'), 'Garden');
      await typeInto(user, textbox(screen.getByRole('dialog'), 'Slug'), 'garden');
    },
  },
});

// ---- Request templates ----

const FILTER_LABELS = { all: 'All categories', none: 'No category' } as const;
const shownBy = (filter: CategoryFilter) => (entry: AdminTemplateSummary) =>
  filter === 'all' ? true : filter === 'none' ? entry.category_id === null : entry.category_id === filter;

describeCollection<AdminTemplateSummary, TemplateDetailsDraft>({
  machine: adminSurveyTemplatesMachine,
  heading: 'Surveys',
  view: (actor) => (
    <AdminSurveysView categories={listed(adminSurveyCategoriesMachine, [CAR, PET]) as unknown as SurveyCategoriesActor} templates={actor as unknown as SurveyTemplatesActor} />
  ),
  routes: [
    { method: 'GET', path: /^admin\/survey_templates$/, id: 'list', answer: (templates: AdminTemplateSummary[]) => ({ templates }) },
    { method: 'PATCH', path: /^admin\/survey_templates\/\d+$/, id: 'save', answer: (saved: AdminTemplateSummary): { template: AdminTemplate } => ({ template: { ...saved, questions: [] } }) },
  ],
  events: [
    doneEvent('list', TEMPLATES, 'list'),
    doneEvent('list', [], 'no templates'),
    errorEvent('list', networkDown, 'list fails'),
    { label: 'retry', event: { type: 'RETRY' } },
    { label: 'show Pet templates', event: { type: 'FILTER', filter: PET.id } },
    { label: 'show templates in no category', event: { type: 'FILTER', filter: 'none' } },
    { label: 'show all templates', event: { type: 'FILTER', filter: 'all' } },
    { label: 'edit the vet template', event: { type: 'EDIT', itemId: VET.id } },
    { label: 'clear the name', event: { type: 'CHANGE', changes: { name: '' } } },
    { label: 'rename the template', event: { type: 'CHANGE', changes: { name: 'Book a vet visit' } } },
    { label: 'move it to Car', event: { type: 'CHANGE', changes: { category_id: CAR.id } } },
    { label: 'save', event: { type: 'SAVE' } },
    doneEvent('save', VET_MOVED, 'template saved'),
    errorEvent('save', serverRefusal(422, 'Invalid input', { category_id: UNKNOWN_CATEGORY }), 'unknown category'),
    { label: 'cancel', event: { type: 'CANCEL' } },
    { label: 'keep editing', event: { type: 'KEEP_EDITING' } },
    { label: 'discard', event: { type: 'DISCARD' } },
  ],
  offer: ({ context }, { label }) => {
    const details = context.form?.draft;
    const filter = (context as { filter: CategoryFilter }).filter;
    switch (label) {
      case 'show Pet templates':
        return untouched(context) && filter === 'all';
      case 'show templates in no category':
        return untouched(context) && filter === PET.id;
      case 'show all templates':
        return untouched(context) && filter === 'none';
      case 'edit the vet template':
        return untouched(context) && filter === 'all';
      case 'clear the name':
        return details?.name === VET.name;
      case 'rename the template':
        return details?.name === '' && !clean(context);
      case 'move it to Car':
        return details?.name === 'Book a vet visit' && details.category_id === PET.id;
      case 'save':
        return (details?.name === '' && clean(context)) || details?.category_id === CAR.id;
      case 'cancel':
        return (details?.name === VET.name && clean(context)) || (details?.category_id === CAR.id && clean(context));
      default:
        return true;
    }
  },
  loadError: SURVEYS_LOAD_ERROR,
  loads: ['GET admin/survey_templates'],
  expectRows: (templates, { context }) => {
    const filter = (context as { filter: CategoryFilter }).filter;
    const filterShown = typeof filter === 'number' ? 'Pet' : FILTER_LABELS[filter];
    expect(screen.getByRole('button', { name: /Show templates in/, hidden: true })).toHaveTextContent(filterShown);
    const shown = templates.filter(shownBy(filter));
    if (shown.length === 0) {
      expect(screen.getByRole('grid', { name: 'Request templates', hidden: true })).toHaveTextContent('No request templates here yet.');
      return;
    }
    const rows = rowsOf('Request templates');
    expect(rows).toHaveLength(shown.length);
    shown.forEach((expected, index) => {
      const row = rows[index] as HTMLElement;
      expect(within(row).getByRole('rowheader', { hidden: true })).toHaveTextContent(`${expected.name}${expected.slug}`);
      const [categoryName, forAlpha, version] = within(row).getAllByRole('gridcell', { hidden: true }).map((cell) => cell.textContent);
      expect(categoryName).toBe([CAR, PET].find((entry) => entry.id === expected.category_id)?.name ?? 'No category');
      expect(forAlpha).toBe(expected.for_alpha ? 'Yes' : 'No');
      expect(version).toBe(String(expected.version));
      const questions = within(row).getByRole('link', { name: `Edit questions of ${expected.name}`, hidden: true });
      expect(questions).toHaveAttribute('href', `/console/admin/surveys/${expected.id}`);
    });
    // Each category counts its templates as they now are.
    expect(within(rowsOf('Survey categories')[0] as HTMLElement).getAllByRole('gridcell', { hidden: true })[0]).toHaveTextContent(
      String(templates.filter((entry) => entry.category_id === CAR.id).length),
    );
  },
  expectForm: ({ context: { form, fieldErrors } }, dialog) => {
    expect(dialog).toHaveAccessibleName(`Edit ${VET.name}`);
    const name = textbox(dialog, 'Name');
    expect(name).toHaveValue(form!.draft.name);
    expect(within(dialog).queryByRole('textbox', { name: 'Slug' })).not.toBeInTheDocument();
    expect(within(dialog).getByText(`Slug: ${VET.slug}`)).toBeInTheDocument();
    expect(within(dialog).getByRole('checkbox', { name: /For alpha/ })).toBeChecked();
    expect(within(dialog).getByRole('button', { name: /Category/ })).toHaveTextContent(form!.draft.category_id === CAR.id ? 'Car' : 'Pet');
    expectFieldMessages({ name }, fieldErrors);
    if (fieldErrors.category_id) expect(within(dialog).getByText(fieldErrors.category_id)).toBeInTheDocument();
  },
  saveButton: /^Save changes$/,
  saved: (form) => ({ method: 'PATCH', path: `admin/survey_templates/${form.itemId}`, body: templateDetailsRequestOf(form.draft) }),
  unsaved: 'Your changes to this template have not been saved.',
  executors: (user, dialog) => ({
    FILTER: ({ event }) => {
      const filter = event.filter as CategoryFilter;
      if (typeof filter === 'number') return user().click(screen.getByRole('button', { name: 'Show templates of Pet' }));
      return choose(user(), /Show templates in/, FILTER_LABELS[filter]);
    },
    EDIT: () => user().click(screen.getByRole('button', { name: `Edit details of ${VET.name}` })),
    CHANGE: ({ event }) => {
      const changes = event.changes as Partial<TemplateDetailsDraft>;
      return changes.name !== undefined ? typeInto(user(), textbox(dialog(), 'Name'), changes.name) : choose(user(), /Category/, 'Car');
    },
  }),
  scenarios: {
    'no templates': /^start → no templates$/,
    'failure and retry': /list fails → retry$/,
    'templates filtered by category': /show Pet templates → show templates in no category → show all templates$/,
    'a template needs a name': /edit the vet template → clear the name → save → rename the template/,
    "a template's details are saved": /move it to Car → save → template saved$/,
    'an unknown category is named on its field': /move it to Car → save → unknown category$/,
    'cancel': /edit the vet template → cancel$/,
    'leaving changed details can be taken back': /move it to Car → cancel → keep editing/,
  },
});
