import type { SnapshotFrom } from 'xstate';
import { type BusinessCalendar, type OpeningHours, targetInWords, workingDayMinutes } from '../contract/businessHours.ts';
import {
  type ServicePolicy,
  type ServicePolicyCreate,
  TARGET_MINUTES_MAX,
  servicePolicyCreate,
  servicePolicyUpdate,
} from '../contract/servicePolicies.ts';
import { listCompanies } from '../services/admin.ts';
import { createServicePolicy, listServicePolicies, updateServicePolicy } from '../services/servicePolicies.ts';
import { adminCollectionMachine } from './adminCollection.ts';
import type { FieldErrors } from './adminForms.ts';

export const SERVICE_TARGETS_LOAD_ERROR = "We couldn't load the service targets. Please try again.";
export const SERVICE_TARGET_FORM_LOAD_ERROR = "We couldn't load the companies. Please try again.";
export const SERVICE_TARGET_ERRORS = {
  company: 'Choose the company these targets are for',
  amount: 'Enter a whole number, such as 4',
  tooLong: `Choose a target of at most ${TARGET_MINUTES_MAX / 60} working hours`,
} as const;
/** Told beside the targets and after each save: running requests keep what they were promised. */
export const NEW_REQUESTS_ONLY = 'A change applies to requests filed from now on; requests already open keep the targets they were given.';

/** The company choice that makes the default policy, of every company without its own. */
export const DEFAULT_POLICY_CHOICE = 'default';

export const TARGET_UNITS = ['minutes', 'hours', 'days'] as const;
export type TargetUnit = (typeof TARGET_UNITS)[number];

/** A day of the week as the form holds it: its hours are kept while closed, so reopening it brings them back. */
export interface DayDraft {
  open: boolean;
  opens: string;
  closes: string;
}

/** The form as typed: targets as an amount and its unit, the week Monday first, the holiday being picked. */
export interface ServiceTargetDraft {
  /** '' before a choice, DEFAULT_POLICY_CHOICE, or a company's id (creation only). */
  company_id: string;
  first_response_amount: string;
  first_response_unit: TargetUnit;
  resolution_amount: string;
  resolution_unit: TargetUnit;
  time_zone: string;
  week: DayDraft[];
  holidays: string[];
  /** The date in the holiday picker, 'YYYY-MM-DD', not yet added ('' none). */
  new_holiday: string;
}

export type ServiceTargetEdit = { type: 'addHoliday' } | { type: 'removeHoliday'; date: string };

/** What the creation form offers: the active companies. */
export interface ServiceTargetChoices {
  companies: Array<{ id: number; name: string }>;
}

const OFFICE_HOURS: DayDraft = { open: true, opens: '09:00', closes: '18:00' };
const CLOSED_DAY: DayDraft = { ...OFFICE_HOURS, open: false };

