import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Actor, createActor } from 'xstate';
import type { AdminAccount } from '../../src/contract/admin.ts';
import { adminStaffMachine } from '../../src/machines/adminStaff.machine.ts';
import { networkError, serverRefusal } from './httpFailures.support.ts';
import { AdminStaffView } from '../../src/views/admin/AdminStaffView.tsx';
import { type SentCall, expectFieldMessages, fakeAdminApi } from './adminApi.support.ts';
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

type Machine = typeof adminStaffMachine;
type StaffSnapshot = ReturnType<Machine['transition']>;

// ---- The staff as the server answers them (the server's words restated, so the machine is not its own judge) ----

const account = (id: number, first: string, last: string, fields: Partial<AdminAccount> = {}): AdminAccount => ({
  id,
  email: `${first.toLowerCase()}@lifeconcierge.test`,
  first_name: first,
  last_name: last,
  full_name: `${first} ${last}`,
  role: 'concierge',
  active: true,
  deactivated_at: null,
  created_at: '2026-01-05T09:00:00.000Z',
  ...fields,
});

const ALEX = account(1, 'Alex', 'Admin', { role: 'admin' });
const CASEY = account(2, 'Casey', 'Concierge');
const DANA = account(3, 'Dana', 'Departed', { active: false, deactivated_at: '2026-02-01T10:00:00.000Z' });
const NICO = account(4, 'Nico', 'Newhire', { email: 'nico@newco.test', role: 'admin' });
const CASEY_AS_ADMIN = { ...CASEY, role: 'admin' as const };
const DANA_REACTIVATED = { ...DANA, active: true, deactivated_at: null };

const LAST_ADMIN = 'This is the last active admin. Make another account an admin first.';
const EMAIL_TAKEN = 'An account with this e-mail address already exists.';
const networkDown = networkError();

// ---- The model ----

const { paths, titled } = flowModel(adminStaffMachine, {
  events: [
    doneEvent('listStaff', [ALEX, CASEY, DANA], 'list'),
    errorEvent('listStaff', networkDown, 'list fails'),
    { label: 'retry', event: { type: 'RETRY' } },
    { label: 'invite', event: { type: 'INVITE' } },
    { label: 'type the e-mail', event: { type: 'CHANGE', changes: { email: 'nico@newco.test' } } },
    { label: 'type the first name', event: { type: 'CHANGE', changes: { first_name: 'Nico' } } },
    { label: 'type the last name', event: { type: 'CHANGE', changes: { last_name: 'Newhire' } } },
    { label: 'choose admin', event: { type: 'CHANGE', changes: { role: 'admin' } } },
    { label: 'send', event: { type: 'SEND' } },
    doneEvent('inviteStaff', NICO, 'invited'),
    errorEvent('inviteStaff', serverRefusal(409, EMAIL_TAKEN, { email: EMAIL_TAKEN }), 'e-mail taken'),
    errorEvent('inviteStaff', networkDown, 'invitation fails'),
    { label: 'cancel', event: { type: 'CANCEL' } },
    { label: 'make Casey an admin', event: { type: 'CHANGE_ROLE', accountId: CASEY.id, role: 'admin' } },
    { label: 'make Alex a concierge', event: { type: 'CHANGE_ROLE', accountId: ALEX.id, role: 'concierge' } },
    doneEvent('changeRole', CASEY_AS_ADMIN, 'role changed'),
    errorEvent('changeRole', serverRefusal(409, LAST_ADMIN, { role: LAST_ADMIN }), 'last admin keeps the role'),
    { label: 'deactivate Alex', event: { type: 'TOGGLE_ACTIVE', accountId: ALEX.id } },
    { label: 'reactivate Dana', event: { type: 'TOGGLE_ACTIVE', accountId: DANA.id } },
    { label: 'confirm', event: { type: 'CONFIRM' } },
    doneEvent('setAccountActive', DANA_REACTIVATED, 'reactivated'),
    errorEvent('setAccountActive', serverRefusal(409, LAST_ADMIN), 'last admin stays active'),
  ],
  offer: ({ context }, { label }) => {
    const { invitation, roleChange, toggling, notice, formError, fieldErrors } = context;
    const untouched = notice === null && formError === null && context.staff !== null;
    switch (label) {
      case 'invite':
      case 'make Casey an admin':
      case 'make Alex a concierge':
      case 'deactivate Alex':
      case 'reactivate Dana':
        return untouched;
      case 'type the e-mail':
        return invitation?.email === '' && Object.keys(fieldErrors).length > 0;
      case 'type the first name':
        return invitation?.email !== '' && invitation?.first_name === '';
      case 'type the last name':
        return invitation?.first_name !== '' && invitation?.last_name === '';
      case 'choose admin':
        return invitation?.last_name !== '' && invitation?.role === 'concierge';
      case 'send':
        return (invitation?.email === '' && Object.keys(fieldErrors).length === 0) || (invitation?.role === 'admin' && formError === null);
      case 'invited':
      case 'e-mail taken':
      case 'invitation fails':
        return invitation !== null;
      case 'role changed':
        return roleChange?.accountId === CASEY.id;
      case 'last admin keeps the role':
        return roleChange?.accountId === ALEX.id;
      case 'cancel':
        // Declining the confirmation, and closing the invitation before anything is typed.
        return toggling?.id === ALEX.id || (invitation?.email === '' && Object.keys(fieldErrors).length === 0);
      case 'reactivated':
        return toggling?.id === DANA.id;
      case 'last admin stays active':
        return toggling?.id === ALEX.id;
      default:
        return true;
    }
  },
});

