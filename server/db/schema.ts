import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { bearerTokenColumns, createdAt, updatedAt } from './columns.ts';
import { searchDocument } from './textSearch.ts';
import { surveyCategories, userRequestSurveys } from './surveys.schema.ts';

export const mfaPolicy = pgEnum('mfa_policy', ['off', 'optional', 'required']);
export const userRole = pgEnum('user_role', ['employee', 'concierge', 'admin', 'employer_admin']);
export const oneTimeTokenPurpose = pgEnum('one_time_token_purpose', ['password_reset', 'unlock', 'email_confirmation']);
export const otpPurpose = pgEnum('otp_purpose', ['sign_in', 'enrollment']);
export const outboxChannel = pgEnum('outbox_channel', ['email', 'sms']);
export const uploadStatus = pgEnum('upload_status', ['pending', 'stored']);
export const requestStatus = pgEnum('request_status', ['open', 'in_progress', 'closed']);

export const companies = pgTable('companies', {
  id: serial('id').primaryKey(),
  slug: text('slug').notNull().unique(),
  name: text('name').notNull(),
  /** The logo's address: a static file, or for a logo uploaded in the console, companyLogoPath of its upload. */
  imageUrl: text('image_url'),
  /** The upload (an image) that image_url serves, when the logo was uploaded in the console. */
  logoUploadKey: text('logo_upload_key').references(() => uploads.key, { onDelete: 'set null' }),
  mfaPolicy: mfaPolicy('mfa_policy').notNull().default('off'),
  /** A company of the service's own staff: its members are internal users (analytics, error reports). */
  internalStaff: boolean('internal_staff').notNull().default(false),
  /**
   * Set while the company is deactivated (server/domain/admin/companies.ts): it admits no sign-ups and sponsors
   * nobody, and its employees who belong to no other active company cannot sign in. The row and its memberships are
   * kept.
   */
  deactivatedAt: timestamp('deactivated_at', { withTimezone: true }),
  createdAt: createdAt(),
});

/**
 * The e-mail domains a company admits sign-ups from (issue 9 point 9): an address at one of them may join it, and a
 * company with none (the staff companies) admits nobody by sign-up. A domain belongs to one company at most.
 */
export const companyEmailDomains = pgTable('company_email_domains', {
  /** Lower-case, without the "@" ("acme.test"). */
  domain: text('domain').primaryKey(),
  companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
});

export const users = pgTable('users', {
  id: serial('id').primaryKey(),
  externalId: uuid('external_id').notNull().unique().defaultRandom(),
  /** Always stored lower-cased and trimmed. */
  email: text('email').notNull().unique(),
  passwordHash: text('password_hash').notNull(),
  firstName: text('first_name').notNull(),
  lastName: text('last_name').notNull(),
  role: userRole('role').notNull().default('employee'),
  termsAcceptedAt: timestamp('terms_accepted_at', { withTimezone: true }),
  /** The verified MFA phone (10 digits); null until enrolment is verified. */
  mfaPhone: text('mfa_phone'),
  /** A phone given for enrolment and not yet verified by a code. */
  mfaPendingPhone: text('mfa_pending_phone'),
  mfaEnrolledAt: timestamp('mfa_enrolled_at', { withTimezone: true }),
  /** When the account-wide lock began and its unlock link was e-mailed (domain/accounts/lockout.ts); null when open. */
  lockedAt: timestamp('locked_at', { withTimezone: true }),
  passwordChangedAt: timestamp('password_changed_at', { withTimezone: true }),
  /**
   * Made with a password nobody knows (a staff invitation, `admin:create`): nobody can sign in to it until its owner
   * chooses one through the e-mailed link, which sets this back to false. The last admin is counted without these
   * (server/domain/admin/staff.ts).
   */
  awaitingPassword: boolean('awaiting_password').notNull().default(false),
  /**
   * When the owner proved the address by opening an e-mailed link; until then the companies of the account are
   * claimed, not granted (server/domain/accounts/emailConfirmation.ts). Sign-up stores null; accounts made by the
   * seed, the admin command or an operator are confirmed as they are made, hence the default.
   */
  emailConfirmedAt: timestamp('email_confirmed_at', { withTimezone: true }).defaultNow(),
  /** Set when the three onboarding steps are done; until then the user is sent to AboutUs. */
  onboardedAt: timestamp('onboarded_at', { withTimezone: true }),
  /** Set while an admin has deactivated the account: it cannot sign in and has no live session. */
  deactivatedAt: timestamp('deactivated_at', { withTimezone: true }),
  createdAt: createdAt(),
}, (table) => [
  // The console's search by an employee's name or e-mail, "contains" (pg_trgm, migration 0025).
  index('users_full_name_trgm_idx').using('gin', sql`(${table.firstName} || ' ' || ${table.lastName}) gin_trgm_ops`),
  index('users_email_trgm_idx').using('gin', table.email.op('gin_trgm_ops')),
]);

