import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { AccountRole, AdminAccount, InviteStaffRequest } from '../../contract/admin.ts';
import type { adminStaffMachine } from '../../machines/adminStaff.machine.ts';
import { Button } from '../../widgets/Button.tsx';
import { ConfirmDialog } from '../../widgets/Dialog.tsx';
import { Form } from '../../widgets/Form.tsx';
import { ChoiceField } from '../../widgets/RadioGroup.tsx';
import { Select } from '../../widgets/Select.tsx';
import { Cell, Column, Row, Table, TableBody, TableHeader } from '../../widgets/Table.tsx';
import { Drawer } from '../../widgets/Drawer.tsx';
import { Message } from '../../widgets/Message.tsx';
import { TextInput } from '../../widgets/TextInput.tsx';
import { ActiveStatus, AdminListFrame } from './AdminParts.tsx';

export type AdminStaffActor = ActorRefFrom<typeof adminStaffMachine>;

type StaffRole = InviteStaffRequest['role'];
export const STAFF_ROLE_OPTIONS: ReadonlyArray<{ value: StaffRole; label: string; description: string }> = [
  { value: 'concierge', label: 'Concierge', description: 'Works requests in the console.' },
  { value: 'admin', label: 'Admin', description: 'Also manages companies and staff.' },
];
const ROLE_LABELS: Record<AccountRole, string> = { employee: 'Employee', concierge: 'Concierge', admin: 'Admin' };

/** Staff: every concierge and admin, their roles, the invitation form and the (de)activation confirmation. */
export function AdminStaffView({ staff: actor }: { staff: AdminStaffActor }) {
  const staff = useSelector(actor, (snapshot) => snapshot.context.staff);
  const loadError = useSelector(actor, (snapshot) => snapshot.context.loadError);
  const notice = useSelector(actor, (snapshot) => snapshot.context.notice);
  // A refusal of a role change is shown above the list; one of a (de)activation, in its confirmation.
  const refusal = useSelector(actor, (snapshot) => (snapshot.matches('list') ? snapshot.context.formError : null));
  const isBusy = useSelector(actor, (snapshot) => snapshot.hasTag('busy'));
  const canInvite = useSelector(actor, (snapshot) => snapshot.can({ type: 'INVITE' }));

  return (
    <AdminListFrame heading="Staff" isBusy={isBusy} loadError={loadError} onRetry={() => actor.send({ type: 'RETRY' })}
      notice={notice} refusal={refusal} isLoaded={staff !== null}
      action={<Button onPress={() => actor.send({ type: 'INVITE' })} isDisabled={!canInvite}>Invite staff</Button>}>
      {staff && <StaffTable staff={staff} actor={actor} />}
      <InvitationDrawer actor={actor} />
      <AccountActiveConfirmation actor={actor} />
    </AdminListFrame>
  );
}

function StaffTable({ staff, actor }: { staff: AdminAccount[]; actor: AdminStaffActor }) {
  const canChange = useSelector(actor, (snapshot) => snapshot.matches('list'));
  const roleChange = useSelector(actor, (snapshot) => snapshot.context.roleChange);
  return (
    <Table aria-label="Staff" className="lc-admin-table">
      <TableHeader>
        <Column isRowHeader>Name</Column>
        <Column>E-mail</Column>
        <Column>Role</Column>
        <Column>Status</Column>
        <Column>
          <span className="lc-visually-hidden">Actions</span>
        </Column>
      </TableHeader>
      {/* The rows are cached per account: they render again when the role change under way or the lock changes. */}
      <TableBody items={staff} dependencies={[roleChange, canChange]} renderEmptyState={() => <p className="lc-admin-empty">No staff yet. Invite the first concierge.</p>}>
        {(account) => (
          <Row id={account.id}>
            <Cell>
              <span className="lc-admin-table__name">{account.full_name}</span>
            </Cell>
            <Cell>{account.email}</Cell>
            <Cell>
              <RoleSelect account={account} isDisabled={!canChange}
                shownRole={roleChange?.accountId === account.id ? roleChange.role : account.role}
                onChange={(role) => actor.send({ type: 'CHANGE_ROLE', accountId: account.id, role })} />
            </Cell>
            <Cell>
              <ActiveStatus active={account.active} deactivatedAt={account.deactivated_at} />
            </Cell>
            <Cell>
              <Button variant="tertiary" onPress={() => actor.send({ type: 'TOGGLE_ACTIVE', accountId: account.id })}
                aria-label={`${account.active ? 'Deactivate' : 'Reactivate'} ${account.full_name}`}>
                {account.active ? 'Deactivate' : 'Reactivate'}
              </Button>
            </Cell>
          </Row>
        )}
      </TableBody>
    </Table>
  );
}