// ---- The rendered screen and the fake server ----

let user: UserEvent;
let actor: Actor<Machine>;
let sent: SentCall[];

const dialog = () => screen.getByRole('dialog', { name: 'Invite staff' });
const field = (name: string) => within(dialog()).getByRole('textbox', { name });
const roleButton = (person: AdminAccount) => screen.getByRole('button', { name: new RegExp(`Role of ${person.full_name}`), hidden: true });
const ROLE_NAMES = { employee: 'Employee', concierge: 'Concierge', admin: 'Admin' } as const;

/** What the list shows in every state: each account's row, the notice, a refusal that names no field, the busy mark. */
function expectFrame({ context }: StaffSnapshot, { busy }: { busy: boolean }) {
  expect(screen.getByRole('region', { name: 'Staff', hidden: true })).toHaveAttribute('aria-busy', String(busy));
  if (context.notice) expect(screen.getByRole('status', { hidden: true })).toHaveTextContent(context.notice);
  else expect(screen.queryByRole('status', { hidden: true })).not.toBeInTheDocument();
  if (!context.staff) return;
  // An open form or confirmation hides the list from assistive technology (it is modal), not from sight.
  const grid = screen.getByRole('grid', { name: 'Staff', hidden: true });
  const rows = within(grid).getAllByRole('row', { hidden: true }).slice(1);
  expect(rows).toHaveLength(context.staff.length);
  context.staff.forEach((person, index) => {
    const row = rows[index] as HTMLElement;
    expect(within(row).getByRole('rowheader', { hidden: true })).toHaveTextContent(person.full_name);
    expect(row).toHaveTextContent(person.email);
    const shownRole = context.roleChange?.accountId === person.id ? context.roleChange.role : person.role;
    expect(roleButton(person)).toHaveTextContent(ROLE_NAMES[shownRole]);
    expect(row).toHaveTextContent(person.active ? 'Active' : 'Deactivated since');
  });
}

function expectInvitation({ context }: StaffSnapshot) {
  const { invitation, fieldErrors, formError } = context;
  if (!invitation) throw new Error('No invitation in the model');
  const fields = { email: field('E-mail'), first_name: field('First name'), last_name: field('Last name') };
  expect(fields.email).toHaveValue(invitation.email);
  expect(fields.first_name).toHaveValue(invitation.first_name);
  expect(fields.last_name).toHaveValue(invitation.last_name);
  expectFieldMessages(fields, fieldErrors);
  expect(within(dialog()).getByRole('radio', { name: new RegExp(`^${invitation.role}`, 'i') })).toBeChecked();
  if (formError) expect(within(dialog()).getByRole('alert')).toHaveTextContent(formError);
  return within(dialog()).getByRole('button', { name: 'Send invitation' });
}

function expectConfirmation({ context }: StaffSnapshot) {
  const target = context.toggling;
  if (!target) throw new Error('Nothing to confirm in the model');
  const verb = target.active ? 'Deactivate' : 'Reactivate';
  const confirmation = screen.getByRole('alertdialog', { name: `${verb} ${target.full_name}?` });
  if (context.formError) expect(within(confirmation).getByRole('alert')).toHaveTextContent(context.formError);
  else expect(within(confirmation).queryByRole('alert')).not.toBeInTheDocument();
  return within(confirmation).getByRole('button', { name: verb });
}

const states: StateAssertions<Machine> = {
  loading: (snapshot) => {
    expectFrame(snapshot, { busy: true });
    expect(screen.getByText('Loading')).toBeInTheDocument();
    expect(sent.at(-1)).toEqual({ method: 'GET', path: 'admin/staff', body: undefined });
  },
  failed: (snapshot) => {
    expectFrame(snapshot, { busy: false });
    expect(screen.getByRole('alert')).toHaveTextContent("We couldn't load the staff. Please try again.");
  },
  list: (snapshot) => {
    expectFrame(snapshot, { busy: false });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    const { formError } = snapshot.context;
    if (formError) expect(screen.getByRole('alert')).toHaveTextContent(formError);
    else expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    for (const person of snapshot.context.staff ?? []) expect(roleButton(person)).toBeEnabled();
  },
  inviting: (snapshot) => {
    expectFrame(snapshot, { busy: false });
    expect(expectInvitation(snapshot)).not.toHaveAttribute('aria-busy');
  },
  sendingInvite: (snapshot) => {
    expectFrame(snapshot, { busy: true });
    expect(expectInvitation(snapshot)).toHaveAttribute('aria-busy', 'true');
    expect(sent.at(-1)).toEqual({ method: 'POST', path: 'admin/staff', body: snapshot.context.invitation });
  },
  changingRole: (snapshot) => {
    expectFrame(snapshot, { busy: true });
    const change = snapshot.context.roleChange!;
    for (const person of snapshot.context.staff ?? []) expect(roleButton(person)).toBeDisabled();
    expect(sent.at(-1)).toEqual({ method: 'PATCH', path: `admin/staff/${change.accountId}`, body: { role: change.role } });
  },
  confirming: (snapshot) => {
    expectFrame(snapshot, { busy: false });
    expect(expectConfirmation(snapshot)).not.toHaveAttribute('aria-busy');
  },
  toggling: (snapshot) => {
    expectFrame(snapshot, { busy: true });
    expect(expectConfirmation(snapshot)).toHaveAttribute('aria-busy', 'true');
    const target = snapshot.context.toggling!;
    expect(sent.at(-1)).toEqual({ method: 'POST', path: `admin/staff/${target.id}/${target.active ? 'deactivate' : 'reactivate'}`, body: undefined });
  },
};

