/**
 * The employer reports' admin screen (issue 29 part 3), through the admin collection suite: each company's privacy
 * threshold and headcount, and each category's hours-saved estimate, edited in forms whose numbers are checked
 * against the contract before they are sent.
 */
import { screen, within } from '@testing-library/react';
import { expect } from 'vitest';
import type { HoursEstimate, ReportSettings } from '../../src/contract/employer.ts';
import {
  type EstimateDraft,
  type ReportSettingsDraft,
  WHOLE_NUMBER_NEEDED,
  adminHoursEstimatesMachine,
  adminReportSettingsMachine,
} from '../../src/machines/adminEmployerReports.machine.ts';
import {
  type AdminHoursEstimatesActor,
  type AdminReportSettingsActor,
  AdminHoursEstimatesView,
  AdminReportSettingsView,
} from '../../src/views/admin/AdminEmployerReportsView.tsx';
import { expectFieldMessages } from './adminApi.support.ts';
import { clean, describeCollection, rowsOf, textbox, typeInto, untouched } from './adminCollection.support.tsx';
import { networkError } from './httpFailures.support.ts';
import { doneEvent, errorEvent } from './modelPaths.support.ts';

const networkDown = networkError();
const ACME: ReportSettings = { id: 1, company_name: 'Acme Corporation', suppression_threshold: 10, eligible_employees: null };
const BETA: ReportSettings = { id: 2, company_name: 'Beta Ltd', suppression_threshold: 12, eligible_employees: 300 };
const FLOOR = 'The threshold is never below 5';

describeCollection<ReportSettings, ReportSettingsDraft>({
  machine: adminReportSettingsMachine,
  heading: 'Employer reports',
  view: (actor) => <AdminReportSettingsView actor={actor as unknown as AdminReportSettingsActor} />,
  routes: [
    { method: 'GET', path: /^admin\/employer\/report_settings$/, id: 'list', answer: (settings: ReportSettings[]) => ({ settings }) },
    { method: 'PUT', path: /^admin\/employer\/report_settings\/\d+$/, id: 'save', answer: (settings: ReportSettings) => ({ settings }) },
  ],
  events: [
    doneEvent('list', [ACME, BETA], 'list'),
    errorEvent('list', networkDown, 'list fails'),
    { label: 'retry', event: { type: 'RETRY' } },
    { label: 'edit Acme', event: { type: 'EDIT', itemId: ACME.id } },
    { label: 'type 4', event: { type: 'CHANGE', changes: { suppression_threshold: '4' } } },
    { label: 'type 15', event: { type: 'CHANGE', changes: { suppression_threshold: '15' } } },
    { label: 'type the headcount', event: { type: 'CHANGE', changes: { eligible_employees: '250' } } },
    { label: 'save', event: { type: 'SAVE' } },
    doneEvent('save', { ...ACME, suppression_threshold: 15, eligible_employees: 250 }, 'saved'),
    errorEvent('save', networkDown, 'save fails'),
    { label: 'cancel', event: { type: 'CANCEL' } },
    { label: 'keep editing', event: { type: 'KEEP_EDITING' } },
    { label: 'discard', event: { type: 'DISCARD' } },
  ],
  offer: ({ context }, { label }) => {
    const draft = context.form?.draft;
    switch (label) {
      case 'edit Acme':
        return untouched(context);
      case 'type 4':
        return draft?.suppression_threshold === '10';
      case 'type 15':
        return draft?.suppression_threshold === '4' && !clean(context);
      case 'type the headcount':
        return draft?.suppression_threshold === '15' && draft.eligible_employees === '';
      case 'save':
        return (draft?.suppression_threshold === '4' && clean(context)) || (draft?.eligible_employees === '250' && context.formError === null);
      case 'cancel':
        return draft?.eligible_employees === '250' && clean(context);
      default:
        return true;
    }
  },
  loadError: "We couldn't load the employer report settings. Please try again.",
  loads: ['GET admin/employer/report_settings'],
  expectRows: (rows) => {
    const shown = rowsOf('Report settings');
    expect(shown).toHaveLength(rows.length);
    rows.forEach((row, index) => {
      const cells = within(shown[index] as HTMLElement);
      expect(cells.getByRole('rowheader', { hidden: true })).toHaveTextContent(row.company_name);
      const [threshold, eligible] = cells.getAllByRole('gridcell', { hidden: true }).map((cell) => cell.textContent);
      expect(threshold).toBe(`${row.suppression_threshold} employees`);
      expect(eligible).toBe(row.eligible_employees === null ? 'Not set' : String(row.eligible_employees));
    });
  },
  expectForm: ({ context: { form, fieldErrors } }, dialog) => {
    expect(dialog).toHaveAccessibleName('Edit Acme Corporation');
    const fields = { suppression_threshold: textbox(dialog, /^Privacy threshold/), eligible_employees: textbox(dialog, /^Eligible employees/) };
    for (const [name, input] of Object.entries(fields)) expect(input).toHaveValue(form!.draft[name as keyof typeof fields]);
    expectFieldMessages(fields, fieldErrors);
    if (form!.draft.suppression_threshold === '4' && fieldErrors.suppression_threshold) expect(dialog).toHaveTextContent(FLOOR);
  },
  saveButton: /^Save changes$/,
  saved: (form) => ({
    method: 'PUT',
    path: `admin/employer/report_settings/${form.itemId}`,
    body: { suppression_threshold: Number(form.draft.suppression_threshold), eligible_employees: Number(form.draft.eligible_employees) },
  }),
  unsaved: 'Your changes to these report settings have not been saved.',
  executors: (user, dialog) => ({
    EDIT: () => user().click(screen.getByRole('button', { name: 'Edit the report settings of Acme Corporation' })),
    CHANGE: ({ event }) => {
      const [[field, value]] = Object.entries(event.changes as object) as [[string, string]];
      return typeInto(user(), textbox(dialog(), field === 'suppression_threshold' ? /^Privacy threshold/ : /^Eligible employees/), value);
    },
  }),
  scenarios: {
    'failure and retry': /list fails → retry$/,
    'a threshold below the floor is refused before it is sent': /type 4 → save → type 15/,
    'settings are saved': /type the headcount → save → saved$/,
    'a failed save keeps what was typed': /save → save fails$/,
    'leaving changed settings asks, and discards only when told': /cancel → discard$/,
  },
});

