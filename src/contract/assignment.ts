import * as z from 'zod/mini';
import { MESSAGE_BODY_MAX } from './requests.ts';
import { dbId } from './common.ts';

/**
 * Assignment and saved replies (issue 28, part 2). Console routes (staff only, 403 for employees):
 * GET/PUT /api/v1/console/availability, GET /api/v1/console/saved_replies, POST /api/v1/console/saved_replies/{id}/fill.
 * Admin routes (admins only): /api/v1/admin/assignment (the team's default cap), /api/v1/admin/assignment/staff
 * (each staff member's cap), /api/v1/admin/saved_replies (the templates, archived rather than deleted).
 */

/** The most open requests a cap may allow: beyond it a cap means nothing. */
export const MAX_OPEN_REQUEST_CAP = 500;
export const OPEN_REQUEST_CAP_ERROR = `Please enter a whole number from 0 to ${MAX_OPEN_REQUEST_CAP}.`;
const openRequestCap = z.number().check(z.int(), z.minimum(0, OPEN_REQUEST_CAP_ERROR), z.maximum(MAX_OPEN_REQUEST_CAP, OPEN_REQUEST_CAP_ERROR));

/** A staff member as the team sees them: whether they take new requests now, and how many open ones they hold. */
export const teamMember = z.object({
  id: z.number().check(z.int()),
  full_name: z.string(),
  role: z.enum(['concierge', 'admin']),
  available: z.boolean(),
  /** Their requests not yet completed. */
  open_requests: z.number().check(z.int()),
  /** The most open requests automatic assignment gives them (their override, or the team's default). */
  open_request_cap: z.number().check(z.int()),
});
export type TeamMember = z.infer<typeof teamMember>;

/** GET and PUT /api/v1/console/availability: the caller's own state, and the team's (the caller included). */
export const availabilityResponse = z.object({ me: teamMember, team: z.array(teamMember) });
export type AvailabilityResponse = z.infer<typeof availabilityResponse>;

/** PUT /api/v1/console/availability { available }: available takes the next requests at once (up to the cap). */
export const availabilityRequest = z.object({ available: z.boolean() });
export type AvailabilityRequest = z.infer<typeof availabilityRequest>;

/** What a claim that came second is told, naming who came first. */
export const claimedFirstMessage = (name: string) => `${name} claimed this request first.`;

// ---------------------------------------------------------------------------------------------------------------
// Saved replies
// ---------------------------------------------------------------------------------------------------------------

/** The placeholders a saved reply may hold, each filled when the reply is inserted for a request. */
export const PLACEHOLDERS = ['employee_first_name', 'request_name', 'concierge_name'] as const;
export type Placeholder = (typeof PLACEHOLDERS)[number];
const PLACEHOLDER_PATTERN = /\{\{\s*([a-z_]+)\s*\}\}/g;

export const SAVED_REPLY_ERRORS = {
  title: 'Please give the reply a title (at most 120 characters).',
  shortCode: 'Use 1 to 32 lower-case letters, digits, - or _, starting with a letter or digit.',
  body: `Please write the reply (at most ${MESSAGE_BODY_MAX} characters).`,
  unknownPlaceholder: (name: string) => `{{${name}}} is not a placeholder. Use ${PLACEHOLDERS.map((p) => `{{${p}}}`).join(', ')}.`,
  shortCodeTaken: (code: string) => `Another saved reply already uses /${code}.`,
};

/** The placeholders a body names that do not exist. */
export function unknownPlaceholders(body: string): string[] {
  return [...body.matchAll(PLACEHOLDER_PATTERN)].map((match) => match[1]).filter((name) => !(PLACEHOLDERS as readonly string[]).includes(name));
}

/** The body with every placeholder replaced by its value. */
export function fillPlaceholders(body: string, values: Record<Placeholder, string>): string {
  return body.replace(PLACEHOLDER_PATTERN, (whole, name: string) => (name in values ? values[name as Placeholder] : whole));
}

export const savedReplyFields = {
  title: z.string().check(z.trim(), z.minLength(1, SAVED_REPLY_ERRORS.title), z.maxLength(120, SAVED_REPLY_ERRORS.title)),
  short_code: z.string().check(z.trim(), z.toLowerCase(), z.regex(/^[a-z0-9][a-z0-9_-]{0,31}$/, SAVED_REPLY_ERRORS.shortCode)),
  body_markdown: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, SAVED_REPLY_ERRORS.body),
      z.maxLength(MESSAGE_BODY_MAX, SAVED_REPLY_ERRORS.body),
      z.superRefine((body, context) => {
        const [unknown] = unknownPlaceholders(body);
        if (unknown !== undefined) context.addIssue({ code: 'custom', message: SAVED_REPLY_ERRORS.unknownPlaceholder(unknown), input: body });
      }),
    ),
};

/** POST /api/v1/admin/saved_replies and PATCH .../{id}: the whole template. */
export const savedReplyRequest = z.object(savedReplyFields);
export type SavedReplyRequest = z.infer<typeof savedReplyRequest>;

export const savedReply = z.object({
  id: z.number().check(z.int()),
  title: z.string(),
  short_code: z.string(),
  body_markdown: z.string(),
  active: z.boolean(),
  updated_at: z.string(),
});
export type SavedReply = z.infer<typeof savedReply>;
export const savedReplyResponse = z.object({ saved_reply: savedReply });
export const savedRepliesResponse = z.object({ saved_replies: z.array(savedReply) });
export type SavedRepliesResponse = z.infer<typeof savedRepliesResponse>;

/** POST /api/v1/console/saved_replies/{id}/fill { request_id }: the reply's Markdown for that request, filled in. */
export const fillSavedReplyRequest = z.object({ request_id: dbId });
export const filledSavedReply = z.object({ body_markdown: z.string() });
export type FilledSavedReply = z.infer<typeof filledSavedReply>;

// ---------------------------------------------------------------------------------------------------------------
// Caps (admin)
// ---------------------------------------------------------------------------------------------------------------

/** GET and PUT /api/v1/admin/assignment: the team's default cap (PUT is audit-logged). */
export const assignmentSettings = z.object({ id: z.number().check(z.int()), default_open_request_cap: z.number().check(z.int()) });
export type AssignmentSettings = z.infer<typeof assignmentSettings>;
export const assignmentSettingsRequest = z.object({ default_open_request_cap: openRequestCap });
export type AssignmentSettingsRequest = z.infer<typeof assignmentSettingsRequest>;
export const assignmentSettingsResponse = z.object({ settings: assignmentSettings });

/** A staff member's cap as the admin sets it: `cap_override` null follows the team's default. */
export const staffCap = z.extend(teamMember, { email: z.string(), cap_override: z.nullable(z.number().check(z.int())) });
export type StaffCap = z.infer<typeof staffCap>;
export const staffCapsResponse = z.object({ staff: z.array(staffCap) });
export const staffCapResponse = z.object({ staff_member: staffCap });
/** PATCH /api/v1/admin/assignment/staff/{id} { cap_override } (audit-logged). */
export const staffCapRequest = z.object({ cap_override: z.nullable(openRequestCap) });
export type StaffCapRequest = z.infer<typeof staffCapRequest>;
