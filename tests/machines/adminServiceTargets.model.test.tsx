/**
 * The admin's service targets screen (issue 28), an admin collection (machines/adminCollection.ts) run through every
 * transition of its statechart against its real view (adminCollection.support.tsx).
 */
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SLA_ERRORS, type ServicePolicy } from '../../src/contract/servicePolicies.ts';
import {
  type DayDraft,
  NEW_REQUESTS_ONLY,
  SERVICE_TARGETS_LOAD_ERROR,
  SERVICE_TARGET_ERRORS,
  type ServiceTargetChoices,
  type ServiceTargetDraft,
  adminServiceTargetsMachine,
  offeredChoices,
  policyInWords,
  policyRequestOf,
  savedNotice,
} from '../../src/machines/adminServiceTargets.machine.ts';
import { type AdminServiceTargetsActor, AdminServiceTargetsView } from '../../src/views/admin/AdminServiceTargetsView.tsx';
import { expectFieldMessages } from './adminApi.support.ts';
import { COMPANIES, type Snapshot, clean, describeCollection, rowsOf, textbox, typeInto, untouched } from './adminCollection.support.tsx';
import { networkError, serverRefusal } from './httpFailures.support.ts';
import { doneEvent, errorEvent } from './modelPaths.support.ts';

const networkDown = networkError();


const OFFICE = { opens: '09:00', closes: '18:00' };
const CHRISTMAS = '2026-12-25';
const DEFAULT_POLICY: ServicePolicy = {
  id: 1,
  company: null,
  first_response_minutes: 4 * 60,
  resolution_minutes: 3 * 9 * 60,
  time_zone: 'Europe/Paris',
  week: [OFFICE, OFFICE, OFFICE, OFFICE, OFFICE, null, null],
  holidays: ['2026-12-24', CHRISTMAS],
  updated_at: '2026-11-01T09:00:00.000Z',
};
const EARLY = { opens: '08:00', closes: '16:00' };
const ACME_POLICY: ServicePolicy = {
  id: 2,
  company: { id: 1, name: 'Acme' },
  first_response_minutes: 90,
  resolution_minutes: 8 * 60,
  time_zone: 'America/New_York',
  week: [EARLY, EARLY, EARLY, EARLY, { opens: '08:00', closes: '12:00' }, null, null],
  holidays: [CHRISTMAS],
  updated_at: '2026-11-02T09:00:00.000Z',
};
const GLOBEX_POLICY: ServicePolicy = {
  ...DEFAULT_POLICY,
  id: 3,
  company: { id: 2, name: 'Globex' },
  holidays: [CHRISTMAS],
  updated_at: '2026-11-27T09:00:00.000Z',
};
const ACME_IN_PARIS: ServicePolicy = { ...ACME_POLICY, time_zone: 'Europe/Paris', holidays: [] };
const NEW_CHOICES: ServiceTargetChoices = { companies: COMPANIES.map(({ id, name }) => ({ id, name })) };
const policyAnswer = (policy: ServicePolicy) => ({ policy });

const week = (monday: Partial<DayDraft>): DayDraft[] => {
  const office = { open: true, opens: '09:00', closes: '18:00' };
  const closed = { ...office, open: false };
  return [{ ...office, ...monday }, office, office, office, office, closed, closed];
};

type Context = Snapshot<ServicePolicy, ServiceTargetDraft>['context'];
const draftOf = (context: Context) => context.form?.draft;
const mondayCloses = (context: Context) => draftOf(context)?.week[0]?.closes;

