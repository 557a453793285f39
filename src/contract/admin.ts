import * as z from 'zod/mini';
import { EMAIL_PATTERN } from './account.rules.ts';
import { dbId, dbIdText } from './common.ts';

/**
 * The console's admin area (issue 13), under /api/v1/admin: companies, staff and the audit log. Every route needs a
 * signed-in admin: a visitor gets 401, an employee or concierge 403. Errors are `errorBody`: 404 an unknown company
 * or account, 409 a clash (slug, e-mail domain, e-mail address) or a change that would leave no active admin, both
 * with `fields` naming the field when one is at fault, 422 bad input with every bad field in `fields`. Every write is
 * recorded in the audit log in the same transaction as the change.
 */

/** Lower-case letters and digits in words joined by single hyphens: the company's sign-up link (/sign-up/{slug}). */
export const COMPANY_SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const COMPANY_SLUG_ERROR = 'Use lower-case letters, digits and single hyphens, e.g. acme-corp';
/** A host name with at least two labels, each 1 to 63 letters, digits or inner hyphens, ending in a letters-only label. */
export const EMAIL_DOMAIN_PATTERN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
export const EMAIL_DOMAIN_ERROR = 'Enter a domain such as acme.com, without the @';
export const EMAIL_DOMAINS_MAX = 50;

export const mfaPolicy = z.enum(['off', 'optional', 'required']);
export type MfaPolicy = z.infer<typeof mfaPolicy>;

const companyName = z.string().check(z.trim(), z.minLength(1, 'Please enter the company name'), z.maxLength(100));
const companySlug = z.string().check(z.trim(), z.maxLength(60), z.regex(COMPANY_SLUG_PATTERN, COMPANY_SLUG_ERROR));
const emailDomain = z.string().check(z.trim(), z.toLowerCase(), z.regex(EMAIL_DOMAIN_PATTERN, EMAIL_DOMAIN_ERROR));
const emailDomains = z.array(emailDomain).check(
  z.maxLength(EMAIL_DOMAINS_MAX),
  z.refine((domains) => new Set(domains).size === domains.length, 'List each domain once'),
);
/** The key of an image the caller uploaded through POST /api/v1/uploads/presigned_url (no request_id); null: no logo. */
const logoUploadKey = z.nullable(z.string().check(z.minLength(1), z.maxLength(200)));

/** A company as the admin area shows it. `image_url` is what the app's 'Brought to you by' shows. */
export const adminCompany = z.object({
  id: z.number().check(z.int()),
  name: z.string(),
  slug: z.string(),
  image_url: z.nullable(z.string()),
  /** Set when the logo was uploaded in the console; null for no logo or a logo set otherwise (the demo's). */
  logo_upload_key: z.nullable(z.string()),
  mfa_policy: mfaPolicy,
  /** Sign-ups are admitted from addresses at these domains only; none: nobody joins by sign-up. Sorted. */
  email_domains: z.array(z.string()),
  /** A company of the service's own staff: its members count as internal users. */
  internal_staff: z.boolean(),
  active: z.boolean(),
  deactivated_at: z.nullable(z.string()),
  /** Accounts that belong to the company. */
  employee_count: z.number().check(z.int()),
  created_at: z.string(),
});
export type AdminCompany = z.infer<typeof adminCompany>;

/** GET /api/v1/admin/companies: every company, active or not, by name. */
export const adminCompaniesResponse = z.object({ companies: z.array(adminCompany) });
export type AdminCompaniesResponse = z.infer<typeof adminCompaniesResponse>;
/** GET /api/v1/admin/companies/{id}, and the answer of every change to one. */
export const adminCompanyResponse = z.object({ company: adminCompany });
export type AdminCompanyResponse = z.infer<typeof adminCompanyResponse>;

/** POST /api/v1/admin/companies -> 201 adminCompanyResponse. */
export const createCompanyRequest = z.object({
  name: companyName,
  slug: companySlug,
  mfa_policy: z._default(mfaPolicy, 'off'),
  email_domains: z._default(emailDomains, []),
  internal_staff: z._default(z.boolean(), false),
  logo_upload_key: z._default(logoUploadKey, null),
});
export type CreateCompanyRequest = z.input<typeof createCompanyRequest>;
export type NewCompany = z.infer<typeof createCompanyRequest>;

