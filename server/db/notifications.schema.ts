import { index, integer, pgEnum, pgTable, primaryKey, timestamp } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt, userRequestColumns } from './columns.ts';
import { requests, users } from './schema.ts';

/**
 * What the employee is e-mailed about their concierge's replies (issue 32 point 1), and the replies waiting to be
 * e-mailed. A reply is e-mailed only if it is still unread when its e-mail falls due, so the wait is kept here, in
 * the database: it survives a restart, and one worker of one process sends it.
 */

/** SPEC beyond: each reply (after REPLY_EMAIL_DELAY_MS), one daily digest, or none. */
export const replyEmailChoice = pgEnum('reply_email_choice', ['each', 'digest', 'none']);

/** An employee's choice; no row is the default, 'each'. */
export const notificationSettings = pgTable('notification_settings', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  replyEmails: replyEmailChoice('reply_emails').notNull().default('each'),
  updatedAt: updatedAt(),
});

/**
 * A request with a reply its owner may have to be e-mailed about, once `due_at` has passed. One row per request: the
 * replies that arrive before it falls due share its e-mail.
 */
export const pendingReplyEmails = pgTable(
  'pending_reply_emails',
  {
    ...userRequestColumns(() => users.id, () => requests.id),
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.requestId] }), index('pending_reply_emails_due_idx').on(table.dueAt)],
);
