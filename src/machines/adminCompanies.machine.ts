import type { SnapshotFrom } from 'xstate';
import { type AdminCompany, type CreateCompanyRequest, type MfaPolicy, createCompanyRequest } from '../contract/admin.ts';
import { createCompany, listCompanies, setCompanyActive, updateCompany } from '../services/admin.ts';
import { adminCollectionMachine } from './adminCollection.ts';
import type { FieldErrors } from './adminForms.ts';

export const COMPANIES_LOAD_ERROR = "We couldn't load the companies. Please try again.";
export const LOGO_STILL_UPLOADING = 'Please wait until the logo has uploaded.';

/** The company form as typed: e-mail domains are one text, split at spaces, commas and new lines. */
export interface CompanyDraft {
  name: string;
  slug: string;
  mfa_policy: MfaPolicy;
  email_domains: string;
  internal_staff: boolean;
  /** The uploaded logo's key; null for no logo, or the logo the company has when it was not set in the console. */
  logo_upload_key: string | null;
}

export const EMPTY_COMPANY_DRAFT: CompanyDraft = {
  name: '',
  slug: '',
  mfa_policy: 'off',
  email_domains: '',
  internal_staff: false,
  logo_upload_key: null,
};

export function draftOf(company: AdminCompany): CompanyDraft {
  return {
    name: company.name,
    slug: company.slug,
    mfa_policy: company.mfa_policy,
    email_domains: company.email_domains.join('\n'),
    internal_staff: company.internal_staff,
    logo_upload_key: company.logo_upload_key,
  };
}

export function domainsOf(text: string): string[] {
  return text.split(/[\s,]+/).filter(Boolean);
}

export function companyRequestOf(draft: CompanyDraft): CreateCompanyRequest {
  return { ...draft, email_domains: domainsOf(draft.email_domains) };
}

/** One message per form field: a refused domain ('email_domains.2') is named on the domains field. */
export function companyFieldErrors(fields: FieldErrors, draft: CompanyDraft): FieldErrors {
  const domains = domainsOf(draft.email_domains);
  const errors: FieldErrors = {};
  for (const [path, message] of Object.entries(fields)) {
    const [field, index] = path.split('.');
    const domain = index === undefined ? undefined : domains[Number(index)];
    errors[field] ??= domain === undefined ? message : `${domain}: ${message}`;
  }
  return errors;
}

export type CompanySetting = { field: 'active'; value: boolean };

/**
 * The admin's companies (issue 13): the list with each company's employee count; a form to create or edit one with
 * its logo; deactivation and reactivation after a confirmation.
 */
export const adminCompaniesMachine = adminCollectionMachine<'adminCompanies', AdminCompany, CompanyDraft, CreateCompanyRequest, AdminCompany, null, CompanySetting>({
  id: 'adminCompanies',
  loadError: COMPANIES_LOAD_ERROR,
  list: listCompanies,
  order: { byText: (company) => company.name },
  nameOf: (company) => company.name,
  form: {
    empty: EMPTY_COMPANY_DRAFT,
    draftOf,
    schema: () => createCompanyRequest,
    requestOf: companyRequestOf,
    create: createCompany,
    update: updateCompany,
    messagesOf: companyFieldErrors,
    image: { keyField: 'logo_upload_key', stillUploading: LOGO_STILL_UPLOADING, urlOf: (company) => company.image_url },
  },
  settings: {
    active: {
      call: setCompanyActive,
      confirms: true,
      notice: (company) => `${company.name} ${company.active ? 'reactivated' : 'deactivated'}.`,
    },
  },
});

export type AdminCompaniesSnapshot = SnapshotFrom<typeof adminCompaniesMachine>;
