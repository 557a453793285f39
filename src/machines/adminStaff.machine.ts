import type { SnapshotFrom } from 'xstate';
import { type AccountRole, type AdminAccount, type InviteStaffRequest, inviteStaffRequest } from '../contract/admin.ts';
import { changeRole, inviteStaff, listStaffAccounts, setAccountActive } from '../services/admin.ts';
import { adminCollectionMachine } from './adminCollection.ts';

export const STAFF_LOAD_ERROR = "We couldn't load the staff. Please try again.";

export const EMPTY_INVITATION: InviteStaffRequest = { email: '', first_name: '', last_name: '', role: 'concierge' };

export type StaffSetting = { field: 'role'; value: AccountRole } | { field: 'active'; value: boolean };

const statusOf = (account: AdminAccount) => `${account.full_name} is now ${account.active ? 'an active' : 'a deactivated'} ${account.role}.`;

/**
 * The admin's staff (issue 13): every concierge and admin; an invitation form (a clash of e-mail addresses is shown
 * on the e-mail field); a role change per account; deactivation and reactivation after a confirmation. The server's
 * last-admin refusal is shown as it words it.
 */
export const adminStaffMachine = adminCollectionMachine<'adminStaff', AdminAccount, InviteStaffRequest, InviteStaffRequest, AdminAccount, null, StaffSetting>({
  id: 'adminStaff',
  loadError: STAFF_LOAD_ERROR,
  list: listStaffAccounts,
  order: { byText: (account) => account.full_name },
  nameOf: (account) => account.full_name,
  form: {
    empty: EMPTY_INVITATION,
    schema: () => inviteStaffRequest,
    requestOf: (invitation) => invitation,
    create: inviteStaff,
    savedNotice: (account) => `${account.full_name} is invited: they have been e-mailed a link to choose a password.`,
  },
  settings: {
    role: { call: changeRole, notice: statusOf },
    active: { call: setAccountActive, confirms: true, notice: statusOf },
  },
});

export type AdminStaffSnapshot = SnapshotFrom<typeof adminStaffMachine>;
