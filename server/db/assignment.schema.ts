import { sql } from 'drizzle-orm';
import { boolean, check, integer, pgTable, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.ts';
import { users } from './schema.ts';

/**
 * Who takes the next request, and the replies concierges reuse (issue 28, part 2): each staff member's availability
 * and cap of open requests, the team's default cap with the round-robin pointer, and the saved replies.
 */

/**
 * The team's one row (id 1): the default cap of open requests per concierge, and who was assigned last. Every
 * automatic assignment locks this row first, so that two server processes never hand out the same turn.
 */
export const assignmentSettings = pgTable(
  'assignment_settings',
  {
    id: smallint('id').primaryKey(),
    defaultOpenRequestCap: integer('default_open_request_cap').notNull(),
    /** The round-robin pointer: the next turn goes to the first available staff member after this id. */
    lastAssignedUserId: integer('last_assigned_user_id').references(() => users.id, { onDelete: 'set null' }),
    updatedAt: updatedAt(),
  },
  (table) => [check('assignment_settings_single_row', sql`${table.id} = 1`)],
);

/** A staff member's own assignment settings; no row means away, with the team's default cap. */
export const staffAssignment = pgTable('staff_assignment', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  available: boolean('available').notNull().default(false),
  /** The admin's override of the team's default cap; null: the default. */
  openRequestCap: integer('open_request_cap'),
  availabilityChangedAt: timestamp('availability_changed_at', { withTimezone: true }),
  updatedAt: updatedAt(),
});

/** A reply template shared by the team; archived (inactive) ones are kept but no longer offered. */
export const savedReplies = pgTable(
  'saved_replies',
  {
    id: serial('id').primaryKey(),
    title: text('title').notNull(),
    /** What a concierge types after `/` in the composer, lower case. */
    shortCode: text('short_code').notNull(),
    bodyMarkdown: text('body_markdown').notNull(),
    active: boolean('active').notNull().default(true),
    createdByUserId: integer('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [uniqueIndex('saved_replies_short_code_idx').on(table.shortCode)],
);
