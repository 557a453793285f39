import * as z from 'zod/mini';

/**
 * The console's Reports (issue 28 part 4), staff only, under /api/v1/console/reports: for the requests whose last
 * completion falls in a date range, figures by company, by concierge (the one credited with the completion) or by
 * survey category, and in total. Times are business minutes from request_service_levels.
 */

export const REPORT_GROUPINGS = {
  company: 'Company',
  concierge: 'Concierge',
  category: 'Survey category',
} as const;
export type ReportGrouping = keyof typeof REPORT_GROUPINGS;
export const reportGrouping = z.enum(['company', 'concierge', 'category']);

/** The longest range a report covers, so that no one asks the database for a century at once. */
export const REPORT_MAX_DAYS = 366;
export const REPORT_RANGE_ERROR = `The range must start on or before its end and cover at most ${REPORT_MAX_DAYS} days.`;

const day = z.iso.date();

/** `from` and `to` are calendar days (UTC), both included. */
export const reportQuery = z.object({
  from: day,
  to: day,
  group: z._default(reportGrouping, 'company'),
});
export type ReportQuery = z.infer<typeof reportQuery>;

const share = z.nullable(z.number());
const minutes = z.nullable(z.number());

/** One line of a report: a company, a concierge, a category, or the total. Shares are 0..1, null with nothing to count. */
export const reportRow = z.object({
  /** The group's id; null for "none" (no company, nobody credited, no category) and for the total. */
  key: z.nullable(z.number().check(z.int())),
  label: z.string(),
  /** Completed requests. */
  volume: z.number().check(z.int()),
  rated: z.number().check(z.int()),
  /** rated / volume. */
  response_rate: share,
  /** Share of ratings that are 4 or 5. */
  satisfaction: share,
  /** How many ratings gave 1, 2, 3, 4 and 5. */
  distribution: z.array(z.number().check(z.int())),
  first_response_median_minutes: minutes,
  first_response_p90_minutes: minutes,
  resolution_median_minutes: minutes,
  resolution_p90_minutes: minutes,
  /** Share of settled targets that were met. */
  first_response_met: share,
  resolution_met: share,
});
export type ReportRow = z.infer<typeof reportRow>;

/** A comment an employee left with a rating, with its request: for staff only. */
export const reportComment = z.object({
  request_id: z.number().check(z.int()),
  request_name: z.string(),
  employee_name: z.string(),
  concierge_name: z.nullable(z.string()),
  score: z.number().check(z.int()),
  comment: z.string(),
  rated_at: z.string(),
});
export type ReportComment = z.infer<typeof reportComment>;

/** The latest comments in the range, at most this many. */
export const REPORT_COMMENTS_LIMIT = 100;

export const reportResponse = z.object({
  from: z.string(),
  to: z.string(),
  group: reportGrouping,
  rows: z.array(reportRow),
  total: reportRow,
  comments: z.array(reportComment),
});
export type Report = z.infer<typeof reportResponse>;

/** The CSV export's columns, in order (GET /api/v1/console/reports.csv, same query). */
export const REPORT_CSV_COLUMNS = [
  'group',
  'label',
  'volume',
  'rated',
  'response_rate',
  'satisfaction',
  'score_1',
  'score_2',
  'score_3',
  'score_4',
  'score_5',
  'first_response_median_minutes',
  'first_response_p90_minutes',
  'resolution_median_minutes',
  'resolution_p90_minutes',
  'first_response_met',
  'resolution_met',
] as const;
