import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { type Mock, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Actor, createActor } from 'xstate';
import type { AdminCompany } from '../../src/contract/admin.ts';
import type { AdminSso } from '../../src/contract/sso.ts';
import type { AdminCollectionContext, RecordPageInput } from '../../src/machines/adminCollection.ts';
import {
  COMPANIES_PATH,
  type CompanySso,
  SSO_LOAD_ERROR,
  type SsoDraft,
  adminCompanySsoMachine,
  ssoRequestOf,
} from '../../src/machines/adminCompanySso.machine.ts';
import { type NavigateOptions, setRouter } from '../../src/services/navigation.ts';
import { type AdminCompanySsoActor, AdminCompanySsoView } from '../../src/views/admin/AdminCompanySsoView.tsx';
import { type SentCall, expectFieldMessages, fakeAdminApi } from './adminApi.support.ts';
import { clean, typeInto } from './adminCollection.support.tsx';
import { networkError, serverRefusal } from './httpFailures.support.ts';
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

/**
 * A company's single sign-on (adminCompanySso.machine.ts, a record's page of the admin collection factory), every
 * path of its statechart run against its real view: a first setup, and a change of one already set up.
 */

type Machine = typeof adminCompanySsoMachine;
type Context = AdminCollectionContext<CompanySso, SsoDraft, null>;

const REDIRECT_URI = 'http://localhost:3000/api/v1/sso/callback';
const COMPANY: AdminCompany = {
  id: 7,
  name: 'Northwind',
  slug: 'northwind',
  image_url: null,
  logo_upload_key: null,
  mfa_policy: 'off',
  email_domains: ['contractors.test', 'northwind.test'],
  internal_staff: false,
  active: true,
  deactivated_at: null,
  employee_count: 3,
  created_at: '2026-01-05T09:00:00.000Z',
};
const ISSUER = 'https://northwind.okta.test';
const STORED: AdminSso = {
  issuer: ISSUER,
  client_id: 'life-concierge',
  client_secret_set: true,
  email_domains: ['northwind.test'],
  mode: 'optional',
  redirect_uri: REDIRECT_URI,
  updated_at: '2026-02-01T10:00:00.000Z',
};
const record = (sso: AdminSso | null): CompanySso => ({
  id: COMPANY.id,
  company_name: COMPANY.name,
  company_domains: COMPANY.email_domains,
  sso,
  redirect_uri: REDIRECT_URI,
});
/** The server's answer for a page's record. */
const answerOf = (shown: CompanySso) => ({
  company: { id: shown.id, name: shown.company_name, email_domains: shown.company_domains },
  sso: shown.sso,
  redirect_uri: shown.redirect_uri,
});
const ISSUER_REFUSED = `We could not read the OpenID configuration of ${ISSUER}. Check the issuer’s address.`;

const contextOf = (snapshot: { context: unknown }) => snapshot.context as Context;
const isIn = (snapshot: unknown, state: string) => (snapshot as { matches(value: string): boolean }).matches(state);
const draftOf = (snapshot: { context: unknown }) => contextOf(snapshot).form?.draft;

