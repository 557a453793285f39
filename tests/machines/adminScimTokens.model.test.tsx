/**
 * The admin's SCIM tokens screen (issue 29), an admin collection (machines/adminCollection.ts) run through every
 * transition of its statechart against its real view (adminCollection.support.tsx).
 */
import { screen, within } from '@testing-library/react';
import { expect } from 'vitest';
import { SCIM_COMPANY_REQUIRED_ERROR, SCIM_TOKEN_EXISTS_ERROR, type ScimToken } from '../../src/contract/scim.ts';
import {
  SCIM_TOKENS_LOAD_ERROR,
  type ScimTokenChoices,
  type ScimTokenDraft,
  adminScimTokensMachine,
  tokenShownOnce,
} from '../../src/machines/adminScimTokens.machine.ts';
import { type AdminScimTokensActor, AdminScimTokensView } from '../../src/views/admin/AdminScimTokensView.tsx';
import { COMPANIES, type Confirmation, clean, describeCollection, rowsOf, untouched } from './adminCollection.support.tsx';
import { networkError, serverRefusal } from './httpFailures.support.ts';
import { doneEvent, errorEvent } from './modelPaths.support.ts';

const networkDown = networkError();

const CHOICES: ScimTokenChoices = { companies: COMPANIES.map(({ id, name }) => ({ id, name })) };

const token = (fields: Partial<ScimToken> & Pick<ScimToken, 'id' | 'company_id' | 'company_name'>): ScimToken => ({
  prefix: 'lcscim_AbC123',
  created_at: '2026-03-01T09:00:00.000Z',
  rotated_at: null,
  last_used_at: null,
  revoked_at: null,
  ...fields,
});
const ACME_TOKEN = token({ id: 10, company_id: 1, company_name: 'Acme', last_used_at: '2026-03-02T10:00:00.000Z' });
const OLD_TOKEN = token({ id: 9, company_id: 1, company_name: 'Acme', prefix: 'lcscim_OlD999', revoked_at: '2026-02-20T09:00:00.000Z' });
const GLOBEX_TOKEN = token({ id: 11, company_id: 2, company_name: 'Globex', prefix: 'lcscim_GlO456', token: 'lcscim_GlO456-the-whole-secret' });
const ROTATED = { ...ACME_TOKEN, prefix: 'lcscim_NeW789', rotated_at: '2026-03-03T09:00:00.000Z', last_used_at: null, token: 'lcscim_NeW789-the-whole-secret' };
const REVOKED = { ...ACME_TOKEN, revoked_at: '2026-03-03T09:00:00.000Z' };
const tokenAnswer = (changed: ScimToken) => ({ scim_token: changed });

