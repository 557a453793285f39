import * as z from 'zod/mini';
import { dbId } from './common.ts';

/**
 * The employer's value report (issue 29 part 3), under /api/v1/employer, for an employer admin of one company, and
 * what our admins maintain for it under /api/v1/admin/employer. Every figure is an aggregate: never a request's
 * text, a message, a name or a rating comment. A figure that describes fewer people than the company's threshold is
 * sent as `{ status: 'suppressed', fewer_than }` (server/domain/employer/suppression.ts).
 */

export const REPORT_PERIODS = ['month', 'quarter', 'year'] as const;
export type ReportPeriod = (typeof REPORT_PERIODS)[number];
/** How many months each period spans; a period starts on a month that is a multiple of it (calendar-aligned). */
export const PERIOD_MONTHS: Record<ReportPeriod, number> = { month: 1, quarter: 3, year: 12 };
export const PERIOD_START_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;
export const PERIOD_START_ERROR = 'Choose the first month of a calendar month, quarter or year (YYYY-MM)';

/** Whether `start` (YYYY-MM) begins a calendar `period`: any month; January, April, July or October; January. */
export function startsPeriod(period: ReportPeriod, start: string): boolean {
  if (!PERIOD_START_PATTERN.test(start)) return false;
  const month = Number(start.slice(5, 7));
  return (month - 1) % PERIOD_MONTHS[period] === 0;
}

/** GET /api/v1/employer/report?period=month|quarter|year&start=YYYY-MM */
export const reportQuery = z
  .object({
    period: z.enum(REPORT_PERIODS),
    start: z.string().check(z.regex(PERIOD_START_PATTERN, PERIOD_START_ERROR)),
  })
  .check(z.refine((query) => startsPeriod(query.period, query.start), { message: PERIOD_START_ERROR, path: ['start'] }));
export type ReportQuery = z.infer<typeof reportQuery>;

export const publishedFigure = z.discriminatedUnion('status', [
  z.object({ status: z.literal('shown'), value: z.number() }),
  /** A head count within a band (signed-up employees): exact counts at two moments would name who joined between. */
  z.object({ status: z.literal('range'), from: z.number(), to: z.number() }),
  z.object({ status: z.literal('suppressed'), fewer_than: z.number() }),
]);
export type PublishedFigure = z.infer<typeof publishedFigure>;

export const employerReport = z.object({
  company: z.object({ id: z.number(), name: z.string() }),
  period: z.object({ kind: z.enum(REPORT_PERIODS), start: z.string(), months: z.array(z.string()), label: z.string() }),
  /** The smallest group a shown figure describes. */
  threshold: z.number(),
  /** The headcount the employer contracted for, as our admins keep it; null until told. */
  eligible_employees: z.nullable(z.number()),
  /** Accounts of the company's employees at the period's end. */
  signed_up_employees: publishedFigure,
  monthly_active_employees: z.array(z.object({ month: z.string(), employees: publishedFigure })),
  /** Requests filed in the period by category, small categories folded into Other (null: nothing folded). */
  requests_by_category: z.object({
    categories: z.array(z.object({ name: z.string(), requests: z.number() })),
    other: z.nullable(z.number()),
    total: z.number(),
    /** Months whose requests came from too few people to show even as Other: left out of every count above. */
    withheld_months: z.array(z.string()),
  }),
  /** Of the requests filed in the period, how many are completed; null when too few people stand behind it. */
  completion: z.nullable(z.object({ completed: z.number(), requests: z.number(), rate: z.number() })),
  median_turnaround_hours: z.nullable(z.number()),
  /** Share of ratings of 4 or 5 stars given in the period. */
  satisfaction: z.nullable(z.object({ satisfied: z.number(), ratings: z.number(), share: z.number() })),
  /** Completed requests times our admins' estimate for their category. */
  estimated_hours_saved: z.nullable(z.number()),
  benefit_views: publishedFigure,
  help_requests: publishedFigure,
});
export type EmployerReport = z.infer<typeof employerReport>;
export const employerReportResponse = z.object({ report: employerReport });

/** The admin's estimate of the time a completed request of a category saves its employee. */
export const hoursEstimate = z.object({
  id: z.number(),
  category_name: z.string(),
  minutes_per_request: z.nullable(z.number()),
});
export type HoursEstimate = z.infer<typeof hoursEstimate>;
export const hoursEstimatesResponse = z.object({ estimates: z.array(hoursEstimate) });
export const hoursEstimateResponse = z.object({ estimate: hoursEstimate });
export const MAX_MINUTES_PER_REQUEST = 10_000;
/** PUT /api/v1/admin/employer/hours_estimates/{id} (the survey category's id). */
export const updateHoursEstimateRequest = z.object({
  minutes_per_request: z.number().check(
    z.int('Enter whole minutes'),
    z.minimum(0, 'Enter 0 or more minutes'),
    z.maximum(MAX_MINUTES_PER_REQUEST, `Enter at most ${MAX_MINUTES_PER_REQUEST} minutes`),
  ),
});
export type UpdateHoursEstimateRequest = z.infer<typeof updateHoursEstimateRequest>;

export const MIN_REPORT_THRESHOLD = 5;
export const MAX_ELIGIBLE_EMPLOYEES = 10_000_000;
/** A company's report settings (one per company; defaults until changed). */
export const reportSettings = z.object({
  id: z.number(),
  company_name: z.string(),
  suppression_threshold: z.number(),
  eligible_employees: z.nullable(z.number()),
});
export type ReportSettings = z.infer<typeof reportSettings>;
export const reportSettingsListResponse = z.object({ settings: z.array(reportSettings) });
export const reportSettingsResponse = z.object({ settings: reportSettings });
/** PUT /api/v1/admin/employer/report_settings/{id} (the company's id). */
export const updateReportSettingsRequest = z.object({
  suppression_threshold: z.number().check(
    z.int('Enter a whole number'),
    z.minimum(MIN_REPORT_THRESHOLD, `The threshold is never below ${MIN_REPORT_THRESHOLD}`),
    z.maximum(1000, 'Enter at most 1000'),
  ),
  eligible_employees: z.nullable(
    z.number().check(z.int('Enter a whole number'), z.minimum(0, 'Enter 0 or more'), z.maximum(MAX_ELIGIBLE_EMPLOYEES, 'Enter a smaller number')),
  ),
});
export type UpdateReportSettingsRequest = z.infer<typeof updateReportSettingsRequest>;

/** An employer admin is invited for one company. */
export const employerCompanyId = dbId;
