import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { AccountRole, AdminAccount, InviteStaffRequest } from '../../contract/admin.ts';
import type { InvitationChoices, adminStaffMachine } from '../../machines/adminStaff.machine.ts';
import { Button } from '../../widgets/Button.tsx';
import { TextInput } from '../../widgets/TextInput.tsx';
import { AdminTable, ChangeConfirmation, CollectionForm, CollectionFrame, useIsListed } from './AdminCollection.tsx';
import { ChoiceField } from '../../widgets/RadioGroup.tsx';
import { Select } from '../../widgets/Select.tsx';
import { Cell } from '../../widgets/Table.tsx';
import { ActiveStatus } from './AdminParts.tsx';

export type AdminStaffActor = ActorRefFrom<typeof adminStaffMachine>;

type StaffRole = InviteStaffRequest['role'];
export const STAFF_ROLE_OPTIONS: ReadonlyArray<{ value: StaffRole; label: string; description: string }> = [
  { value: 'concierge', label: 'Concierge', description: 'Works requests in the console.' },
  { value: 'admin', label: 'Admin', description: 'Also manages companies and staff.' },
  { value: 'employer_admin', label: 'Employer admin', description: "Sees one company's report of aggregates, and nothing else." },
];
const ROLE_LABELS: Record<AccountRole, string> = { employee: 'Employee', concierge: 'Concierge', admin: 'Admin', employer_admin: 'Employer admin' };

/** Staff: every concierge and admin, their roles, the invitation form and the (de)activation confirmation. */
export function AdminStaffView({ staff: actor }: { staff: AdminStaffActor }) {
  return (
    <CollectionFrame actor={actor} heading="Staff" newLabel="Invite staff">
      {(staff) => (
        <>
          <StaffTable staff={staff} actor={actor} />
          <InvitationForm actor={actor} />
          <ChangeConfirmation actor={actor} ask={(account) => {
            const verb = account.active ? 'Deactivate' : 'Reactivate';
            const text = account.active
              ? `${account.full_name} is signed out at once and cannot sign in until reactivated.`
              : `${account.full_name} can sign in again with their own password.`;
            return { title: `${verb} ${account.full_name}?`, confirmLabel: verb, text: <p>{text}</p> };
          }} />
        </>
      )}
    </CollectionFrame>
  );
}

function StaffTable({ staff, actor }: { staff: AdminAccount[]; actor: AdminStaffActor }) {
  const canChange = useIsListed(actor);
  const change = useSelector(actor, (snapshot) => snapshot.context.change);
  // The rows are cached per account: they render again when the change under way or the lock changes.
  return (
    <AdminTable aria-label="Staff" columns={['Name', 'E-mail', 'Role', 'Status']} items={staff} dependencies={[change, canChange]} empty="No staff yet. Invite the first concierge.">
      {(account) => (
        <>
          <Cell>
            <span className="lc-admin-table__name">{account.full_name}</span>
          </Cell>
          <Cell>
            {account.email}
            {account.employer_company_name && <span className="lc-admin-table__detail">Report of {account.employer_company_name}</span>}
          </Cell>
          <Cell>
            <RoleSelect account={account} isDisabled={!canChange}
              shownRole={change?.itemId === account.id && change.field === 'role' ? (change.value as AccountRole) : account.role}
              onChange={(role) => actor.send({ type: 'SET', itemId: account.id, setting: { field: 'role', value: role } })} />
          </Cell>
          <Cell>
            <ActiveStatus active={account.active} invited={account.invited} deactivatedAt={account.deactivated_at} />
          </Cell>
          <Cell>
            <Button variant="tertiary" onPress={() => actor.send({ type: 'SET', itemId: account.id, setting: { field: 'active', value: !account.active } })}
              aria-label={`${account.active ? 'Deactivate' : 'Reactivate'} ${account.full_name}`}>
              {account.active ? 'Deactivate' : 'Reactivate'}
            </Button>
          </Cell>
        </>
      )}
    </AdminTable>
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
  // An account made an employee elsewhere still shows its role, and may be made staff again. An employer admin comes
  // with a company, by invitation: the role is offered only to an account that is one.
  const roles: readonly AccountRole[] = [
    ...(account.role === 'employee' ? (['employee'] as const) : []),
    'concierge',
    'admin',
    ...(account.role === 'employer_admin' ? (['employer_admin'] as const) : []),
  ];
  return (
    <Select label={`Role of ${account.full_name}`} isLabelHidden className="lc-admin-select" value={shownRole} isDisabled={isDisabled}
      options={roles.map((role) => ({ id: role, label: ROLE_LABELS[role] }))} onChange={onChange} />
  );
}

function InvitationForm({ actor }: { actor: AdminStaffActor }) {
  const choices = useSelector(actor, (snapshot) => snapshot.context.choices as InvitationChoices | null);
  return (
    <CollectionForm<InviteStaffRequest> actor={actor} noun="invitation"
      wording={{ title: 'Invite staff', saveLabel: 'Send invitation', unsaved: 'This invitation has not been sent yet.' }}>
      {(invitation, fieldErrors, _isSaving, change) => (
        <>
          <TextInput label="E-mail" type="email" isRequired autoComplete="off" value={invitation.email}
            onChange={(email) => change({ email })} errorMessage={fieldErrors.email}
            description="They are e-mailed a link to choose a password." />
          <TextInput label="First name" isRequired autoComplete="off" value={invitation.first_name}
            onChange={(firstName) => change({ first_name: firstName })} errorMessage={fieldErrors.first_name} />
          <TextInput label="Last name" isRequired autoComplete="off" value={invitation.last_name}
            onChange={(lastName) => change({ last_name: lastName })} errorMessage={fieldErrors.last_name} />
          <ChoiceField label="Role" options={STAFF_ROLE_OPTIONS} value={invitation.role}
            onChange={(role) => change({ role })} errorMessage={fieldErrors.role} />
          {invitation.role === 'employer_admin' && (
            <Select label="Company" placeholder="Choose a company" value={invitation.company_id ?? null}
              options={(choices?.companies ?? []).map((company) => ({ id: company.id, label: company.name }))}
              onChange={(companyId) => change({ company_id: companyId })} errorMessage={fieldErrors.company_id}
              description="They see this company's report only." />
          )}
        </>
      )}
    </CollectionForm>
  );
}