const HOME: HoursEstimate = { id: 11, category_name: 'Home', minutes_per_request: null };
const TRAVEL: HoursEstimate = { id: 12, category_name: 'Travel', minutes_per_request: 120 };

describeCollection<HoursEstimate, EstimateDraft>({
  machine: adminHoursEstimatesMachine,
  heading: 'Hours saved per request',
  view: (actor) => <AdminHoursEstimatesView actor={actor as unknown as AdminHoursEstimatesActor} />,
  routes: [
    { method: 'GET', path: /^admin\/employer\/hours_estimates$/, id: 'list', answer: (estimates: HoursEstimate[]) => ({ estimates }) },
    { method: 'PUT', path: /^admin\/employer\/hours_estimates\/\d+$/, id: 'save', answer: (estimate: HoursEstimate) => ({ estimate }) },
  ],
  events: [
    doneEvent('list', [HOME, TRAVEL], 'list'),
    errorEvent('list', networkDown, 'list fails'),
    { label: 'retry', event: { type: 'RETRY' } },
    { label: 'edit Home', event: { type: 'EDIT', itemId: HOME.id } },
    { label: 'type words', event: { type: 'CHANGE', changes: { minutes_per_request: 'an hour' } } },
    { label: 'type 90', event: { type: 'CHANGE', changes: { minutes_per_request: '90' } } },
    { label: 'save', event: { type: 'SAVE' } },
    doneEvent('save', { ...HOME, minutes_per_request: 90 }, 'saved'),
    errorEvent('save', networkDown, 'save fails'),
    { label: 'cancel', event: { type: 'CANCEL' } },
    { label: 'keep editing', event: { type: 'KEEP_EDITING' } },
    { label: 'discard', event: { type: 'DISCARD' } },
  ],
  offer: ({ context }, { label }) => {
    const draft = context.form?.draft;
    switch (label) {
      case 'edit Home':
        return untouched(context);
      case 'type words':
        return draft?.minutes_per_request === '';
      case 'type 90':
        return draft?.minutes_per_request === 'an hour' && !clean(context);
      case 'save':
        return (draft?.minutes_per_request === 'an hour' && clean(context)) || (draft?.minutes_per_request === '90' && context.formError === null);
      case 'cancel':
        return draft?.minutes_per_request === '90' && clean(context);
      default:
        return true;
    }
  },
  loadError: "We couldn't load the employer report settings. Please try again.",
  loads: ['GET admin/employer/hours_estimates'],
  expectRows: (rows) => {
    const shown = rowsOf('Hours saved per request');
    expect(shown).toHaveLength(rows.length);
    rows.forEach((row, index) => {
      const cells = within(shown[index] as HTMLElement);
      expect(cells.getByRole('rowheader', { hidden: true })).toHaveTextContent(row.category_name);
      const [minutes] = cells.getAllByRole('gridcell', { hidden: true }).map((cell) => cell.textContent);
      expect(minutes).toBe(row.minutes_per_request === null ? 'No estimate (counts as none)' : String(row.minutes_per_request));
    });
  },
  expectForm: ({ context: { form, fieldErrors } }, dialog) => {
    expect(dialog).toHaveAccessibleName('Edit Home');
    const fields = { minutes_per_request: textbox(dialog, /^Minutes saved per completed request/) };
    expect(fields.minutes_per_request).toHaveValue(form!.draft.minutes_per_request);
    expectFieldMessages(fields, fieldErrors);
    if (fieldErrors.minutes_per_request) expect(fieldErrors.minutes_per_request).toBe(WHOLE_NUMBER_NEEDED);
  },
  saveButton: /^Save changes$/,
  saved: (form) => ({ method: 'PUT', path: `admin/employer/hours_estimates/${form.itemId}`, body: { minutes_per_request: Number(form.draft.minutes_per_request) } }),
  unsaved: 'Your changes to this estimate have not been saved.',
  executors: (user, dialog) => ({
    EDIT: () => user().click(screen.getByRole('button', { name: 'Edit the estimate for Home' })),
    CHANGE: ({ event }) => typeInto(user(), textbox(dialog(), /^Minutes saved per completed request/), (event.changes as EstimateDraft).minutes_per_request),
  }),
  scenarios: {
    'failure and retry': /list fails → retry$/,
    'words are refused as a number before they are sent': /type words → save → type 90/,
    'an estimate is saved': /type 90 → save → saved$/,
    'a failed save keeps what was typed': /save → save fails$/,
    'leaving a changed estimate asks, and discards only when told': /cancel → discard$/,
  },
});