describeCollection<ScimToken, ScimTokenDraft>({
  machine: adminScimTokensMachine,
  heading: 'SCIM provisioning',
  view: (actor) => <AdminScimTokensView tokens={actor as unknown as AdminScimTokensActor} />,
  routes: [
    { method: 'GET', path: /^admin\/scim_tokens$/, id: 'list', answer: (scimTokens: ScimToken[]) => ({ scim_tokens: scimTokens }) },
    { method: 'GET', path: /^admin\/companies$/, id: 'open', answer: () => ({ companies: COMPANIES }) },
    { method: 'POST', path: /^admin\/scim_tokens$/, id: 'save', answer: tokenAnswer },
    { method: 'POST', path: /^admin\/scim_tokens\/\d+\/(rotate|revoke)$/, id: 'change', answer: tokenAnswer },
  ],
  events: [
    doneEvent('list', [ACME_TOKEN, OLD_TOKEN], 'list'),
    doneEvent('list', [], 'no tokens'),
    errorEvent('list', networkDown, 'list fails'),
    { label: 'retry', event: { type: 'RETRY' } },
    { label: 'new token', event: { type: 'NEW' } },
    doneEvent('open', { item: null, choices: CHOICES }, 'form opens'),
    errorEvent('open', networkDown, 'form fails to open'),
    { label: 'choose Globex', event: { type: 'CHANGE', changes: { company_id: '2' } } },
    { label: 'create', event: { type: 'SAVE' } },
    doneEvent('save', GLOBEX_TOKEN, 'token made'),
    errorEvent('save', serverRefusal(409, SCIM_TOKEN_EXISTS_ERROR, { company_id: SCIM_TOKEN_EXISTS_ERROR }), 'company has a token'),
    errorEvent('save', networkDown, 'creation fails'),
    { label: 'cancel', event: { type: 'CANCEL' } },
    { label: 'keep editing', event: { type: 'KEEP_EDITING' } },
    { label: 'discard', event: { type: 'DISCARD' } },
    { label: 'rotate Acme', event: { type: 'SET', itemId: ACME_TOKEN.id, setting: { field: 'rotate', value: true } } },
    { label: 'revoke Acme', event: { type: 'SET', itemId: ACME_TOKEN.id, setting: { field: 'active', value: false } } },
    { label: 'confirm', event: { type: 'CONFIRM' } },
    doneEvent('change', ROTATED, 'rotated'),
    doneEvent('change', REVOKED, 'revoked'),
    errorEvent('change', networkDown, 'change fails'),
  ],
  offer: ({ context }, { label }) => {
    const { form, change, fieldErrors, formError } = context;
    const draft = form?.draft;
    switch (label) {
      case 'new token':
      case 'rotate Acme':
      case 'revoke Acme':
        return untouched(context);
      case 'choose Globex':
        return draft?.company_id === '' && Object.keys(fieldErrors).length > 0;
      case 'create':
        return (draft?.company_id === '' && clean(context)) || (draft?.company_id === '2' && formError === null && Object.keys(fieldErrors).length === 0);
      case 'rotated':
        return change?.field === 'rotate';
      case 'revoked':
        return change?.field === 'active';
      case 'cancel':
        return (change?.field === 'active') || (draft?.company_id === '' && clean(context)) || (draft?.company_id === '2' && !clean(context));
      default:
        return true;
    }
  },
  loadError: SCIM_TOKENS_LOAD_ERROR,
  loads: ['GET admin/scim_tokens'],
  newLabel: 'New SCIM token',
  opens: () => ['GET admin/companies'],
  expectRows: (tokens, { context }) => {
    if (tokens.length === 0) {
      expect(screen.getByText(/No SCIM tokens yet/)).toBeInTheDocument();
      return;
    }
    const rows = rowsOf('SCIM tokens');
    expect(rows).toHaveLength(tokens.length);
    tokens.forEach((entry, index) => {
      const row = rows[index] as HTMLElement;
      expect(within(row).getByRole('rowheader', { hidden: true })).toHaveTextContent(entry.company_name);
      expect(row).toHaveTextContent(`${entry.prefix}…`);
      // The secret itself is only ever in the notice.
      if (entry.token) expect(row).not.toHaveTextContent(entry.token);
      expect(row).toHaveTextContent(entry.last_used_at ? 'Mar 2, 2026' : 'Never');
      expect(row).toHaveTextContent(entry.revoked_at === null ? 'Active' : 'Revoked');
      const rotate = within(row).queryByRole('button', { name: `Rotate the token of ${entry.company_name}`, hidden: true });
      // A revoked token is kept for the record, and can be neither rotated nor revoked again.
      if (entry.revoked_at === null) expect(rotate).toBeInTheDocument();
      else expect(rotate).toBeNull();
    });
    // A token just made or rotated is shown once, in full, in the notice; a revocation says so.
    const madeNow = tokens.find((entry) => entry.token !== undefined);
    if (context.notice) expect(context.notice).toBe(madeNow ? tokenShownOnce(madeNow) : 'The SCIM token of Acme is revoked.');
  },
  expectForm: ({ context: { form, fieldErrors } }, dialog) => {
    expect(dialog).toHaveAccessibleName('New SCIM token');
    const select = within(dialog).getByRole('button', { name: /Company/ });
    const chosen = COMPANIES.find((entry) => String(entry.id) === form!.draft.company_id);
    if (chosen) expect(select).toHaveTextContent(chosen.name);
    if (fieldErrors.company_id) expect(within(dialog).getByText(fieldErrors.company_id)).toBeInTheDocument();
    else expect(within(dialog).queryByText(SCIM_COMPANY_REQUIRED_ERROR)).not.toBeInTheDocument();
  },
  saveButton: /^Create token$/,
  saved: (form) => ({ method: 'POST', path: 'admin/scim_tokens', body: { company_id: Number(form.draft.company_id) } }),
  unsaved: 'No token has been made yet.',
  changed: (change) => ({ method: 'POST', path: `admin/scim_tokens/${change.itemId}/${change.field === 'rotate' ? 'rotate' : 'revoke'}` }),
  confirmation: (item: ScimToken, change): Confirmation =>
    change.field === 'rotate'
      ? { title: `Rotate the SCIM token of ${item.company_name}?`, confirmLabel: 'Rotate' }
      : { title: `Revoke the SCIM token of ${item.company_name}?`, confirmLabel: 'Revoke' },
  executors: (user, dialog) => ({
    CHANGE: async () => {
      await user().click(within(dialog()).getByRole('button', { name: /Company/ }));
      await user().click(screen.getByRole('option', { name: 'Globex' }));
    },
    SET: ({ event }) => {
      const { field } = event.setting as { field: string };
      return user().click(screen.getByRole('button', { name: `${field === 'rotate' ? 'Rotate' : 'Revoke'} the token of Acme` }));
    },
  }),
  scenarios: {
    'failure and retry': /list fails → retry$/,
    'a token needs a company': /new token → form opens → create → choose Globex/,
    'a token is made and shown once': /choose Globex → create → token made$/,
    'a company with a token is told to rotate it': /create → company has a token/,
    'rotation after a confirmation shows the new secret once': /rotate Acme → confirm → rotated$/,
    'revocation after a confirmation': /revoke Acme → confirm → revoked$/,
    'declining the confirmation': /revoke Acme → cancel$/,
  },
});