const model = flowModel(adminCompanySsoMachine, {
  input: { itemId: COMPANY.id } satisfies RecordPageInput,
  events: [
    errorEvent('open', networkError(), 'load fails'),
    { label: 'retry', event: { type: 'RETRY' } },
    doneEvent('open', { item: record(null), choices: null }, 'no SSO yet'),
    doneEvent('open', { item: record(STORED), choices: null }, 'SSO set up'),
    { label: 'type the issuer', event: { type: 'CHANGE', changes: { issuer: ISSUER } } },
    { label: 'type the client ID', event: { type: 'CHANGE', changes: { client_id: 'life-concierge' } } },
    { label: 'type the secret', event: { type: 'CHANGE', changes: { client_secret: 'a-new-secret' } } },
    { label: 'leave out the contractors', event: { type: 'CHANGE', changes: { email_domains: ['northwind.test'] } } },
    { label: 'enforce it', event: { type: 'CHANGE', changes: { mode: 'enforced' } } },
    { label: 'save', event: { type: 'SAVE' } },
    doneEvent('save', record({ ...STORED, mode: 'enforced' }), 'saved'),
    errorEvent('save', serverRefusal(422, `issuer: ${ISSUER_REFUSED}`, { issuer: ISSUER_REFUSED }), 'issuer refused'),
    errorEvent('save', networkError(), 'save fails'),
    { label: 'back to companies', event: { type: 'CANCEL' } },
    { label: 'keep editing', event: { type: 'KEEP_EDITING' } },
    { label: 'discard', event: { type: 'DISCARD' } },
  ],
  offer: (snapshot, { label }) => {
    const context = contextOf(snapshot);
    const draft = draftOf(snapshot);
    const first = context.form?.record?.sso === null;
    const untouched = context.notice === null && clean(context);
    switch (label) {
      case 'no SSO yet':
      case 'SSO set up':
        return context.loadError === null;
      case 'type the issuer':
        return first && draft?.issuer === '' && !clean(context);
      case 'type the client ID':
        return first && draft?.issuer === ISSUER && draft.client_id === '';
      case 'type the secret':
        return draft?.client_id === 'life-concierge' && draft.client_secret === '' && (first || untouched);
      case 'leave out the contractors':
        return first && draft?.client_secret !== '' && draft?.email_domains.length === 2;
      case 'enforce it':
        return !first && draft?.mode === 'optional' && untouched && draft.client_secret === '';
      case 'save':
        // A first setup is sent once filled in (an empty one is checked here first); a change at once.
        return first ? (draft?.issuer === '' && untouched) || draft?.email_domains.length === 1 : draft?.mode === 'enforced' && untouched;
      case 'saved':
        return !first;
      case 'issuer refused':
      case 'save fails':
        return first;
      case 'back to companies':
        if (isIn(snapshot, 'opening') || isIn(snapshot, 'failed')) return true;
        return untouched && (draft?.mode === 'enforced' || draft?.issuer === ISSUER) && context.form?.record?.sso !== undefined && (!first || draft?.client_id === 'life-concierge');
      default:
        return true;
    }
  },
});

let user: UserEvent;
let actor: Actor<Machine>;
let sent: SentCall[];
let navigateTo: Mock<(to: string, options?: NavigateOptions) => unknown>;

const page = () => screen.getByRole('region', { name: /^(Single sign-on|Single sign-on for Northwind)$/, hidden: true });
const field = (name: RegExp) => within(page()).getByLabelText(name);

function expectForm(snapshot: { context: unknown }, { busy }: { busy: boolean }) {
  expect(page()).toHaveAttribute('aria-busy', String(busy));
  const { form, fieldErrors, formError, notice } = contextOf(snapshot);
  const { draft, record: opened } = form!;
  expect(within(page()).getByRole('heading', { level: 1, hidden: true })).toHaveTextContent('Single sign-on for Northwind');
  expect(within(page()).getByText(REDIRECT_URI)).toBeInTheDocument();
  const issuer = field(/^Issuer/);
  const clientId = field(/^Client ID/);
  const secret = field(/^Client secret/);
  expect(issuer).toHaveValue(draft.issuer);
  expect(clientId).toHaveValue(draft.client_id);
  // Write-only: the stored secret is never in the form.
  expect(secret).toHaveValue(draft.client_secret);
  expect(secret).toHaveAttribute('type', 'password');
  expect(secret).toHaveAccessibleDescription(opened?.sso ? expect.stringContaining('Leave this empty to keep it') : expect.stringContaining('never shown again'));
  expectFieldMessages({ issuer, client_id: clientId, client_secret: secret }, fieldErrors);
  for (const domain of COMPANY.email_domains) {
    expect(within(page()).getByRole('checkbox', { name: domain, hidden: true }).matches(':checked')).toBe(draft.email_domains.includes(domain));
  }
  expect(within(page()).getByRole('radio', { name: /^Enforced/, hidden: true }).matches(':checked')).toBe(draft.mode === 'enforced');
  if (notice) expect(within(page()).getByRole('status', { hidden: true })).toHaveTextContent(notice);
  if (formError) expect(within(page()).getByText(formError)).toBeInTheDocument();
  return within(page()).getByRole('button', { name: 'Save single sign-on', hidden: true });
}