describeCollection<ServicePolicy, ServiceTargetDraft>({
  machine: adminServiceTargetsMachine,
  heading: 'Service targets',
  view: (actor) => <AdminServiceTargetsView targets={actor as unknown as AdminServiceTargetsActor} />,
  routes: [
    { method: 'GET', path: /^admin\/service_policies$/, id: 'list', answer: (policies: ServicePolicy[]) => ({ policies }) },
    { method: 'GET', path: /^admin\/companies$/, id: 'open', answer: () => ({ companies: COMPANIES }) },
    { method: 'POST', path: /^admin\/service_policies$/, id: 'save', answer: policyAnswer },
    { method: 'PATCH', path: /^admin\/service_policies\/\d+$/, id: 'save', answer: policyAnswer },
  ],
  events: [
    doneEvent('list', [DEFAULT_POLICY, ACME_POLICY], 'list'),
    doneEvent('list', [], 'no targets'),
    errorEvent('list', networkDown, 'list fails'),
    { label: 'retry', event: { type: 'RETRY' } },
    { label: 'new targets', event: { type: 'NEW' } },
    { label: 'edit Acme', event: { type: 'EDIT', itemId: ACME_POLICY.id } },
    doneEvent('open', { item: null, choices: NEW_CHOICES }, 'form opens'),
    errorEvent('open', networkDown, 'form fails to open'),
    { label: 'choose Globex', event: { type: 'CHANGE', changes: { company_id: '2' } } },
    { label: 'close Monday before it opens', event: { type: 'CHANGE', changes: { week: week({ closes: '08:00' }) } } },
    { label: 'close Monday at 18:00', event: { type: 'CHANGE', changes: { week: week({}) } } },
    { label: 'pick Christmas', event: { type: 'CHANGE', changes: { new_holiday: CHRISTMAS } } },
    { label: 'add the holiday', event: { type: 'EDIT_DRAFT', edit: { type: 'addHoliday' } } },
    { label: 'remove Christmas', event: { type: 'EDIT_DRAFT', edit: { type: 'removeHoliday', date: CHRISTMAS } } },
    { label: 'move Acme to Paris', event: { type: 'CHANGE', changes: { time_zone: 'Europe/Paris' } } },
    { label: 'answer within a day', event: { type: 'CHANGE', changes: { first_response_amount: '1', first_response_unit: 'days' } } },
    { label: 'save', event: { type: 'SAVE' } },
    doneEvent('save', GLOBEX_POLICY, 'created'),
    doneEvent('save', ACME_IN_PARIS, 'updated'),
    errorEvent('save', serverRefusal(422, 'Invalid input', { time_zone: SLA_ERRORS.timeZone }), 'zone refused'),
    errorEvent('save', serverRefusal(422, 'Invalid input', { holidays: SLA_ERRORS.holidaysMax }), 'too many holidays'),
    errorEvent('save', networkDown, 'save fails'),
    { label: 'cancel', event: { type: 'CANCEL' } },
    { label: 'keep editing', event: { type: 'KEEP_EDITING' } },
    { label: 'discard', event: { type: 'DISCARD' } },
  ],
  offer: ({ context }, { label }) => {
    const draft = draftOf(context);
    const isNew = context.form?.itemId === null;
    const isAcme = context.form?.itemId === ACME_POLICY.id;
    const forGlobex = isNew && draft?.company_id === '2';
    // Globex's form with Monday as it opened and no holiday picked yet.
    const globexAsOpened = forGlobex && mondayCloses(context) === '18:00' && draft?.holidays.length === 0 && draft.new_holiday === '';
    switch (label) {
      case 'new targets':
      case 'edit Acme':
        return untouched(context);
      case 'form opens':
      case 'form fails to open':
        return context.opening?.itemId === null;
      case 'choose Globex':
        return isNew && draft?.company_id === '' && !clean(context);
      case 'close Monday before it opens':
        return globexAsOpened && clean(context);
      case 'close Monday at 18:00':
        return forGlobex && mondayCloses(context) === '08:00' && !clean(context);
      case 'pick Christmas':
        return globexAsOpened && clean(context);
      case 'add the holiday':
        return draft?.new_holiday === CHRISTMAS;
      case 'remove Christmas':
        return isAcme && draft?.holidays.includes(CHRISTMAS) === true;
      case 'move Acme to Paris':
        return isAcme && draft?.time_zone === 'America/New_York' && draft.holidays.length === 0;
      case 'answer within a day':
        return isAcme && draft?.time_zone === 'Europe/Paris' && draft.first_response_unit === 'minutes' && clean(context);
      case 'save':
        return clean(context) && (
          (isNew && draft?.company_id === '')
          || (forGlobex && (mondayCloses(context) === '08:00' || draft?.holidays.length === 1))
          || (isAcme && draft?.time_zone === 'Europe/Paris'));
      case 'created':
      case 'zone refused':
      case 'too many holidays':
        return forGlobex && draft?.holidays.length === 1;
      case 'updated':
      case 'save fails':
        return isAcme;
      case 'cancel':
        return (isNew && draft?.company_id === '' && clean(context)) || (globexAsOpened && clean(context)) || (isAcme && draft?.holidays.length === 0 && draft.time_zone === 'America/New_York');
      default:
        return true;
    }
  },
  loadError: SERVICE_TARGETS_LOAD_ERROR,
  loads: ['GET admin/service_policies'],
  newLabel: 'New company targets',
  opens: () => ['GET admin/companies'],
  expectRows: (policies, { context }) => {
    if (policies.length === 0) {
      expect(screen.getByText(/No service targets yet/)).toBeInTheDocument();
      return;
    }
    const rows = rowsOf('Service targets');
    expect(rows).toHaveLength(policies.length);
    policies.forEach((policy, index) => {
      const row = rows[index] as HTMLElement;
      expect(within(row).getByRole('rowheader', { hidden: true })).toHaveTextContent(policy.company?.name ?? 'Default (every other company)');
      expect(within(row).getAllByRole('gridcell', { hidden: true })[0]).toHaveTextContent(policyInWords(policy));
    });
    // The targets in words, as the issue words them: days are the week's longest opening.
    if (policies[0] === DEFAULT_POLICY) {
      expect(rows[0]).toHaveTextContent('First response 4 working hours · Resolution 3 working days · Mon–Fri 9:00–18:00 Europe/Paris · 2 holidays');
      expect(rows[1]).toHaveTextContent(
        policies[1] === ACME_IN_PARIS
          ? 'First response 90 working minutes · Resolution 1 working day · Mon–Thu 8:00–16:00, Fri 8:00–12:00 Europe/Paris · no holidays'
          : 'First response 90 working minutes · Resolution 1 working day · Mon–Thu 8:00–16:00, Fri 8:00–12:00 America/New_York · 1 holiday',
      );
    }
    if (context.notice) expect(context.notice).toBe(savedNotice(context.notice.startsWith('Globex') ? GLOBEX_POLICY : ACME_IN_PARIS));
  },
  expectForm: ({ context: { form, fieldErrors } }, dialog) => {
    const draft = form!.draft;
    expect(dialog).toHaveAccessibleName(form!.itemId === null ? 'New company targets' : 'Targets of Acme');
    expect(dialog).toHaveTextContent(NEW_REQUESTS_ONLY);
    if (form!.itemId === null) {
      const company = within(dialog).getByRole('button', { name: /Company/ });
      if (draft.company_id === '2') expect(company).toHaveTextContent('Globex');
      if (fieldErrors.company_id) expect(fieldErrors.company_id).toBe(SERVICE_TARGET_ERRORS.company);
      if (fieldErrors.company_id) expect(within(dialog).getByText(SERVICE_TARGET_ERRORS.company)).toBeInTheDocument();
    } else {
      expect(dialog).toHaveTextContent('For Acme');
    }
    const monday = within(dialog).getByRole('group', { name: 'Monday' });
    const saturday = within(dialog).getByRole('group', { name: 'Saturday' });
    expect(saturday).toHaveTextContent('Closed');
    const fields = {
      first_response_minutes: textbox(dialog, /^First response/),
      resolution_minutes: textbox(dialog, /^Resolution/),
      'week.0.opens': textbox(monday, /^Monday opens/i),
      'week.0.closes': textbox(monday, /^Monday closes/i),
      time_zone: within(dialog).getByRole('combobox', { name: /^Time zone/ }),
    };
    expect(fields.first_response_minutes).toHaveValue(draft.first_response_amount);
    expect(fields.resolution_minutes).toHaveValue(draft.resolution_amount);
    expect(fields['week.0.opens']).toHaveValue(draft.week[0]!.opens);
    expect(fields['week.0.closes']).toHaveValue(draft.week[0]!.closes);
    expect(fields.time_zone).toHaveValue(draft.time_zone);
    expectFieldMessages(fields, fieldErrors);
    if (fieldErrors['week.0.closes']) expect(fieldErrors['week.0.closes']).toBe(SLA_ERRORS.closesBeforeOpens);
    const holidays = within(dialog).queryByRole('list', { name: 'Holidays' });
    if (draft.holidays.length === 0) expect(holidays).toBeNull();
    else expect(within(holidays!).getAllByRole('listitem')).toHaveLength(draft.holidays.length);
    if (draft.holidays.includes(CHRISTMAS)) expect(holidays).toHaveTextContent('Fri, 25 Dec 2026');
    if (fieldErrors.holidays) expect(within(dialog).getByText(fieldErrors.holidays)).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Add holiday' })).toHaveProperty('disabled', draft.new_holiday === '');
  },
  saveButton: /^(Create targets|Save targets)$/,
  saved: (form) => {
    const { company_id: companyId, ...update } = policyRequestOf(form.draft);
    return form.itemId === null
      ? { method: 'POST', path: 'admin/service_policies', body: { company_id: companyId, ...update } }
      : { method: 'PATCH', path: `admin/service_policies/${form.itemId}`, body: update };
  },
  unsaved: 'Your changes to these targets have not been saved.',
  executors: (user, dialog) => ({
    EDIT: () => user().click(screen.getByRole('button', { name: 'Edit the targets of Acme' })),
    CHANGE: async ({ event }) => {
      for (const [field, value] of Object.entries(event.changes as Partial<ServiceTargetDraft>)) {
        if (field === 'company_id') {
          await user().click(within(dialog()).getByRole('button', { name: /Company/ }));
          await user().click(screen.getByRole('option', { name: 'Globex' }));
        } else if (field === 'week') {
          // The model changes Monday's closing time only.
          const monday = within(dialog()).getByRole('group', { name: 'Monday' });
          await typeInto(user(), textbox(monday, /^Monday closes/i), (value as DayDraft[])[0]!.closes);
        } else if (field === 'time_zone') {
          const zone = within(dialog()).getByRole('combobox', { name: /^Time zone/ });
          await typeInto(user(), zone, value as string);
          await user().click(screen.getByRole('option', { name: value as string }));
        } else if (field === 'first_response_amount') {
          await typeInto(user(), textbox(dialog(), /^First response/), value as string);
        } else if (field === 'first_response_unit') {
          await user().click(within(dialog()).getByRole('button', { name: /Unit of the first response target/ }));
          await user().click(screen.getByRole('option', { name: `working ${value as string}` }));
        } else if (field === 'new_holiday') {
          const [year, month, dayOfMonth] = (value as string).split('-');
          const picker = within(dialog()).getByRole('group', { name: /^Date closed all day/ });
          await user().click(within(picker).getByRole('spinbutton', { name: /month/i }));
          await user().keyboard(`${month}${dayOfMonth}${year}`);
        }
      }
    },
    EDIT_DRAFT: ({ event }) => {
      const edit = event.edit as { type: string; date?: string };
      return edit.type === 'addHoliday'
        ? user().click(within(dialog()).getByRole('button', { name: 'Add holiday' }))
        : user().click(within(dialog()).getByRole('button', { name: 'Remove the holiday Fri, 25 Dec 2026' }));
    },
  }),
  scenarios: {
    'an empty list': /^start → no targets$/,
    'failure and retry': /list fails → retry$/,
    'a new policy needs a company': /form opens → save → choose Globex/,
    'closing before opening is named beside the closing time': /close Monday before it opens → save → close Monday at 18:00/,
    'a company policy with a holiday is created': /pick Christmas → add the holiday → save → created$/,
    'the server refusing the zone keeps what was typed': /add the holiday → save → zone refused$/,
    'the server refusing the holidays says so beside them': /add the holiday → save → too many holidays$/,
    'an edit is saved': /edit Acme → remove Christmas → move Acme to Paris → save → updated$/,
    'a target in working days': /move Acme to Paris → answer within a day → save/,
    'a failed save keeps the form': /save → save fails$/,
    'leaving a changed form asks, and discards only when told': /remove Christmas → cancel → discard/,
    'a form that fails to open says so': /new targets → form fails to open$/,
  },
});

describe('the companies a new policy can be for', () => {
  it('leaves out those with targets of their own, and the default once there is one', () => {
    expect(offeredChoices(NEW_CHOICES, [DEFAULT_POLICY, ACME_POLICY])).toEqual([{ id: '2', label: 'Globex' }]);
    expect(offeredChoices(NEW_CHOICES, [ACME_POLICY])).toEqual([
      { id: 'default', label: 'Default (every company without its own)' },
      { id: '2', label: 'Globex' },
    ]);
  });
});
