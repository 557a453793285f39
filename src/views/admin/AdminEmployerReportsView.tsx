import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { EstimateDraft, ReportSettingsDraft, adminHoursEstimatesMachine, adminReportSettingsMachine } from '../../machines/adminEmployerReports.machine.ts';
import { Cell } from '../../widgets/Table.tsx';
import { TextInput } from '../../widgets/TextInput.tsx';
import { ActionsCell, AdminTable, CollectionForm, CollectionFrame, EditButton, useIsListed } from './AdminCollection.tsx';

export type AdminReportSettingsActor = ActorRefFrom<typeof adminReportSettingsMachine>;
export type AdminHoursEstimatesActor = ActorRefFrom<typeof adminHoursEstimatesMachine>;

/** The form's words: these records have no `name` of their own for the generic form to title itself with. */
const editWording = (name: string, what: string) => ({
  title: `Edit ${name}`,
  saveLabel: 'Save changes',
  unsaved: `Your changes to ${what} have not been saved.`,
});

/**
 * Employer reports (issue 29 part 3): each company's privacy threshold and contracted headcount, and each request
 * category's estimate of the time a completed request saves. Every change is in the audit log.
 */
export function AdminEmployerReportsView({ settings, estimates }: { settings: AdminReportSettingsActor; estimates: AdminHoursEstimatesActor }) {
  return (
    <>
      <AdminReportSettingsView actor={settings} />
      <AdminHoursEstimatesView actor={estimates} />
    </>
  );
}

export function AdminReportSettingsView({ actor }: { actor: AdminReportSettingsActor }) {
  const canChange = useIsListed(actor);
  const editedName = useSelector(actor, ({ context }) => context.items?.find((row) => row.id === context.form?.itemId)?.company_name ?? '');
  return (
    <CollectionFrame actor={actor} heading="Employer reports">
      {(rows) => (
        <>
          <p>A figure of a company's report that describes fewer employees than its threshold is shown as “fewer than” the threshold.</p>
          <AdminTable aria-label="Report settings" columns={['Company', 'Threshold', 'Eligible employees']} items={rows} dependencies={[canChange]} empty="No companies yet.">
            {(row) => (
              <>
                <Cell>
                  <span className="lc-admin-table__name">{row.company_name}</span>
                </Cell>
                <Cell>{row.suppression_threshold} employees</Cell>
                <Cell>{row.eligible_employees ?? 'Not set'}</Cell>
                <ActionsCell>
                  <EditButton actor={actor} itemId={row.id} label={`Edit the report settings of ${row.company_name}`} isDisabled={!canChange} />
                </ActionsCell>
              </>
            )}
          </AdminTable>
          <CollectionForm<ReportSettingsDraft> actor={actor} noun="report settings" wording={editWording(editedName, 'these report settings')}>
            {(draft, fieldErrors, _isSaving, change) => (
              <>
                <TextInput label="Privacy threshold" inputMode="numeric" isRequired value={draft.suppression_threshold}
                  onChange={(value) => change({ suppression_threshold: value })} errorMessage={fieldErrors.suppression_threshold}
                  description="The fewest distinct employees a shown figure may describe: 10 by default, never below 5." />
                <TextInput label="Eligible employees" inputMode="numeric" value={draft.eligible_employees}
                  onChange={(value) => change({ eligible_employees: value })} errorMessage={fieldErrors.eligible_employees}
                  description="The headcount the employer contracted for; blank when not known." />
              </>
            )}
          </CollectionForm>
        </>
      )}
    </CollectionFrame>
  );
}

export function AdminHoursEstimatesView({ actor }: { actor: AdminHoursEstimatesActor }) {
  const canChange = useIsListed(actor);
  const editedName = useSelector(actor, ({ context }) => context.items?.find((row) => row.id === context.form?.itemId)?.category_name ?? '');
  return (
    <CollectionFrame actor={actor} heading="Hours saved per request">
      {(rows) => (
        <>
          <p>Our estimate of the time a completed request of each category saves the employee. Employers see only the total.</p>
          <AdminTable aria-label="Hours saved per request" columns={['Category', 'Minutes per completed request']} items={rows} dependencies={[canChange]} empty="No request categories yet.">
            {(row) => (
              <>
                <Cell>
                  <span className="lc-admin-table__name">{row.category_name}</span>
                </Cell>
                <Cell>{row.minutes_per_request ?? 'No estimate (counts as none)'}</Cell>
                <ActionsCell>
                  <EditButton actor={actor} itemId={row.id} label={`Edit the estimate for ${row.category_name}`} isDisabled={!canChange} />
                </ActionsCell>
              </>
            )}
          </AdminTable>
          <CollectionForm<EstimateDraft> actor={actor} noun="estimate" wording={editWording(editedName, 'this estimate')}>
            {(draft, fieldErrors, _isSaving, change) => (
              <TextInput label="Minutes saved per completed request" inputMode="numeric" isRequired value={draft.minutes_per_request}
                onChange={(value) => change({ minutes_per_request: value })} errorMessage={fieldErrors.minutes_per_request} />
            )}
          </CollectionForm>
        </>
      )}
    </CollectionFrame>
  );
}
