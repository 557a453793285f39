import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgEnum, pgTable, primaryKey, serial, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt, userRequestColumns } from './columns.ts';
import { searchDocument } from './textSearch.ts';
import { requestStatus, requests, sessions, users } from './schema.ts';

/**
 * A request's conversation and its staff-side bookkeeping: the messages the employee sees, the internal notes they
 * never see (a table of their own, so no employee query can pick one up by a missed filter), each staff member's
 * read marker, the request's history, and the short-lived tickets that open a live-update stream.
 */

/**
 * The Idempotency-Key a post came with, and a digest of what it asked for: a retry with the same key finds the row it
 * made instead of writing a second one (and a different ask under the same key is refused).
 */
const idempotency = () => ({
  idempotencyKey: uuid('idempotency_key'),
  idempotencyFingerprint: text('idempotency_fingerprint'),
});

/** SPEC §3 Message.source: who wrote it, which decides the avatar. */
export const messageSource = pgEnum('message_source', ['user', 'life_concierge']);

export const messages = pgTable(
  'messages',
  {
    id: serial('id').primaryKey(),
    requestId: integer('request_id')
      .notNull()
      .references(() => requests.id, { onDelete: 'cascade' }),
    /** The account that wrote it; null once that account is deleted (the message stays in the thread). */
    authorUserId: integer('author_user_id').references(() => users.id, { onDelete: 'set null' }),
    source: messageSource('source').notNull(),
    /** The author's name as shown in the thread, kept as it was when written. */
    sourceName: text('source_name').notNull(),
    /** Safe HTML: an employee's text escaped, a concierge's Markdown rendered and sanitised. */
    bodyHtml: text('body_html').notNull(),
    /** Storage keys of the uploads sent with it (at most one; those uploads point at the request). */
    attachmentKeys: jsonb('attachment_keys').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    ...idempotency(),
    createdAt: createdAt(),
  },
  (table) => [
    index('messages_request_idx').on(table.requestId, table.id),
    // A thread in its order (SPEC §4: by creation time), newest page first and older pages before a cursor (issue 31):
    // a 2,000-message thread reads 101 entries instead of sorting all of them.
    index('messages_thread_idx').on(table.requestId, table.createdAt, table.id),
    uniqueIndex('messages_idempotency_idx').on(table.authorUserId, table.idempotencyKey),
    // The employee's search of their requests' messages (issue 32). The HTML's tags are not words to the parser.
    index('messages_search_idx').using('gin', searchDocument(table.bodyHtml)),
  ],
);

/** Staff-only remarks on a request. Never part of an employee answer, an e-mail or an employee's live stream. */
export const internalNotes = pgTable(
  'internal_notes',
  {
    id: serial('id').primaryKey(),
    requestId: integer('request_id')
      .notNull()
      .references(() => requests.id, { onDelete: 'cascade' }),
    authorUserId: integer('author_user_id').references(() => users.id, { onDelete: 'set null' }),
    authorName: text('author_name').notNull(),
    bodyHtml: text('body_html').notNull(),
    ...idempotency(),
    createdAt: createdAt(),
  },
  (table) => [
    index('internal_notes_request_idx').on(table.requestId, table.id),
    uniqueIndex('internal_notes_idempotency_idx').on(table.authorUserId, table.idempotencyKey),
  ],
);

/** How far one staff member has read a thread: employee messages with a greater id are unread for them. */
export const requestReadMarkers = pgTable(
  'request_read_markers',
  {
    ...userRequestColumns(() => users.id, () => requests.id),
    lastReadMessageId: integer('last_read_message_id').notNull(),
    updatedAt: updatedAt(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.requestId] })],
);

export const requestEventKind = pgEnum('request_event_kind', ['status_changed', 'assigned']);

/** The request's history as the console shows it: who changed its status or its assignee, and when. */
export const requestEvents = pgTable(
  'request_events',
  {
    id: serial('id').primaryKey(),
    requestId: integer('request_id')
      .notNull()
      .references(() => requests.id, { onDelete: 'cascade' }),
    kind: requestEventKind('kind').notNull(),
    /** Null when the account that acted is gone. */
    actorUserId: integer('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    actorName: text('actor_name').notNull(),
    fromStatus: requestStatus('from_status'),
    toStatus: requestStatus('to_status'),
    /** For 'assigned': the new assignee (null: unassigned), and the name shown for them. */
    assigneeUserId: integer('assignee_user_id').references(() => users.id, { onDelete: 'set null' }),
    assigneeName: text('assignee_name'),
    createdAt: createdAt(),
  },
  (table) => [index('request_events_request_idx').on(table.requestId, table.id)],
);

/**
 * Single-use tickets for GET /api/v1/events (an EventSource cannot send the Authorization header). Stored as
 * digests, like every other token; bound to the session that asked, so a revoked session ends its streams.
 */
export const eventStreamTickets = pgTable(
  'event_stream_tickets',
  {
    id: serial('id').primaryKey(),
    tokenDigest: text('token_digest').notNull().unique(),
    sessionId: integer('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('event_stream_tickets_expiry_idx').on(table.expiresAt)],
);
