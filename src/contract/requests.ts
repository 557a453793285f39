import * as z from 'zod/mini';
import { type requestStatus, submittedRequest } from './surveys.ts';

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

/** SPEC §3 Request: the submitted request with its thread (messages oldest first; internal notes never appear). */
export const request = z.extend(submittedRequest, { messages: z.array(message) });
export type Request = z.infer<typeof request>;

/** GET /api/v1/requests/{id} (200). */
export const requestResponse = z.object({ success: z.boolean(), request });
export type RequestResponse = z.infer<typeof requestResponse>;

/** GET /api/v1/requests/open, /in_progress, /completed (200): the caller's requests, by issued_at ascending. */
export const requestsResponse = z.object({ success: z.boolean(), requests: z.array(request) });
export type RequestsResponse = z.infer<typeof requestsResponse>;

/** SPEC §9: one file per message. */
export const MAX_ATTACHMENTS_PER_MESSAGE = 1;
export const MESSAGE_BODY_MAX = 10_000;

export const MESSAGE_ERRORS = {
  /** SPEC §5 Request messages: text is required. */
  blank: 'Please enter a message.',
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

/**
 * POST /api/v1/requests/{id}/messages -> 201 requestResponse (the request with its whole thread). `body` is plain
 * text; `source_name` is accepted for the SPEC payload's sake, but the author's name is taken from the account.
 * An attachment key must be an upload of the caller that has been stored (an image or PDF). Writing on a
 * Completed request reopens it (In Progress, or In Queue when nobody is assigned).
 */
export const createMessageRequest = z.object({
  message: z.object({
    body: messageText,
    source: z.literal('user'),
    source_name: z.optional(z.string().check(z.maxLength(200))),
    attachment_keys: attachmentKeys,
  }),
});
export type CreateMessageRequest = z.input<typeof createMessageRequest>;