const states: StateAssertions<Machine> = {
  opening: () => {
    expect(page()).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByText('Loading')).toBeInTheDocument();
    expect(sent.at(-1)).toEqual({ method: 'GET', path: `admin/companies/${COMPANY.id}/sso`, body: undefined });
  },
  failed: () => {
    expect(screen.getByRole('alert')).toHaveTextContent(SSO_LOAD_ERROR);
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  },
  editing: (snapshot) => {
    expect(expectForm(snapshot, { busy: false })).not.toHaveAttribute('aria-busy');
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(navigateTo).not.toHaveBeenCalled();
  },
  confirmingDiscard: (snapshot) => {
    expectForm(snapshot, { busy: false });
    expect(screen.getByRole('alertdialog', { name: 'Discard your changes?' })).toHaveTextContent('Your changes to this single sign-on have not been saved.');
  },
  left: () => {
    expect(navigateTo).toHaveBeenCalledWith(COMPANIES_PATH, undefined);
  },
  saving: (snapshot) => {
    expect(expectForm(snapshot, { busy: true })).toHaveAttribute('aria-busy', 'true');
    const draft = draftOf(snapshot)!;
    expect(sent.at(-1)).toEqual({ method: 'PUT', path: `admin/companies/${COMPANY.id}/sso`, body: ssoRequestOf(draft) });
    // Left empty, the secret is not sent: the stored one stays.
    if (draft.client_secret === '') expect(sent.at(-1)?.body).not.toHaveProperty('client_secret');
  },
};

const inQuestion = (name: string) => () => user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name }));

const events: EventExecutors<Machine> = {
  ...settlementExecutors(adminCompanySsoMachine, pendingCalls),
  RETRY: () => user.click(screen.getByRole('button', { name: 'Try again' })),
  CHANGE: async ({ event }) => {
    const changes = event.changes as Partial<SsoDraft>;
    if (changes.issuer !== undefined) return typeInto(user, field(/^Issuer/), changes.issuer);
    if (changes.client_id !== undefined) return typeInto(user, field(/^Client ID/), changes.client_id);
    if (changes.client_secret !== undefined) return typeInto(user, field(/^Client secret/), changes.client_secret);
    if (changes.email_domains !== undefined) return user.click(within(page()).getByRole('checkbox', { name: 'contractors.test' }));
    return user.click(within(page()).getByRole('radio', { name: /^Enforced/ }));
  },
  SAVE: () => user.click(within(page()).getByRole('button', { name: 'Save single sign-on' })),
  CANCEL: () => user.click(within(page()).getByRole('button', { name: 'Back to companies' })),
  DISCARD: inQuestion('Discard changes'),
  KEEP_EDITING: inQuestion('Keep editing'),
};

describe('a company’s single sign-on against its page', () => {
  beforeEach(() => {
    user = userEvent.setup();
    pendingCalls.clear();
    navigateTo = vi.fn<(to: string, options?: NavigateOptions) => unknown>();
    setRouter({ navigate: navigateTo });
    sent = fakeAdminApi([
      { method: 'GET', path: /^admin\/companies\/\d+\/sso$/, id: 'open', answer: (opened: { item: CompanySso }) => answerOf(opened.item) },
      { method: 'PUT', path: /^admin\/companies\/\d+\/sso$/, id: 'save', answer: answerOf },
    ]);
    actor = createActor(adminCompanySsoMachine, { input: { itemId: COMPANY.id } }).start();
    render(<AdminCompanySsoView sso={actor as unknown as AdminCompanySsoActor} />);
  });
  afterEach(() => {
    cleanup();
    actor.stop();
    setRouter(null);
  });

  it.each(model.titled)('$title', async ({ path }) => {
    await runPath(path, () => actor.getSnapshot(), states, events);
  }, 60_000);
});

describe('adminCompanySso model coverage', () => {
  it('asserts every state and walks every transition', () => {
    expectFullCoverage(adminCompanySsoMachine, model.paths, states, events);
    expectScenariosWalked(
      model.titled.map(({ title }) => title),
      {
        'an empty first setup is checked before it is sent': /no SSO yet → save → type the issuer/,
        'a first setup is sent with its secret and chosen domains': /leave out the contractors → save → (issuer refused|save fails)$/,
        'a change keeps the stored secret': /SSO set up → enforce it → save → saved$/,
        'a changed page asks before it is left': /→ back to companies → (keep editing|discard)$/,
        'a page that failed to open can still be left': /load fails → back to companies$/,
      },
    );
  });
});
