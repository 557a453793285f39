import * as z from 'zod/mini';
import { MAX_DB_ID, dbId } from './common.ts';
import { company } from './account.ts';
import { MESSAGE_BODY_MAX, attachmentKeys, message, messageText } from './requests.ts';
import { requestStatus } from './surveys.ts';
import { consoleServiceLevel } from './sla.ts';

/**
 * The concierge console's API, under /api/v1/console. Every route needs a signed-in concierge or admin; an
 * employee gets 403 on all of them. Errors are `errorBody`: 404 unknown request, 409 a status change that is not
 * allowed from the current status, 422 bad input.
 */

/** The console's queues: In Queue (open), In Progress (mine / everyone's), Completed (closed). */
export const consoleQueue = z.enum(['in_queue', 'in_progress_mine', 'in_progress', 'completed']);
export type ConsoleQueue = z.infer<typeof consoleQueue>;

export const queueCounts = z.object({
  in_queue: z.number().check(z.int()),
  in_progress_mine: z.number().check(z.int()),
  in_progress: z.number().check(z.int()),
  completed: z.number().check(z.int()),
});
export type QueueCounts = z.infer<typeof queueCounts>;

/** A concierge or admin, as an assignee or in the assign-to list. */
export const staffMember = z.object({
  id: z.number().check(z.int()),
  full_name: z.string(),
  email: z.string(),
  role: z.enum(['concierge', 'admin']),
});
export type StaffMember = z.infer<typeof staffMember>;

export const consoleEmployee = z.object({
  id: z.number().check(z.int()),
  full_name: z.string(),
  email: z.string(),
});

/** A row of a queue. */
export const consoleRequestSummary = z.object({
  id: z.number().check(z.int()),
  external_id: z.string(),
  name: z.string(),
  status: requestStatus,
  issued_at: z.string(),
  updated_at: z.string(),
  closed_at: z.nullable(z.string()),
  survey_category_name: z.nullable(z.string()),
  employee: consoleEmployee,
  assignee: z.nullable(staffMember),
  /** Employee messages the caller has not read (per staff member; see POST .../read). */
  unread_count: z.number().check(z.int()),
  last_message_at: z.nullable(z.string()),
  /** Beyond SPEC (issue 28): the turnaround target in play and its state; null for a request filed before targets. */
  service_level: z.optional(z.nullable(consoleServiceLevel)),
});
export type ConsoleRequestSummary = z.infer<typeof consoleRequestSummary>;

/**
 * GET /api/v1/console/requests?queue=&q=&limit=&offset=. Without a queue: every request. `q` matches the
 * employee's name or e-mail or the request's name (case-insensitive, anywhere in the text). Order: In Queue
 * oldest first (first come, first served); In Progress by latest activity; Completed most recently closed first;
 * all requests by latest activity. Beyond SPEC (issue 28): the open queues (In Queue, In Progress, Mine) sort by due
 * time by default, soonest first (a paused or settled request last); `sort=arrival` asks for the order above.
 */
export const consoleQueueSort = z.enum(['due', 'arrival']);
export const consoleRequestsQuery = z.object({
  queue: z.optional(consoleQueue),
  sort: z.optional(consoleQueueSort),
  q: z.optional(z.string().check(z.trim(), z.maxLength(200))),
  limit: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(200)), 50),
  offset: z._default(z.coerce.number().check(z.int(), z.minimum(0), z.maximum(MAX_DB_ID)), 0),
});
/** What the server works with, defaults applied. */
export type ConsoleRequestsFilter = z.infer<typeof consoleRequestsQuery>;
/** What a client may send. */
export type ConsoleRequestsQuery = Partial<ConsoleRequestsFilter>;

/** `counts` are the queue sizes (not narrowed by `q`); `total` is how many match this query before paging. */
export const consoleRequestsResponse = z.object({
  requests: z.array(consoleRequestSummary),
  counts: queueCounts,
  total: z.number().check(z.int()),
});
export type ConsoleRequestsResponse = z.infer<typeof consoleRequestsResponse>;

/** One answered question of the survey the request came from, as the employee gave it. */
export const surveyAnswer = z.object({
  question_id: z.number().check(z.int()),
  label: z.string(),
  /** How it reads: an option's label, a phone as (999) 999-9999, a file by its name. */
  answer: z.string(),
  /** For an upload question: the file's storage key (open it through the Attachment route). */
  attachment_key: z.nullable(z.string()),
});
export type SurveyAnswer = z.infer<typeof surveyAnswer>;

