import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.ts';
import { companies, sessions, users } from './schema.ts';

/**
 * Single sign-on with OpenID Connect (issue 29 part 1): a company's identity provider, the sign-ins under way, the
 * one-time codes that hand a finished sign-in to the app, and the sessions the identity provider vouched for.
 */

/**
 * One identity provider per company. The client secret is kept only sealed with AES-256-GCM under SSO_SECRET_KEY
 * (server/domain/sso/secretBox.ts); nothing answers it back. `email_domains` is the part of the company's e-mail
 * domains whose addresses the provider signs in (a subset: discovery and provisioning read both lists).
 */
export const companySso = pgTable(
  'company_sso',
  {
    companyId: integer('company_id')
      .primaryKey()
      .references(() => companies.id, { onDelete: 'cascade' }),
    issuer: text('issuer').notNull(),
    clientId: text('client_id').notNull(),
    clientSecretSealed: text('client_secret_sealed').notNull(),
    emailDomains: text('email_domains').array().notNull(),
    /** optional: the password still works beside SSO; enforced: addresses at its domains sign in by SSO only. */
    mode: text('mode', { enum: ['optional', 'enforced'] }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [check('company_sso_mode_check', sql`${table.mode} IN ('optional', 'enforced')`)],
);

/**
 * A sign-in sent to the identity provider and not back yet: looked up by the digest of its `state`, bound to the
 * browser that started it by the digest of a cookie, single use (deleted as the callback reads it).
 */
export const ssoSignIns = pgTable(
  'sso_sign_ins',
  {
    stateDigest: text('state_digest').primaryKey(),
    browserDigest: text('browser_digest').notNull(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    codeVerifier: text('code_verifier').notNull(),
    nonce: text('nonce').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('sso_sign_ins_expires_idx').on(table.expiresAt)],
);

/** A finished SSO sign-in waiting for the app to take it: a short-lived, single-use code that becomes a session. */
export const ssoHandoffs = pgTable(
  'sso_handoffs',
  {
    codeDigest: text('code_digest').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('sso_handoffs_expires_idx').on(table.expiresAt)],
);

/** Sessions started by SSO: the identity provider did the second factor, so the app's MFA does not apply to them. */
export const ssoSessions = pgTable('sso_sessions', {
  sessionId: integer('session_id')
    .primaryKey()
    .references(() => sessions.id, { onDelete: 'cascade' }),
  companyId: integer('company_id')
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' }),
});