const CHANGE_EXECUTORS: Record<string, () => Promise<void>> = {
  email: () => user.type(field('E-mail'), 'nico@newco.test'),
  first_name: () => user.type(field('First name'), 'Nico'),
  last_name: () => user.type(field('Last name'), 'Newhire'),
  role: () => user.click(within(dialog()).getByRole('radio', { name: /^Admin/ })),
};

const events: EventExecutors<Machine> = {
  ...settlementExecutors(adminStaffMachine, pendingCalls),
  RETRY: () => user.click(screen.getByRole('button', { name: 'Try again' })),
  INVITE: () => user.click(screen.getByRole('button', { name: 'Invite staff' })),
  CHANGE: ({ event }) => {
    const [changed] = Object.keys(event.changes as object);
    return CHANGE_EXECUTORS[changed!]!();
  },
  SEND: () => user.click(within(dialog()).getByRole('button', { name: 'Send invitation' })),
  CANCEL: () => {
    // The confirmation's Cancel when it is open, else the invitation form's.
    const container = screen.queryByRole('alertdialog') ?? screen.getByRole('dialog');
    return user.click(within(container).getByRole('button', { name: 'Cancel' }));
  },
  CHANGE_ROLE: async ({ event }) => {
    const person = event.accountId === ALEX.id ? ALEX : CASEY;
    await user.click(roleButton(person));
    await user.click(screen.getByRole('option', { name: ROLE_NAMES[event.role as 'admin' | 'concierge'] }));
  },
  TOGGLE_ACTIVE: ({ event }) =>
    user.click(screen.getByRole('button', { name: event.accountId === ALEX.id ? 'Deactivate Alex Admin' : 'Reactivate Dana Departed' })),
  CONFIRM: () => {
    const confirmation = screen.getByRole('alertdialog');
    return user.click(within(confirmation).getByRole('button', { name: /^(Deactivate|Reactivate)$/ }));
  },
};

describe('admin staff machine against the staff screen', () => {
  beforeEach(() => {
    user = userEvent.setup();
    pendingCalls.clear();
    sent = fakeAdminApi([
      { method: 'GET', path: /^admin\/staff$/, id: 'listStaff', answer: (staff: AdminAccount[]) => ({ staff }) },
      { method: 'POST', path: /^admin\/staff$/, id: 'inviteStaff', answer: (invited: AdminAccount) => ({ account: invited }) },
      { method: 'PATCH', path: /^admin\/staff\/\d+$/, id: 'changeRole', answer: (changed: AdminAccount) => ({ account: changed }) },
      { method: 'POST', path: /^admin\/staff\/\d+\/(de|re)activate$/, id: 'setAccountActive', answer: (changed: AdminAccount) => ({ account: changed }) },
    ]);
    actor = createActor(adminStaffMachine).start();
    render(<AdminStaffView staff={actor} />);
  });

  afterEach(() => {
    cleanup();
    actor.stop();
  });

  it.each(titled)('$title', async ({ path }) => {
    await runPath(path, () => actor.getSnapshot(), states, events);
  });
});

describe('admin staff model coverage', () => {
  it('asserts every state and executes every event', () => {
    expectFullCoverage(adminStaffMachine, paths, states, events);
  });

  it('walks the paths the rules call for', () => {
    expectScenariosWalked(
      titled.map(({ title }) => title),
      {
        'failure and retry': /list fails → retry$/,
        'an empty invitation is checked before it is sent': /invite → send → type the e-mail/,
        'an invitation is sent': /choose admin → send → invited$/,
        'a taken address is named on the e-mail field': /send → e-mail taken$/,
        'a failed invitation keeps what was typed': /send → invitation fails$/,
        'a role change': /make Casey an admin → role changed$/,
        'the last admin keeps the role, and the list says why': /make Alex a concierge → last admin keeps the role$/,
        'the last admin stays active, and the confirmation says why': /deactivate Alex → confirm → last admin stays active$/,
        'reactivation after a confirmation': /reactivate Dana → confirm → reactivated$/,
        'declining the confirmation': /deactivate Alex → cancel$/,
      },
    );
  });
});
