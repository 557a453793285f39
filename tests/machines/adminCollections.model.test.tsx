/**
 * The admin collection screens (machines/adminCollection.ts), each configuration run through every transition of its
 * statechart against its real view (adminCollection.support.tsx).
 */
import { screen, within } from '@testing-library/react';
import { expect } from 'vitest';
import { type AdminAccount, type AdminCompany, EMAIL_DOMAIN_ERROR, type InviteStaffRequest } from '../../src/contract/admin.ts';
import type { AdminOffering, AdminOfferingCategory, AdminOfferingSummary, AdminTemplateSummary } from '../../src/contract/adminCatalogue.ts';
import type { ListChange } from '../../src/machines/adminCollection.ts';
import { type CompanyDraft, LOGO_STILL_UPLOADING, adminCompaniesMachine, companyRequestOf } from '../../src/machines/adminCompanies.machine.ts';
import { IMAGE_STILL_UPLOADING } from '../../src/machines/adminForms.ts';
import { type CategoryDraft, IMAGE_NEEDED, adminOfferingCategoriesMachine, categoryRequestOf } from '../../src/machines/adminOfferingCategories.machine.ts';
import {
  HELP_TEMPLATE_MISSING,
  type OfferingDraft,
  type OpenedForm,
  adminOfferingsMachine,
  createRequestOf,
  draftOf as offeringDraftOf,
  offeringFieldsOf,
} from '../../src/machines/adminOfferings.machine.ts';
import { adminStaffMachine } from '../../src/machines/adminStaff.machine.ts';
import type { AdminCompaniesActor } from '../../src/views/admin/AdminCompaniesView.tsx';
import { AdminCompaniesView } from '../../src/views/admin/AdminCompaniesView.tsx';
import { type AdminOfferingCategoriesActor, AdminOfferingCategoriesView } from '../../src/views/admin/AdminOfferingCategoriesView.tsx';
import { type AdminOfferingsActor, AdminOfferingsView } from '../../src/views/admin/AdminOfferingsView.tsx';
import { type AdminStaffActor, AdminStaffView } from '../../src/views/admin/AdminStaffView.tsx';
import { PRESIGNED_LOGO, IMAGE_UPLOAD_REPORTS, expectFieldMessages } from './adminApi.support.ts';
import { type Confirmation, clean, describeCollection, rowsOf, textbox, typeInto, untouched } from './adminCollection.support.tsx';
import { networkError, serverRefusal } from './httpFailures.support.ts';
import { doneEvent, errorEvent } from './modelPaths.support.ts';

const networkDown = networkError();
const activation = <T extends { active: boolean }>(name: (item: T) => string) => (item: T): Confirmation => {
  const verb = item.active ? 'Deactivate' : 'Reactivate';
  return { title: `${verb} ${name(item)}?`, confirmLabel: verb };
};
const moveRequest = (collection: string, change: ListChange) => ({
  method: 'POST',
  path: `admin/${collection}/${change.itemId}/move`,
  body: { position: change.value },
});

// ---- Companies ----

const company = (fields: Partial<AdminCompany> & Pick<AdminCompany, 'id' | 'name' | 'slug'>): AdminCompany => ({
  image_url: null,
  logo_upload_key: null,
  mfa_policy: 'off',
  email_domains: [],
  internal_staff: false,
  active: true,
  deactivated_at: null,
  employee_count: 0,
  created_at: '2026-01-05T09:00:00.000Z',
  ...fields,
});
const ACME = company({
  id: 1,
  name: 'Acme Corporation',
  slug: 'acme',
  email_domains: ['acme.test'],
  employee_count: 12,
  logo_upload_key: 'uploads/acme-logo',
  image_url: '/api/v1/company_logos/uploads%2Facme-logo',
});
const GLOBEX = company({ id: 2, name: 'Globex', slug: 'globex', active: false, deactivated_at: '2026-02-01T10:00:00.000Z', employee_count: 3 });
const NEWCO = company({ id: 3, name: 'Newco', slug: 'newco', email_domains: ['newco.test'] });
const NEWCO_WITH_LOGO = { ...NEWCO, logo_upload_key: 'uploads/new-logo', image_url: '/api/v1/company_logos/uploads%2Fnew-logo' };
const SLUG_TAKEN = 'The address newco is used by Newco Holdings';
const companyAnswer = (saved: AdminCompany) => ({ company: saved });