/** PATCH /api/v1/admin/companies/{id}: only the fields given change; `email_domains` replaces the whole list. */
export const updateCompanyRequest = z.partial(
  z.object({
    name: companyName,
    slug: companySlug,
    mfa_policy: mfaPolicy,
    email_domains: emailDomains,
    internal_staff: z.boolean(),
    logo_upload_key: logoUploadKey,
  }),
);
export type UpdateCompanyRequest = z.infer<typeof updateCompanyRequest>;

/**
 * POST /api/v1/admin/companies/{id}/deactivate and .../reactivate (no body) -> adminCompanyResponse. A deactivated
 * company admits no sign-ups and sponsors nobody (no benefits, no 'Brought to you by'); its employees who belong to
 * no other active company cannot sign in, and their sessions end at once. Its row and memberships are kept, so
 * reactivating gives everything back (its employees sign in again). Asking for the state it is in changes nothing.
 */

export const staffRole = z.enum(['concierge', 'admin', 'employer_admin']);
export const accountRole = z.enum(['employee', 'concierge', 'admin', 'employer_admin']);
export const EMPLOYER_COMPANY_NEEDED = 'Choose the company whose report they see';
export type AccountRole = z.infer<typeof accountRole>;

/** An account as the staff admin shows it (after a role change it may be an employee's). */
export const adminAccount = z.object({
  id: z.number().check(z.int()),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  full_name: z.string(),
  role: accountRole,
  active: z.boolean(),
  /** Invited and not accepted yet: no password has been chosen through the invitation's link (issue 32). */
  invited: z.boolean(),
  /** An employer admin's company (issue 29 part 3); null for everyone else. */
  employer_company_name: z.nullable(z.string()),
  deactivated_at: z.nullable(z.string()),
  created_at: z.string(),
});
export type AdminAccount = z.infer<typeof adminAccount>;

/** GET /api/v1/admin/staff: every concierge and admin, active or not, by name. */
export const adminStaffResponse = z.object({ staff: z.array(adminAccount) });
export type AdminStaffResponse = z.infer<typeof adminStaffResponse>;
export const adminAccountResponse = z.object({ account: adminAccount });
export type AdminAccountResponse = z.infer<typeof adminAccountResponse>;

/**
 * POST /api/v1/admin/staff -> 201 adminAccountResponse: a new concierge or admin account with no usable password;
 * the invitee is e-mailed a single-use link (the reset-password page, good for INVITATION_TTL_DAYS days) to choose
 * one. An address that already has an account is a 409 on `email`.
 */
export const inviteStaffRequest = z
  .object({
    email: z.pipe(z.string().check(z.trim(), z.toLowerCase(), z.maxLength(254)), z.email({ pattern: EMAIL_PATTERN })),
    first_name: z.string().check(z.trim(), z.minLength(1, 'Please enter the first name'), z.maxLength(100)),
    last_name: z.string().check(z.trim(), z.minLength(1, 'Please enter the last name'), z.maxLength(100)),
    role: staffRole,
    /** The company whose report an employer admin sees (issue 29 part 3); needed for that role, ignored for others. */
    company_id: z.optional(z.nullable(dbId)),
  })
  .check(
    z.refine((invitation) => invitation.role !== 'employer_admin' || typeof invitation.company_id === 'number', {
      message: EMPLOYER_COMPANY_NEEDED,
      path: ['company_id'],
    }),
  );
export type InviteStaffRequest = z.infer<typeof inviteStaffRequest>;
export const INVITATION_TTL_DAYS = 7;

/** PATCH /api/v1/admin/staff/{id} { role } -> adminAccountResponse. 409 when it would leave no active admin. */
export const changeRoleRequest = z.object({ role: accountRole });
export type ChangeRoleRequest = z.infer<typeof changeRoleRequest>;

