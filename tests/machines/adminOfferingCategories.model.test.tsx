import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Actor, createActor } from 'xstate';
import type { AdminOfferingCategory } from '../../src/contract/adminCatalogue.ts';
import { IMAGE_NEEDED, adminOfferingCategoriesMachine, categoryRequestOf } from '../../src/machines/adminOfferingCategories.machine.ts';
import { networkError, serverRefusal } from './httpFailures.support.ts';
import { AdminOfferingCategoriesView } from '../../src/views/admin/AdminOfferingCategoriesView.tsx';
import { IMAGE_STILL_UPLOADING } from '../../src/machines/adminForms.ts';
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

type Machine = typeof adminOfferingCategoriesMachine;
type CategoriesSnapshot = ReturnType<Machine['transition']>;

// ---- The categories as the server answers them ----

const category = (fields: Pick<AdminOfferingCategory, 'id' | 'name' | 'external_id' | 'position'>): AdminOfferingCategory => ({
  image_url: `/seed/categories/${fields.external_id}.svg`,
  image_upload_key: null,
  offering_count: 3,
  ...fields,
});

const HEALTH = category({ id: 1, name: 'Health', external_id: 'health', position: 0 });
const FAMILY = category({ id: 2, name: 'Family', external_id: 'family', position: 1 });
const PETS = {
  ...category({ id: 3, name: 'Pets', external_id: 'pets', position: 2 }),
  image_upload_key: PRESIGNED_LOGO.key,
  image_url: '/api/v1/category_images/pets',
  offering_count: 0,
};
const HEALTH_RENAMED = { ...HEALTH, name: 'Health and care' };
const FAMILY_FIRST = { ...FAMILY, position: 0 };

const NAME_TAKEN = 'The name Pets is used by another category';
const networkDown = networkError();

// ---- The model ----