describeCollection<AdminCompany, CompanyDraft>({
  machine: adminCompaniesMachine,
  heading: 'Companies',
  view: (actor) => <AdminCompaniesView companies={actor as unknown as AdminCompaniesActor} />,
  routes: [
    { method: 'GET', path: /^admin\/companies$/, id: 'list', answer: (companies: AdminCompany[]) => ({ companies }) },
    { method: 'POST', path: /^admin\/companies$/, id: 'save', answer: companyAnswer },
    { method: 'PATCH', path: /^admin\/companies\/\d+$/, id: 'save', answer: companyAnswer },
    { method: 'POST', path: /^admin\/companies\/\d+\/(de|re)activate$/, id: 'change', answer: companyAnswer },
  ],
  events: [
    doneEvent('list', [ACME, GLOBEX], 'list'),
    doneEvent('list', [], 'no companies'),
    errorEvent('list', networkDown, 'list fails'),
    { label: 'retry', event: { type: 'RETRY' } },
    { label: 'new company', event: { type: 'NEW' } },
    { label: 'edit Acme', event: { type: 'EDIT', itemId: ACME.id } },
    { label: 'type the name', event: { type: 'CHANGE', changes: { name: 'Newco' } } },
    { label: 'type a bad slug', event: { type: 'CHANGE', changes: { slug: 'New Co' } } },
    { label: 'fix the slug', event: { type: 'CHANGE', changes: { slug: 'newco' } } },
    { label: 'type the domain', event: { type: 'CHANGE', changes: { email_domains: 'newco.test' } } },
    { label: 'require MFA', event: { type: 'CHANGE', changes: { mfa_policy: 'required' } } },
    { label: 'remove the logo', event: { type: 'CHANGE', changes: { logo_upload_key: null } } },
    // What the logo's upload (a child actor of the screen's machine) tells it.
    { label: 'logo uploaded', event: IMAGE_UPLOAD_REPORTS.uploaded },
    { label: 'logo upload fails', event: IMAGE_UPLOAD_REPORTS.failed },
    { label: 'remove the uploaded logo', event: IMAGE_UPLOAD_REPORTS.cleared },
    { label: 'save', event: { type: 'SAVE' } },
    doneEvent('save', NEWCO, 'created'),
    doneEvent('save', NEWCO_WITH_LOGO, 'created with a logo'),
    doneEvent('save', { ...ACME, mfa_policy: 'required' }, 'updated'),
    errorEvent('save', serverRefusal(409, SLUG_TAKEN, { slug: SLUG_TAKEN }), 'slug taken'),
    errorEvent('save', serverRefusal(422, 'Invalid input', { 'email_domains.0': EMAIL_DOMAIN_ERROR }), 'domain refused'),
    errorEvent('save', networkDown, 'save fails'),
    { label: 'cancel', event: { type: 'CANCEL' } },
    { label: 'keep editing', event: { type: 'KEEP_EDITING' } },
    { label: 'discard', event: { type: 'DISCARD' } },
    { label: 'deactivate Acme', event: { type: 'SET', itemId: ACME.id, setting: { field: 'active', value: false } } },
    { label: 'reactivate Globex', event: { type: 'SET', itemId: GLOBEX.id, setting: { field: 'active', value: true } } },
    { label: 'confirm', event: { type: 'CONFIRM' } },
    doneEvent('change', { ...ACME, active: false, deactivated_at: '2026-03-01T10:00:00.000Z' }, 'deactivated'),
    doneEvent('change', { ...GLOBEX, active: true, deactivated_at: null }, 'reactivated'),
    errorEvent('change', networkDown, 'toggle fails'),
  ],
  offer: ({ context }, { label }) => {
    const { form, change } = context;
    const draft = form?.draft;
    const isNew = form?.itemId === null;
    const isAcme = form?.itemId === ACME.id;
    switch (label) {
      case 'new company':
      case 'edit Acme':
      case 'deactivate Acme':
      case 'reactivate Globex':
        return untouched(context);
      case 'type the name':
        return isNew && draft?.name === '';
      case 'type a bad slug':
        return isNew && draft?.name === 'Newco' && draft.slug === '';
      case 'fix the slug':
        return draft?.slug === 'New Co' && !clean(context);
      case 'type the domain':
        return draft?.slug === 'newco' && draft.email_domains === '';
      case 'require MFA':
        return isAcme && draft?.mfa_policy === 'off';
      case 'remove the logo':
        return isAcme && draft?.mfa_policy === 'off' && draft.logo_upload_key !== null;
      case 'logo uploaded':
      case 'logo upload fails':
        return isNew && draft?.email_domains === 'newco.test' && draft.logo_upload_key === null && clean(context);
      case 'remove the uploaded logo':
        return isNew && draft?.logo_upload_key === PRESIGNED_LOGO.key;
      case 'created':
        return isNew && draft?.logo_upload_key === null;
      case 'created with a logo':
        return isNew && draft?.logo_upload_key !== null;
      case 'save':
        return (
          (isNew && draft?.name === '') ||
          (draft?.slug === 'New Co' && clean(context)) ||
          (isNew && draft?.email_domains === 'newco.test' && context.formError === null) ||
          (isAcme && draft?.mfa_policy === 'required')
        );
      case 'slug taken':
      case 'domain refused':
        return isNew;
      case 'updated':
      case 'save fails':
        return isAcme;
      case 'cancel':
        // Declining the confirmation; closing the new company's form before anything is typed, and a changed one.
        return change?.itemId === ACME.id || (isNew && draft?.name === '' && clean(context)) || (isAcme && draft?.mfa_policy === 'required' && clean(context));
      case 'deactivated':
      case 'toggle fails':
        return change?.itemId === ACME.id;
      case 'reactivated':
        return change?.itemId === GLOBEX.id;
      default:
        return true;
    }
  },
  loadError: "We couldn't load the companies. Please try again.",
  loads: ['GET admin/companies'],
  newLabel: 'New company',
  expectRows: (companies) => {
    if (companies.length === 0) {
      expect(screen.getByRole('grid', { name: 'Companies', hidden: true })).toHaveTextContent('No companies yet. Create the first one.');
      return;
    }
    const rows = rowsOf('Companies');
    expect(rows).toHaveLength(companies.length);
    companies.forEach((expected, index) => {
      const row = rows[index] as HTMLElement;
      expect(within(row).getByRole('rowheader', { hidden: true })).toHaveTextContent(`${expected.name}/sign-up/${expected.slug}`);
      const [domains, mfa, employees, status] = within(row).getAllByRole('gridcell', { hidden: true }).map((cell) => cell.textContent);
      expect(domains).toBe(expected.email_domains.join(', ') || 'None');
      expect(mfa).toBe({ off: 'Off', optional: 'Optional', required: 'Required' }[expected.mfa_policy]);
      expect(employees).toBe(String(expected.employee_count));
      expect(status).toMatch(expected.active ? /^Active$/ : /^Deactivated since /);
      expect(within(row).getByRole('button', { name: `${expected.active ? 'Deactivate' : 'Reactivate'} ${expected.name}`, hidden: true })).toBeInTheDocument();
    });
  },
  expectForm: ({ context: { form, fieldErrors } }, dialog) => {
    expect(dialog).toHaveAccessibleName(form!.itemId === null ? 'New company' : 'Edit Acme Corporation');
    const fields = { name: textbox(dialog, 'Name'), slug: textbox(dialog, 'Sign-up address'), email_domains: textbox(dialog, /^E-mail domains/) };
    for (const [name, input] of Object.entries(fields)) expect(input).toHaveValue(form!.draft[name as keyof typeof fields]);
    expectFieldMessages(fields, fieldErrors);
    expect(within(dialog).getByRole('radio', { name: new RegExp(`^${form!.draft.mfa_policy}`, 'i') })).toBeChecked();
    expect(within(dialog).getByRole('checkbox', { name: /Internal staff company/ })).not.toBeChecked();
    const logo = within(dialog).queryByRole('img', { name: /^Current logo of/ });
    if (form!.imageUrl) expect(logo).toHaveAttribute('src', form!.imageUrl);
    else expect(logo).not.toBeInTheDocument();
  },
  saveButton: /^(Create company|Save changes)$/,
  saved: (form) => ({
    ...(form.itemId === null ? { method: 'POST', path: 'admin/companies' } : { method: 'PATCH', path: `admin/companies/${form.itemId}` }),
    body: companyRequestOf(form.draft),
  }),
  unsaved: 'Your changes to this company have not been saved.',
  changed: (change) => ({ method: 'POST', path: `admin/companies/${change.itemId}/${change.value ? 'reactivate' : 'deactivate'}` }),
  confirmation: activation((item: AdminCompany) => item.name),
  executors: (user, dialog) => {
    const changes: Record<string, () => Promise<void>> = {
      name: () => typeInto(user(), textbox(dialog(), 'Name'), 'Newco'),
      email_domains: () => typeInto(user(), textbox(dialog(), /^E-mail domains/), 'newco.test'),
      mfa_policy: () => user().click(within(dialog()).getByRole('radio', { name: /^Required/ })),
      logo_upload_key: () => user().click(within(dialog()).getByRole('button', { name: 'Remove logo' })),
    };
    return {
      EDIT: () => user().click(screen.getByRole('button', { name: 'Edit Acme Corporation' })),
      CHANGE: ({ event }) => {
        const [[field, value]] = Object.entries(event.changes as object) as [[string, unknown]];
        return field === 'slug' ? typeInto(user(), textbox(dialog(), 'Sign-up address'), String(value)) : changes[field]!();
      },
      SET: ({ event }) => user().click(screen.getByRole('button', { name: event.itemId === ACME.id ? 'Deactivate Acme Corporation' : 'Reactivate Globex' })),
    };
  },
  scenarios: {
    'an empty list': /^start → no companies$/,
    'failure and retry': /list fails → retry$/,
    'an empty form is checked before it is sent': /new company → save → type the name/,
    'a bad slug is named beside its field': /type a bad slug → save → fix the slug/,
    'a slug clash keeps what was typed': /type the domain → save → slug taken$/,
    'a refused domain is named on the domains field': /save → domain refused$/,
    'a company is created': /type the domain → save → created$/,
    'a logo is uploaded, then saved': /logo uploaded → save → created with a logo$/,
    'a failed logo upload': /logo upload fails$/,
    'an uploaded logo removed': /logo uploaded → remove the uploaded logo/,
    'a logo set in the console is removed': /edit Acme → remove the logo/,
    'an edit is saved': /edit Acme → require MFA → save → updated$/,
    'a failed save keeps the form': /save → save fails$/,
    'leaving a changed form asks, and discards only when told': /require MFA → cancel → discard$/,
    'leaving a changed form can be taken back': /require MFA → cancel → keep editing$/,
    'deactivation after a confirmation': /deactivate Acme → confirm → deactivated$/,
    'a refused deactivation is shown in the confirmation': /deactivate Acme → confirm → toggle fails$/,
    reactivation: /reactivate Globex → confirm → reactivated$/,
    'declining the confirmation': /deactivate Acme → cancel$/,
  },
  image: {
    saves: 'company',
    stillUploading: LOGO_STILL_UPLOADING,
    savedWith: { path: 'admin/companies', body: { logo_upload_key: PRESIGNED_LOGO.key } },
    fill: async (user) => {
      const dialog = screen.getByRole('dialog');
      await typeInto(user, textbox(dialog, 'Name'), 'Newco');
      await typeInto(user, textbox(dialog, 'Sign-up address'), 'newco');
      await typeInto(user, textbox(dialog, /^E-mail domains/), 'newco.test');
    },
    afterFailure: () => expect(within(screen.getByRole('dialog')).getByText('Error uploading logo.png')).toBeInTheDocument(),
  },
});

