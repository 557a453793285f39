import * as z from 'zod/mini';
import { dbId, dbIdText } from './common.ts';
import { type requestStatus, submittedRequest } from './surveys.ts';
import { servicePromise } from './sla.ts';

/**
 * SPEC §3 Request and Message, §7 "Requests and surveys": the employee's requests and their message threads.
 * Every route answers only the request's owner; anyone else gets 404, exactly as for an id that does not exist.
 */

export type RequestStatus = z.infer<typeof requestStatus>;

/** SPEC §4 Request status: how each server value is shown. */
export const REQUEST_STATUS_LABELS: Record<RequestStatus, string> = {
  open: 'In Queue',
  in_progress: 'In Progress',
  closed: 'Completed',
};
export const UNKNOWN_STATUS_LABEL = 'Unknown';

/** The label of any status the server sends; one this app does not know reads 'Unknown' (SPEC §4). */
export function requestStatusLabel(status: string | null | undefined): string {
  return status && Object.hasOwn(REQUEST_STATUS_LABELS, status)
    ? REQUEST_STATUS_LABELS[status as RequestStatus]
    : UNKNOWN_STATUS_LABEL;
}

/** The three list calls: GET /api/v1/requests/{list}, and the status each one holds (and defaults to, SPEC §4). */
export const REQUEST_LISTS = { open: 'open', in_progress: 'in_progress', completed: 'closed' } as const;
export type RequestList = keyof typeof REQUEST_LISTS;

/** SPEC §3 Message.source: the employee ('user') or their concierge; it decides the avatar. */
export const messageSource = z.enum(['user', 'life_concierge']);
export type MessageSource = z.infer<typeof messageSource>;

/** SPEC §3 Message. */
export const message = z.object({
  id: z.number().check(z.int()),
  /**
   * Safe to render as HTML: an employee's text is escaped (paragraphs and line breaks kept), a concierge's reply is
   * sanitised (no scripts, event handlers or javascript: links; links open in a new tab).
   */
  body_html: z.string(),
  source: messageSource,
  /** The author's name: the employee's full name, or the concierge's first name. */
  source_name: z.string(),
  /** ISO 8601; the thread is sorted by it (SPEC §4 Message thread). */
  external_created_at: z.string(),
  /** Storage keys, at most one; open them through the Attachment route (/attachments/{encodeURIComponent(key)}). */
  attachment_keys: z.array(z.string()),
});
export type Message = z.infer<typeof message>;

/** Beyond SPEC (issue 32): the newest message of a thread, as a one-line preview for the lists. */
export const lastMessage = z.object({
  /** The message as plain text, cut to MESSAGE_PREVIEW_MAX characters; empty for a message that is only a file. */
  body_preview: z.string(),
  created_at: z.string(),
  from_staff: z.boolean(),
});
export type LastMessage = z.infer<typeof lastMessage>;
export const MESSAGE_PREVIEW_MAX = 120;

/**
 * SPEC §3 Request: the submitted request with its thread (messages oldest first; internal notes never appear).
 * Beyond SPEC (issue 32), optional as additions to SPEC's shape: `seen_by_staff_message_id`, the newest message a
 * concierge or admin has read (opened in the console or replied after), null while none has; and for the owner,
 * `unread_count`, the concierge's messages after the owner's read marker, and `last_message` (null while the
 * thread is empty).
 */
export const request = z.extend(submittedRequest, {
  messages: z.array(message),
  seen_by_staff_message_id: z.optional(z.nullable(z.number().check(z.int()))),
  unread_count: z.optional(z.number().check(z.int(), z.minimum(0))),
  last_message: z.optional(z.nullable(lastMessage)),
  /**
   * Beyond SPEC (issue 28), on GET /api/v1/requests/{id} only: the turnaround promised, in plain words; null once
   * Completed or for a request filed before targets. Never the team's internal state of it.
   */
  service_promise: z.optional(z.nullable(servicePromise)),
  /**
   * Beyond SPEC (issue 31): true when the thread is longer than THREAD_PAGE_SIZE, whose `messages` are then its newest
   * THREAD_PAGE_SIZE; the older ones come page by page from GET /api/v1/requests/{id}/messages?before=<oldest id>.
   */
  has_older_messages: z.optional(z.boolean()),
});
export type Request = z.infer<typeof request>;

/** Issue 31: a thread answers at most this many messages at once, its newest with the request, older ones on demand. */
export const THREAD_PAGE_SIZE = 100;

/**
 * GET /api/v1/requests/{id}/messages?before=<message id> (beyond SPEC, issue 31): the THREAD_PAGE_SIZE messages of
 * the thread just older than `before` (a message of the thread, usually the oldest one shown), oldest first.
 */
export const olderMessagesQuery = z.object({ before: dbIdText });