interface RoleSelectProps {
  account: AdminAccount;
  /** The role being sent while a change is under way, else the account's. */
  shownRole: AccountRole;
  isDisabled: boolean;
  onChange: (role: AccountRole) => void;
}

function RoleSelect({ account, shownRole, isDisabled, onChange }: RoleSelectProps) {
  // An account made an employee elsewhere still shows its role, and may be made staff again.
  const roles = account.role === 'employee' ? (['employee', 'concierge', 'admin'] as const) : (['concierge', 'admin'] as const);
  return (
    <Select label={`Role of ${account.full_name}`} isLabelHidden className="lc-admin-select" value={shownRole} isDisabled={isDisabled}
      options={roles.map((role) => ({ id: role, label: ROLE_LABELS[role] }))} onChange={onChange} />
  );
}

function InvitationDrawer({ actor }: { actor: AdminStaffActor }) {
  const invitation = useSelector(actor, (snapshot) => snapshot.context.invitation);
  const fieldErrors = useSelector(actor, (snapshot) => snapshot.context.fieldErrors);
  const formError = useSelector(actor, (snapshot) => snapshot.context.formError);
  const isSending = useSelector(actor, (snapshot) => snapshot.matches('sendingInvite'));
  if (!invitation) return null;
  const change = (changes: Partial<InviteStaffRequest>) => actor.send({ type: 'CHANGE', changes });

  return (
    <Drawer isOpen title="Invite staff" onOpenChange={(open) => !open && !isSending && actor.send({ type: 'CANCEL' })}>
      <Form className="lc-admin-form" validationBehavior="aria" onSubmit={(event) => {
        event.preventDefault();
        actor.send({ type: 'SEND' });
      }}>
        <TextInput label="E-mail" type="email" isRequired autoComplete="off" value={invitation.email}
          onChange={(email) => change({ email })} errorMessage={fieldErrors.email}
          description="They are e-mailed a link to choose a password." />
        <TextInput label="First name" isRequired autoComplete="off" value={invitation.first_name}
          onChange={(firstName) => change({ first_name: firstName })} errorMessage={fieldErrors.first_name} />
        <TextInput label="Last name" isRequired autoComplete="off" value={invitation.last_name}
          onChange={(lastName) => change({ last_name: lastName })} errorMessage={fieldErrors.last_name} />
        <ChoiceField label="Role" options={STAFF_ROLE_OPTIONS} value={invitation.role}
          onChange={(role) => change({ role })} errorMessage={fieldErrors.role} />
        {formError && <Message severity="error">{formError}</Message>}
        <div className="lc-admin-actions">
          <Button type="submit" isLoading={isSending}>Send invitation</Button>
          <Button variant="secondary" isDisabled={isSending} onPress={() => actor.send({ type: 'CANCEL' })}>
            Cancel
          </Button>
        </div>
      </Form>
    </Drawer>
  );
}

function AccountActiveConfirmation({ actor }: { actor: AdminStaffActor }) {
  const account = useSelector(actor, (snapshot) => snapshot.context.toggling);
  const refusal = useSelector(actor, (snapshot) => snapshot.context.formError);
  const isToggling = useSelector(actor, (snapshot) => snapshot.matches('toggling'));
  if (!account) return null;
  const verb = account.active ? 'Deactivate' : 'Reactivate';
  return (
    <ConfirmDialog isOpen title={`${verb} ${account.full_name}?`} confirmLabel={verb} isConfirming={isToggling} refusal={refusal}
      onConfirm={() => actor.send({ type: 'CONFIRM' })} onCancel={() => actor.send({ type: 'CANCEL' })}>
      <p>
        {account.active
          ? `${account.full_name} is signed out at once and cannot sign in until reactivated.`
          : `${account.full_name} can sign in again with their own password.`}
      </p>
    </ConfirmDialog>
  );
}