export const userCompanies = pgTable(
  'user_companies',
  {
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    /**
     * Set while the company's directory has turned the member off through SCIM (server/domain/scim): the company
     * sponsors them no more, as if it were deactivated for them alone; their requests stay.
     */
    suspendedAt: timestamp('suspended_at', { withTimezone: true }),
  },
  (table) => [primaryKey({ columns: [table.userId, table.companyId] })],
);

/**
 * Unsuccessful sign-ins, kept per address (lower-cased, whether or not an account has it) and client address, so that
 * throttling answers known and unknown addresses alike (server/domain/accounts/lockout.ts).
 */
export const signInFailures = pgTable(
  'sign_in_failures',
  {
    id: serial('id').primaryKey(),
    emailKey: text('email_key').notNull(),
    client: text('client').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    index('sign_in_failures_email_idx').on(table.emailKey, table.createdAt),
    index('sign_in_failures_created_idx').on(table.createdAt),
  ],
);

/** Client addresses a user has signed in from: they stay open to the user while strangers lock the account. */
export const familiarClients = pgTable(
  'familiar_clients',
  {
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    client: text('client').notNull(),
    lastSignedInAt: timestamp('last_signed_in_at', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.client] })],
);

export const sessions = pgTable(
  'sessions',
  bearerTokenColumns(() => users.id),
  (table) => [index('sessions_user_idx').on(table.userId)],
);

/** "Remember this device" tokens issued by a verified MFA code; sent back in the mfa-token header. */
export const mfaTokens = pgTable(
  'mfa_tokens',
  bearerTokenColumns(() => users.id),
  (table) => [index('mfa_tokens_user_idx').on(table.userId)],
);

/** Single-use e-mailed tokens: password reset and account unlock. */
export const oneTimeTokens = pgTable(
  'one_time_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    purpose: oneTimeTokenPurpose('purpose').notNull(),
    tokenDigest: text('token_digest').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [index('one_time_tokens_user_idx').on(table.userId, table.purpose)],
);

/** SMS codes: stored hashed, short-lived, limited tries, single use. */
export const otpCodes = pgTable(
  'otp_codes',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    purpose: otpPurpose('purpose').notNull(),
    phone: text('phone').notNull(),
    codeDigest: text('code_digest').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [index('otp_codes_user_idx').on(table.userId), index('otp_codes_phone_idx').on(table.phone, table.createdAt)],
);

/** E-mail and SMS written in the same transaction as their cause, delivered by the outbox worker. */
export const outbox = pgTable(
  'outbox',
  {
    id: serial('id').primaryKey(),
    channel: outboxChannel('channel').notNull(),
    recipient: text('recipient').notNull(),
    subject: text('subject'),
    body: text('body').notNull(),
    links: jsonb('links').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    lastError: text('last_error'),
    createdAt: createdAt(),
  },
  (table) => [index('outbox_pending_idx').on(table.deliveredAt, table.nextAttemptAt)],
);

