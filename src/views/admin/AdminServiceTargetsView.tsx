import { parseDate } from '@internationalized/date';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { WEEKDAY_NAMES } from '../../contract/businessHours.ts';
import type { ServicePolicy } from '../../contract/servicePolicies.ts';
import {
  NEW_REQUESTS_ONLY,
  type DayDraft,
  type ServiceTargetChoices,
  type ServiceTargetDraft,
  type TargetUnit,
  TARGET_UNITS,
  type adminServiceTargetsMachine,
  policyInWords,
  offeredChoices,
  policyName,
} from '../../machines/adminServiceTargets.machine.ts';
import { Button } from '../../widgets/Button.tsx';
import { Checkbox } from '../../widgets/Checkbox.tsx';
import { ComboBox } from '../../widgets/ComboBox.tsx';
import { DatePicker } from '../../widgets/DatePicker.tsx';
import { ListBoxItem } from '../../widgets/ListBox.tsx';
import { Select } from '../../widgets/Select.tsx';
import { Cell } from '../../widgets/Table.tsx';
import { TextInput } from '../../widgets/TextInput.tsx';
import { ActionsCell, AdminTable, CollectionForm, CollectionFrame, EditButton, useIsListed } from './AdminCollection.tsx';
import './adminServiceTargets.css';

export type AdminServiceTargetsActor = ActorRefFrom<typeof adminServiceTargetsMachine>;

/** Every IANA zone the platform knows, for the time zone's ComboBox ('UTC', which the server takes, is not among them). */
const KNOWN_ZONES = ['UTC', ...Intl.supportedValuesOf('timeZone')];
/** The zones offered, with the policy's own when the platform names it otherwise (an alias such as Asia/Calcutta). */
const zonesWith = (current: string) =>
  (KNOWN_ZONES.includes(current) || current === '' ? KNOWN_ZONES : [current, ...KNOWN_ZONES]).map((zone) => ({ id: zone, name: zone }));
const UNIT_OPTIONS = TARGET_UNITS.map((unit) => ({ id: unit, label: `working ${unit}` }));
const holidayInWords = (date: string) =>
  parseDate(date).toDate('UTC').toLocaleDateString('en-GB', { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });

/** Service targets (issue 28): the default policy and each company's, in words; a form to set or change them. */
export function AdminServiceTargetsView({ targets: actor }: { targets: AdminServiceTargetsActor }) {
  const canChange = useIsListed(actor);
  return (
    <CollectionFrame actor={actor} heading="Service targets" newLabel="New company targets">
      {(policies) => (
        <>
          <p className="lc-service-targets__hint">
            How soon the concierges answer and complete a request, counted in the opening hours of its company's calendar.
            Companies without targets of their own have the default.
          </p>
          <PoliciesTable policies={policies} actor={actor} canChange={canChange} />
          <PolicyForm actor={actor} policies={policies} />
        </>
      )}
    </CollectionFrame>
  );
}

function PoliciesTable({ policies, actor, canChange }: { policies: ServicePolicy[]; actor: AdminServiceTargetsActor; canChange: boolean }) {
  return (
    <AdminTable aria-label="Service targets" columns={['Company', 'Targets']} items={policies} dependencies={[canChange]} empty="No service targets yet. Set the default ones first.">
      {(policy) => (
        <>
          <Cell>
            <span className="lc-admin-table__name">{policy.company ? policy.company.name : 'Default (every other company)'}</span>
          </Cell>
          <Cell>{policyInWords(policy)}</Cell>
          <ActionsCell>
            <EditButton actor={actor} itemId={policy.id} label={`Edit the targets of ${policyName(policy)}`} isDisabled={!canChange} />
          </ActionsCell>
        </>
      )}
    </AdminTable>
  );
}

type Change = (changes: Partial<ServiceTargetDraft>) => void;

function PolicyForm({ actor, policies }: { actor: AdminServiceTargetsActor; policies: ServicePolicy[] }) {
  const record = useSelector(actor, (snapshot) => snapshot.context.form?.record ?? null);
  const choices = useSelector(actor, (snapshot) => snapshot.context.choices) as ServiceTargetChoices | null;
  const announcement = useSelector(actor, (snapshot) => snapshot.context.announcement);
  const unsaved = 'Your changes to these targets have not been saved.';
  const wording = record
    ? { title: `Targets of ${policyName(record)}`, saveLabel: 'Save targets', unsaved }
    : { title: 'New company targets', saveLabel: 'Create targets', unsaved };
  return (
    <CollectionForm<ServiceTargetDraft> actor={actor} noun="service targets" wording={wording}>
      {(draft, fieldErrors, _isSaving, change) => (
        <>
          <p className="lc-service-targets__note">{NEW_REQUESTS_ONLY}</p>
          {record ? (
            <p className="lc-service-targets__for">
              For {record.company ? record.company.name : 'every company without targets of its own'}
            </p>
          ) : (
            <Select label="Company" value={draft.company_id} errorMessage={fieldErrors.company_id} options={offeredChoices(choices, policies)}
              description="Companies that have targets already are changed from the list."
              onChange={(companyId) => change({ company_id: companyId })} />
          )}
          <TargetField target="first_response" label="First response" draft={draft} error={fieldErrors.first_response_minutes} change={change}
            description="Until a concierge first writes to the employee." />
          <TargetField target="resolution" label="Resolution" draft={draft} error={fieldErrors.resolution_minutes} change={change}
            description="Until the request is completed. A working day is the week's longest opening." />
          <ComboBox label="Time zone" items={zonesWith(draft.time_zone)} selectedKey={draft.time_zone} errorMessage={fieldErrors.time_zone}
            description="The opening hours and holidays are in this zone." isRequired
            onSelectionChange={(zone) => zone !== null && change({ time_zone: String(zone) })}>
            {(zone) => <ListBoxItem id={zone.id}>{zone.name}</ListBoxItem>}
          </ComboBox>
          <WeekFields week={draft.week} fieldErrors={fieldErrors} change={change} />
          <HolidayFields draft={draft} fieldErrors={fieldErrors} change={change}
            edit={(edit) => actor.send({ type: 'EDIT_DRAFT', edit })} />
          <p className="lc-visually-hidden" aria-live="polite">{announcement}</p>
        </>
      )}
    </CollectionForm>
  );
}