const { paths, titled } = flowModel(adminOfferingCategoriesMachine, {
  events: [
    doneEvent('listCategories', [HEALTH, FAMILY], 'list'),
    doneEvent('listCategories', [], 'no categories'),
    errorEvent('listCategories', networkDown, 'list fails'),
    { label: 'retry', event: { type: 'RETRY' } },
    { label: 'new category', event: { type: 'NEW' } },
    { label: 'edit Health', event: { type: 'EDIT', categoryId: HEALTH.id } },
    { label: 'move Family up', event: { type: 'MOVE', categoryId: FAMILY.id, by: -1 } },
    doneEvent('moveCategory', FAMILY_FIRST, 'moved'),
    errorEvent('moveCategory', networkDown, 'move fails'),
    { label: 'fill in the category', event: { type: 'CHANGE', changes: { name: 'Pets', external_id: 'pets' } } },
    { label: 'rename Health', event: { type: 'CHANGE', changes: { name: 'Health and care' } } },
    // What the image's upload (a child actor of the screen's machine) tells it.
    { label: 'image uploaded', event: IMAGE_UPLOAD_REPORTS.uploaded },
    { label: 'image upload fails', event: IMAGE_UPLOAD_REPORTS.failed },
    { label: 'remove the uploaded image', event: IMAGE_UPLOAD_REPORTS.cleared },
    { label: 'save', event: { type: 'SAVE' } },
    doneEvent('saveCategory', PETS, 'created'),
    doneEvent('saveCategory', HEALTH_RENAMED, 'updated'),
    errorEvent('saveCategory', serverRefusal(409, NAME_TAKEN, { name: NAME_TAKEN }), 'name taken'),
    errorEvent('saveCategory', networkDown, 'save fails'),
    { label: 'cancel', event: { type: 'CANCEL' } },
  ],
  offer: ({ context }, { label }) => {
    const { form, notice, refusal, categories, fieldErrors, formError, moving } = context;
    const draft = form?.draft;
    const isNew = form?.categoryId === null;
    const isHealth = form?.categoryId === HEALTH.id;
    const untouched = notice === null && refusal === null && categories !== null && categories.length > 0;
    const clean = Object.keys(fieldErrors).length === 0 && formError === null;
    switch (label) {
      case 'new category':
      case 'edit Health':
      case 'move Family up':
        return untouched;
      case 'moved':
      case 'move fails':
        return moving !== null;
      case 'fill in the category':
        return isNew && draft?.name === '' && !clean;
      case 'rename Health':
        return isHealth && draft?.name === 'Health' && clean;
      case 'image uploaded':
      case 'image upload fails':
        return isNew && draft?.name === 'Pets' && draft.image_upload_key === null;
      case 'remove the uploaded image':
        return isNew && draft?.image_upload_key === PRESIGNED_LOGO.key;
      case 'save':
        return (
          (isNew && draft?.name === '' && clean) ||
          (isNew && draft?.image_upload_key !== null && clean) ||
          (isHealth && draft?.name === 'Health and care')
        );
      case 'created':
      case 'name taken':
        return isNew;
      case 'updated':
      case 'save fails':
        return isHealth;
      case 'cancel':
        return isHealth && draft?.name === 'Health';
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
const SAVE_BUTTON = /^(Create category|Save changes)$/;

function expectRows(categories: AdminOfferingCategory[]) {
  // An open form hides the list from assistive technology (it is modal), not from sight.
  const grid = screen.getByRole('grid', { name: 'Offering categories', hidden: true });
  if (categories.length === 0) {
    expect(grid).toHaveTextContent('No categories yet. Create the first one.');
    return;
  }
  const rows = within(grid).getAllByRole('row', { hidden: true }).slice(1);
  expect(rows).toHaveLength(categories.length);
  const canMove = actor.getSnapshot().matches('list');
  categories.forEach((expected, index) => {
    const row = rows[index] as HTMLElement;
    expect(within(row).getByRole('rowheader', { hidden: true })).toHaveTextContent(`${expected.name}${expected.external_id}`);
    const [image, count] = within(row).getAllByRole('gridcell', { hidden: true });
    expect(image!.querySelector('img')).toHaveAttribute('src', expected.image_url);
    expect(count).toHaveTextContent(String(expected.offering_count));
    const button = (name: string) => within(row).getByRole('button', { name, hidden: true });
    expect(button(`Move ${expected.name} up`)).toHaveProperty('disabled', index === 0 || !canMove);
    expect(button(`Move ${expected.name} down`)).toHaveProperty('disabled', index === categories.length - 1 || !canMove);
  });
}

/** What the list shows in every state: the rows (unless loading or failed), the notice or refusal, the busy mark. */
function expectFrame({ context }: CategoriesSnapshot, { busy }: { busy: boolean }) {
  expect(screen.getByRole('region', { name: 'Offering categories', hidden: true })).toHaveAttribute('aria-busy', String(busy));
  if (context.categories) expectRows(context.categories);
  if (context.notice) expect(screen.getByRole('status', { hidden: true })).toHaveTextContent(context.notice);
  else expect(screen.queryByRole('status', { hidden: true })).not.toBeInTheDocument();
  if (context.refusal) expect(screen.getByText(context.refusal)).toBeInTheDocument();
}

/** The open form: what was typed, and each message beside the field it is about. */
function expectForm({ context }: CategoriesSnapshot) {
  const { form, fieldErrors, formError } = context;
  if (!form) throw new Error('No form in the model');
  expect(dialog()).toHaveAccessibleName(form.categoryId === null ? 'New category' : 'Edit Health');
  const fields = { name: field('Name'), external_id: field('External id') };
  expect(fields.name).toHaveValue(form.draft.name);
  expect(fields.external_id).toHaveValue(form.draft.external_id);
  expectFieldMessages(fields, fieldErrors);
  if (fieldErrors.image_upload_key) {
    expect(fieldErrors.image_upload_key).toBe(IMAGE_NEEDED);
    expect(within(dialog()).getByRole('group', { name: 'Image' })).toHaveTextContent(IMAGE_NEEDED);
  }
  if (form.imageUrl) expect(within(dialog()).getByRole('img', { name: /^Current image of/ })).toHaveAttribute('src', form.imageUrl);
  else expect(within(dialog()).queryByRole('img', { name: /^Current image of/ })).not.toBeInTheDocument();
  if (formError) expect(within(dialog()).getByText(formError)).toBeInTheDocument();
  return within(dialog()).getByRole('button', { name: SAVE_BUTTON });
}

const states: StateAssertions<Machine> = {
  loading: (snapshot) => {
    expectFrame(snapshot, { busy: true });
    expect(screen.getByText('Loading')).toBeInTheDocument();
    expect(sent.at(-1)).toEqual({ method: 'GET', path: 'admin/offering_categories', body: undefined });
  },
  failed: (snapshot) => {
    expectFrame(snapshot, { busy: false });
    expect(screen.getByRole('alert')).toHaveTextContent("We couldn't load the offering categories. Please try again.");
  },
  list: (snapshot) => {
    expectFrame(snapshot, { busy: false });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  },
  editing: (snapshot) => {
    expectFrame(snapshot, { busy: false });
    expect(expectForm(snapshot)).not.toHaveAttribute('aria-busy');
  },
  saving: (snapshot) => {
    expectFrame(snapshot, { busy: true });
    expect(expectForm(snapshot)).toHaveAttribute('aria-busy', 'true');
    const { form } = snapshot.context;
    const request =
      form?.categoryId === null ? { method: 'POST', path: 'admin/offering_categories' } : { method: 'PATCH', path: `admin/offering_categories/${form?.categoryId}` };
    expect(sent.at(-1)).toEqual({ ...request, body: categoryRequestOf(form!.draft) });
  },
  moving: (snapshot) => {
    expectFrame(snapshot, { busy: true });
    const { moving } = snapshot.context;
    expect(sent.at(-1)).toEqual({ method: 'POST', path: `admin/offering_categories/${moving?.categoryId}/move`, body: { position: moving?.position } });
  },
};

const typeInto = async (input: HTMLElement, text: string) => {
  await user.clear(input);
  await user.type(input, text);
};

const events: EventExecutors<Machine> = {
  ...settlementExecutors(adminOfferingCategoriesMachine, pendingCalls),
  RETRY: () => user.click(screen.getByRole('button', { name: 'Try again' })),
  NEW: () => user.click(screen.getByRole('button', { name: 'New category' })),
  EDIT: () => user.click(screen.getByRole('button', { name: 'Edit Health' })),
  MOVE: () => user.click(screen.getByRole('button', { name: 'Move Family up' })),
  CHANGE: async ({ event }) => {
    const changes = event.changes as { name?: string; external_id?: string };
    if (changes.name !== undefined) await typeInto(field('Name'), changes.name);
    if (changes.external_id !== undefined) await typeInto(field('External id'), changes.external_id);
  },
  ...imageUploadExecutors(() => user, dialog),
  SAVE: () => user.click(within(dialog()).getByRole('button', { name: SAVE_BUTTON })),
  CANCEL: () => user.click(within(dialog()).getByRole('button', { name: 'Cancel' })),
};

function openScreen() {
  user = userEvent.setup();
  pendingCalls.clear();
  FakeXMLHttpRequest.sent = [];
  vi.stubGlobal('XMLHttpRequest', FakeXMLHttpRequest);
  const answer = (saved: AdminOfferingCategory) => ({ category: saved });
  sent = fakeAdminApi([
    { method: 'GET', path: /^admin\/offering_categories$/, id: 'listCategories', answer: (categories: AdminOfferingCategory[]) => ({ categories }) },
    { method: 'POST', path: /^admin\/offering_categories$/, id: 'saveCategory', answer },
    { method: 'PATCH', path: /^admin\/offering_categories\/\d+$/, id: 'saveCategory', answer },
    { method: 'POST', path: /^admin\/offering_categories\/\d+\/move$/, id: 'moveCategory', answer },
  ]);
  actor = createActor(adminOfferingCategoriesMachine).start();
  render(<AdminOfferingCategoriesView categories={actor} />);
}

function closeScreen() {
  cleanup();
  actor.stop();
  vi.unstubAllGlobals();
}

describe('admin offering categories machine against the categories screen', () => {
  beforeEach(openScreen);
  afterEach(closeScreen);

  it.each(titled)('$title', async ({ path }) => {
    await runPath(path, () => actor.getSnapshot(), states, events);
  });
});

describe("the form's image, an upload that is a child actor of the screen's machine", () => {
  beforeEach(async () => {
    openScreen();
    await pendingCalls.settle(doneEvent('listCategories', [HEALTH, FAMILY], 'list').event);
    await user.click(screen.getByRole('button', { name: 'New category' }));
    await typeInto(field('Name'), 'Pets');
    await typeInto(field('External id'), 'pets');
  });
  afterEach(closeScreen);

  itWaitsForTheFormImage({
    saves: 'category',
    dialog,
    user: () => user,
    saveButton: SAVE_BUTTON,
    stillUploading: IMAGE_STILL_UPLOADING,
    isEditing: () => actor.getSnapshot().matches('editing'),
    sent: () => sent,
    savedWith: { path: 'admin/offering_categories', body: { image_upload_key: PRESIGNED_LOGO.key } },
  });
});

describe('admin offering categories model coverage', () => {
  it('asserts every state and executes every event', () => {
    expectFullCoverage(adminOfferingCategoriesMachine, paths, states, events);
  });

  it('walks the paths the rules call for', () => {
    expectScenariosWalked(
      titled.map(({ title }) => title),
      {
        'an empty list': /^start → no categories$/,
        'failure and retry': /list fails → retry$/,
        'an empty form is checked before it is sent, an image asked for': /new category → save → fill in the category/,
        'a category is created with its image': /image uploaded → save → created$/,
        'a failed image upload': /image upload fails$/,
        'an uploaded image removed': /image uploaded → remove the uploaded image/,
        'a name clash keeps what was typed': /image uploaded → save → name taken/,
        'a rename is saved': /edit Health → rename Health → save → updated$/,
        'a failed save keeps the form': /rename Health → save → save fails$/,
        'a category is moved up': /move Family up → moved$/,
        'a refused move is shown above the list': /move Family up → move fails$/,
        cancel: /edit Health → cancel$/,
      },
    );
  });
});