/** A to-do handed to the concierge service (SPEC §3 Request). Survey and thread tables refer to it. */
export const requests = pgTable(
  'requests',
  {
    id: serial('id').primaryKey(),
    externalId: uuid('external_id').notNull().unique().defaultRandom(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    status: requestStatus('status').notNull().default('open'),
    details: text('details'),
    surveyCategoryId: integer('survey_category_id').references(() => surveyCategories.id, { onDelete: 'set null' }),
    /** The survey session the request was submitted from; unique, so submitting twice cannot make two requests. */
    userRequestSurveyId: integer('user_request_survey_id')
      .unique()
      .references(() => userRequestSurveys.id, { onDelete: 'set null' }),
    /** The concierge who has claimed the request. */
    assigneeUserId: integer('assignee_user_id').references(() => users.id, { onDelete: 'set null' }),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: updatedAt(),
    /** When it was last closed (the Completed queue's order); null while open or in progress. */
    closedAt: timestamp('closed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    index('requests_user_idx').on(table.userId, table.status),
    // The console's queues: by status, and "mine" by assignee.
    index('requests_queue_idx').on(table.status, table.assigneeUserId),
    // The employee's search of their requests (issue 32).
    index('requests_search_idx').using('gin', searchDocument(table.name, table.details)),
    // The console's search by the request's name, "contains" (pg_trgm, migration 0025).
    index('requests_name_trgm_idx').using('gin', table.name.op('gin_trgm_ops')),
    // The Completed queue's page, most recently closed first: read in order rather than sorting a year of requests.
    index('requests_completed_idx').on(table.closedAt.desc().nullsLast(), table.id.desc().nullsFirst()).where(sql`${table.status} = 'closed'`),
  ],
);

/**
 * How many requests each status holds, per assignee (0: none): the console's queue counts read these few rows, not
 * every request. A trigger on requests keeps them (migration 0027), in the transaction that changes a request.
 */
export const requestQueueSizes = pgTable(
  'request_queue_sizes',
  {
    status: requestStatus('status').notNull(),
    assigneeUserId: integer('assignee_user_id').notNull(),
    size: integer('size').notNull(),
  },
  (table) => [primaryKey({ columns: [table.status, table.assigneeUserId] })],
);

export const uploads = pgTable(
  'uploads',
  {
    id: serial('id').primaryKey(),
    /** Random storage key; never derived from the user's file name. */
    key: text('key').notNull().unique(),
    ownerUserId: integer('owner_user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    /** Set when the upload belongs to a request thread (staff may then read it). */
    requestId: integer('request_id').references(() => requests.id, { onDelete: 'cascade' }),
    filename: text('filename').notNull(),
    contentType: text('content_type'),
    size: integer('size'),
    status: uploadStatus('status').notNull().default('pending'),
    storedAt: timestamp('stored_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [index('uploads_owner_idx').on(table.ownerUserId)],
);

/** The first-party analytics sink. */
export const analyticsEvents = pgTable('analytics_events', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  userExternalId: uuid('user_external_id'),
  properties: jsonb('properties').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
  createdAt: createdAt(),
});

/**
 * Who changed what in the console's admin area, and when (issue 13): written in the transaction of the change it
 * tells about (server/domain/admin/audit.ts). `changes` holds the changed fields' values before and after, never a
 * secret.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: serial('id').primaryKey(),
    actorUserId: integer('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** What was done, e.g. 'company.create' (auditAction of src/contract/admin.ts). */
    action: text('action').notNull(),
    subjectType: text('subject_type').notNull(),
    subjectId: integer('subject_id').notNull(),
    changes: jsonb('changes').$type<Record<string, { before: unknown; after: unknown }>>().notNull().default(sql`'{}'::jsonb`),
  },
  (table) => [index('audit_events_subject_idx').on(table.subjectType, table.subjectId)],
);
