import type { SnapshotFrom } from 'xstate';
import { type AccountRole, type AdminAccount, type AdminCompany, type InviteStaffRequest, inviteStaffRequest } from '../contract/admin.ts';
import { changeRole, inviteStaff, listCompanies, listStaffAccounts, setAccountActive } from '../services/admin.ts';
import { adminCollectionMachine } from './adminCollection.ts';

export const STAFF_LOAD_ERROR = "We couldn't load the staff. Please try again.";
export const INVITATION_OPEN_ERROR = "We couldn't load the companies for the invitation. Please try again.";

export const EMPTY_INVITATION: InviteStaffRequest = { email: '', first_name: '', last_name: '', role: 'concierge', company_id: null };

/** The companies an employer admin may be invited for: the active ones, as the invitation form offers them. */
export interface InvitationChoices {
  companies: Array<Pick<AdminCompany, 'id' | 'name'>>;
}

async function openInvitation(): Promise<{ item: null; choices: InvitationChoices }> {
  const companies = await listCompanies();
  return { item: null, choices: { companies: companies.filter((company) => company.active).map(({ id, name }) => ({ id, name })) } };
}

/** What a save sends: a company only with the role that reads one. */
function invitationRequestOf(invitation: InviteStaffRequest): InviteStaffRequest {
  const { company_id: companyId, ...fields } = invitation;
  return fields.role === 'employer_admin' ? { ...fields, company_id: companyId } : fields;
}

export type StaffSetting = { field: 'role'; value: AccountRole } | { field: 'active'; value: boolean };

const statusOf = (account: AdminAccount) => `${account.full_name} is now ${account.active ? 'an active' : 'a deactivated'} ${account.role}.`;

/**
 * The admin's staff (issue 13): every concierge, admin and employer admin; an invitation form, which loads the
 * companies an employer admin may report on (issue 29 part 3; a clash of e-mail addresses is shown on the e-mail field); a role change per account; deactivation and reactivation after a confirmation. The server's
 * last-admin refusal is shown as it words it.
 */
export const adminStaffMachine = adminCollectionMachine<'adminStaff', AdminAccount, InviteStaffRequest, InviteStaffRequest, AdminAccount, InvitationChoices, StaffSetting>({
  id: 'adminStaff',
  loadError: STAFF_LOAD_ERROR,
  list: listStaffAccounts,
  order: { byText: (account) => account.full_name },
  nameOf: (account) => account.full_name,
  form: {
    empty: EMPTY_INVITATION,
    schema: () => inviteStaffRequest,
    requestOf: invitationRequestOf,
    create: inviteStaff,
    open: { call: openInvitation, loadError: INVITATION_OPEN_ERROR },
    savedNotice: (account) => `${account.full_name} is invited: they have been e-mailed a link to choose a password.`,
  },
  settings: {
    role: { call: changeRole, notice: statusOf },
    active: { call: setAccountActive, confirms: true, notice: statusOf },
  },
});

export type AdminStaffSnapshot = SnapshotFrom<typeof adminStaffMachine>;
