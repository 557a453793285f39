import {
  type AdminAccount,
  type AdminCompany,
  type AuditQuery,
  type AuditResponse,
  type CreateCompanyRequest,
  type InviteStaffRequest,
  type UpdateCompanyRequest,
  type AccountRole,
  adminAccountResponse,
  adminCompaniesResponse,
  adminCompanyResponse,
  adminStaffResponse,
  auditResponse,
} from '../contract/admin.ts';
import { api } from './http.ts';

/**
 * The console's admin area (src/contract/admin.ts describes each route). A failure is ky's HTTPError, whose
 * fields (fieldErrorsOf) name the inputs at fault (422 bad input, 409 a clash or the last-admin rule).
 */

const companyPath = (companyId: number, action = '') => `admin/companies/${companyId}${action}`;
const staffPath = (accountId: number, action = '') => `admin/staff/${accountId}${action}`;

/** Every company, active or not, by name, with its employee count. */
export async function listCompanies(): Promise<AdminCompany[]> {
  const client = await api();
  return (await client.get('admin/companies').json(adminCompaniesResponse)).companies;
}

export async function fetchCompany(companyId: number): Promise<AdminCompany> {
  const client = await api();
  return (await client.get(companyPath(companyId)).json(adminCompanyResponse)).company;
}

export async function createCompany(company: CreateCompanyRequest): Promise<AdminCompany> {
  const client = await api();
  return (await client.post('admin/companies', { json: company }).json(adminCompanyResponse)).company;
}

/** Changes the fields given; `email_domains` replaces the whole list. */
export async function updateCompany(companyId: number, changes: UpdateCompanyRequest): Promise<AdminCompany> {
  const client = await api();
  return (await client.patch(companyPath(companyId), { json: changes }).json(adminCompanyResponse)).company;
}

/** Deactivates (no sign-ups, no sponsorship, its employees signed out) or reactivates a company. */
export async function setCompanyActive(companyId: number, active: boolean): Promise<AdminCompany> {
  const client = await api();
  const answer = client.post(companyPath(companyId, active ? '/reactivate' : '/deactivate'));
  return (await answer.json(adminCompanyResponse)).company;
}

/** Every concierge and admin, active or not, by name. */
export async function listStaffAccounts(): Promise<AdminAccount[]> {
  const client = await api();
  return (await client.get('admin/staff').json(adminStaffResponse)).staff;
}

export async function fetchStaffAccount(accountId: number): Promise<AdminAccount> {
  const client = await api();
  return (await client.get(staffPath(accountId)).json(adminAccountResponse)).account;
}

/** A new staff account; the invitee is e-mailed a link to choose a password. */
export async function inviteStaff(invitation: InviteStaffRequest): Promise<AdminAccount> {
  const client = await api();
  return (await client.post('admin/staff', { json: invitation }).json(adminAccountResponse)).account;
}

export async function changeRole(accountId: number, role: AccountRole): Promise<AdminAccount> {
  const client = await api();
  return (await client.patch(staffPath(accountId), { json: { role } }).json(adminAccountResponse)).account;
}

/** Deactivates (signed out at once, no sign-in) or reactivates an account. */
export async function setAccountActive(accountId: number, active: boolean): Promise<AdminAccount> {
  const client = await api();
  const answer = client.post(staffPath(accountId, active ? '/reactivate' : '/deactivate'));
  return (await answer.json(adminAccountResponse)).account;
}

/** The audit log, newest first; pass the answer's `next_cursor` as `before` for the next page. */
export async function listAuditEvents(query: AuditQuery = {}): Promise<AuditResponse> {
  const client = await api();
  return client.get('admin/audit', { searchParams: { ...query } }).json(auditResponse);
}
