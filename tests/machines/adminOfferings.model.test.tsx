import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Actor, createActor } from 'xstate';
import type { AdminCompany } from '../../src/contract/admin.ts';
import type { AdminOffering, AdminOfferingCategory, AdminOfferingSummary, AdminTemplateSummary } from '../../src/contract/adminCatalogue.ts';
import {
  HELP_TEMPLATE_MISSING,
  type OfferingDraft,
  type OpenedForm,
  adminOfferingsMachine,
  createRequestOf,
  draftOf,
  offeringFieldsOf,
} from '../../src/machines/adminOfferings.machine.ts';
import { networkError, serverRefusal } from './httpFailures.support.ts';
import { AdminOfferingsView } from '../../src/views/admin/AdminOfferingsView.tsx';
import { type SentCall, expectFieldMessages, fakeAdminApi } from './adminApi.support.ts';
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

type Machine = typeof adminOfferingsMachine;
type OfferingsSnapshot = ReturnType<Machine['transition']>;

// ---- The catalogue as the server answers it ----

const ACME: AdminCompany = {
  id: 1,
  name: 'Acme Corporation',
  slug: 'acme',
  image_url: null,
  logo_upload_key: null,
  mfa_policy: 'off',
  email_domains: ['acme.test'],
  internal_staff: false,
  active: true,
  deactivated_at: null,
  employee_count: 12,
  created_at: '2026-01-05T09:00:00.000Z',
};
const HEALTH: AdminOfferingCategory = {
  id: 1,
  external_id: 'health',
  name: 'Health',
  image_url: '/seed/categories/health.svg',
  image_upload_key: null,
  position: 0,
  offering_count: 2,
};
const HELP_TEMPLATE: AdminTemplateSummary = {
  id: 720,
  slug: 'benefits-help',
  name: 'Help me with my benefits',
  for_alpha: true,
  category_id: null,
  version: 1,
  created_at: '2026-01-05T09:00:00.000Z',
};

const offering = (fields: Partial<AdminOffering> & Pick<AdminOffering, 'id' | 'type' | 'name' | 'position'>): AdminOffering => ({
  slug: fields.name.toLowerCase().replaceAll(' ', '-'),
  provider_name: 'Provider',
  provider_logo_url: '/seed/acme.svg',
  heading: `${fields.name} heading`,
  subheading: 'A subheading',
  featured: false,
  published: true,
  category_ids: [],
  company_ids: fields.type === 'benefit' ? [ACME.id] : [],
  help: null,
  created_at: '2026-01-05T09:00:00.000Z',
  sections: [{ id: 1, section_type: 'text', heading: 'About', items: [{ value: 'What it is.' }], cta_text: null, cta_url: null }],
  ...fields,
});

const GYM = offering({
  id: 10,
  type: 'benefit',
  name: 'Gym membership',
  position: 0,
  provider_name: 'FitLoop',
  heading: 'Gym membership',
  category_ids: [HEALTH.id],
  sections: [
    { id: 1, section_type: 'numbered', heading: 'How to join', items: [{ value: 'Sign up' }, { value: 'Show your card' }], cta_text: null, cta_url: null },
    { id: 2, section_type: 'key_value', heading: 'Contact', items: [{ key: 'phone', value: '+1 555 0100' }], cta_text: 'Find a gym', cta_url: 'https://fitloop.example/gyms' },
  ],
});
// The server's places have gaps until a move renumbers them: the screen goes by rank.
const DENTAL = offering({ id: 11, type: 'benefit', name: 'Dental plan', position: 4, published: false });
const MEALS = offering({ id: 20, type: 'product', name: 'Meal kits', position: 3, featured: true });

const summary = ({ sections: _sections, ...rest }: AdminOffering): AdminOfferingSummary => rest;
const LIST = [GYM, DENTAL, MEALS].map(summary);
const CHOICES = { categories: [HEALTH], companies: [ACME], templates: [HELP_TEMPLATE] };
const NEW_FORM: OpenedForm = { offering: null, ...CHOICES };
const GYM_FORM: OpenedForm = { offering: GYM, ...CHOICES };