function TargetField({ target, label, description, draft, error, change }: {
  target: 'first_response' | 'resolution';
  label: string;
  description: string;
  draft: ServiceTargetDraft;
  error: string | undefined;
  change: Change;
}) {
  const amount = `${target}_amount` as const;
  const unit = `${target}_unit` as const;
  return (
    <div className="lc-service-targets__target">
      <TextInput label={label} type="number" inputMode="numeric" isRequired value={draft[amount]} errorMessage={error}
        description={description} onChange={(typed) => change({ [amount]: typed })} />
      <Select<TargetUnit> label={`Unit of the ${label.toLowerCase()} target`} isLabelHidden value={draft[unit]} options={UNIT_OPTIONS}
        onChange={(chosen) => change({ [unit]: chosen })} />
    </div>
  );
}

function WeekFields({ week, fieldErrors, change }: { week: DayDraft[]; fieldErrors: Record<string, string>; change: Change }) {
  const changeDay = (index: number, day: Partial<DayDraft>) =>
    change({ week: week.map((entry, at) => (at === index ? { ...entry, ...day } : entry)) });
  return (
    <fieldset className="lc-service-targets__week">
      <legend>Opening hours</legend>
      {fieldErrors.week && <p className="lc-service-targets__error" role="alert">{fieldErrors.week}</p>}
      {week.map((day, index) => {
        const name = WEEKDAY_NAMES[index] ?? '';
        return (
          <div key={name} role="group" aria-label={name} className="lc-service-targets__day">
            <Checkbox isSelected={day.open} onChange={(open) => changeDay(index, { open })}>
              {name}
            </Checkbox>
            {day.open ? (
              <>
                <TextInput label={<><span className="lc-visually-hidden">{name}</span> Opens</>} isRequired placeholder="09:00" value={day.opens}
                  errorMessage={fieldErrors[`week.${index}.opens`]} onChange={(opens) => changeDay(index, { opens })} />
                <TextInput label={<><span className="lc-visually-hidden">{name}</span> Closes</>} isRequired placeholder="18:00" value={day.closes}
                  errorMessage={fieldErrors[`week.${index}.closes`]} onChange={(closes) => changeDay(index, { closes })} />
              </>
            ) : (
              <span className="lc-service-targets__closed">Closed</span>
            )}
          </div>
        );
      })}
    </fieldset>
  );
}

function HolidayFields({ draft, fieldErrors, change, edit }: {
  draft: ServiceTargetDraft;
  fieldErrors: Record<string, string>;
  change: Change;
  edit: (edit: { type: 'addHoliday' } | { type: 'removeHoliday'; date: string }) => void;
}) {
  // A message about the list as a whole, or else about one of its dates.
  const listError = fieldErrors.holidays ?? Object.entries(fieldErrors).find(([path]) => path.startsWith('holidays.'))?.[1];
  return (
    <fieldset className="lc-service-targets__holidays">
      <legend>Holidays</legend>
      <div className="lc-service-targets__add-holiday">
        <DatePicker label="Date closed all day" value={draft.new_holiday ? parseDate(draft.new_holiday) : null} errorMessage={listError}
          onChange={(day) => change({ new_holiday: day?.toString() ?? '' })} />
        <Button variant="secondary" isDisabled={draft.new_holiday === ''} onPress={() => edit({ type: 'addHoliday' })}>
          Add holiday
        </Button>
      </div>
      {draft.holidays.length === 0 ? (
        <p className="lc-service-targets__empty">No holidays: open every week as above.</p>
      ) : (
        <ul className="lc-admin-list lc-service-targets__holiday-list" aria-label="Holidays">
          {draft.holidays.map((date) => (
            <li key={date}>
              <span>{holidayInWords(date)}</span>
              <Button variant="tertiary" aria-label={`Remove the holiday ${holidayInWords(date)}`}
                onPress={() => edit({ type: 'removeHoliday', date })}>
                Remove
              </Button>
            </li>
          ))}
        </ul>
      )}
    </fieldset>
  );
}
