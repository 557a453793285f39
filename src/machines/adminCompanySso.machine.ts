import { type PutSsoRequest, type SsoMode, putSsoRequest } from '../contract/sso.ts';
import { fetchCompanySso, saveCompanySso } from '../services/adminSso.ts';
import type { AdminSso, AdminSsoResponse } from '../contract/sso.ts';
import { adminCollectionMachine } from './adminCollection.ts';

export const SSO_LOAD_ERROR = "We couldn't load this company's single sign-on. Please try again.";
export const COMPANIES_PATH = '/console/admin/companies';
export const companySsoPath = (companyId: number) => `${COMPANIES_PATH}/${companyId}/sso`;

/** A company's single sign-on as its page shows it: the company's name and domains, and its SSO (null: none yet). */
export interface CompanySso {
  id: number;
  company_name: string;
  company_domains: string[];
  sso: AdminSso | null;
  redirect_uri: string;
}

/** The form as typed. The secret is write-only: empty keeps the stored one. */
export interface SsoDraft {
  issuer: string;
  client_id: string;
  client_secret: string;
  email_domains: string[];
  mode: SsoMode;
}

export function ssoDraftOf({ sso, company_domains }: CompanySso): SsoDraft {
  return {
    issuer: sso?.issuer ?? '',
    client_id: sso?.client_id ?? '',
    client_secret: '',
    // A first setup proposes every domain of the company.
    email_domains: sso?.email_domains ?? company_domains,
    mode: sso?.mode ?? 'optional',
  };
}

export function ssoRequestOf({ client_secret, ...draft }: SsoDraft): PutSsoRequest {
  return { ...draft, ...(client_secret === '' ? {} : { client_secret }) };
}

function recordOf({ company, sso, redirect_uri }: AdminSsoResponse): CompanySso {
  return { id: company.id, company_name: company.name, company_domains: company.email_domains, sso, redirect_uri };
}

async function openCompanySso(companyId: number | null): Promise<{ item: CompanySso; choices: null }> {
  if (companyId === null) throw new Error('A company’s single sign-on is opened with its company');
  return { item: recordOf(await fetchCompanySso(companyId)), choices: null };
}

/**
 * A company's single sign-on (issue 29), a record's page of the admin collection factory: the identity provider's
 * issuer, client ID and secret (write-only), the company's domains it signs in, and whether it is optional or
 * enforced. The page opens with the company; a save stays on it and says so.
 */
export const adminCompanySsoMachine = adminCollectionMachine<'adminCompanySso', CompanySso, SsoDraft, PutSsoRequest>({
  id: 'adminCompanySso',
  loadError: SSO_LOAD_ERROR,
  page: { back: COMPANIES_PATH, addressOf: (record) => companySsoPath(record.id) },
  nameOf: (record) => `${record.company_name}’s single sign-on`,
  form: {
    draftOf: ssoDraftOf,
    schema: () => putSsoRequest,
    requestOf: ssoRequestOf,
    update: async (companyId, request) => recordOf(await saveCompanySso(companyId, request)),
    open: { call: openCompanySso, loadError: SSO_LOAD_ERROR },
  },
});
