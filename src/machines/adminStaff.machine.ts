import { type SnapshotFrom, assertEvent, assign, fromPromise, setup } from 'xstate';
import { type AccountRole, type AdminAccount, type InviteStaffRequest, inviteStaffRequest } from '../contract/admin.ts';
import { changeRole, inviteStaff, listStaffAccounts, setAccountActive } from '../services/admin.ts';
import { type FieldErrors, errorOf, failureOf, fieldErrorsOfIssues, refusalOf, upsertSorted, withoutErrorsFor } from './adminForms.ts';

export const STAFF_LOAD_ERROR = "We couldn't load the staff. Please try again.";

export const EMPTY_INVITATION: InviteStaffRequest = { email: '', first_name: '', last_name: '', role: 'concierge' };

export interface AdminStaffContext {
  staff: AdminAccount[] | null;
  loadError: string | null;
  /** The invitation being typed, kept as it is when the server refuses it. */
  invitation: InviteStaffRequest | null;
  /** The role change being sent. */
  roleChange: { accountId: number; role: AccountRole } | null;
  /** The account whose deactivation or reactivation awaits confirmation (or is being sent). */
  toggling: AdminAccount | null;
  fieldErrors: FieldErrors;
  /** A refusal that names no field, e.g. the last-admin rule. */
  formError: string | null;
  notice: string | null;
}

export type AdminStaffEvent =
  | { type: 'RETRY' }
  | { type: 'INVITE' }
  | { type: 'CHANGE'; changes: Partial<InviteStaffRequest> }
  | { type: 'SEND' }
  | { type: 'CANCEL' }
  | { type: 'CHANGE_ROLE'; accountId: number; role: AccountRole }
  | { type: 'TOGGLE_ACTIVE'; accountId: number }
  | { type: 'CONFIRM' };

const byName = (account: AdminAccount) => account.full_name;

function accountIn(staff: AdminAccount[] | null, accountId: number): AdminAccount | null {
  return staff?.find((account) => account.id === accountId) ?? null;
}

/**
 * The admin's staff (issue 13): every concierge and admin; an invitation form checked with the contract's schema
 * (a clash of e-mail addresses is shown on the e-mail field); a role change per account; deactivation and
 * reactivation after a confirmation. The server's last-admin refusal is shown as it words it.
 */
