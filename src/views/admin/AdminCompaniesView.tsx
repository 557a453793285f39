import type { ActorRefFrom } from 'xstate';
import type { AdminCompany, MfaPolicy } from '../../contract/admin.ts';
import type { CompanyDraft, adminCompaniesMachine } from '../../machines/adminCompanies.machine.ts';
import { Button, LinkButton } from '../../widgets/Button.tsx';
import { TextInput } from '../../widgets/TextInput.tsx';
import { ActionsCell, AdminTable, ChangeConfirmation, CollectionForm, CollectionFrame, EditButton } from './AdminCollection.tsx';
import { Checkbox } from '../../widgets/Checkbox.tsx';
import { ChoiceField } from '../../widgets/RadioGroup.tsx';
import { Cell } from '../../widgets/Table.tsx';
import { ActiveStatus, ImageUploadField } from './AdminParts.tsx';

export type AdminCompaniesActor = ActorRefFrom<typeof adminCompaniesMachine>;

export const MFA_POLICY_OPTIONS: ReadonlyArray<{ value: MfaPolicy; label: string; description: string }> = [
  { value: 'off', label: 'Off', description: 'Employees sign in with their password only.' },
  { value: 'optional', label: 'Optional', description: 'Employees may turn on a text-message code.' },
  { value: 'required', label: 'Required', description: 'Every employee must enrol and enter a code.' },
];
const MFA_POLICY_LABELS = Object.fromEntries(MFA_POLICY_OPTIONS.map(({ value, label }) => [value, label])) as Record<MfaPolicy, string>;

/** Companies: the list with employee counts, the form to create or edit one, and the (de)activation confirmation. */
export function AdminCompaniesView({ companies: actor }: { companies: AdminCompaniesActor }) {
  return (
    <CollectionFrame actor={actor} heading="Companies" newLabel="New company">
      {(companies) => (
        <>
          <CompaniesTable companies={companies} actor={actor} />
          <CompanyForm actor={actor} />
          <ChangeConfirmation actor={actor} ask={(company) => {
            const verb = company.active ? 'Deactivate' : 'Reactivate';
            const text = company.active
              ? `Nobody can sign up for ${company.name} and it sponsors no one. Its ${company.employee_count} employees who belong to no other ` +
                'active company are signed out at once and cannot sign in. Reactivating it gives everything back.'
              : `${company.name} admits sign-ups again and its employees can sign in again.`;
            return { title: `${verb} ${company.name}?`, confirmLabel: verb, text: <p>{text}</p> };
          }} />
        </>
      )}
    </CollectionFrame>
  );
}

function CompaniesTable({ companies, actor }: { companies: AdminCompany[]; actor: AdminCompaniesActor }) {
  return (
    <AdminTable aria-label="Companies" columns={['Company', 'E-mail domains', 'MFA', 'Employees', 'Status']} items={companies} empty="No companies yet. Create the first one.">
      {(company) => (
        <>
          <Cell>
            <span className="lc-admin-table__name">{company.name}</span>
            <span className="lc-admin-table__detail">/sign-up/{company.slug}{company.internal_staff ? ' · internal staff' : ''}</span>
          </Cell>
          <Cell>{company.email_domains.length > 0 ? company.email_domains.join(', ') : <span className="lc-admin-table__detail">None</span>}</Cell>
          <Cell>{MFA_POLICY_LABELS[company.mfa_policy]}</Cell>
          <Cell>{company.employee_count}</Cell>
          <Cell>
            <ActiveStatus active={company.active} deactivatedAt={company.deactivated_at} />
          </Cell>
          <ActionsCell>
            <EditButton actor={actor} itemId={company.id} label={`Edit ${company.name}`} />
            <LinkButton variant="tertiary" href={`/console/admin/companies/${company.id}/sso`} aria-label={`Single sign-on of ${company.name}`}>
              Single sign-on
            </LinkButton>
            <Button variant="tertiary" onPress={() => actor.send({ type: 'SET', itemId: company.id, setting: { field: 'active', value: !company.active } })}
              aria-label={`${company.active ? 'Deactivate' : 'Reactivate'} ${company.name}`}>
              {company.active ? 'Deactivate' : 'Reactivate'}
            </Button>
          </ActionsCell>
        </>
      )}
    </AdminTable>
  );
}

function CompanyForm({ actor }: { actor: AdminCompaniesActor }) {
  return (
    <CollectionForm<CompanyDraft> actor={actor} noun="company">
      {(draft, fieldErrors, isSaving, change) => (
        <>
          <TextInput label="Name" isRequired value={draft.name} onChange={(name) => change({ name })} errorMessage={fieldErrors.name} />
          <TextInput label="Sign-up address" isRequired value={draft.slug} onChange={(slug) => change({ slug })}
            errorMessage={fieldErrors.slug} description={`Employees sign up at /sign-up/${draft.slug || 'acme-corp'}`} />
          <TextInput label="E-mail domains" type="textarea" rows={3} value={draft.email_domains}
            onChange={(domains) => change({ email_domains: domains })} errorMessage={fieldErrors.email_domains}
            description="One per line, e.g. acme.com. Only addresses at these domains can sign up; with none, nobody can." />
          <ChoiceField label="Multi-factor authentication" options={MFA_POLICY_OPTIONS} value={draft.mfa_policy}
            onChange={(policy) => change({ mfa_policy: policy })} errorMessage={fieldErrors.mfa_policy} />
          <Checkbox isSelected={draft.internal_staff}
            onChange={(internal) => change({ internal_staff: internal })}>
            <span>
              Internal staff company
              <span className="lc-field__description">Its members count as the service's own staff.</span>
            </span>
          </Checkbox>
          <ImageUploadField legend="Logo" isOptional isDisabled={isSaving} actor={actor} alt={`Current logo of ${draft.name}`}
            removal={draft.logo_upload_key ? { label: 'Remove logo', onRemove: () => change({ logo_upload_key: null }) } : undefined}
            chooseLabel="Choose a logo" replaceLabel="Replace the logo" errorMessage={fieldErrors.logo_upload_key} />
        </>
      )}
    </CollectionForm>
  );
}
