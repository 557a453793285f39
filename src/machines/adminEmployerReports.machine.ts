import type { SnapshotFrom } from 'xstate';
import {
  type HoursEstimate,
  type ReportSettings,
  type UpdateHoursEstimateRequest,
  type UpdateReportSettingsRequest,
  updateHoursEstimateRequest,
  updateReportSettingsRequest,
} from '../contract/employer.ts';
import { listHoursEstimates, listReportSettings, updateHoursEstimate, updateReportSettings } from '../services/employer.ts';
import { adminCollectionMachine } from './adminCollection.ts';
import type { FieldErrors } from './adminForms.ts';

/* The employer reports' settings in the admin area (issue 29 part 3): two lists of one screen, each edited in a form. */

export const EMPLOYER_REPORTS_LOAD_ERROR = "We couldn't load the employer report settings. Please try again.";
export const WHOLE_NUMBER_NEEDED = 'Enter a whole number';

/** A number field as typed: blank is null (where the field may be blank), anything but digits is not a number. */
export function wholeNumberOf(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  return /^\d+$/.test(trimmed) ? Number(trimmed) : Number.NaN;
}

/** The schema's words for a blank or a number that is not one are about types: the admin needs a whole number. */
function numberMessages<Draft extends object>(errors: FieldErrors, draft: Draft): FieldErrors {
  const words: FieldErrors = { ...errors };
  for (const [field, value] of Object.entries(draft)) {
    if (!errors[field] || typeof value !== 'string') continue;
    const typed = wholeNumberOf(value);
    if (typed === null || Number.isNaN(typed)) words[field] = WHOLE_NUMBER_NEEDED;
  }
  return words;
}

export interface EstimateDraft {
  minutes_per_request: string;
}

export const adminHoursEstimatesMachine = adminCollectionMachine<'adminHoursEstimates', HoursEstimate, EstimateDraft, UpdateHoursEstimateRequest>({
  id: 'adminHoursEstimates',
  loadError: EMPLOYER_REPORTS_LOAD_ERROR,
  list: listHoursEstimates,
  order: { byText: (estimate) => estimate.category_name },
  nameOf: (estimate) => estimate.category_name,
  form: {
    draftOf: (estimate) => ({ minutes_per_request: estimate.minutes_per_request === null ? '' : String(estimate.minutes_per_request) }),
    schema: () => updateHoursEstimateRequest,
    requestOf: (draft) => ({ minutes_per_request: wholeNumberOf(draft.minutes_per_request) as number }),
    update: updateHoursEstimate,
    messagesOf: numberMessages,
    savedNotice: (estimate) => `The estimate for ${estimate.category_name} is saved.`,
  },
});

export interface ReportSettingsDraft {
  suppression_threshold: string;
  eligible_employees: string;
}

export const adminReportSettingsMachine = adminCollectionMachine<'adminReportSettings', ReportSettings, ReportSettingsDraft, UpdateReportSettingsRequest>({
  id: 'adminReportSettings',
  loadError: EMPLOYER_REPORTS_LOAD_ERROR,
  list: listReportSettings,
  order: { byText: (settings) => settings.company_name },
  nameOf: (settings) => settings.company_name,
  form: {
    draftOf: (settings) => ({
      suppression_threshold: String(settings.suppression_threshold),
      eligible_employees: settings.eligible_employees === null ? '' : String(settings.eligible_employees),
    }),
    schema: () => updateReportSettingsRequest,
    requestOf: (draft) => ({
      suppression_threshold: wholeNumberOf(draft.suppression_threshold) as number,
      eligible_employees: wholeNumberOf(draft.eligible_employees),
    }),
    update: updateReportSettings,
    messagesOf: numberMessages,
    savedNotice: (settings) => `The report settings of ${settings.company_name} are saved.`,
  },
});

export type AdminHoursEstimatesSnapshot = SnapshotFrom<typeof adminHoursEstimatesMachine>;
