import { sql } from 'drizzle-orm';
import { index, integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.ts';
import { companies, users } from './schema.ts';

/**
 * Provisioning from a company's directory (issue 29 part 2, SCIM 2.0). The directory (Okta, Entra ID) reaches
 * /scim/v2 with a bearer token of its company; the token reaches only that company's members.
 */

/**
 * A company's SCIM bearer tokens: only the digest is kept, the token is shown once when made or rotated. A company
 * has at most one live token (not revoked); revoked ones stay for the record.
 */
export const scimTokens = pgTable(
  'scim_tokens',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    tokenDigest: text('token_digest').notNull().unique(),
    /** The token's first characters, for an admin to tell which one a directory holds. */
    prefix: text('prefix').notNull(),
    createdAt: createdAt(),
    rotatedAt: timestamp('rotated_at', { withTimezone: true }),
    /** Written at most once a minute, so that a busy directory does not write on every call. */
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (table) => [uniqueIndex('scim_tokens_live_company_idx').on(table.companyId).where(sql`${table.revokedAt} IS NULL`)],
);

/**
 * What a company's directory said of one of its members beyond the account itself: its own id for them
 * (`externalId`) and the userName it sent, and the resource's version (its ETag). The membership itself, and whether
 * the directory turned it off, is user_companies.
 */
export const scimUsers = pgTable(
  'scim_users',
  {
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    externalId: text('external_id'),
    userName: text('user_name').notNull(),
    version: integer('version').notNull().default(1),
    /**
     * Set when the directory deleted the User: the membership stays, turned off (user_companies.suspended_at), so
     * that the member's requests stay with the concierge team; the resource answers 404 until the directory creates
     * the same userName again.
     */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    primaryKey({ columns: [table.companyId, table.userId] }),
    uniqueIndex('scim_users_external_id_idx').on(table.companyId, table.externalId),
    index('scim_users_user_idx').on(table.userId),
  ],
);