/**
 * POST /api/v1/admin/staff/{id}/deactivate and .../reactivate (no body) -> adminAccountResponse. A deactivated
 * account cannot sign in, and every session and remembered MFA device of it ends at once; it answers once this
 * server has forgotten them. 409 when it would leave no active admin. Any account may be (de)activated this way.
 */

export const auditAction = z.enum([
  'company.create',
  'company.update',
  'company.deactivate',
  'company.reactivate',
  'company.sso_update',
  'company.sso_remove',
  'staff.invite',
  'account.role_change',
  'account.deactivate',
  'account.reactivate',
  'offering.create',
  'offering.update',
  'offering.move',
  'offering.feature',
  'offering.unfeature',
  'offering.publish',
  'offering.unpublish',
  'offering_category.create',
  'offering_category.update',
  'offering_category.move',
  'survey_category.create',
  'survey_category.update',
  'survey_template.create',
  'survey_template.update',
  'survey_template.questions_replace',
  'scim_token.create',
  'scim_token.rotate',
  'scim_token.revoke',
  'service_policy.create',
  'service_policy.update',
  'saved_reply.create',
  'saved_reply.update',
  'saved_reply.archive',
  'saved_reply.restore',
  'assignment.default_cap_change',
  'account.cap_change',
  'hours_estimate.update',
  'report_settings.update',
]);
export type AuditAction = z.infer<typeof auditAction>;
export const auditSubjectType = z.enum([
  'company',
  'account',
  'offering',
  'offering_category',
  'survey_category',
  'survey_template',
  'scim_token',
  'service_policy',
  'saved_reply',
  'assignment_settings',
]);
export type AuditSubjectType = z.infer<typeof auditSubjectType>;

/** A changed field's values; null for a field that did not exist before (a creation). */
export const auditChange = z.object({ before: z.unknown(), after: z.unknown() });
export type AuditChanges = Record<string, z.infer<typeof auditChange>>;

export const auditEvent = z.object({
  id: z.number().check(z.int()),
  at: z.string(),
  action: auditAction,
  /** Who made the change; null once that account no longer exists. */
  actor: z.nullable(z.object({ id: z.number().check(z.int()), full_name: z.string(), email: z.string() })),
  subject_type: auditSubjectType,
  subject_id: z.number().check(z.int()),
  /** The changed fields only; never a password, token or hash. */
  changes: z.record(z.string(), auditChange),
});
export type AuditEvent = z.infer<typeof auditEvent>;

export const AUDIT_PERIOD_ERROR = 'The start of the period must come before its end.';

/**
 * GET /api/v1/admin/audit?limit=&before=&subject_type=&subject_id=&actor_id=&action=&from=&until=: newest first.
 * `before` is the `next_cursor` of the previous page; a subject narrows it to one record's history. The filters of
 * the audit screen (issue 32): who made the change, its kind, and the period (`from` inclusive, `until` exclusive,
 * ISO 8601 instants: the screen sends the admin's local day boundaries).
 */
export const auditQuery = z
  .object({
    limit: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(200)), 50),
    before: z.optional(dbIdText),
    subject_type: z.optional(auditSubjectType),
    subject_id: z.optional(dbIdText),
    actor_id: z.optional(dbIdText),
    action: z.optional(auditAction),
    from: z.optional(z.iso.datetime({ offset: true })),
    until: z.optional(z.iso.datetime({ offset: true })),
  })
  .check(
    z.refine((query) => query.from === undefined || query.until === undefined || Date.parse(query.from) < Date.parse(query.until), {
      message: AUDIT_PERIOD_ERROR,
      path: ['until'],
    }),
  );
export type AuditFilter = z.infer<typeof auditQuery>;
export type AuditQuery = Partial<AuditFilter>;
/** `next_cursor`: pass it as `before` for the next (older) page; null on the last page. */
export const auditResponse = z.object({ events: z.array(auditEvent), next_cursor: z.nullable(z.number().check(z.int())) });
export type AuditResponse = z.infer<typeof auditResponse>;