export const olderMessagesResponse = z.object({ success: z.boolean(), messages: z.array(message), has_older_messages: z.boolean() });
export type OlderMessagesResponse = z.infer<typeof olderMessagesResponse>;

/** GET /api/v1/requests/{id} (200). */
export const requestResponse = z.object({ success: z.boolean(), request });
export type RequestResponse = z.infer<typeof requestResponse>;

/** GET /api/v1/requests/open, /in_progress, /completed (200): the caller's requests, by issued_at ascending. */
export const requestsResponse = z.object({ success: z.boolean(), requests: z.array(request) });
export type RequestsResponse = z.infer<typeof requestsResponse>;

/** SPEC §9: one file per message. */
export const MAX_ATTACHMENTS_PER_MESSAGE = 1;
export const MESSAGE_BODY_MAX = 10_000;

/** From this many characters on, the message box counts what is left (the limit is near). */
export const MESSAGE_COUNTER_FROM = MESSAGE_BODY_MAX - 1_000;

export const MESSAGE_ERRORS = {
  /** SPEC §5 Request messages: text is required (of a reply or note; an employee's message may be a file alone). */
  blank: 'Please enter a message.',
  /** An employee's message without text carries a file (beyond SPEC: docs/spec-differences.md). */
  blankWithoutFile: 'Please enter a message or attach a file.',
  tooLong: `Please keep your message under ${MESSAGE_BODY_MAX} characters.`,
  tooManyFiles: 'Only one file can be attached to a message.',
  /** The key is unknown, someone else's, not uploaded yet, or already part of another request. */
  fileNotFound: 'That file was not found. Please upload it again.',
} as const;

/** Shared by the employee's and the concierge's message forms. */
export const messageText = z
  .string()
  .check(z.trim(), z.minLength(1, MESSAGE_ERRORS.blank), z.maxLength(MESSAGE_BODY_MAX, MESSAGE_ERRORS.tooLong));
export const attachmentKeys = z._default(
  z
    .array(z.string().check(z.minLength(1), z.maxLength(200)))
    .check(z.maxLength(MAX_ATTACHMENTS_PER_MESSAGE, MESSAGE_ERRORS.tooManyFiles)),
  [],
);

/** Whether an employee's message has something to send: text, or else a file. */
export const hasMessageContent = (message: { body: string; attachment_keys?: readonly string[] }) =>
  message.body.trim() !== '' || (message.attachment_keys?.length ?? 0) > 0;

/**
 * POST /api/v1/requests/{id}/messages -> 201 requestResponse (the request with its whole thread). `body` is plain
 * text, which may be blank when a file goes with it; `source_name` is accepted for the SPEC payload's sake, but the
 * author's name is taken from the account. An attachment key must be an upload of the caller that has been stored
 * (an image or PDF). Writing on a Completed request reopens it (In Progress, or In Queue when nobody is assigned).
 */
export const createMessageRequest = z.object({
  message: z
    .object({
      body: z.string().check(z.trim(), z.maxLength(MESSAGE_BODY_MAX, MESSAGE_ERRORS.tooLong)),
      source: z.literal('user'),
      source_name: z.optional(z.string().check(z.maxLength(200))),
      attachment_keys: attachmentKeys,
    })
    .check(z.refine(hasMessageContent, { message: MESSAGE_ERRORS.blankWithoutFile, path: ['body'] })),
});
export type CreateMessageRequest = z.input<typeof createMessageRequest>;

/**
 * Beyond SPEC (issue 32): POST /api/v1/requests/{id}/read, the owner has read the thread up to `message_id` (a
 * message of that request). Idempotent: a marker never moves back. 404 for anyone else's request, 403 for staff.
 */
export const markRequestReadRequest = z.object({ message_id: dbId });
export type MarkRequestReadRequest = z.infer<typeof markRequestReadRequest>;
export const markRequestReadResponse = z.object({
  success: z.boolean(),
  last_read_message_id: z.number().check(z.int()),
  unread_count: z.number().check(z.int()),
});
export type MarkRequestReadResponse = z.infer<typeof markRequestReadResponse>;

/** Beyond SPEC (issue 32): GET /api/v1/requests/unread, the owner's unread replies: the total and each request's. */
export const unreadRepliesResponse = z.object({
  success: z.boolean(),
  unread_count: z.number().check(z.int()),
  requests: z.array(z.object({ id: z.number().check(z.int()), unread_count: z.number().check(z.int()) })),
});
export type UnreadRepliesResponse = z.infer<typeof unreadRepliesResponse>;

export const MARK_READ_ERRORS = {
  staff: 'Only the employee who made the request can mark it read.',
  messageNotInRequest: 'That message is not part of this request.',
} as const;

export const OLDER_MESSAGES_ERRORS = {
  /** 422: the cursor is not a message of this request's thread. */
  notInThread: MARK_READ_ERRORS.messageNotInRequest,
} as const;