// ---- Offering categories ----

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
const NAME_TAKEN = 'The name Pets is used by another category';
const categoryAnswer = (saved: AdminOfferingCategory) => ({ category: saved });

describeCollection<AdminOfferingCategory, CategoryDraft>({
  machine: adminOfferingCategoriesMachine,
  heading: 'Offering categories',
  view: (actor) => <AdminOfferingCategoriesView categories={actor as unknown as AdminOfferingCategoriesActor} />,
  routes: [
    { method: 'GET', path: /^admin\/offering_categories$/, id: 'list', answer: (categories: AdminOfferingCategory[]) => ({ categories }) },
    { method: 'POST', path: /^admin\/offering_categories$/, id: 'save', answer: categoryAnswer },
    { method: 'PATCH', path: /^admin\/offering_categories\/\d+$/, id: 'save', answer: categoryAnswer },
    { method: 'POST', path: /^admin\/offering_categories\/\d+\/move$/, id: 'change', answer: categoryAnswer },
  ],
  events: [
    doneEvent('list', [HEALTH, FAMILY], 'list'),
    doneEvent('list', [], 'no categories'),
    errorEvent('list', networkDown, 'list fails'),
    { label: 'retry', event: { type: 'RETRY' } },
    { label: 'new category', event: { type: 'NEW' } },
    { label: 'edit Health', event: { type: 'EDIT', itemId: HEALTH.id } },
    { label: 'move Family up', event: { type: 'MOVE', itemId: FAMILY.id, by: -1 } },
    doneEvent('change', { ...FAMILY, position: 0 }, 'moved'),
    errorEvent('change', networkDown, 'move fails'),
    { label: 'fill in the category', event: { type: 'CHANGE', changes: { name: 'Pets', external_id: 'pets' } } },
    { label: 'rename Health', event: { type: 'CHANGE', changes: { name: 'Health and care' } } },
    // What the image's upload (a child actor of the screen's machine) tells it.
    { label: 'image uploaded', event: IMAGE_UPLOAD_REPORTS.uploaded },
    { label: 'image upload fails', event: IMAGE_UPLOAD_REPORTS.failed },
    { label: 'remove the uploaded image', event: IMAGE_UPLOAD_REPORTS.cleared },
    { label: 'save', event: { type: 'SAVE' } },
    doneEvent('save', PETS, 'created'),
    doneEvent('save', { ...HEALTH, name: 'Health and care' }, 'updated'),
    errorEvent('save', serverRefusal(409, NAME_TAKEN, { name: NAME_TAKEN }), 'name taken'),
    errorEvent('save', networkDown, 'save fails'),
    { label: 'cancel', event: { type: 'CANCEL' } },
    { label: 'keep editing', event: { type: 'KEEP_EDITING' } },
    { label: 'discard', event: { type: 'DISCARD' } },
  ],
  offer: ({ context }, { label }) => {
    const { form, change } = context;
    const draft = form?.draft;
    const isNew = form?.itemId === null;
    const isHealth = form?.itemId === HEALTH.id;
    switch (label) {
      case 'new category':
      case 'edit Health':
      case 'move Family up':
        return untouched(context);
      case 'moved':
      case 'move fails':
        return change !== null;
      case 'fill in the category':
        return isNew && draft?.name === '' && !clean(context);
      case 'rename Health':
        return isHealth && draft?.name === 'Health' && clean(context);
      case 'image uploaded':
      case 'image upload fails':
        return isNew && draft?.name === 'Pets' && draft.image_upload_key === null;
      case 'remove the uploaded image':
        return isNew && draft?.image_upload_key === PRESIGNED_LOGO.key;
      case 'save':
        return (
          (isNew && draft?.name === '' && clean(context)) ||
          (isNew && draft?.image_upload_key !== null && clean(context)) ||
          (isHealth && draft?.name === 'Health and care')
        );
      case 'created':
      case 'name taken':
        return isNew;
      case 'updated':
      case 'save fails':
        return isHealth;
      case 'cancel':
        return isHealth && clean(context);
      default:
        return true;
    }
  },
  loadError: "We couldn't load the offering categories. Please try again.",
  loads: ['GET admin/offering_categories'],
  newLabel: 'New category',
  expectRows: (categories, snapshot) => {
    if (categories.length === 0) {
      expect(screen.getByRole('grid', { name: 'Offering categories', hidden: true })).toHaveTextContent('No categories yet. Create the first one.');
      return;
    }
    const rows = rowsOf('Offering categories');
    expect(rows).toHaveLength(categories.length);
    const canMove = snapshot.matches('list');
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
  },
  expectForm: ({ context: { form, fieldErrors } }, dialog) => {
    expect(dialog).toHaveAccessibleName(form!.itemId === null ? 'New category' : 'Edit Health');
    const fields = { name: textbox(dialog, 'Name'), external_id: textbox(dialog, 'External id') };
    expect(fields.name).toHaveValue(form!.draft.name);
    expect(fields.external_id).toHaveValue(form!.draft.external_id);
    expectFieldMessages(fields, fieldErrors);
    if (fieldErrors.image_upload_key) {
      expect(fieldErrors.image_upload_key).toBe(IMAGE_NEEDED);
      expect(within(dialog).getByRole('group', { name: 'Image' })).toHaveTextContent(IMAGE_NEEDED);
    }
    const image = within(dialog).queryByRole('img', { name: /^Current image of/ });
    if (form!.imageUrl) expect(image).toHaveAttribute('src', form!.imageUrl);
    else expect(image).not.toBeInTheDocument();
  },
  saveButton: /^(Create category|Save changes)$/,
  saved: (form) => ({
    ...(form.itemId === null ? { method: 'POST', path: 'admin/offering_categories' } : { method: 'PATCH', path: `admin/offering_categories/${form.itemId}` }),
    body: categoryRequestOf(form.draft),
  }),
  unsaved: 'Your changes to this category have not been saved.',
  changed: (change) => moveRequest('offering_categories', change),
  executors: (user, dialog) => ({
    EDIT: () => user().click(screen.getByRole('button', { name: 'Edit Health' })),
    MOVE: () => user().click(screen.getByRole('button', { name: 'Move Family up' })),
    CHANGE: async ({ event }) => {
      const changes = event.changes as Partial<CategoryDraft>;
      if (changes.name !== undefined) await typeInto(user(), textbox(dialog(), 'Name'), changes.name);
      if (changes.external_id !== undefined) await typeInto(user(), textbox(dialog(), 'External id'), changes.external_id);
    },
  }),
  scenarios: {
    'an empty list': /^start → no categories$/,
    'failure and retry': /list fails → retry$/,
    'an empty form is checked before it is sent, an image asked for': /new category → save → fill in the category/,
    'a category is created with its image': /image uploaded → save → created$/,
    'a failed image upload': /image upload fails$/,
    'an uploaded image removed': /image uploaded → remove the uploaded image/,
    'a name clash keeps what was typed': /image uploaded → save → name taken/,
    'a rename is saved': /edit Health → rename Health → save → updated$/,
    'a failed save keeps the form': /rename Health → save → save fails$/,
    'leaving a changed form asks, and discards only when told': /rename Health → cancel → discard$/,
    'a category is moved up': /move Family up → moved$/,
    'a refused move is shown above the list': /move Family up → move fails$/,
    'an unchanged form closes at once': /edit Health → cancel$/,
  },
  image: {
    saves: 'category',
    stillUploading: IMAGE_STILL_UPLOADING,
    savedWith: { path: 'admin/offering_categories', body: { image_upload_key: PRESIGNED_LOGO.key } },
    fill: async (user) => {
      await typeInto(user, textbox(screen.getByRole('dialog'), 'Name'), 'Pets');
      await typeInto(user, textbox(screen.getByRole('dialog'), 'External id'), 'pets');
    },
  },
});

