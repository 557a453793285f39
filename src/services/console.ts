import type * as z from 'zod/mini';
import {
  type ConsoleRequest,
  type ConsoleRequestsQuery,
  type ConsoleRequestsResponse,
  type MarkReadResponse,
  type StaffMember,
  consoleRequestResponse,
  consoleRequestsResponse,
  markReadResponse,
  previewResponse,
  staffResponse,
} from '../contract/console.ts';
import { IDEMPOTENCY_KEY_HEADER } from '../contract/common.constants.ts';
import { errorBody } from '../contract/common.ts';
import type { RequestStatus } from '../contract/requests.ts';
import { HTTPError, api, serverMessage, statusOf } from './http.ts';

/** The concierge console's calls (src/contract/console.ts describes each route). */

/**
 * A failed console call: the server's error (e.g. a refused status change, 409) or the generic message, the HTTP
 * status so a flow can tell "refused" (4xx) from "unreachable" (null), and the message for each input the server
 * named (422 and 409 answers), keyed by its dotted path.
 */
export class ConsoleCallError extends Error {
  readonly status: number | null;
  readonly fields: Readonly<Record<string, string>>;
  constructor(message: string, status: number | null, fields: Record<string, string> = {}) {
    super(message);
    this.name = 'ConsoleCallError';
    this.status = status;
    this.fields = fields;
  }
}

function fieldsOf(error: unknown): Record<string, string> {
  if (!(error instanceof HTTPError)) return {};
  const body = errorBody.safeParse(error.data);
  return body.success ? (body.data.fields ?? {}) : {};
}

/** Sends a console (or admin) call and parses its answer with a contract schema; a failure is a ConsoleCallError. */
export async function consoleCall<S extends z.ZodMiniType>(send: () => Promise<Response>, schema: S): Promise<z.infer<S>> {
  let response: Response;
  try {
    response = await send();
  } catch (error) {
    throw new ConsoleCallError(serverMessage(error), statusOf(error), fieldsOf(error));
  }
  return schema.parse(await response.json());
}

const requestPath = (requestId: number, action = '') => `console/requests/${requestId}${action}`;

/** A queue (or every request, without `queue`), optionally searched, with the queue counts. */
export function listConsoleRequests(query: ConsoleRequestsQuery = {}): Promise<ConsoleRequestsResponse> {
  const searchParams = Object.fromEntries(
    Object.entries(query).filter((entry): entry is [string, string | number] => entry[1] !== undefined && entry[1] !== ''),
  );
  return consoleCall(() => api().get('console/requests', { searchParams }), consoleRequestsResponse);
}

export async function fetchConsoleRequest(requestId: number): Promise<ConsoleRequest> {
  return (await consoleCall(() => api().get(requestPath(requestId)), consoleRequestResponse)).request;
}

export async function listStaff(): Promise<StaffMember[]> {
  return (await consoleCall(() => api().get('console/staff'), staffResponse)).staff;
}

/** Assigns the request to the caller; an In Queue request goes In Progress. */
export async function claimRequest(requestId: number): Promise<ConsoleRequest> {
  return (await consoleCall(() => api().post(requestPath(requestId, '/claim')), consoleRequestResponse)).request;
}

export async function assignRequest(requestId: number, assigneeId: number): Promise<ConsoleRequest> {
  const send = () => api().post(requestPath(requestId, '/assign'), { json: { assignee_id: assigneeId } });
  return (await consoleCall(send, consoleRequestResponse)).request;
}

/** open -> in_progress -> closed, and closed -> in_progress (reopen); anything else is refused with 409. */
export async function changeRequestStatus(requestId: number, status: RequestStatus): Promise<ConsoleRequest> {
  const send = () => api().post(requestPath(requestId, '/status'), { json: { status } });
  return (await consoleCall(send, consoleRequestResponse)).request;
}

/** A Markdown reply the employee sees (and is e-mailed about), with at most one file uploaded for this request. */
export async function replyToRequest(
  requestId: number,
  reply: { bodyMarkdown: string; attachmentKey?: string },
  idempotencyKey: string,
): Promise<ConsoleRequest> {
  const json = {
    body_markdown: reply.bodyMarkdown,
    ...(reply.attachmentKey ? { attachment_keys: [reply.attachmentKey] } : {}),
  };
  const headers = { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey };
  return (await consoleCall(() => api().post(requestPath(requestId, '/messages'), { json, headers }), consoleRequestResponse)).request;
}

/** A staff-only note; nobody is notified. */
export async function addInternalNote(requestId: number, bodyMarkdown: string, idempotencyKey: string): Promise<ConsoleRequest> {
  const headers = { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey };
  const send = () => api().post(requestPath(requestId, '/notes'), { json: { body_markdown: bodyMarkdown }, headers });
  return (await consoleCall(send, consoleRequestResponse)).request;
}

export function markRequestRead(requestId: number): Promise<MarkReadResponse> {
  return consoleCall(() => api().post(requestPath(requestId, '/read')), markReadResponse);
}

/** The sanitised HTML the Markdown would be stored as. */
export async function previewReply(bodyMarkdown: string): Promise<string> {
  return (await consoleCall(() => api().post('console/preview', { json: { body_markdown: bodyMarkdown } }), previewResponse)).body_html;
}