/**
 * The console's timeline of a request, oldest first: the messages the employee also sees, internal notes (staff
 * only), and history events. Ids are unique per kind only: key entries by kind and id.
 */
export const threadEntry = z.discriminatedUnion('kind', [
  z.extend(message, { kind: z.literal('message') }),
  z.object({
    kind: z.literal('note'),
    id: z.number().check(z.int()),
    body_html: z.string(),
    author_name: z.string(),
    created_at: z.string(),
  }),
  z.object({
    kind: z.literal('event'),
    id: z.number().check(z.int()),
    event: z.enum(['status_changed', 'assigned']),
    actor_name: z.string(),
    from_status: z.nullable(requestStatus),
    to_status: z.nullable(requestStatus),
    /** For 'assigned': who it went to (null: unassigned). */
    assignee_name: z.nullable(z.string()),
    created_at: z.string(),
  }),
]);
export type ThreadEntry = z.infer<typeof threadEntry>;

/** GET /api/v1/console/requests/{id}, and the answer of every change made to it. */
export const consoleRequest = z.extend(consoleRequestSummary, {
  created_at: z.string(),
  details: z.nullable(z.string()),
  survey_category_image_url: z.nullable(z.string()),
  employee: z.extend(consoleEmployee, { external_id: z.string(), companies: z.array(company) }),
  survey_answers: z.array(surveyAnswer),
  thread: z.array(threadEntry),
});
export type ConsoleRequest = z.infer<typeof consoleRequest>;
export const consoleRequestResponse = z.object({ request: consoleRequest });
export type ConsoleRequestResponse = z.infer<typeof consoleRequestResponse>;

/** GET /api/v1/console/staff: everyone a request can be assigned to, by name. */
export const staffResponse = z.object({ staff: z.array(staffMember) });
export type StaffResponse = z.infer<typeof staffResponse>;

/**
 * POST /api/v1/console/requests/{id}/claim (no body): assigns the request to the caller. POST .../assign
 * { assignee_id }: to another concierge or admin (422 for anyone else). Either one moves an In Queue request to
 * In Progress (the employee is e-mailed about it).
 */
export const assignRequest = z.object({ assignee_id: dbId });
export type AssignRequest = z.infer<typeof assignRequest>;

/**
 * POST /api/v1/console/requests/{id}/status { status }. Allowed: open -> in_progress (start; the caller is
 * assigned when nobody is), in_progress -> closed (complete), closed -> in_progress (reopen). Anything else,
 * the current status included, answers 409. The employee is e-mailed about every change.
 */
export const statusChangeRequest = z.object({ status: requestStatus });
export type StatusChangeRequest = z.infer<typeof statusChangeRequest>;

/** SPEC §4 status changes the console may make, from -> allowed targets. */
export const STATUS_TRANSITIONS: Readonly<Record<z.infer<typeof requestStatus>, readonly z.infer<typeof requestStatus>[]>> = {
  open: ['in_progress'],
  in_progress: ['closed'],
  closed: ['in_progress'],
};

/**
 * POST /api/v1/console/requests/{id}/messages -> 201 consoleRequestResponse. The reply is Markdown, stored as
 * sanitised HTML; at most one attachment, uploaded by the caller with the presign call's request_id. The employee
 * is e-mailed a link to the request. The status does not change.
 */
export const replyRequest = z.object({ body_markdown: messageText, attachment_keys: attachmentKeys });
export type ReplyRequest = z.input<typeof replyRequest>;

/** POST /api/v1/console/requests/{id}/notes -> 201 consoleRequestResponse. Staff only; nobody is notified. */
export const noteRequest = z.object({ body_markdown: messageText });
export type NoteRequest = z.infer<typeof noteRequest>;

/** POST /api/v1/console/requests/{id}/read (no body): every employee message so far counts as read by the caller. */
export const markReadResponse = z.object({ success: z.boolean(), unread_count: z.number().check(z.int()) });
export type MarkReadResponse = z.infer<typeof markReadResponse>;

/** POST /api/v1/console/preview { body_markdown }: the HTML a reply would be stored as, for the editor's preview. */
export const previewRequest = z.object({ body_markdown: z.string().check(z.maxLength(MESSAGE_BODY_MAX)) });
export const previewResponse = z.object({ body_html: z.string() });
export type PreviewResponse = z.infer<typeof previewResponse>;
