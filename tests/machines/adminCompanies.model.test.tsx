import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Actor, createActor } from 'xstate';
import { type AdminCompany, EMAIL_DOMAIN_ERROR } from '../../src/contract/admin.ts';
import { LOGO_STILL_UPLOADING, adminCompaniesMachine, companyRequestOf } from '../../src/machines/adminCompanies.machine.ts';
import { networkError, serverRefusal } from './httpFailures.support.ts';
import { AdminCompaniesView } from '../../src/views/admin/AdminCompaniesView.tsx';
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

type Machine = typeof adminCompaniesMachine;
type CompaniesSnapshot = ReturnType<Machine['transition']>;

// ---- The companies as the server answers them ----

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
const ACME_WITH_MFA = { ...ACME, mfa_policy: 'required' as const };
const ACME_DEACTIVATED = { ...ACME, active: false, deactivated_at: '2026-03-01T10:00:00.000Z' };
const GLOBEX_REACTIVATED = { ...GLOBEX, active: true, deactivated_at: null };

const SLUG_TAKEN = 'The address newco is used by Newco Holdings';
const networkDown = networkError();

// ---- The model ----

const { paths, titled } = flowModel(adminCompaniesMachine, {
  events: [
    doneEvent('listCompanies', [ACME, GLOBEX], 'list'),
    doneEvent('listCompanies', [], 'no companies'),
    errorEvent('listCompanies', networkDown, 'list fails'),
    { label: 'retry', event: { type: 'RETRY' } },
    { label: 'new company', event: { type: 'NEW' } },
    { label: 'edit Acme', event: { type: 'EDIT', companyId: ACME.id } },
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
    doneEvent('saveCompany', NEWCO, 'created'),
    doneEvent('saveCompany', NEWCO_WITH_LOGO, 'created with a logo'),
    doneEvent('saveCompany', ACME_WITH_MFA, 'updated'),
    errorEvent('saveCompany', serverRefusal(409, SLUG_TAKEN, { slug: SLUG_TAKEN }), 'slug taken'),
    errorEvent('saveCompany', serverRefusal(422, 'Invalid input', { 'email_domains.0': EMAIL_DOMAIN_ERROR }), 'domain refused'),
    errorEvent('saveCompany', networkDown, 'save fails'),
    { label: 'cancel', event: { type: 'CANCEL' } },
    { label: 'deactivate Acme', event: { type: 'TOGGLE_ACTIVE', companyId: ACME.id } },
    { label: 'reactivate Globex', event: { type: 'TOGGLE_ACTIVE', companyId: GLOBEX.id } },
    { label: 'confirm', event: { type: 'CONFIRM' } },
    doneEvent('setCompanyActive', ACME_DEACTIVATED, 'deactivated'),
    doneEvent('setCompanyActive', GLOBEX_REACTIVATED, 'reactivated'),
    errorEvent('setCompanyActive', networkDown, 'toggle fails'),
  ],
  offer: ({ context }, { label }) => {
    const { form, toggling, notice, companies, fieldErrors, formError } = context;
    const draft = form?.draft;
    const isNew = form?.companyId === null;
    const isAcme = form?.companyId === ACME.id;
    const untouched = notice === null && companies !== null && companies.length > 0;
    const clean = Object.keys(fieldErrors).length === 0 && formError === null;
    switch (label) {
      case 'new company':
      case 'edit Acme':
      case 'deactivate Acme':
      case 'reactivate Globex':
        return untouched;
      case 'type the name':
        return isNew && draft?.name === '';
      case 'type a bad slug':
        return isNew && draft?.name === 'Newco' && draft.slug === '';
      case 'fix the slug':
        return draft?.slug === 'New Co' && !clean;
      case 'type the domain':
        return draft?.slug === 'newco' && draft.email_domains === '';
      case 'require MFA':
        return isAcme && draft?.mfa_policy === 'off';
      case 'remove the logo':
        return isAcme && draft?.mfa_policy === 'off' && draft.logo_upload_key !== null;
      case 'logo uploaded':
      case 'logo upload fails':
        return isNew && draft?.email_domains === 'newco.test' && draft.logo_upload_key === null && clean;
      case 'remove the uploaded logo':
        return isNew && draft?.logo_upload_key === PRESIGNED_LOGO.key;
      case 'created':
        return isNew && draft?.logo_upload_key === null;
      case 'created with a logo':
        return isNew && draft?.logo_upload_key !== null;
      case 'save':
        return (
          (isNew && draft?.name === '') ||
          (draft?.slug === 'New Co' && clean) ||
          (isNew && draft?.email_domains === 'newco.test' && formError === null) ||
          (isAcme && draft?.mfa_policy === 'required')
        );
      case 'slug taken':
      case 'domain refused':
        return isNew;
      case 'updated':
      case 'save fails':
        return isAcme;
      case 'cancel':
        // Declining the confirmation, and closing the new company's form before anything is typed.
        return toggling?.id === ACME.id || (isNew && draft?.name === '' && clean);
      case 'deactivated':
      case 'toggle fails':
        return toggling?.id === ACME.id;
      case 'reactivated':
        return toggling?.id === GLOBEX.id;
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
const SAVE_BUTTON = /^(Create company|Save changes)$/;

function expectRows(companies: AdminCompany[]) {
  // An open form or confirmation hides the list from assistive technology (it is modal), not from sight.
  const grid = screen.getByRole('grid', { name: 'Companies', hidden: true });
  if (companies.length === 0) {
    expect(grid).toHaveTextContent('No companies yet. Create the first one.');
    return;
  }
  const rows = within(grid).getAllByRole('row', { hidden: true }).slice(1);
  expect(rows).toHaveLength(companies.length);
  companies.forEach((expected, index) => {
    const row = rows[index] as HTMLElement;
    expect(within(row).getByRole('rowheader', { hidden: true })).toHaveTextContent(`${expected.name}/sign-up/${expected.slug}`);
    const [domains, mfa, employees, status] = within(row).getAllByRole('gridcell', { hidden: true }).map((cell) => cell.textContent);
    expect(domains).toBe(expected.email_domains.join(', ') || 'None');
    expect(mfa).toBe({ off: 'Off', optional: 'Optional', required: 'Required' }[expected.mfa_policy]);
    expect(employees).toBe(String(expected.employee_count));
    expect(status).toMatch(expected.active ? /^Active$/ : /^Deactivated since /);
    const toggle = `${expected.active ? 'Deactivate' : 'Reactivate'} ${expected.name}`;
    expect(within(row).getByRole('button', { name: toggle, hidden: true })).toBeInTheDocument();
  });
}

/** What the list shows in every state: the rows (unless loading or failed), the notice, the busy mark. */
function expectFrame({ context }: CompaniesSnapshot, { busy }: { busy: boolean }) {
  expect(screen.getByRole('region', { name: 'Companies', hidden: true })).toHaveAttribute('aria-busy', String(busy));
  if (context.companies) expectRows(context.companies);
  if (context.notice) expect(screen.getByRole('status', { hidden: true })).toHaveTextContent(context.notice);
  else expect(screen.queryByRole('status', { hidden: true })).not.toBeInTheDocument();
}

/** The open form: what was typed, and each message beside the field it is about. */
function expectForm({ context }: CompaniesSnapshot) {
  const { form, fieldErrors, formError } = context;
  if (!form) throw new Error('No form in the model');
  expect(dialog()).toHaveAccessibleName(form.companyId === null ? 'New company' : 'Edit Acme Corporation');
  const fields = { name: field('Name'), slug: field('Sign-up address'), email_domains: field(/^E-mail domains/) };
  expect(fields.name).toHaveValue(form.draft.name);
  expect(fields.slug).toHaveValue(form.draft.slug);
  expect(fields.email_domains).toHaveValue(form.draft.email_domains);
  expectFieldMessages(fields, fieldErrors);
  expect(within(dialog()).getByRole('radio', { name: new RegExp(`^${form.draft.mfa_policy}`, 'i') })).toBeChecked();
  expect(within(dialog()).getByRole('checkbox', { name: /Internal staff company/ })).not.toBeChecked();
  if (form.imageUrl) expect(within(dialog()).getByRole('img', { name: /^Current logo of/ })).toHaveAttribute('src', form.imageUrl);
  else expect(within(dialog()).queryByRole('img', { name: /^Current logo of/ })).not.toBeInTheDocument();
  if (formError) expect(within(dialog()).getByRole('alert')).toHaveTextContent(formError);
  return within(dialog()).getByRole('button', { name: SAVE_BUTTON });
}

function expectConfirmation({ context }: CompaniesSnapshot) {
  const target = context.toggling;
  if (!target) throw new Error('Nothing to confirm in the model');
  const verb = target.active ? 'Deactivate' : 'Reactivate';
  const confirmation = screen.getByRole('alertdialog', { name: `${verb} ${target.name}?` });
  if (context.formError) expect(within(confirmation).getByRole('alert')).toHaveTextContent(context.formError);
  else expect(within(confirmation).queryByRole('alert')).not.toBeInTheDocument();
  return within(confirmation).getByRole('button', { name: verb });
}

const states: StateAssertions<Machine> = {
  loading: (snapshot) => {
    expectFrame(snapshot, { busy: true });
    expect(screen.getByText('Loading')).toBeInTheDocument();
    expect(sent.at(-1)).toEqual({ method: 'GET', path: 'admin/companies', body: undefined });
  },
  failed: (snapshot) => {
    expectFrame(snapshot, { busy: false });
    expect(screen.getByRole('alert')).toHaveTextContent("We couldn't load the companies. Please try again.");
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  },
  list: (snapshot) => {
    expectFrame(snapshot, { busy: false });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  },
  editing: (snapshot) => {
    expectFrame(snapshot, { busy: false });
    expect(expectForm(snapshot)).not.toHaveAttribute('aria-busy');
  },
  saving: (snapshot) => {
    expectFrame(snapshot, { busy: true });
    expect(expectForm(snapshot)).toHaveAttribute('aria-busy', 'true');
    const { form } = snapshot.context;
    const request = form?.companyId === null ? { method: 'POST', path: 'admin/companies' } : { method: 'PATCH', path: `admin/companies/${form?.companyId}` };
    expect(sent.at(-1)).toEqual({ ...request, body: companyRequestOf(form!.draft) });
  },
  confirming: (snapshot) => {
    expectFrame(snapshot, { busy: false });
    expect(expectConfirmation(snapshot)).not.toHaveAttribute('aria-busy');
  },
  toggling: (snapshot) => {
    expectFrame(snapshot, { busy: true });
    expect(expectConfirmation(snapshot)).toHaveAttribute('aria-busy', 'true');
    const target = snapshot.context.toggling!;
    expect(sent.at(-1)).toEqual({
      method: 'POST',
      path: `admin/companies/${target.id}/${target.active ? 'deactivate' : 'reactivate'}`,
      body: undefined,
    });
  },
};

const typeInto = async (input: HTMLElement, text: string) => {
  await user.clear(input);
  await user.type(input, text);
};

const CHANGE_EXECUTORS: Record<string, () => Promise<void>> = {
  name: () => typeInto(field('Name'), 'Newco'),
  slug: async () => typeInto(field('Sign-up address'), actor.getSnapshot().context.form?.draft.slug === '' ? 'New Co' : 'newco'),
  email_domains: () => typeInto(field(/^E-mail domains/), 'newco.test'),
  mfa_policy: () => user.click(within(dialog()).getByRole('radio', { name: /^Required/ })),
  logo_upload_key: () => user.click(within(dialog()).getByRole('button', { name: 'Remove logo' })),
};

const events: EventExecutors<Machine> = {
  ...settlementExecutors(adminCompaniesMachine, pendingCalls),
  RETRY: () => user.click(screen.getByRole('button', { name: 'Try again' })),
  NEW: () => user.click(screen.getByRole('button', { name: 'New company' })),
  EDIT: () => user.click(screen.getByRole('button', { name: 'Edit Acme Corporation' })),
  CHANGE: ({ event }) => {
    const [changed] = Object.keys(event.changes as object);
    return CHANGE_EXECUTORS[changed!]!();
  },
  ...imageUploadExecutors(() => user, dialog),
  SAVE: () => user.click(within(dialog()).getByRole('button', { name: SAVE_BUTTON })),
  CANCEL: () => {
    const container = screen.queryByRole('alertdialog') ?? dialog();
    return user.click(within(container).getByRole('button', { name: 'Cancel' }));
  },
  TOGGLE_ACTIVE: ({ event }) =>
    user.click(screen.getByRole('button', { name: event.companyId === ACME.id ? 'Deactivate Acme Corporation' : 'Reactivate Globex' })),
  CONFIRM: () => {
    const confirmation = screen.getByRole('alertdialog');
    return user.click(within(confirmation).getByRole('button', { name: /^(Deactivate|Reactivate)$/ }));
  },
};

function openScreen() {
  user = userEvent.setup();
  pendingCalls.clear();
  FakeXMLHttpRequest.sent = [];
  vi.stubGlobal('XMLHttpRequest', FakeXMLHttpRequest);
  sent = fakeAdminApi([
    { method: 'GET', path: /^admin\/companies$/, id: 'listCompanies', answer: (companies: AdminCompany[]) => ({ companies }) },
    { method: 'POST', path: /^admin\/companies$/, id: 'saveCompany', answer: (saved: AdminCompany) => ({ company: saved }) },
    { method: 'PATCH', path: /^admin\/companies\/\d+$/, id: 'saveCompany', answer: (saved: AdminCompany) => ({ company: saved }) },
    { method: 'POST', path: /^admin\/companies\/\d+\/(de|re)activate$/, id: 'setCompanyActive', answer: (changed: AdminCompany) => ({ company: changed }) },
  ]);
  actor = createActor(adminCompaniesMachine).start();
  render(<AdminCompaniesView companies={actor} />);
}

function closeScreen() {
  cleanup();
  actor.stop();
  vi.unstubAllGlobals();
}

describe('admin companies machine against the companies screen', () => {
  beforeEach(openScreen);
  afterEach(closeScreen);

  it.each(titled)('$title', async ({ path }) => {
    await runPath(path, () => actor.getSnapshot(), states, events);
  });
});

describe("the form's logo, an upload that is a child actor of the screen's machine", () => {
  beforeEach(async () => {
    openScreen();
    await pendingCalls.settle(doneEvent('listCompanies', [ACME, GLOBEX], 'list').event);
    await user.click(screen.getByRole('button', { name: 'New company' }));
    await typeInto(field('Name'), 'Newco');
    await typeInto(field('Sign-up address'), 'newco');
    await typeInto(field(/^E-mail domains/), 'newco.test');
  });
  afterEach(closeScreen);

  itWaitsForTheFormImage({
    saves: 'company',
    dialog,
    user: () => user,
    saveButton: SAVE_BUTTON,
    stillUploading: LOGO_STILL_UPLOADING,
    isEditing: () => actor.getSnapshot().matches('editing'),
    sent: () => sent,
    savedWith: { path: 'admin/companies', body: { logo_upload_key: PRESIGNED_LOGO.key } },
    afterSave: async () => {
      await pendingCalls.settle(doneEvent('saveCompany', NEWCO_WITH_LOGO, 'created with a logo').event);
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    },
    afterFailure: () => expect(within(dialog()).getByText('Error uploading logo.png')).toBeInTheDocument(),
  });
});

describe('admin companies model coverage', () => {
  it('asserts every state and executes every event', () => {
    expectFullCoverage(adminCompaniesMachine, paths, states, events);
  });

  it('walks the paths the rules call for', () => {
    expectScenariosWalked(
      titled.map(({ title }) => title),
      {
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
        'deactivation after a confirmation': /deactivate Acme → confirm → deactivated$/,
        'a refused deactivation is shown in the confirmation': /deactivate Acme → confirm → toggle fails$/,
        'reactivation': /reactivate Globex → confirm → reactivated$/,
        'cancel': /deactivate Acme → cancel$/,
      },
    );
  });
});
