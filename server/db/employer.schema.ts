import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.ts';
import { companies, users } from './schema.ts';
import { surveyCategories } from './surveys.schema.ts';

/**
 * The employer's side of the service (issue 29 part 3): who reports to which company, how each company's report is
 * kept private, the hours a request of each category saves, and which monthly summaries have gone out.
 */

/** An employer admin reads the report of exactly one company (users.role = 'employer_admin'). */
export const employerAdmins = pgTable(
  'employer_admins',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (table) => [index('employer_admins_company_idx').on(table.companyId)],
);

/** The default smallest group a report may describe, and the floor no admin may go below. */
export const DEFAULT_SUPPRESSION_THRESHOLD = 10;
export const MIN_SUPPRESSION_THRESHOLD = 5;

/**
 * Per company, set by our admins: the smallest number of distinct employees a published figure may describe, and
 * the headcount the employer contracted for (the "eligible" of eligible vs signed up; null until told).
 * A company without a row uses the defaults.
 */
export const employerReportSettings = pgTable(
  'employer_report_settings',
  {
    companyId: integer('company_id')
      .primaryKey()
      .references(() => companies.id, { onDelete: 'cascade' }),
    suppressionThreshold: integer('suppression_threshold').notNull().default(DEFAULT_SUPPRESSION_THRESHOLD),
    eligibleEmployees: integer('eligible_employees'),
    updatedAt: updatedAt(),
  },
  (table) => [
    check('employer_report_settings_threshold_floor', sql`${table.suppressionThreshold} >= 5`),
    check('employer_report_settings_eligible_positive', sql`${table.eligibleEmployees} is null or ${table.eligibleEmployees} >= 0`),
  ],
);

/** Minutes an employee saves, by our admins' estimate, on a completed request of the category. */
export const hoursSavedEstimates = pgTable(
  'hours_saved_estimates',
  {
    surveyCategoryId: integer('survey_category_id')
      .primaryKey()
      .references(() => surveyCategories.id, { onDelete: 'cascade' }),
    minutesPerRequest: integer('minutes_per_request').notNull(),
    updatedAt: updatedAt(),
  },
  (table) => [check('hours_saved_estimates_minutes_range', sql`${table.minutesPerRequest} between 0 and 10000`)],
);

/**
 * One row per employer admin and month summarised: inserted in the transaction that puts the summary in the outbox,
 * so whichever process inserts it first sends it, and no process sends it twice.
 */
export const employerSummaryMails = pgTable(
  'employer_summary_mails',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The month summarised, 'YYYY-MM'. */
    month: text('month').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.month] })],
);
