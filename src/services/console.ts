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
import { api, isHTTPError } from './http.ts';

/** The concierge console's calls (src/contract/console.ts describes each route); they fail as http.ts describes. */

/**
 * The message the server gave for each input it named, keyed by its dotted path (the 422 and 409 answers of the console
 * and admin calls); none for any other failure.
 */
export function fieldErrorsOf(error: unknown): Record<string, string> {
  if (!isHTTPError(error)) return {};
  const body = errorBody.safeParse(error.data);
  return body.success ? (body.data.fields ?? {}) : {};
}

const requestPath = (requestId: number, action = '') => `console/requests/${requestId}${action}`;

/** A queue (or every request, without `queue`), optionally searched, with the queue counts. */
export async function listConsoleRequests(query: ConsoleRequestsQuery = {}): Promise<ConsoleRequestsResponse> {
  const client = await api();
  const searchParams = Object.fromEntries(
    Object.entries(query).filter((entry): entry is [string, string | number] => entry[1] !== undefined && entry[1] !== ''),
  );
  return client.get('console/requests', { searchParams }).json(consoleRequestsResponse);
}

export async function fetchConsoleRequest(requestId: number): Promise<ConsoleRequest> {
  const client = await api();
  return (await client.get(requestPath(requestId)).json(consoleRequestResponse)).request;
}

export async function listStaff(): Promise<StaffMember[]> {
  const client = await api();
  return (await client.get('console/staff').json(staffResponse)).staff;
}

/** Assigns the request to the caller; an In Queue request goes In Progress. */
export async function claimRequest(requestId: number): Promise<ConsoleRequest> {
  const client = await api();
  return (await client.post(requestPath(requestId, '/claim')).json(consoleRequestResponse)).request;
}

export async function assignRequest(requestId: number, assigneeId: number): Promise<ConsoleRequest> {
  const client = await api();
  const answer = client.post(requestPath(requestId, '/assign'), { json: { assignee_id: assigneeId } });
  return (await answer.json(consoleRequestResponse)).request;
}

/** open -> in_progress -> closed, and closed -> in_progress (reopen); anything else is refused with 409. */
export async function changeRequestStatus(requestId: number, status: RequestStatus): Promise<ConsoleRequest> {
  const client = await api();
  const answer = client.post(requestPath(requestId, '/status'), { json: { status } });
  return (await answer.json(consoleRequestResponse)).request;
}

/** POST .../waiting (issue 28): the request waits on the employee (its turnaround clock stops), or no longer does. */
export async function setWaitingOnEmployee(requestId: number, waiting: boolean): Promise<ConsoleRequest> {
  const client = await api();
  const answer = client.post(requestPath(requestId, '/waiting'), { json: { waiting } });
  return (await answer.json(consoleRequestResponse)).request;
}

/** A Markdown reply the employee sees (and is e-mailed about), with at most one file uploaded for this request. */
export async function replyToRequest(
  requestId: number,
  reply: { bodyMarkdown: string; attachmentKey?: string },
  idempotencyKey: string,
): Promise<ConsoleRequest> {
  const client = await api();
  const json = {
    body_markdown: reply.bodyMarkdown,
    ...(reply.attachmentKey ? { attachment_keys: [reply.attachmentKey] } : {}),
  };
  const headers = { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey };
  const answer = client.post(requestPath(requestId, '/messages'), { json, headers });
  return (await answer.json(consoleRequestResponse)).request;
}

/** A staff-only note; nobody is notified. */
export async function addInternalNote(requestId: number, bodyMarkdown: string, idempotencyKey: string): Promise<ConsoleRequest> {
  const client = await api();
  const headers = { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey };
  const answer = client.post(requestPath(requestId, '/notes'), { json: { body_markdown: bodyMarkdown }, headers });
  return (await answer.json(consoleRequestResponse)).request;
}

export async function markRequestRead(requestId: number): Promise<MarkReadResponse> {
  const client = await api();
  return client.post(requestPath(requestId, '/read')).json(markReadResponse);
}

/** The sanitised HTML the Markdown would be stored as. */
export async function previewReply(bodyMarkdown: string): Promise<string> {
  const client = await api();
  const answer = client.post('console/preview', { json: { body_markdown: bodyMarkdown } });
  return (await answer.json(previewResponse)).body_html;
}
