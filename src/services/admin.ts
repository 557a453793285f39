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
import { consoleCall } from './console.ts';
import { api } from './http.ts';

/**
 * The console's admin area (src/contract/admin.ts describes each route). A failure is a ConsoleCallError whose
 * `fields` name the inputs at fault (422 bad input, 409 a clash or the last-admin rule).
 */

const companyPath = (companyId: number, action = '') => `admin/companies/${companyId}${action}`;
const staffPath = (accountId: number, action = '') => `admin/staff/${accountId}${action}`;

/** Every company, active or not, by name, with its employee count. */
export async function listCompanies(): Promise<AdminCompany[]> {
  return (await consoleCall(() => api().get('admin/companies'), adminCompaniesResponse)).companies;
}

export async function fetchCompany(companyId: number): Promise<AdminCompany> {
  return (await consoleCall(() => api().get(companyPath(companyId)), adminCompanyResponse)).company;
}

export async function createCompany(company: CreateCompanyRequest): Promise<AdminCompany> {
  return (await consoleCall(() => api().post('admin/companies', { json: company }), adminCompanyResponse)).company;
}

/** Changes the fields given; `email_domains` replaces the whole list. */
export async function updateCompany(companyId: number, changes: UpdateCompanyRequest): Promise<AdminCompany> {
  return (await consoleCall(() => api().patch(companyPath(companyId), { json: changes }), adminCompanyResponse)).company;
}

/** Deactivates (no sign-ups, no sponsorship, its employees signed out) or reactivates a company. */
export async function setCompanyActive(companyId: number, active: boolean): Promise<AdminCompany> {
  const send = () => api().post(companyPath(companyId, active ? '/reactivate' : '/deactivate'));
  return (await consoleCall(send, adminCompanyResponse)).company;
}

/** Every concierge and admin, active or not, by name. */
export async function listStaffAccounts(): Promise<AdminAccount[]> {
  return (await consoleCall(() => api().get('admin/staff'), adminStaffResponse)).staff;
}

export async function fetchStaffAccount(accountId: number): Promise<AdminAccount> {
  return (await consoleCall(() => api().get(staffPath(accountId)), adminAccountResponse)).account;
}

/** A new staff account; the invitee is e-mailed a link to choose a password. */
export async function inviteStaff(invitation: InviteStaffRequest): Promise<AdminAccount> {
  return (await consoleCall(() => api().post('admin/staff', { json: invitation }), adminAccountResponse)).account;
}

export async function changeRole(accountId: number, role: AccountRole): Promise<AdminAccount> {
  return (await consoleCall(() => api().patch(staffPath(accountId), { json: { role } }), adminAccountResponse)).account;
}

/** Deactivates (signed out at once, no sign-in) or reactivates an account. */
export async function setAccountActive(accountId: number, active: boolean): Promise<AdminAccount> {
  const send = () => api().post(staffPath(accountId, active ? '/reactivate' : '/deactivate'));
  return (await consoleCall(send, adminAccountResponse)).account;
}

/** The audit log, newest first; pass the answer's `next_cursor` as `before` for the next page. */
export function listAuditEvents(query: AuditQuery = {}): Promise<AuditResponse> {
  return consoleCall(() => api().get('admin/audit', { searchParams: { ...query } }), auditResponse);
}