// ---- Staff ----

const account = (id: number, first: string, last: string, fields: Partial<AdminAccount> = {}): AdminAccount => ({
  id,
  email: `${first.toLowerCase()}@lifeconcierge.test`,
  first_name: first,
  last_name: last,
  full_name: `${first} ${last}`,
  role: 'concierge',
  active: true,
  invited: false,
  employer_company_name: null,
  deactivated_at: null,
  created_at: '2026-01-05T09:00:00.000Z',
  ...fields,
});
const ALEX = account(1, 'Alex', 'Admin', { role: 'admin' });
const CASEY = account(2, 'Casey', 'Concierge');
const DANA = account(3, 'Dana', 'Departed', { active: false, deactivated_at: '2026-02-01T10:00:00.000Z' });
const NICO = account(4, 'Nico', 'Newhire', { email: 'nico@newco.test', role: 'admin', invited: true });
const ERIN = account(5, 'Erin', 'Employer', { email: 'erin@acme.test', role: 'employer_admin', invited: true, employer_company_name: ACME.name });
const INVITATION_CHOICES = { companies: [{ id: ACME.id, name: ACME.name }] };
const LAST_ADMIN = 'This is the last active admin. Make another account an admin first.';
const EMAIL_TAKEN = 'An account with this e-mail address already exists.';
const ROLE_NAMES = { employee: 'Employee', concierge: 'Concierge', admin: 'Admin', employer_admin: 'Employer admin' } as const;
const roleButton = (person: AdminAccount) => screen.getByRole('button', { name: new RegExp(`Role of ${person.full_name}`), hidden: true });
const accountAnswer = (changed: AdminAccount) => ({ account: changed });

