import * as z from 'zod/mini';
import { isLocalDate, isTimeZone, minutesOfDay } from './businessHours.ts';

/**
 * Turnaround targets (issue 28, beyond SPEC): the per-company service policies admins set (the promise each request
 * carries from them: sla.ts).
 *
 * Admin routes, under /api/v1/admin (admins only; 401 visitor, 403 employee or concierge; 422 bad input with `fields`
 * naming each field at fault; every change in the audit log):
 * - GET /service_policies -> servicePoliciesResponse: the default policy first, then each company's by name.
 * - POST /service_policies servicePolicyCreate -> 201 servicePolicyResponse; 409 on `company_id` when the company has
 *   one already (a null company_id is the default policy, of which there is one).
 * - PATCH /service_policies/{id} servicePolicyUpdate -> servicePolicyResponse. Requests filed before keep what they
 *   were promised; the new targets apply to requests filed from then on.
 */

/** A year of holidays at most (each a local date): enough for any real calendar, bounded for the clock's search. */
export const HOLIDAYS_MAX = 366;
/** Targets up to 60 working days of 24 hours: a bound, not a suggestion. */
export const TARGET_MINUTES_MAX = 60 * 24 * 60;

export const SLA_ERRORS = {
  time: 'Use a time of day such as 09:00 (24:00 for midnight)',
  closesBeforeOpens: 'The closing time must come after the opening time',
  timeZone: 'Choose a time zone such as Europe/Paris',
  holiday: 'Use dates such as 2026-12-25',
  holidaysOnce: 'List each holiday once',
  holidaysMax: `List at most ${HOLIDAYS_MAX} holidays`,
  neverOpen: 'Open on at least one day of the week',
  companyTaken: 'This company has its own targets already: change them instead.',
  defaultTaken: 'There is a default policy already: change it instead.',
  notFound: 'Service policy not found',
  companyNotFound: 'Company not found',
} as const;

const timeOfDay = z.string().check(z.refine((time) => minutesOfDay(time) !== null, SLA_ERRORS.time));

export const openingHours = z.object({ opens: timeOfDay, closes: timeOfDay }).check(
  z.refine(
    (hours) => {
      const opens = minutesOfDay(hours.opens);
      const closes = minutesOfDay(hours.closes);
      return opens === null || closes === null || closes > opens;
    },
    { message: SLA_ERRORS.closesBeforeOpens, path: ['closes'] },
  ),
);

const dayHours = z.nullable(openingHours);
export const weeklyHours = z
  .tuple([dayHours, dayHours, dayHours, dayHours, dayHours, dayHours, dayHours])
  .check(z.refine((week) => week.some((day) => day !== null), SLA_ERRORS.neverOpen));

const targetMinutes = z.number().check(z.int(), z.minimum(1), z.maximum(TARGET_MINUTES_MAX));

const policyFields = {
  /** Business minutes until the first concierge message. */
  first_response_minutes: targetMinutes,
  /** Business minutes until completion. */
  resolution_minutes: targetMinutes,
  /** IANA time zone of the opening hours. */
  time_zone: z.string().check(z.maxLength(64), z.refine(isTimeZone, SLA_ERRORS.timeZone)),
  /** Opening hours Monday to Sunday; null: closed that day. */
  week: weeklyHours,
  /** Local dates closed all day. */
  holidays: z.array(z.string().check(z.maxLength(10), z.refine(isLocalDate, SLA_ERRORS.holiday))).check(
    z.maxLength(HOLIDAYS_MAX, SLA_ERRORS.holidaysMax),
    z.refine((dates) => new Set(dates).size === dates.length, SLA_ERRORS.holidaysOnce),
  ),
};

export const servicePolicyUpdate = z.object(policyFields);
export type ServicePolicyUpdate = z.infer<typeof servicePolicyUpdate>;

export const servicePolicyCreate = z.object({
  /** null: the default policy of every company without one. */
  company_id: z.nullable(z.number().check(z.int(), z.minimum(1))),
  ...policyFields,
});
export type ServicePolicyCreate = z.infer<typeof servicePolicyCreate>;

const openingHoursWire = z.object({ opens: z.string(), closes: z.string() });
const dayHoursWire = z.nullable(openingHoursWire);

export const servicePolicy = z.object({
  id: z.number().check(z.int()),
  /** null for the default policy. */
  company: z.nullable(z.object({ id: z.number().check(z.int()), name: z.string() })),
  first_response_minutes: z.number().check(z.int()),
  resolution_minutes: z.number().check(z.int()),
  time_zone: z.string(),
  /** Seven days, Monday first; null: closed. */
  week: z.array(dayHoursWire),
  holidays: z.array(z.string()),
  updated_at: z.string(),
});
export type ServicePolicy = z.infer<typeof servicePolicy>;

export const servicePoliciesResponse = z.object({ policies: z.array(servicePolicy) });
export const servicePolicyResponse = z.object({ policy: servicePolicy });
