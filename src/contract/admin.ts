import * as z from 'zod/mini';
import { dbIdText } from './common.ts';

/**
 * The console's admin area (issue 13), under /api/v1/admin. Every route needs a signed-in admin: a visitor gets 401,
 * an employee or concierge 403. Errors are `errorBody`; 422 for bad input, with every bad field in `fields`. Every
 * write is recorded in the audit log in the same transaction as the change.
 */

export const auditAction = z.enum([
  'company.create',
  'company.update',
  'company.deactivate',
  'company.reactivate',
  'staff.invite',
  'account.role_change',
  'account.deactivate',
  'account.reactivate',
]);
export type AuditAction = z.infer<typeof auditAction>;
export const auditSubjectType = z.enum(['company', 'account']);
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

/**
 * GET /api/v1/admin/audit?limit=&before=&subject_type=&subject_id=: newest first. `before` is the `next_cursor` of
 * the previous page; a subject narrows it to one company's or account's history.
 */
export const auditQuery = z.object({
  limit: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(200)), 50),
  before: z.optional(dbIdText),
  subject_type: z.optional(auditSubjectType),
  subject_id: z.optional(dbIdText),
});
export type AuditFilter = z.infer<typeof auditQuery>;
export type AuditQuery = Partial<AuditFilter>;
/** `next_cursor`: pass it as `before` for the next (older) page; null on the last page. */
export const auditResponse = z.object({ events: z.array(auditEvent), next_cursor: z.nullable(z.number().check(z.int())) });
export type AuditResponse = z.infer<typeof auditResponse>;