const BIKE_FIELDS = {
  slug: 'bike-to-work',
  provider_name: 'Acme People Team',
  provider_logo_url: '/seed/acme.svg',
  heading: 'Bike to work',
  subheading: 'Save on a new bike',
  name: 'Cycle scheme',
  company_ids: [ACME.id],
};
const CREATED = offering({ id: 12, type: 'benefit', ...BIKE_FIELDS, position: 5, published: false });
const GYM_RENAMED = { ...GYM, name: 'Gym and pool' };

const SLUG_TAKEN = 'The slug bike-to-work is used by another offering';
const STEP_TOO_LONG = 'Keep it under 1000 characters';
const networkDown = networkError();

// ---- The model ----

const isEmptyNewDraft = (draft: OfferingDraft) => draft.slug === '' && draft.sections.length === 0;
const GYM_DRAFT = JSON.stringify(draftOf(GYM));

const { paths, titled } = flowModel(adminOfferingsMachine, {
  events: [
    doneEvent('listOfferings', LIST, 'list'),
    doneEvent('listOfferings', [], 'no offerings'),
    errorEvent('listOfferings', networkDown, 'list fails'),
    { label: 'retry', event: { type: 'RETRY' } },
    { label: 'new offering', event: { type: 'NEW' } },
    { label: 'edit Gym', event: { type: 'EDIT', offeringId: GYM.id } },
    { label: 'move Dental up', event: { type: 'MOVE', offeringId: DENTAL.id, by: -1 } },
    { label: 'feature Gym', event: { type: 'SET_FEATURED', offeringId: GYM.id, featured: true } },
    { label: 'unpublish Gym', event: { type: 'SET_PUBLISHED', offeringId: GYM.id, published: false } },
    doneEvent('changeListing', { ...DENTAL, position: 0 }, 'moved'),
    doneEvent('changeListing', { ...GYM, featured: true }, 'featured'),
    doneEvent('changeListing', { ...GYM, published: false }, 'unpublished'),
    errorEvent('changeListing', networkDown, 'change fails'),
    doneEvent('openForm', NEW_FORM, 'empty form opens'),
    doneEvent('openForm', GYM_FORM, 'Gym form opens'),
    errorEvent('openForm', networkDown, 'form fails to open'),
    { label: 'make it a partner offer', event: { type: 'CHANGE', changes: { type: 'product' } } },
    { label: 'fill in the benefit', event: { type: 'CHANGE', changes: BIKE_FIELDS } },
    { label: 'add numbered steps', event: { type: 'ADD_SECTION', sectionType: 'numbered' } },
    { label: 'name the steps', event: { type: 'CHANGE_SECTION', section: 0, changes: { heading: 'How to join' } } },
    { label: 'write step 1', event: { type: 'CHANGE_ITEM', section: 0, item: 0, changes: { value: 'Choose a bike' } } },
    { label: 'rename Gym', event: { type: 'CHANGE', changes: { name: 'Gym and pool' } } },
    { label: 'give it a help button', event: { type: 'CHANGE', changes: { help_cta: 'Ask us' } } },
    { label: 'choose its request', event: { type: 'CHANGE', changes: { help_survey_id: HELP_TEMPLATE.id } } },
    { label: 'clear step 1', event: { type: 'CHANGE_ITEM', section: 0, item: 0, changes: { value: '' } } },
    { label: 'make row 1 a label', event: { type: 'CHANGE_ITEM', section: 1, item: 0, changes: { kind: 'label' } } },
    { label: 'add a step', event: { type: 'ADD_ITEM', section: 0 } },
    { label: 'move step 2 up', event: { type: 'MOVE_ITEM', section: 0, item: 1, by: -1 } },
    { label: 'remove step 1', event: { type: 'REMOVE_ITEM', section: 0, item: 0 } },
    { label: 'add a paragraph', event: { type: 'ADD_SECTION', sectionType: 'text' } },
    { label: 'move section 1 down', event: { type: 'MOVE_SECTION', section: 0, by: 1 } },
    { label: 'remove section 2', event: { type: 'REMOVE_SECTION', section: 1 } },
    { label: 'save', event: { type: 'SAVE' } },
    doneEvent('saveOffering', CREATED, 'created'),
    errorEvent('saveOffering', serverRefusal(409, SLUG_TAKEN, { slug: SLUG_TAKEN }), 'slug taken'),
    doneEvent('saveOffering', GYM_RENAMED, 'updated'),
    errorEvent('saveOffering', serverRefusal(422, 'Invalid input', { 'sections.0.items.1.value': STEP_TOO_LONG }), 'a step refused'),
    errorEvent('saveOffering', networkDown, 'save fails'),
    { label: 'cancel', event: { type: 'CANCEL' } },
    { label: 'keep editing', event: { type: 'KEEP_EDITING' } },
    { label: 'discard', event: { type: 'DISCARD' } },
  ],
  offer: ({ context }, { label }) => {
    const { form, opening, listingChange, notice, refusal, offerings, fieldErrors, formError } = context;
    const draft = form?.draft;
    const isNew = form?.offeringId === null;
    const isGym = form?.offeringId === GYM.id;
    const clean = Object.keys(fieldErrors).length === 0 && formError === null;
    const pristineGym = isGym && JSON.stringify(draft) === GYM_DRAFT && clean;
    const untouched = notice === null && refusal === null && offerings !== null && offerings.length > 0;
    const step1 = draft?.sections[0]?.items[0]?.value;
    switch (label) {
      case 'new offering':
      case 'edit Gym':
      case 'move Dental up':
      case 'feature Gym':
      case 'unpublish Gym':
        return untouched;
      case 'moved':
        return listingChange?.kind === 'move';
      case 'featured':
      case 'change fails':
        return listingChange?.kind === 'featured';
      case 'unpublished':
        return listingChange?.kind === 'published';
      case 'empty form opens':
        return opening?.offeringId === null;
      case 'Gym form opens':
      case 'form fails to open':
        return opening?.offeringId === GYM.id;
      case 'make it a partner offer':
        return isNew && draft?.type === 'benefit' && isEmptyNewDraft(draft) && clean;
      case 'fill in the benefit':
        return isNew && draft !== undefined && isEmptyNewDraft(draft) && !clean;
      case 'add numbered steps':
        return isNew && draft?.slug !== '' && draft?.sections.length === 0;
      case 'name the steps':
        return isNew && draft?.sections[0]?.heading === '';
      case 'write step 1':
        return isNew && draft?.sections[0]?.heading === 'How to join' && step1 === '';
      case 'save':
        return (
          (isNew && draft?.type === 'benefit' && isEmptyNewDraft(draft) && clean) ||
          (isNew && step1 === 'Choose a bike' && clean) ||
          (isGym && draft?.name === 'Gym and pool' && clean) ||
          (isGym && draft?.help_cta === 'Ask us' && draft.help_survey_id === null && clean) ||
          (isGym && step1 === '' && clean)
        );
      case 'created':
      case 'slug taken':
        return isNew;
      case 'updated':
      case 'a step refused':
      case 'save fails':
        return isGym;
      case 'choose its request':
        return isGym && draft?.help_cta === 'Ask us' && draft.help_survey_id === null && !clean;
      case 'rename Gym':
      case 'give it a help button':
      case 'clear step 1':
      case 'make row 1 a label':
      case 'add a step':
      case 'move step 2 up':
      case 'remove step 1':
      case 'add a paragraph':
      case 'move section 1 down':
      case 'remove section 2':
        return pristineGym;
      case 'cancel':
        return pristineGym || (isGym && draft?.name === 'Gym and pool' && clean);
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
const textbox = (container: HTMLElement, name: string | RegExp) => within(container).getByRole('textbox', { name });
const sectionGroup = (index: number) => within(dialog()).getByRole('group', { name: new RegExp(`^Section ${index + 1}:`) });
const SAVE_BUTTON = /^(Create offering|Save changes)$/;
const SECTION_NAMES = { numbered: 'Numbered steps', key_value: 'Contact rows', text: 'Paragraph' } as const;

function expectRows(title: string, offerings: AdminOfferingSummary[]) {
  // An open form hides the list from assistive technology (it is modal), not from sight.
  const grid = screen.getByRole('grid', { name: title, hidden: true });
  if (offerings.length === 0) {
    expect(grid).toHaveTextContent(`No ${title.toLowerCase()} yet. Press New offering to add one.`);
    return;
  }
  const rows = within(grid).getAllByRole('row', { hidden: true }).slice(1);
  expect(rows).toHaveLength(offerings.length);
  offerings.forEach((expected, index) => {
    const row = rows[index] as HTMLElement;
    expect(within(row).getByRole('rowheader', { hidden: true })).toHaveTextContent(`${expected.name}${expected.provider_name} · ${expected.heading}`);
    const [status, featured] = within(row).getAllByRole('gridcell', { hidden: true }).map((cell) => cell.textContent);
    expect(status).toBe(expected.published ? 'Published' : 'Draft');
    expect(featured).toBe(expected.featured ? 'Featured' : 'No');
    const button = (name: string) => within(row).getByRole('button', { name, hidden: true });
    expect(button(`Move ${expected.name} up`)).toHaveProperty('disabled', index === 0 || !actor.getSnapshot().matches('list'));
    expect(button(`Move ${expected.name} down`)).toHaveProperty('disabled', index === offerings.length - 1 || !actor.getSnapshot().matches('list'));
    expect(button(`${expected.featured ? 'Unfeature' : 'Feature'} ${expected.name}`)).toBeInTheDocument();
    expect(button(`${expected.published ? 'Unpublish' : 'Publish'} ${expected.name}`)).toBeInTheDocument();
  });
}

/** What the screen shows in every state: both lists (unless loading or failed), the notice or refusal, the busy mark. */
function expectFrame({ context }: OfferingsSnapshot, { busy }: { busy: boolean }) {
  expect(screen.getByRole('region', { name: 'Offerings', hidden: true })).toHaveAttribute('aria-busy', String(busy));
  if (context.offerings) {
    expectRows('Benefits', context.offerings.filter((offering) => offering.type === 'benefit'));
    expectRows('Partner offers', context.offerings.filter((offering) => offering.type === 'product'));
  }
  if (context.notice) expect(screen.getByRole('status', { hidden: true })).toHaveTextContent(context.notice);
  else expect(screen.queryByRole('status', { hidden: true })).not.toBeInTheDocument();
  if (context.refusal) expect(screen.getByText(context.refusal)).toBeInTheDocument();
}

/** The sections as typed, each message beside the input it is about, and the preview drawn from them. */
function expectSections(draft: OfferingDraft, fieldErrors: Record<string, string>) {
  const inputs: Record<string, HTMLElement> = {};
  draft.sections.forEach((section, index) => {
    const group = sectionGroup(index);
    expect(group).toHaveAccessibleName(`Section ${index + 1}: ${SECTION_NAMES[section.section_type]}`);
    const path = `sections.${index}`;
    inputs[`${path}.heading`] = textbox(group, 'Section heading');
    expect(inputs[`${path}.heading`]).toHaveValue(section.heading);
    section.items.forEach((item, itemIndex) => {
      const itemPath = `${path}.items.${itemIndex}`;
      if (section.section_type === 'key_value') {
        expect(within(group).getByRole('combobox', { name: `Row ${itemIndex + 1}: kind` })).toHaveValue(item.kind);
        inputs[`${itemPath}.value`] = textbox(group, `Row ${itemIndex + 1}: value`);
      } else {
        inputs[`${itemPath}.value`] = textbox(group, section.section_type === 'text' ? 'Paragraph' : `Step ${itemIndex + 1}`);
      }
      expect(inputs[`${itemPath}.value`]).toHaveValue(item.value);
    });
    expect(textbox(group, /^Link text/)).toHaveValue(section.cta_text);
    expect(textbox(group, /^Link address/)).toHaveValue(section.cta_url);
  });
  expectFieldMessages(inputs, fieldErrors);
  if (fieldErrors.sections) expect(within(dialog()).getByText(fieldErrors.sections)).toBeInTheDocument();

  const preview = screen.getByTestId('offering-preview');
  const headings = within(preview).queryAllByRole('heading', { level: 4, hidden: true }).map((heading) => heading.textContent);
  expect(headings).toEqual(draft.sections.map((section) => section.heading));
  if (draft.heading) expect(preview).toHaveTextContent(draft.heading);
  if (draft.help_cta) expect(within(preview).getByRole('button', { name: draft.help_cta, hidden: true })).toBeInTheDocument();
  else expect(within(preview).queryByRole('region', { name: 'Help', hidden: true })).not.toBeInTheDocument();
}

/** The open form: what was typed, and each message beside the field it is about. */
function expectForm({ context }: OfferingsSnapshot) {
  const { form, fieldErrors, formError } = context;
  if (!form) throw new Error('No form in the model');
  const { draft } = form;
  expect(dialog()).toHaveAccessibleName(form.offeringId === null ? 'New offering' : 'Edit Gym membership');
  const fields: Record<string, HTMLElement> = {
    provider_name: textbox(dialog(), /^Provider name/),
    provider_logo_url: textbox(dialog(), /^Provider logo address/),
    heading: textbox(dialog(), /^Heading/),
    subheading: textbox(dialog(), /^Subheading/),
    name: textbox(dialog(), /^Name/),
    'help.cta': textbox(dialog(), /^Button text/),
    'help.request_survey_id': within(dialog()).getByRole('combobox', { name: 'Request it starts' }),
  };
  if (form.offeringId === null) {
    fields.slug = textbox(dialog(), /^Slug/);
    expect(within(dialog()).getByRole('radio', { name: draft.type === 'benefit' ? /^Benefit/ : /^Partner offer/ })).toBeChecked();
  } else {
    expect(within(dialog()).queryByRole('textbox', { name: /^Slug/ })).not.toBeInTheDocument();
  }
  const typed = (field: string) => (field === 'help.cta' ? draft.help_cta : String(draft[field as keyof OfferingDraft]));
  for (const [field, input] of Object.entries(fields)) {
    if (input.tagName === 'INPUT') expect(input).toHaveValue(typed(field));
  }
  expect(fields['help.request_survey_id']).toHaveValue(draft.help_survey_id === null ? '' : String(draft.help_survey_id));
  expectFieldMessages(fields, fieldErrors);
  // A help button without its request is told so plainly, not in the schema's terms about the missing id.
  if (fieldErrors['help.request_survey_id']) expect(fieldErrors['help.request_survey_id']).toBe(HELP_TEMPLATE_MISSING);
  const companies = within(dialog()).queryByRole('group', { name: 'Companies' });
  if (draft.type === 'product') expect(companies).not.toBeInTheDocument();
  else {
    expect(within(companies!).getByRole('checkbox', { name: ACME.name })).toHaveProperty('checked', draft.company_ids.includes(ACME.id));
    if (fieldErrors.company_ids) expect(companies).toHaveTextContent(fieldErrors.company_ids);
  }
  const categories = within(dialog()).getByRole('group', { name: 'Categories' });
  expect(within(categories).getByRole('checkbox', { name: HEALTH.name })).toHaveProperty('checked', draft.category_ids.includes(HEALTH.id));
  expectSections(draft, fieldErrors);
  if (formError) expect(within(dialog()).getByRole('alert')).toHaveTextContent(formError);
  return within(dialog()).getByRole('button', { name: SAVE_BUTTON });
}

const lastPaths = (count: number) => sent.slice(-count).map(({ method, path }) => `${method} ${path}`).sort();

const states: StateAssertions<Machine> = {
  loading: (snapshot) => {
    expectFrame(snapshot, { busy: true });
    expect(screen.getByText('Loading')).toBeInTheDocument();
    expect(sent.at(-1)).toEqual({ method: 'GET', path: 'admin/offerings', body: undefined });
  },
  failed: (snapshot) => {
    expectFrame(snapshot, { busy: false });
    expect(screen.getByRole('alert')).toHaveTextContent("We couldn't load the offerings. Please try again.");
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  },
  list: (snapshot) => {
    expectFrame(snapshot, { busy: false });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  },
  opening: (snapshot) => {
    expectFrame(snapshot, { busy: true });
    const offeringId = snapshot.context.opening?.offeringId ?? null;
    const choices = ['GET admin/companies', 'GET admin/offering_categories', 'GET admin/survey_templates'];
    if (offeringId === null) expect(lastPaths(3)).toEqual(choices);
    else expect(lastPaths(4)).toEqual([...choices, `GET admin/offerings/${offeringId}`].sort());
  },
  editing: (snapshot) => {
    expectFrame(snapshot, { busy: false });
    expect(expectForm(snapshot)).not.toHaveAttribute('aria-busy');
  },
  confirmingDiscard: (snapshot) => {
    expectFrame(snapshot, { busy: false });
    const question = screen.getByRole('alertdialog', { name: 'Discard your changes?' });
    expect(question).toHaveTextContent('Your changes to this offering have not been saved.');
    // The form stays as typed behind the question.
    expect(screen.getByRole('textbox', { name: 'Name', hidden: true })).toHaveValue(snapshot.context.form?.draft.name);
  },
  saving: (snapshot) => {
    expectFrame(snapshot, { busy: true });
    expect(expectForm(snapshot)).toHaveAttribute('aria-busy', 'true');
    const { form } = snapshot.context;
    const request =
      form?.offeringId === null
        ? { method: 'POST', path: 'admin/offerings', body: createRequestOf(form.draft) }
        : { method: 'PATCH', path: `admin/offerings/${form?.offeringId}`, body: offeringFieldsOf(form!.draft) };
    expect(sent.at(-1)).toEqual(request);
  },
  changingListing: (snapshot) => {
    expectFrame(snapshot, { busy: true });
    const change = snapshot.context.listingChange!;
    const path = `admin/offerings/${change.offeringId}`;
    const expected =
      change.kind === 'move'
        ? { method: 'POST', path: `${path}/move`, body: { position: change.position } }
        : change.kind === 'featured'
          ? { method: 'POST', path: `${path}/${change.value ? 'feature' : 'unfeature'}`, body: undefined }
          : { method: 'POST', path: `${path}/${change.value ? 'publish' : 'unpublish'}`, body: undefined };
    expect(sent.at(-1)).toEqual(expected);
  },
};

const typeInto = async (input: HTMLElement, text: string) => {
  await user.clear(input);
  if (text) await user.type(input, text);
};

const FIELD_LABELS: Record<string, RegExp> = {
  slug: /^Slug/,
  provider_name: /^Provider name/,
  provider_logo_url: /^Provider logo address/,
  heading: /^Heading/,
  subheading: /^Subheading/,
  name: /^Name/,
  help_cta: /^Button text/,
};

async function changeField(field: string, value: unknown) {
  if (field === 'type') return user.click(within(dialog()).getByRole('radio', { name: /^Partner offer/ }));
  if (field === 'company_ids') return user.click(within(dialog()).getByRole('checkbox', { name: ACME.name }));
  if (field === 'help_survey_id') return user.selectOptions(within(dialog()).getByRole('combobox', { name: 'Request it starts' }), String(value));
  return typeInto(textbox(dialog(), FIELD_LABELS[field]!), String(value));
}

const events: EventExecutors<Machine> = {
  ...settlementExecutors(adminOfferingsMachine, pendingCalls),
  RETRY: () => user.click(screen.getByRole('button', { name: 'Try again' })),
  NEW: () => user.click(screen.getByRole('button', { name: 'New offering' })),
  EDIT: () => user.click(screen.getByRole('button', { name: 'Edit Gym membership' })),
  MOVE: () => user.click(screen.getByRole('button', { name: 'Move Dental plan up' })),
  SET_FEATURED: () => user.click(screen.getByRole('button', { name: 'Feature Gym membership' })),
  SET_PUBLISHED: () => user.click(screen.getByRole('button', { name: 'Unpublish Gym membership' })),
  CHANGE: async ({ event }) => {
    for (const [field, value] of Object.entries(event.changes as object)) await changeField(field, value);
  },
  ADD_SECTION: ({ event }) =>
    user.click(within(dialog()).getByRole('button', { name: event.sectionType === 'numbered' ? 'Add numbered steps' : 'Add paragraph' })),
  CHANGE_SECTION: ({ event }) => typeInto(textbox(sectionGroup(event.section as number), 'Section heading'), 'How to join'),
  MOVE_SECTION: ({ event }) => user.click(within(dialog()).getByRole('button', { name: `Move section ${(event.section as number) + 1} down` })),
  REMOVE_SECTION: ({ event }) => user.click(within(dialog()).getByRole('button', { name: `Remove section ${(event.section as number) + 1}` })),
  ADD_ITEM: ({ event }) => user.click(within(sectionGroup(event.section as number)).getByRole('button', { name: 'Add a step' })),
  CHANGE_ITEM: ({ event }) => {
    const group = sectionGroup(event.section as number);
    const changes = event.changes as { value?: string; kind?: string };
    if (changes.kind) return user.selectOptions(within(group).getByRole('combobox', { name: 'Row 1: kind' }), changes.kind);
    return typeInto(textbox(group, `Step ${(event.item as number) + 1}`), changes.value ?? '');
  },
  MOVE_ITEM: ({ event }) => user.click(within(sectionGroup(event.section as number)).getByRole('button', { name: `Move step ${(event.item as number) + 1} up` })),
  REMOVE_ITEM: ({ event }) => user.click(within(sectionGroup(event.section as number)).getByRole('button', { name: `Remove step ${(event.item as number) + 1}` })),
  SAVE: () => user.click(within(dialog()).getByRole('button', { name: SAVE_BUTTON })),
  CANCEL: () => user.click(within(dialog()).getByRole('button', { name: 'Cancel' })),
  KEEP_EDITING: () => user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Keep editing' })),
  DISCARD: () => user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Discard changes' })),
};

describe('admin offerings machine against the offerings screen', () => {
  beforeEach(() => {
    user = userEvent.setup();
    pendingCalls.clear();
    const opened = (part: keyof OpenedForm) => (form: OpenedForm) => ({ [part]: form[part] });
    sent = fakeAdminApi([
      { method: 'GET', path: /^admin\/offerings$/, id: 'listOfferings', answer: (offerings: AdminOfferingSummary[]) => ({ offerings }) },
      { method: 'GET', path: /^admin\/offerings\/\d+$/, id: 'openForm', answer: opened('offering') },
      { method: 'GET', path: /^admin\/offering_categories$/, id: 'openForm', answer: opened('categories') },
      { method: 'GET', path: /^admin\/companies$/, id: 'openForm', answer: opened('companies') },
      { method: 'GET', path: /^admin\/survey_templates$/, id: 'openForm', answer: opened('templates') },
      { method: 'POST', path: /^admin\/offerings$/, id: 'saveOffering', answer: (saved: AdminOffering) => ({ offering: saved }) },
      { method: 'PATCH', path: /^admin\/offerings\/\d+$/, id: 'saveOffering', answer: (saved: AdminOffering) => ({ offering: saved }) },
      { method: 'POST', path: /^admin\/offerings\/\d+\/\w+$/, id: 'changeListing', answer: (changed: AdminOffering) => ({ offering: changed }) },
    ]);
    actor = createActor(adminOfferingsMachine).start();
    render(<AdminOfferingsView offerings={actor} />);
  });

  afterEach(() => {
    cleanup();
    actor.stop();
  });

  it.each(titled)('$title', async ({ path }) => {
    await runPath(path, () => actor.getSnapshot(), states, events);
  });
});

describe('admin offerings model coverage', () => {
  it('asserts every state and executes every event', () => {
    expectFullCoverage(adminOfferingsMachine, paths, states, events);
  });

  it('walks the paths the rules call for', () => {
    expectScenariosWalked(
      titled.map(({ title }) => title),
      {
        'an empty list': /^start → no offerings$/,
        'failure and retry': /list fails → retry$/,
        'an empty form is checked before it is sent': /empty form opens → save → fill in the benefit/,
        'a benefit with steps is created': /add numbered steps → name the steps → write step 1 → save → created$/,
        'a slug clash keeps what was typed': /write step 1 → save → slug taken$/,
        'an edit is saved': /Gym form opens → rename Gym → save → updated$/,
        'a server refusal is named beside the step': /rename Gym → save → a step refused$/,
        'a failed save keeps the form': /rename Gym → save → save fails$/,
        'leaving a changed form asks, and discards only when told': /rename Gym → cancel → discard$/,
        'leaving a changed form can be taken back': /rename Gym → cancel → keep editing$/,
        'an unchanged form closes at once': /Gym form opens → cancel$/,
        'a help button needs its request': /give it a help button → save → choose its request$/,
        'an emptied step is named beside it': /clear step 1 → save$/,
        'sections and steps are moved and removed': /move section 1 down$/,
        'the form fails to open': /edit Gym → form fails to open$/,
        'an offering is moved up': /move Dental up → moved$/,
        'an offering is featured': /feature Gym → featured$/,
        'an offering is unpublished': /unpublish Gym → unpublished$/,
        'a refused change is shown above the list': /feature Gym → change fails$/,
      },
    );
  });
});