describeCollection<AdminAccount, InviteStaffRequest>({
  machine: adminStaffMachine,
  heading: 'Staff',
  view: (actor) => <AdminStaffView staff={actor as unknown as AdminStaffActor} />,
  routes: [
    { method: 'GET', path: /^admin\/staff$/, id: 'list', answer: (staff: AdminAccount[]) => ({ staff }) },
    // The invitation offers the active companies, for an employer admin (issue 29 part 3).
    { method: 'GET', path: /^admin\/companies$/, id: 'open', answer: () => ({ companies: [ACME] }) },
    { method: 'POST', path: /^admin\/staff$/, id: 'save', answer: accountAnswer },
    { method: 'PATCH', path: /^admin\/staff\/\d+$/, id: 'change', answer: accountAnswer },
    { method: 'POST', path: /^admin\/staff\/\d+\/(de|re)activate$/, id: 'change', answer: accountAnswer },
  ],
  events: [
    doneEvent('list', [ALEX, CASEY, DANA, ERIN], 'list'),
    errorEvent('list', networkDown, 'list fails'),
    { label: 'retry', event: { type: 'RETRY' } },
    { label: 'invite', event: { type: 'NEW' } },
    doneEvent('open', { item: null, choices: INVITATION_CHOICES }, 'invitation opens'),
    errorEvent('open', networkDown, 'invitation fails to open'),
    { label: 'choose employer admin', event: { type: 'CHANGE', changes: { role: 'employer_admin' } } },
    { label: 'choose Acme', event: { type: 'CHANGE', changes: { company_id: ACME.id } } },
    { label: 'type the e-mail', event: { type: 'CHANGE', changes: { email: 'nico@newco.test' } } },
    { label: 'type the first name', event: { type: 'CHANGE', changes: { first_name: 'Nico' } } },
    { label: 'type the last name', event: { type: 'CHANGE', changes: { last_name: 'Newhire' } } },
    { label: 'choose admin', event: { type: 'CHANGE', changes: { role: 'admin' } } },
    { label: 'send', event: { type: 'SAVE' } },
    doneEvent('save', NICO, 'invited'),
    doneEvent('save', ERIN, 'employer admin invited'),
    errorEvent('save', serverRefusal(409, EMAIL_TAKEN, { email: EMAIL_TAKEN }), 'e-mail taken'),
    errorEvent('save', networkDown, 'invitation fails'),
    { label: 'cancel', event: { type: 'CANCEL' } },
    { label: 'keep editing', event: { type: 'KEEP_EDITING' } },
    { label: 'discard', event: { type: 'DISCARD' } },
    { label: 'make Casey an admin', event: { type: 'SET', itemId: CASEY.id, setting: { field: 'role', value: 'admin' } } },
    { label: 'make Alex a concierge', event: { type: 'SET', itemId: ALEX.id, setting: { field: 'role', value: 'concierge' } } },
    doneEvent('change', { ...CASEY, role: 'admin' }, 'role changed'),
    errorEvent('change', serverRefusal(409, LAST_ADMIN, { role: LAST_ADMIN }), 'last admin keeps the role'),
    { label: 'deactivate Alex', event: { type: 'SET', itemId: ALEX.id, setting: { field: 'active', value: false } } },
    { label: 'reactivate Dana', event: { type: 'SET', itemId: DANA.id, setting: { field: 'active', value: true } } },
    { label: 'confirm', event: { type: 'CONFIRM' } },
    doneEvent('change', { ...DANA, active: true, deactivated_at: null }, 'reactivated'),
    errorEvent('change', serverRefusal(409, LAST_ADMIN), 'last admin stays active'),
  ],
  offer: ({ context }, { label }) => {
    const { form, change, fieldErrors, formError } = context;
    const invitation = form?.draft;
    switch (label) {
      case 'invite':
      case 'make Casey an admin':
      case 'make Alex a concierge':
      case 'deactivate Alex':
      case 'reactivate Dana':
        return untouched(context);
      case 'type the e-mail':
        return invitation?.email === '' && Object.keys(fieldErrors).length > 0;
      case 'type the first name':
        return invitation?.email !== '' && invitation?.first_name === '';
      case 'type the last name':
        return invitation?.first_name !== '' && invitation?.last_name === '';
      case 'choose admin':
      case 'choose employer admin':
        return invitation?.last_name !== '' && invitation?.role === 'concierge';
      case 'choose Acme':
        return invitation?.role === 'employer_admin' && invitation.company_id === null && Object.keys(fieldErrors).length > 0;
      case 'invitation opens':
      case 'invitation fails to open':
        return context.opening?.itemId === null;
      case 'send':
        return (
          (invitation?.email === '' && clean(context)) ||
          (invitation?.role === 'admin' && formError === null) ||
          (invitation?.role === 'employer_admin' && formError === null && (invitation.company_id !== null || clean(context)))
        );
      case 'invited':
      case 'e-mail taken':
      case 'invitation fails':
        return invitation?.role === 'admin';
      case 'employer admin invited':
        return invitation?.role === 'employer_admin' && invitation.company_id === ACME.id;
      case 'role changed':
        return change?.itemId === CASEY.id;
      case 'last admin keeps the role':
        return change?.itemId === ALEX.id && change.field === 'role';
      case 'cancel':
        // Declining the confirmation; closing the invitation before anything is typed, and a typed one.
        return (change?.itemId === ALEX.id && change.field === 'active') || (invitation?.email === '' && clean(context)) || (invitation?.role === 'admin' && !clean(context));
      case 'reactivated':
        return change?.itemId === DANA.id;
      case 'last admin stays active':
        return change?.itemId === ALEX.id && change.field === 'active';
      default:
        return true;
    }
  },
  loadError: "We couldn't load the staff. Please try again.",
  loads: ['GET admin/staff'],
  opens: () => ['GET admin/companies'],
  newLabel: 'Invite staff',
  expectRows: (staff, { context }) => {
    const rows = rowsOf('Staff');
    expect(rows).toHaveLength(staff.length);
    const { change } = context;
    staff.forEach((person, index) => {
      const row = rows[index] as HTMLElement;
      expect(within(row).getByRole('rowheader', { hidden: true })).toHaveTextContent(person.full_name);
      expect(row).toHaveTextContent(person.email);
      const shownRole = change?.itemId === person.id && change.field === 'role' ? (change.value as AdminAccount['role']) : person.role;
      expect(roleButton(person)).toHaveTextContent(ROLE_NAMES[shownRole]);
      expect(roleButton(person)).toHaveProperty('disabled', !context.items || change !== null || context.form !== null || context.opening !== null);
      // An invitation not accepted yet is not an active account (issue 32).
      expect(row).toHaveTextContent(!person.active ? 'Deactivated since' : person.invited ? 'Invited' : 'Active');
    });
  },
  expectForm: ({ context: { form, fieldErrors } }, dialog) => {
    const invitation = form!.draft;
    expect(dialog).toHaveAccessibleName('Invite staff');
    const fields = { email: textbox(dialog, 'E-mail'), first_name: textbox(dialog, 'First name'), last_name: textbox(dialog, 'Last name') };
    for (const [name, input] of Object.entries(fields)) expect(input).toHaveValue(invitation[name as keyof typeof fields]);
    expectFieldMessages(fields, fieldErrors);
    expect(within(dialog).getByRole('radio', { name: new RegExp(`^${ROLE_NAMES[invitation.role]}`) })).toBeChecked();
    // The company is asked for the role that reads one report, and only then.
    const company = within(dialog).queryByRole('button', { name: /Company/ });
    if (invitation.role !== 'employer_admin') expect(company).toBeNull();
    else {
      expect(company).toHaveTextContent(invitation.company_id === ACME.id ? ACME.name : 'Choose a company');
      if (fieldErrors.company_id) expect(dialog).toHaveTextContent(fieldErrors.company_id);
    }
  },
  saveButton: /^Send invitation$/,
  saved: ({ draft: { company_id: companyId, ...fields } }) => ({
    method: 'POST',
    path: 'admin/staff',
    body: fields.role === 'employer_admin' ? { ...fields, company_id: companyId } : fields,
  }),
  unsaved: 'This invitation has not been sent yet.',
  changed: (change) =>
    change.field === 'role'
      ? { method: 'PATCH', path: `admin/staff/${change.itemId}`, body: { role: change.value } }
      : { method: 'POST', path: `admin/staff/${change.itemId}/${change.value ? 'reactivate' : 'deactivate'}` },
  confirmation: activation((person: AdminAccount) => person.full_name),
  executors: (user, dialog) => {
    const changes: Record<string, () => Promise<void>> = {
      email: () => user().type(textbox(dialog(), 'E-mail'), 'nico@newco.test'),
      first_name: () => user().type(textbox(dialog(), 'First name'), 'Nico'),
      last_name: () => user().type(textbox(dialog(), 'Last name'), 'Newhire'),
      role: () => user().click(within(dialog()).getByRole('radio', { name: /^Admin/ })),
      company_id: async () => {
        await user().click(within(dialog()).getByRole('button', { name: /Company/ }));
        await user().click(screen.getByRole('option', { name: ACME.name }));
      },
    };
    return {
      CHANGE: ({ event }) =>
        (event.changes as { role?: string }).role === 'employer_admin'
          ? user().click(within(dialog()).getByRole('radio', { name: /^Employer admin/ }))
          : changes[Object.keys(event.changes as object)[0]!]!(),
      SET: async ({ event }) => {
        const { field, value } = event.setting as { field: string; value: unknown };
        if (field === 'active') {
          return user().click(screen.getByRole('button', { name: event.itemId === ALEX.id ? 'Deactivate Alex Admin' : 'Reactivate Dana Departed' }));
        }
        await user().click(roleButton(event.itemId === ALEX.id ? ALEX : CASEY));
        await user().click(screen.getByRole('option', { name: ROLE_NAMES[value as 'admin' | 'concierge'] }));
      },
    };
  },
  scenarios: {
    'failure and retry': /list fails → retry$/,
    'an empty invitation is checked before it is sent': /invite → invitation opens → send → type the e-mail/,
    'an invitation is sent': /choose admin → send → invited$/,
    'an employer admin is invited for a company, which is asked for first': /choose employer admin → send → choose Acme → send → employer admin invited$/,
    'the invitation fails to open': /invite → invitation fails to open$/,
    'a taken address is named on the e-mail field': /send → e-mail taken/,
    'a failed invitation keeps what was typed': /send → invitation fails/,
    'leaving a typed invitation asks, and discards only when told': /cancel → discard$/,
    'a role change': /make Casey an admin → role changed$/,
    'the last admin keeps the role, and the list says why': /make Alex a concierge → last admin keeps the role$/,
    'the last admin stays active, and the confirmation says why': /deactivate Alex → confirm → last admin stays active$/,
    'reactivation after a confirmation': /reactivate Dana → confirm → reactivated$/,
    'declining the confirmation': /deactivate Alex → cancel$/,
  },
});