export const adminStaffMachine = setup({
  types: {
    context: {} as AdminStaffContext,
    events: {} as AdminStaffEvent,
  },
  actors: {
    listStaff: fromPromise<AdminAccount[]>(() => listStaffAccounts()),
    inviteStaff: fromPromise<AdminAccount, InviteStaffRequest>(({ input }) => inviteStaff(input)),
    changeRole: fromPromise<AdminAccount, { accountId: number; role: AccountRole }>(({ input }) =>
      changeRole(input.accountId, input.role),
    ),
    setAccountActive: fromPromise<AdminAccount, { accountId: number; active: boolean }>(({ input }) =>
      setAccountActive(input.accountId, input.active),
    ),
  },
  guards: {
    isValid: ({ context }) => inviteStaffRequest.safeParse(context.invitation).success,
    isNewRole: ({ context, event }) => {
      assertEvent(event, 'CHANGE_ROLE');
      return accountIn(context.staff, event.accountId)?.role !== event.role;
    },
  },
  actions: {
    storeStaff: assign((_, staff: AdminAccount[]) => ({ staff, loadError: null })),
    clearLoadError: assign({ loadError: null }),
    showLoadError: assign({ loadError: STAFF_LOAD_ERROR }),
    openInvitation: assign({ invitation: EMPTY_INVITATION, fieldErrors: {}, formError: null, notice: null }),
    change: assign(({ context, event }) => {
      assertEvent(event, 'CHANGE');
      if (!context.invitation) return {};
      const fieldErrors = withoutErrorsFor(context.fieldErrors, Object.keys(event.changes));
      return { invitation: { ...context.invitation, ...event.changes }, fieldErrors };
    }),
    showInvalidFields: assign(({ context }) => {
      const checked = inviteStaffRequest.safeParse(context.invitation);
      return { fieldErrors: checked.success ? {} : fieldErrorsOfIssues(checked.error.issues), formError: null };
    }),
    clearErrors: assign({ fieldErrors: {}, formError: null, notice: null }),
    showFailure: assign((_, error: unknown) => failureOf(error)),
    showRefusal: assign((_, error: unknown) => ({ formError: refusalOf(error) })),
    storeInvited: assign(({ context }, account: AdminAccount) => ({
      staff: upsertSorted(context.staff ?? [], account, byName),
      invitation: null,
      notice: `${account.full_name} is invited: they have been e-mailed a link to choose a password.`,
    })),
    askForRole: assign(({ event }) => {
      assertEvent(event, 'CHANGE_ROLE');
      return { roleChange: { accountId: event.accountId, role: event.role } };
    }),
    storeChanged: assign(({ context }, account: AdminAccount) => ({
      staff: upsertSorted(context.staff ?? [], account, byName),
      roleChange: null,
      toggling: null,
      notice: `${account.full_name} is now ${account.active ? 'an active' : 'a deactivated'} ${account.role}.`,
    })),
    forgetRoleChange: assign({ roleChange: null }),
    askToToggle: assign(({ context, event }) => {
      assertEvent(event, 'TOGGLE_ACTIVE');
      return { toggling: accountIn(context.staff, event.accountId), formError: null, notice: null };
    }),
    close: assign({ invitation: null, toggling: null, fieldErrors: {}, formError: null }),
  },
}).createMachine({
  id: 'adminStaff',
  context: {
    staff: null,
    loadError: null,
    invitation: null,
    roleChange: null,
    toggling: null,
    fieldErrors: {},
    formError: null,
    notice: null,
  },
  initial: 'loading',
  states: {
    loading: {
      tags: 'busy',
      entry: 'clearLoadError',
      invoke: {
        id: 'listStaff',
        src: 'listStaff',
        onDone: { target: 'list', actions: { type: 'storeStaff', params: ({ event }) => event.output } },
        onError: { target: 'failed', actions: 'showLoadError' },
      },
    },
    failed: {
      on: { RETRY: 'loading' },
    },
    list: {
      on: {
        INVITE: { target: 'inviting', actions: 'openInvitation' },
        CHANGE_ROLE: { guard: 'isNewRole', target: 'changingRole', actions: ['clearErrors', 'askForRole'] },
        TOGGLE_ACTIVE: { target: 'confirming', actions: 'askToToggle' },
      },
    },
    inviting: {
      on: {
        CHANGE: { actions: 'change' },
        SEND: [{ guard: 'isValid', target: 'sendingInvite', actions: 'clearErrors' }, { actions: 'showInvalidFields' }],
        CANCEL: { target: 'list', actions: 'close' },
      },
    },
    sendingInvite: {
      tags: 'busy',
      invoke: {
        id: 'inviteStaff',
        src: 'inviteStaff',
        input: ({ context }) => context.invitation ?? EMPTY_INVITATION,
        onDone: { target: 'list', actions: { type: 'storeInvited', params: ({ event }) => event.output } },
        onError: { target: 'inviting', actions: { type: 'showFailure', params: errorOf } },
      },
    },
    changingRole: {
      tags: 'busy',
      invoke: {
        id: 'changeRole',
        src: 'changeRole',
        input: ({ context }) => context.roleChange ?? { accountId: 0, role: 'concierge' },
        onDone: { target: 'list', actions: { type: 'storeChanged', params: ({ event }) => event.output } },
        onError: { target: 'list', actions: ['forgetRoleChange', { type: 'showRefusal', params: errorOf }] },
      },
    },
    confirming: {
      on: {
        CONFIRM: { target: 'toggling', actions: 'clearErrors' },
        CANCEL: { target: 'list', actions: 'close' },
      },
    },
    toggling: {
      tags: 'busy',
      invoke: {
        id: 'setAccountActive',
        src: 'setAccountActive',
        input: ({ context }) => ({ accountId: context.toggling?.id ?? 0, active: context.toggling?.active === false }),
        onDone: { target: 'list', actions: { type: 'storeChanged', params: ({ event }) => event.output } },
        onError: { target: 'confirming', actions: { type: 'showRefusal', params: errorOf } },
      },
    },
  },
});

export type AdminStaffSnapshot = SnapshotFrom<typeof adminStaffMachine>;