/** The admin's own time zone: the likeliest calendar of a new policy. */
const ownTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** Four working hours to answer, three working days to complete, Monday to Friday 9:00 to 18:00 (issue 28's default). */
export const emptyServiceTargetDraft = (): ServiceTargetDraft => ({
  company_id: '',
  first_response_amount: '4',
  first_response_unit: 'hours',
  resolution_amount: '3',
  resolution_unit: 'days',
  time_zone: ownTimeZone(),
  week: [OFFICE_HOURS, OFFICE_HOURS, OFFICE_HOURS, OFFICE_HOURS, OFFICE_HOURS, CLOSED_DAY, CLOSED_DAY],
  holidays: [],
  new_holiday: '',
});

const weekOf = (draft: Pick<ServiceTargetDraft, 'week'>): Array<OpeningHours | null> =>
  draft.week.map((day) => (day.open ? { opens: day.opens, closes: day.closes } : null));

const calendarOf = (policy: Pick<ServicePolicy, 'time_zone' | 'week' | 'holidays'>): BusinessCalendar => ({
  timeZone: policy.time_zone,
  week: policy.week as unknown as BusinessCalendar['week'],
  holidays: policy.holidays,
});

const UNIT_MINUTES = (dayMinutes: number): Record<TargetUnit, number> => ({ minutes: 1, hours: 60, days: dayMinutes });

/** A whole positive amount, else NaN: the schema refuses it and the form words why (messagesOf). */
const amountOf = (typed: string) => (/^\d+$/.test(typed.trim()) ? Number(typed.trim()) : Number.NaN);

/** A target in minutes as the form shows it: in days of the week's longest opening, or hours, or minutes. */
function amountAndUnit(minutes: number, dayMinutes: number): { amount: string; unit: TargetUnit } {
  if (dayMinutes > 0 && minutes % dayMinutes === 0) return { amount: String(minutes / dayMinutes), unit: 'days' };
  if (minutes % 60 === 0) return { amount: String(minutes / 60), unit: 'hours' };
  return { amount: String(minutes), unit: 'minutes' };
}

export function draftOfPolicy(policy: ServicePolicy): ServiceTargetDraft {
  const dayMinutes = workingDayMinutes(calendarOf(policy));
  const firstResponse = amountAndUnit(policy.first_response_minutes, dayMinutes);
  const resolution = amountAndUnit(policy.resolution_minutes, dayMinutes);
  return {
    company_id: policy.company ? String(policy.company.id) : DEFAULT_POLICY_CHOICE,
    first_response_amount: firstResponse.amount,
    first_response_unit: firstResponse.unit,
    resolution_amount: resolution.amount,
    resolution_unit: resolution.unit,
    time_zone: policy.time_zone,
    week: policy.week.map((day) => (day ? { open: true, ...day } : CLOSED_DAY)),
    holidays: [...policy.holidays],
    new_holiday: '',
  };
}

/** The request a draft makes; a day's length is the longest opening of the week typed, as targets are worded. */
export function policyRequestOf(draft: ServiceTargetDraft): ServicePolicyCreate {
  const week = weekOf(draft);
  const units = UNIT_MINUTES(workingDayMinutes({ timeZone: draft.time_zone, week: week as unknown as BusinessCalendar['week'], holidays: [] }));
  return {
    company_id: draft.company_id === DEFAULT_POLICY_CHOICE ? null : Number(draft.company_id),
    first_response_minutes: amountOf(draft.first_response_amount) * units[draft.first_response_unit],
    resolution_minutes: amountOf(draft.resolution_amount) * units[draft.resolution_unit],
    time_zone: draft.time_zone,
    week: week as ServicePolicyCreate['week'],
    holidays: draft.holidays,
  };
}

/** The schema's words for a missing choice or a mistyped amount are no help: the field says what to do. */
function messagesOf(errors: FieldErrors, draft: ServiceTargetDraft): FieldErrors {
  const shown = { ...errors };
  if (shown.company_id && draft.company_id === '') shown.company_id = SERVICE_TARGET_ERRORS.company;
  for (const target of ['first_response', 'resolution'] as const) {
    const field = `${target}_minutes`;
    if (!shown[field]) continue;
    const amount = amountOf(draft[`${target}_amount`]);
    shown[field] = Number.isNaN(amount) || amount < 1 ? SERVICE_TARGET_ERRORS.amount : SERVICE_TARGET_ERRORS.tooLong;
  }
  return shown;
}

function editHolidays(draft: ServiceTargetDraft, edit: ServiceTargetEdit) {
  if (edit.type === 'removeHoliday') {
    return {
      draft: { ...draft, holidays: draft.holidays.filter((date) => date !== edit.date) },
      stale: ['holidays'],
      announcement: `Holiday ${edit.date} removed.`,
    };
  }
  const date = draft.new_holiday;
  if (date === '') return { draft, stale: [] };
  if (draft.holidays.includes(date)) return { draft: { ...draft, new_holiday: '' }, stale: [], announcement: `${date} is already a holiday.` };
  return {
    draft: { ...draft, holidays: [...draft.holidays, date].sort(), new_holiday: '' },
    stale: ['holidays'],
    announcement: `Holiday ${date} added.`,
  };
}

/** A new policy's form offers the active companies; those with targets of their own are left out (offeredChoices). */
async function openPolicyForm(): Promise<{ item: null; choices: ServiceTargetChoices }> {
  const companies = await listCompanies();
  return { item: null, choices: { companies: companies.filter((company) => company.active).map(({ id, name }) => ({ id, name })) } };
}

/** What a new policy can be for: the default while there is none, and the companies without targets of their own. */
export function offeredChoices(choices: ServiceTargetChoices | null, policies: readonly ServicePolicy[]): Array<{ id: string; label: string }> {
  const withTargets = new Set(policies.map((policy) => policy.company?.id ?? null));
  return [
    ...(withTargets.has(null) ? [] : [{ id: DEFAULT_POLICY_CHOICE, label: 'Default (every company without its own)' }]),
    ...(choices?.companies ?? []).filter((company) => !withTargets.has(company.id)).map((company) => ({ id: String(company.id), label: company.name })),
  ];
}

export const policyName = (policy: Pick<ServicePolicy, 'company'>) => policy.company?.name ?? 'Default';

const DAY_SHORT = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;
const clockOf = (time: string) => time.replace(/^0(\d)/, '$1');

/** "Mon–Fri 9:00–18:00": runs of days with the same hours; "Closed every day" when none. */
export function weekInWords(week: ServicePolicy['week']): string {
  const runs: string[] = [];
  let start = 0;
  for (let day = 1; day <= week.length; day += 1) {
    const hours = week[start];
    const next = week[day];
    if (day < week.length && JSON.stringify(next) === JSON.stringify(hours)) continue;
    if (hours) {
      const days = day - 1 === start ? DAY_SHORT[start] : `${DAY_SHORT[start]}–${DAY_SHORT[day - 1]}`;
      runs.push(`${days} ${clockOf(hours.opens)}–${clockOf(hours.closes)}`);
    }
    start = day;
  }
  return runs.length > 0 ? runs.join(', ') : 'Closed every day';
}

/** "First response 4 working hours · Resolution 3 working days · Mon–Fri 9:00–18:00 Europe/Paris · 2 holidays". */
export function policyInWords(policy: ServicePolicy): string {
  const dayMinutes = workingDayMinutes(calendarOf(policy));
  const holidays = policy.holidays.length;
  return [
    `First response ${targetInWords(policy.first_response_minutes, dayMinutes)}`,
    `Resolution ${targetInWords(policy.resolution_minutes, dayMinutes)}`,
    `${weekInWords(policy.week)} ${policy.time_zone}`,
    holidays === 0 ? 'no holidays' : `${holidays} holiday${holidays === 1 ? '' : 's'}`,
  ].join(' · ');
}

export function savedNotice(policy: ServicePolicy): string {
  const whose = policy.company ? `${policy.company.name}'s service targets` : 'The default service targets';
  return `${whose} saved. They apply to requests filed from now on.`;
}

/**
 * The admin's service targets (issue 28): the default policy and each company's, worded; a form to set a company's
 * (or the default, while there is none) and to change any: the two targets, the week's opening hours, the time zone
 * and the holidays. The server's refusals (closing before opening, too many holidays, an unknown zone) show beside
 * their fields.
 */
export const adminServiceTargetsMachine = adminCollectionMachine<
  'adminServiceTargets',
  ServicePolicy,
  ServiceTargetDraft,
  ServicePolicyCreate,
  ServicePolicy,
  ServiceTargetChoices,
  never,
  ServiceTargetEdit
>({
  id: 'adminServiceTargets',
  loadError: SERVICE_TARGETS_LOAD_ERROR,
  list: listServicePolicies,
  // The default first, then the companies by name, as the server lists them.
  order: { byText: (policy) => (policy.company ? `1${policy.company.name}` : '0') },
  nameOf: policyName,
  form: {
    empty: emptyServiceTargetDraft(),
    draftOf: draftOfPolicy,
    schema: (isNew) => (isNew ? servicePolicyCreate : servicePolicyUpdate),
    requestOf: (draft, isNew) => {
      const request = policyRequestOf(draft);
      if (isNew) return request;
      const { company_id: _company, ...update } = request;
      return update as ServicePolicyCreate;
    },
    create: createServicePolicy,
    update: updateServicePolicy,
    open: { call: openPolicyForm, loadError: SERVICE_TARGET_FORM_LOAD_ERROR, forNewOnly: true },
    messagesOf,
    // The amount and its unit make one target: changing either withdraws the target's message.
    stalePaths: (changes) =>
      Object.keys(changes).map((field) => field.replace(/_(amount|unit)$/, '_minutes')),
    edit: editHolidays,
    savedNotice,
  },
});

export type AdminServiceTargetsSnapshot = SnapshotFrom<typeof adminServiceTargetsMachine>;