// ---- Offerings ----

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
const CHOICES = { categories: [HEALTH], companies: [ACME], templates: [HELP_TEMPLATE] };
const BIKE_FIELDS = {
  slug: 'bike-to-work',
  provider_name: 'Acme People Team',
  provider_logo_url: '/seed/acme.svg',
  heading: 'Bike to work',
  subheading: 'Save on a new bike',
  name: 'Cycle scheme',
  company_ids: [ACME.id],
};
const OFFERING_SLUG_TAKEN = 'The slug bike-to-work is used by another offering';
const STEP_TOO_LONG = 'Keep it under 1000 characters';
const GYM_DRAFT = JSON.stringify(offeringDraftOf(GYM));
const isEmptyNewDraft = (draft: OfferingDraft) => draft.slug === '' && draft.sections.length === 0;
const sectionGroup = (dialog: HTMLElement, index: number) => within(dialog).getByRole('group', { name: new RegExp(`^Section ${index + 1}:`) });
const SECTION_NAMES = { numbered: 'Numbered steps', key_value: 'Contact rows', text: 'Paragraph' } as const;
const FIELD_LABELS: Record<string, RegExp> = {
  slug: /^Slug/,
  provider_name: /^Provider name/,
  provider_logo_url: /^Provider logo address/,
  heading: /^Heading/,
  subheading: /^Subheading/,
  name: /^Name/,
  help_cta: /^Button text/,
};
const offeringAnswer = (saved: AdminOffering) => ({ offering: saved });
const opened = (part: 'categories' | 'companies' | 'templates') => (form: OpenedForm) => ({ [part]: form.choices[part] });

function expectOfferingRows(title: string, offerings: AdminOfferingSummary[], canChange: boolean) {
  const grid = screen.getByRole('grid', { name: title, hidden: true });
  if (offerings.length === 0) {
    expect(grid).toHaveTextContent(`No ${title.toLowerCase()} yet. Press New offering to add one.`);
    return;
  }
  const rows = rowsOf(title);
  expect(rows).toHaveLength(offerings.length);
  offerings.forEach((expected, index) => {
    const row = rows[index] as HTMLElement;
    expect(within(row).getByRole('rowheader', { hidden: true })).toHaveTextContent(`${expected.name}${expected.provider_name} · ${expected.heading}`);
    const [status, featured] = within(row).getAllByRole('gridcell', { hidden: true }).map((cell) => cell.textContent);
    expect(status).toBe(expected.published ? 'Published' : 'Draft');
    expect(featured).toBe(expected.featured ? 'Featured' : 'No');
    const button = (name: string) => within(row).getByRole('button', { name, hidden: true });
    expect(button(`Move ${expected.name} up`)).toHaveProperty('disabled', index === 0 || !canChange);
    expect(button(`Move ${expected.name} down`)).toHaveProperty('disabled', index === offerings.length - 1 || !canChange);
    expect(button(`${expected.featured ? 'Unfeature' : 'Feature'} ${expected.name}`)).toBeInTheDocument();
    expect(button(`${expected.published ? 'Unpublish' : 'Publish'} ${expected.name}`)).toBeInTheDocument();
  });
}

