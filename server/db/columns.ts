import { type AnyPgColumn, integer, serial, text, timestamp } from 'drizzle-orm/pg-core';

/** Column builders every schema file uses; a builder is bound to one table, so each table calls these afresh. */

export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** When the row last changed; the writes that change it set it. */
export const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

/**
 * A bearer credential handed to one user (a session, a remembered MFA device): only its digest is kept; it ends when
 * it expires or is revoked, and goes with its user.
 */
export const bearerTokenColumns = (userIdColumn: () => AnyPgColumn) => ({
  id: serial('id').primaryKey(),
  userId: integer('user_id').notNull().references(userIdColumn, { onDelete: 'cascade' }),
  tokenDigest: text('token_digest').notNull().unique(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
  createdAt: createdAt(),
});

/** The key of a row about one user and one request (a read marker, a reply e-mail due): it goes with either. */
export const userRequestColumns = (userIdColumn: () => AnyPgColumn, requestIdColumn: () => AnyPgColumn) => ({
  userId: integer('user_id').notNull().references(userIdColumn, { onDelete: 'cascade' }),
  requestId: integer('request_id').notNull().references(requestIdColumn, { onDelete: 'cascade' }),
});
