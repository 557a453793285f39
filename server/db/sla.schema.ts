import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { WeeklyHours } from '../../src/contract/businessHours.ts';
import { createdAt, updatedAt } from './columns.ts';
import { companies, requests } from './schema.ts';

/**
 * Turnaround targets (issue 28): what the concierge team promises each company, and each request's running clock.
 * The promise itself and how it was kept live in `request_service_levels` (service.schema.ts), which the reports read;
 * these tables hold what only the clock needs.
 */

/**
 * A company's targets, in business minutes of its calendar; the row without a company is the default policy of every
 * company without one of its own (at most one such row).
 */
export const servicePolicies = pgTable(
  'service_policies',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').references(() => companies.id, { onDelete: 'cascade' }),
    firstResponseMinutes: integer('first_response_minutes').notNull(),
    resolutionMinutes: integer('resolution_minutes').notNull(),
    timeZone: text('time_zone').notNull(),
    week: jsonb('week').$type<WeeklyHours>().notNull(),
    holidays: jsonb('holidays').$type<string[]>().notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('service_policies_company_idx').on(table.companyId),
    uniqueIndex('service_policies_default_idx').on(sql`(${table.companyId} IS NULL)`).where(sql`${table.companyId} IS NULL`),
    check('service_policies_targets_positive', sql`${table.firstResponseMinutes} > 0 AND ${table.resolutionMinutes} > 0`),
  ],
);

/** The calendar a request was promised under, kept with its clock: a later change of policy leaves it as it was. */
export interface PromisedCalendar {
  timeZone: string;
  week: WeeklyHours;
  holidays: string[];
}

/**
 * Each request's running clock. Due and at-risk times move on when a pause ends (by the business time paused);
 * `next_alert_at` is the sweeper's due-time index: the earliest alert not yet sent, null when none is pending (paused,
 * settled). Each `*_alerted_at` records that an alert went out, so that it goes out once, whichever process sweeps.
 */
export const requestSlaClocks = pgTable(
  'request_sla_clocks',
  {
    requestId: integer('request_id')
      .primaryKey()
      .references(() => requests.id, { onDelete: 'cascade' }),
    policyId: integer('policy_id').references(() => servicePolicies.id, { onDelete: 'set null' }),
    calendar: jsonb('calendar').$type<PromisedCalendar>().notNull(),
    firstResponseMinutes: integer('first_response_minutes').notNull(),
    resolutionMinutes: integer('resolution_minutes').notNull(),
    firstResponseDueAt: timestamp('first_response_due_at', { withTimezone: true }).notNull(),
    firstResponseAtRiskAt: timestamp('first_response_at_risk_at', { withTimezone: true }).notNull(),
    /** When the resolution clock last started: filing, or the latest reopening. */
    resolutionStartedAt: timestamp('resolution_started_at', { withTimezone: true }).notNull(),
    resolutionDueAt: timestamp('resolution_due_at', { withTimezone: true }).notNull(),
    resolutionAtRiskAt: timestamp('resolution_at_risk_at', { withTimezone: true }).notNull(),
    /** Waiting on the employee since; null while the clock runs. */
    pausedAt: timestamp('paused_at', { withTimezone: true }),
    firstResponseAtRiskAlertedAt: timestamp('first_response_at_risk_alerted_at', { withTimezone: true }),
    firstResponseBreachAlertedAt: timestamp('first_response_breach_alerted_at', { withTimezone: true }),
    resolutionAtRiskAlertedAt: timestamp('resolution_at_risk_alerted_at', { withTimezone: true }),
    resolutionBreachAlertedAt: timestamp('resolution_breach_alerted_at', { withTimezone: true }),
    nextAlertAt: timestamp('next_alert_at', { withTimezone: true }),
    updatedAt: updatedAt(),
  },
  (table) => [index('request_sla_clocks_next_alert_idx').on(table.nextAlertAt).where(sql`${table.nextAlertAt} IS NOT NULL`)],
);
