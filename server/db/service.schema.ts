import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.ts';
import { requests, users } from './schema.ts';
import { surveyCategories } from './surveys.schema.ts';

/**
 * The service a request got, as the concierge team promised and kept it (issue 28): the turnaround targets it was
 * promised when filed, how each ended, and the employee's rating of each completion. Reports (the console's and the
 * employer's) read these rows; the SLA clock, assignment and rating flows write them.
 */

/**
 * One row per request: its promise and how it was kept. Due times are null while the clock is paused or once the
 * target is settled; `*_met` is null until settled. Business minutes count only the calendar's opening hours, less
 * the time the request waited on the employee.
 *
 * A completion also copies here what the console's Reports group and count by (the employee, the survey category,
 * later the rating's score), and reopening withdraws it (completed_at back to null): a year of reports then reads one
 * index (request_service_levels_report_idx) instead of joining requests and ratings row by row.
 */
export const requestServiceLevels = pgTable(
  'request_service_levels',
  {
    requestId: integer('request_id')
      .primaryKey()
      .references(() => requests.id, { onDelete: 'cascade' }),
    firstResponseDueAt: timestamp('first_response_due_at', { withTimezone: true }),
    resolutionDueAt: timestamp('resolution_due_at', { withTimezone: true }),
    firstRespondedAt: timestamp('first_responded_at', { withTimezone: true }),
    firstResponseBusinessMinutes: integer('first_response_business_minutes'),
    resolutionBusinessMinutes: integer('resolution_business_minutes'),
    firstResponseMet: boolean('first_response_met'),
    resolutionMet: boolean('resolution_met'),
    /** The concierge credited with the last completion (the rating goes to them). */
    completedByUserId: integer('completed_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** When the request was completed; null while it is not (never completed, or reopened since). */
    completedAt: timestamp('completed_at', { withTimezone: true }),
    /** The request's employee and survey category, copied at completion. */
    employeeUserId: integer('employee_user_id').references(() => users.id, { onDelete: 'cascade' }),
    surveyCategoryId: integer('survey_category_id').references(() => surveyCategories.id, { onDelete: 'set null' }),
    /** The score of the completion's rating (request_ratings), null until the employee rates it. */
    ratingScore: smallint('rating_score'),
    updatedAt: updatedAt(),
  },
  (table) => [
    index('request_service_levels_first_response_due_idx').on(table.firstResponseDueAt),
    index('request_service_levels_resolution_due_idx').on(table.resolutionDueAt),
    // The console's queues by due time read the requests with one in this order (console.ts pageIds).
    index('request_service_levels_next_due_idx')
      .on(sql`least(${table.firstResponseDueAt}, ${table.resolutionDueAt})`)
      .where(sql`least(${table.firstResponseDueAt}, ${table.resolutionDueAt}) IS NOT NULL`),
    // Every column a report reads, after the completion time its range is on: the range is read from the index alone.
    index('request_service_levels_report_idx')
      .on(
        table.completedAt,
        table.employeeUserId,
        table.surveyCategoryId,
        table.completedByUserId,
        table.ratingScore,
        table.firstResponseBusinessMinutes,
        table.resolutionBusinessMinutes,
        table.firstResponseMet,
        table.resolutionMet,
      )
      .where(sql`${table.completedAt} IS NOT NULL`),
  ],
);

/** The employee's rating of one completion of their request: a reopened and completed-again request is rated anew. */
export const requestRatings = pgTable(
  'request_ratings',
  {
    id: serial('id').primaryKey(),
    requestId: integer('request_id')
      .notNull()
      .references(() => requests.id, { onDelete: 'cascade' }),
    /** The completion rated. */
    completedAt: timestamp('completed_at', { withTimezone: true }).notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    conciergeUserId: integer('concierge_user_id').references(() => users.id, { onDelete: 'set null' }),
    score: smallint('score').notNull(),
    comment: text('comment'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('request_ratings_completion_idx').on(table.requestId, table.completedAt),
    index('request_ratings_created_idx').on(table.createdAt),
    check('request_ratings_score_range', sql`${table.score} between 1 and 5`),
  ],
);
