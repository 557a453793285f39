import type { SnapshotFrom } from 'xstate';
import type { AdminCompany } from '../contract/admin.ts';
import { type CreateScimTokenRequest, SCIM_COMPANY_REQUIRED_ERROR, type ScimToken, createScimTokenRequest } from '../contract/scim.ts';
import { listCompanies } from '../services/admin.ts';
import { createScimToken, listScimTokens, revokeScimToken, rotateScimToken } from '../services/adminScim.ts';
import { adminCollectionMachine } from './adminCollection.ts';
import type { FieldErrors } from './adminForms.ts';

export const SCIM_TOKENS_LOAD_ERROR = "We couldn't load the SCIM tokens. Please try again.";
export const SCIM_TOKEN_FORM_LOAD_ERROR = "We couldn't load the companies. Please try again.";

/** The form as chosen: the company's id as the Select holds it ('' before a choice). */
export interface ScimTokenDraft {
  company_id: string;
}
export const EMPTY_SCIM_TOKEN_DRAFT: ScimTokenDraft = { company_id: '' };

/** What the form offers: the companies, by name. */
export interface ScimTokenChoices {
  companies: Array<Pick<AdminCompany, 'id' | 'name'>>;
}

export type ScimTokenSetting = { field: 'rotate'; value: true } | { field: 'active'; value: false };

/** The token is in this notice and nowhere else: the admin copies it into the directory now. */
export function tokenShownOnce(token: ScimToken): string {
  return `Copy the new SCIM token of ${token.company_name} into the directory now, it is not shown again: ${token.token ?? ''}`;
}

async function openTokenForm(): Promise<{ item: null; choices: ScimTokenChoices }> {
  const companies = await listCompanies();
  return { item: null, choices: { companies: companies.map(({ id, name }) => ({ id, name })) } };
}

/**
 * The companies' SCIM tokens (issue 29): a token per company, made for a chosen company and shown once in the notice;
 * rotating gives the same token a new secret (shown once), revoking ends it; both ask first. The list shows each
 * token's prefix, when it was made and last used.
 */
export const adminScimTokensMachine = adminCollectionMachine<
  'adminScimTokens',
  ScimToken,
  ScimTokenDraft,
  CreateScimTokenRequest,
  ScimToken,
  ScimTokenChoices,
  ScimTokenSetting
>({
  id: 'adminScimTokens',
  loadError: SCIM_TOKENS_LOAD_ERROR,
  list: listScimTokens,
  order: { asListed: true },
  nameOf: (token) => token.company_name,
  form: {
    empty: EMPTY_SCIM_TOKEN_DRAFT,
    schema: () => createScimTokenRequest,
    requestOf: (draft) => ({ company_id: Number(draft.company_id) }),
    create: createScimToken,
    open: { call: openTokenForm, loadError: SCIM_TOKEN_FORM_LOAD_ERROR },
    // The schema's words for a missing id are no help: the field says what to do.
    messagesOf: (errors: FieldErrors, draft) =>
      draft.company_id === '' && errors.company_id ? { ...errors, company_id: SCIM_COMPANY_REQUIRED_ERROR } : errors,
    savedNotice: tokenShownOnce,
  },
  settings: {
    rotate: { call: (tokenId) => rotateScimToken(tokenId), confirms: true, notice: tokenShownOnce },
    active: { call: (tokenId) => revokeScimToken(tokenId), confirms: true, notice: (token) => `The SCIM token of ${token.company_name} is revoked.` },
  },
});

export type AdminScimTokensSnapshot = SnapshotFrom<typeof adminScimTokensMachine>;