/** The sections as typed, each message beside the input it is about, and the preview drawn from them. */
function expectSections(dialog: HTMLElement, draft: OfferingDraft, fieldErrors: Record<string, string>) {
  const inputs: Record<string, HTMLElement> = {};
  draft.sections.forEach((section, index) => {
    const group = sectionGroup(dialog, index);
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
  if (fieldErrors.sections) expect(within(dialog).getByText(fieldErrors.sections)).toBeInTheDocument();

  const preview = screen.getByTestId('offering-preview');
  const headings = within(preview).queryAllByRole('heading', { level: 4, hidden: true }).map((heading) => heading.textContent);
  expect(headings).toEqual(draft.sections.map((section) => section.heading));
  if (draft.heading) expect(preview).toHaveTextContent(draft.heading);
  if (draft.help_cta) expect(within(preview).getByRole('button', { name: draft.help_cta, hidden: true })).toBeInTheDocument();
  else expect(within(preview).queryByRole('region', { name: 'Help', hidden: true })).not.toBeInTheDocument();
}

describeCollection<AdminOfferingSummary, OfferingDraft>({
  machine: adminOfferingsMachine,
  heading: 'Offerings',
  view: (actor) => <AdminOfferingsView offerings={actor as unknown as AdminOfferingsActor} />,
  routes: [
    { method: 'GET', path: /^admin\/offerings$/, id: 'list', answer: (offerings: AdminOfferingSummary[]) => ({ offerings }) },
    { method: 'GET', path: /^admin\/offerings\/\d+$/, id: 'open', answer: (form: OpenedForm) => ({ offering: form.item }) },
    { method: 'GET', path: /^admin\/offering_categories$/, id: 'open', answer: opened('categories') },
    { method: 'GET', path: /^admin\/companies$/, id: 'open', answer: opened('companies') },
    { method: 'GET', path: /^admin\/survey_templates$/, id: 'open', answer: opened('templates') },
    { method: 'POST', path: /^admin\/offerings$/, id: 'save', answer: offeringAnswer },
    { method: 'PATCH', path: /^admin\/offerings\/\d+$/, id: 'save', answer: offeringAnswer },
    { method: 'POST', path: /^admin\/offerings\/\d+\/\w+$/, id: 'change', answer: offeringAnswer },
  ],
  events: [
    doneEvent('list', [GYM, DENTAL, MEALS].map(summary), 'list'),
    doneEvent('list', [], 'no offerings'),
    errorEvent('list', networkDown, 'list fails'),
    { label: 'retry', event: { type: 'RETRY' } },
    { label: 'new offering', event: { type: 'NEW' } },
    { label: 'edit Gym', event: { type: 'EDIT', itemId: GYM.id } },
    { label: 'move Dental up', event: { type: 'MOVE', itemId: DENTAL.id, by: -1 } },
    { label: 'feature Gym', event: { type: 'SET', itemId: GYM.id, setting: { field: 'featured', value: true } } },
    { label: 'unpublish Gym', event: { type: 'SET', itemId: GYM.id, setting: { field: 'published', value: false } } },
    doneEvent('change', { ...DENTAL, position: 0 }, 'moved'),
    doneEvent('change', { ...GYM, featured: true }, 'featured'),
    doneEvent('change', { ...GYM, published: false }, 'unpublished'),
    errorEvent('change', networkDown, 'change fails'),
    doneEvent('open', { item: null, choices: CHOICES } satisfies OpenedForm, 'empty form opens'),
    doneEvent('open', { item: GYM, choices: CHOICES } satisfies OpenedForm, 'Gym form opens'),
    errorEvent('open', networkDown, 'form fails to open'),
    { label: 'make it a partner offer', event: { type: 'CHANGE', changes: { type: 'product' } } },
    { label: 'fill in the benefit', event: { type: 'CHANGE', changes: BIKE_FIELDS } },
    { label: 'add numbered steps', event: { type: 'EDIT_DRAFT', edit: { kind: 'addSection', sectionType: 'numbered' } } },
    { label: 'name the steps', event: { type: 'EDIT_DRAFT', edit: { kind: 'changeSection', section: 0, changes: { heading: 'How to join' } } } },
    { label: 'write step 1', event: { type: 'EDIT_DRAFT', edit: { kind: 'changeItem', section: 0, item: 0, changes: { value: 'Choose a bike' } } } },
    { label: 'rename Gym', event: { type: 'CHANGE', changes: { name: 'Gym and pool' } } },
    { label: 'give it a help button', event: { type: 'CHANGE', changes: { help_cta: 'Ask us' } } },
    { label: 'choose its request', event: { type: 'CHANGE', changes: { help_survey_id: HELP_TEMPLATE.id } } },
    { label: 'clear step 1', event: { type: 'EDIT_DRAFT', edit: { kind: 'changeItem', section: 0, item: 0, changes: { value: '' } } } },
    { label: 'make row 1 a label', event: { type: 'EDIT_DRAFT', edit: { kind: 'changeItem', section: 1, item: 0, changes: { kind: 'label' } } } },
    { label: 'add a step', event: { type: 'EDIT_DRAFT', edit: { kind: 'addItem', section: 0 } } },
    { label: 'move step 2 up', event: { type: 'EDIT_DRAFT', edit: { kind: 'moveItem', section: 0, item: 1, by: -1 } } },
    { label: 'remove step 1', event: { type: 'EDIT_DRAFT', edit: { kind: 'removeItem', section: 0, item: 0 } } },
    { label: 'add a paragraph', event: { type: 'EDIT_DRAFT', edit: { kind: 'addSection', sectionType: 'text' } } },
    { label: 'move section 1 down', event: { type: 'EDIT_DRAFT', edit: { kind: 'moveSection', section: 0, by: 1 } } },
    { label: 'remove section 2', event: { type: 'EDIT_DRAFT', edit: { kind: 'removeSection', section: 1 } } },
    { label: 'save', event: { type: 'SAVE' } },
    doneEvent('save', offering({ id: 12, type: 'benefit', ...BIKE_FIELDS, position: 5, published: false }), 'created'),
    errorEvent('save', serverRefusal(409, OFFERING_SLUG_TAKEN, { slug: OFFERING_SLUG_TAKEN }), 'slug taken'),
    doneEvent('save', { ...GYM, name: 'Gym and pool' }, 'updated'),
    errorEvent('save', serverRefusal(422, 'Invalid input', { 'sections.0.items.1.value': STEP_TOO_LONG }), 'a step refused'),
    errorEvent('save', networkDown, 'save fails'),
    { label: 'cancel', event: { type: 'CANCEL' } },
    { label: 'keep editing', event: { type: 'KEEP_EDITING' } },
    { label: 'discard', event: { type: 'DISCARD' } },
  ],
  offer: ({ context }, { label }) => {
    const { form, opening, change } = context;
    const draft = form?.draft;
    const isNew = form?.itemId === null;
    const isGym = form?.itemId === GYM.id;
    const pristineGym = isGym && JSON.stringify(draft) === GYM_DRAFT && clean(context);
    const step1 = draft?.sections[0]?.items[0]?.value;
    switch (label) {
      case 'new offering':
      case 'edit Gym':
      case 'move Dental up':
      case 'feature Gym':
      case 'unpublish Gym':
        return untouched(context);
      case 'moved':
        return change?.field === 'position';
      case 'featured':
      case 'change fails':
        return change?.field === 'featured';
      case 'unpublished':
        return change?.field === 'published';
      case 'empty form opens':
        return opening?.itemId === null;
      case 'Gym form opens':
      case 'form fails to open':
        return opening?.itemId === GYM.id;
      case 'make it a partner offer':
        return isNew && draft?.type === 'benefit' && isEmptyNewDraft(draft) && clean(context);
      case 'fill in the benefit':
        return isNew && draft !== undefined && isEmptyNewDraft(draft) && !clean(context);
      case 'add numbered steps':
        return isNew && draft?.slug !== '' && draft?.sections.length === 0;
      case 'name the steps':
        return isNew && draft?.sections[0]?.heading === '';
      case 'write step 1':
        return isNew && draft?.sections[0]?.heading === 'How to join' && step1 === '';
      case 'save':
        return (
          (isNew && draft?.type === 'benefit' && isEmptyNewDraft(draft) && clean(context)) ||
          (isNew && step1 === 'Choose a bike' && clean(context)) ||
          (isGym && draft?.name === 'Gym and pool' && clean(context)) ||
          (isGym && draft?.help_cta === 'Ask us' && draft.help_survey_id === null && clean(context)) ||
          (isGym && step1 === '' && clean(context))
        );
      case 'created':
      case 'slug taken':
        return isNew;
      case 'updated':
      case 'a step refused':
      case 'save fails':
        return isGym;
      case 'choose its request':
        return isGym && draft?.help_cta === 'Ask us' && draft.help_survey_id === null && !clean(context);
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
        return pristineGym || (isGym && draft?.name === 'Gym and pool' && clean(context));
      default:
        return true;
    }
  },
  loadError: "We couldn't load the offerings. Please try again.",
  loads: ['GET admin/offerings'],
  newLabel: 'New offering',
  opens: (offeringId) => [
    'GET admin/companies',
    'GET admin/offering_categories',
    'GET admin/survey_templates',
    ...(offeringId === null ? [] : [`GET admin/offerings/${offeringId}`]),
  ],
  expectRows: (offerings, snapshot) => {
    expectOfferingRows('Benefits', offerings.filter((entry) => entry.type === 'benefit'), snapshot.matches('list'));
    expectOfferingRows('Partner offers', offerings.filter((entry) => entry.type === 'product'), snapshot.matches('list'));
    if (snapshot.context.refusal) expect(screen.getByText(snapshot.context.refusal)).toBeInTheDocument();
  },
  expectForm: ({ context: { form, fieldErrors } }, dialog) => {
    const { draft } = form!;
    expect(dialog).toHaveAccessibleName(form!.itemId === null ? 'New offering' : 'Edit Gym membership');
    const fields: Record<string, HTMLElement> = {
      ...Object.fromEntries(Object.entries(FIELD_LABELS).filter(([field]) => field !== 'slug').map(([field, label]) => [field === 'help_cta' ? 'help.cta' : field, textbox(dialog, label)])),
      'help.request_survey_id': within(dialog).getByRole('combobox', { name: 'Request it starts' }),
    };
    if (form!.itemId === null) {
      fields.slug = textbox(dialog, /^Slug/);
      expect(within(dialog).getByRole('radio', { name: draft.type === 'benefit' ? /^Benefit/ : /^Partner offer/ })).toBeChecked();
    } else {
      expect(within(dialog).queryByRole('textbox', { name: /^Slug/ })).not.toBeInTheDocument();
    }
    for (const [field, input] of Object.entries(fields)) {
      if (input.tagName === 'INPUT') expect(input).toHaveValue(field === 'help.cta' ? draft.help_cta : String(draft[field as keyof OfferingDraft]));
    }
    expect(fields['help.request_survey_id']).toHaveValue(draft.help_survey_id === null ? '' : String(draft.help_survey_id));
    expectFieldMessages(fields, fieldErrors);
    // A help button without its request is told so plainly, not in the schema's terms about the missing id.
    if (fieldErrors['help.request_survey_id']) expect(fieldErrors['help.request_survey_id']).toBe(HELP_TEMPLATE_MISSING);
    const companies = within(dialog).queryByRole('group', { name: 'Companies' });
    if (draft.type === 'product') expect(companies).not.toBeInTheDocument();
    else expect(within(companies!).getByRole('checkbox', { name: ACME.name })).toHaveProperty('checked', draft.company_ids.includes(ACME.id));
    const categories = within(dialog).getByRole('group', { name: 'Categories' });
    expect(within(categories).getByRole('checkbox', { name: HEALTH.name })).toHaveProperty('checked', draft.category_ids.includes(HEALTH.id));
    expectSections(dialog, draft, fieldErrors);
  },
  saveButton: /^(Create offering|Save changes)$/,
  saved: (form) =>
    form.itemId === null
      ? { method: 'POST', path: 'admin/offerings', body: createRequestOf(form.draft) }
      : { method: 'PATCH', path: `admin/offerings/${form.itemId}`, body: offeringFieldsOf(form.draft) },
  unsaved: 'Your changes to this offering have not been saved.',
  changed: (change) => {
    if (change.field === 'position') return moveRequest('offerings', change);
    const verb = { featured: ['feature', 'unfeature'], published: ['publish', 'unpublish'] }[change.field as 'featured' | 'published'];
    return { method: 'POST', path: `admin/offerings/${change.itemId}/${change.value ? verb[0] : verb[1]}` };
  },
  executors: (user, dialog) => {
    const click = (container: HTMLElement, name: string) => user().click(within(container).getByRole('button', { name }));
    const edits: Record<string, (edit: Record<string, number | string | Record<string, string>>) => Promise<void>> = {
      addSection: ({ sectionType }) => click(dialog(), sectionType === 'numbered' ? 'Add numbered steps' : 'Add paragraph'),
      changeSection: ({ section }) => typeInto(user(), textbox(sectionGroup(dialog(), section as number), 'Section heading'), 'How to join'),
      moveSection: ({ section }) => click(dialog(), `Move section ${(section as number) + 1} down`),
      removeSection: ({ section }) => click(dialog(), `Remove section ${(section as number) + 1}`),
      addItem: ({ section }) => click(sectionGroup(dialog(), section as number), 'Add a step'),
      changeItem: ({ section, item, changes }) => {
        const group = sectionGroup(dialog(), section as number);
        const { value, kind } = changes as { value?: string; kind?: string };
        if (kind) return user().selectOptions(within(group).getByRole('combobox', { name: 'Row 1: kind' }), kind);
        return typeInto(user(), textbox(group, `Step ${(item as number) + 1}`), value ?? '');
      },
      moveItem: ({ section, item }) => click(sectionGroup(dialog(), section as number), `Move step ${(item as number) + 1} up`),
      removeItem: ({ section, item }) => click(sectionGroup(dialog(), section as number), `Remove step ${(item as number) + 1}`),
    };
    const changeField = (field: string, value: unknown) => {
      if (field === 'type') return user().click(within(dialog()).getByRole('radio', { name: /^Partner offer/ }));
      if (field === 'company_ids') return user().click(within(dialog()).getByRole('checkbox', { name: ACME.name }));
      if (field === 'help_survey_id') return user().selectOptions(within(dialog()).getByRole('combobox', { name: 'Request it starts' }), String(value));
      return typeInto(user(), textbox(dialog(), FIELD_LABELS[field]!), String(value));
    };
    return {
      EDIT: () => user().click(screen.getByRole('button', { name: 'Edit Gym membership' })),
      MOVE: () => user().click(screen.getByRole('button', { name: 'Move Dental plan up' })),
      SET: ({ event }) =>
        user().click(screen.getByRole('button', { name: (event.setting as { field: string }).field === 'featured' ? 'Feature Gym membership' : 'Unpublish Gym membership' })),
      CHANGE: async ({ event }) => {
        for (const [field, value] of Object.entries(event.changes as object)) await changeField(field, value);
      },
      EDIT_DRAFT: ({ event }) => {
        const edit = event.edit as { kind: string } & Record<string, number | string | Record<string, string>>;
        return edits[edit.kind]!(edit);
      },
    };
  },
  scenarios: {
    'an empty list': /^start → no offerings$/,
    'failure and retry': /list fails → retry$/,
    'an empty form is checked before it is sent': /empty form opens → save → fill in the benefit/,
    'a benefit with steps is created': /add numbered steps → name the steps → write step 1 → save → created$/,
    'a slug clash keeps what was typed': /write step 1 → save → slug taken$/,
    'an edit is saved': /Gym form opens → rename Gym → save → updated$/,
    'a server refusal is named beside the step': /rename Gym → save → a step refused/,
    'a failed save keeps the form': /rename Gym → save → save fails/,
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
});
