import * as z from 'zod/mini';
import { IDEMPOTENCY_KEY_HEADER } from '../contract/common.constants.ts';
import {
  type CreateMessageRequest,
  MESSAGE_ERRORS,
  type MarkRequestReadRequest,
  REQUEST_LISTS,
  hasMessageContent,
  type RequestList,
  markRequestReadResponse,
  type Message,
  olderMessagesResponse,
  request,
  unreadRepliesResponse,
} from '../contract/requests.ts';
import { UnsuccessfulAnswer, api, requireSuccess } from './http.ts';
import type { ClientRequest } from './threadRules.ts';

/**
 * SPEC §7 "Requests and surveys": the employee's requests and their messages. "The list, fetch and message-create
 * calls throw on any non-200 answer (201 for message create) and on success flag false."
 */

const receivedRequest = z.extend(request, { status: z.nullish(z.string()) });
const receivedRequestAnswer = z.object({ request: receivedRequest });
const receivedListAnswer = z.object({ requests: z.array(receivedRequest) });

/** Insists on exactly `expected` and `success: true` (failing as http.ts describes); returns the body. */
async function expectSuccess(answer: Promise<Response>, expected: 200 | 201): Promise<unknown> {
  const response = await answer;
  const body: unknown = await response.json().catch(() => null);
  if (response.status !== expected) throw new UnsuccessfulAnswer(body);
  return requireSuccess(body);
}

/** Only the list calls know which status a request without one has; elsewhere it is shown as 'Unknown'. */
function asClientRequest(received: z.infer<typeof receivedRequest>, listStatus = ''): ClientRequest {
  return { ...received, status: received.status ?? listStatus };
}

/** GET /api/v1/requests/{id}. */
export async function fetchRequest(requestId: number): Promise<ClientRequest> {
  const client = await api();
  const body = await expectSuccess(client.get(`requests/${requestId}`), 200);
  return asClientRequest(receivedRequestAnswer.parse(body).request);
}

/** GET /api/v1/requests/{id}/messages?before= (beyond SPEC, issue 31): the page of a long thread before `before`. */
export async function fetchOlderMessages(requestId: number, before: number): Promise<{ messages: Message[]; has_older_messages: boolean }> {
  const client = await api();
  const body = await expectSuccess(client.get(`requests/${requestId}/messages`, { searchParams: { before } }), 200);
  return olderMessagesResponse.parse(body);
}

/** GET /api/v1/requests/open | in_progress | completed; a missing status becomes the list's own. */
export async function listRequests(list: RequestList): Promise<ClientRequest[]> {
  const client = await api();
  const body = await expectSuccess(client.get(`requests/${list}`), 200);
  return receivedListAnswer.parse(body).requests.map((received) => asClientRequest(received, REQUEST_LISTS[list]));
}

/** GET /api/v1/requests/search?q= (issue 32): the employee's requests whose name, details or messages match. */
export async function searchRequests(query: string): Promise<ClientRequest[]> {
  const client = await api();
  const body = await expectSuccess(client.get('requests/search', { searchParams: { q: query } }), 200);
  return receivedListAnswer.parse(body).requests.map((received) => asClientRequest(received));
}

/** SPEC §4: merged request lists are sorted by issued_at ascending. */
export function mergeRequestLists(...lists: readonly ClientRequest[][]): ClientRequest[] {
  return lists.flat().sort((a, b) => Date.parse(a.issued_at) - Date.parse(b.issued_at));
}

export interface NewMessage {
  body: string;
  /** The signed-in user's full name (the server names the author from the account either way). */
  sourceName: string;
  /** SPEC §9: at most one file, an upload key from the presign call. */
  attachmentKey?: string;
}

/**
 * POST /api/v1/requests/{id}/messages; answers the request with its whole thread. Blank text without a file is
 * never sent (SPEC §5): it is refused here, before any call.
 */
export async function createMessage(requestId: number, message: NewMessage, idempotencyKey: string): Promise<ClientRequest> {
  if (!hasMessageContent({ body: message.body, attachment_keys: message.attachmentKey ? [message.attachmentKey] : [] })) {
    throw new Error(MESSAGE_ERRORS.blankWithoutFile);
  }
  const client = await api();
  const payload: CreateMessageRequest = {
    message: {
      body: message.body,
      source: 'user',
      source_name: message.sourceName,
      ...(message.attachmentKey ? { attachment_keys: [message.attachmentKey] } : {}),
    },
  };
  const headers = { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey };
  const body = await expectSuccess(client.post(`requests/${requestId}/messages`, { json: payload, headers }), 201);
  return asClientRequest(receivedRequestAnswer.parse(body).request);
}

/** Each request's unread replies and their total (issue 32). */
export interface UnreadReplies {
  total: number;
  byRequest: Record<number, number>;
}

/** GET /api/v1/requests/unread (beyond SPEC, issue 32). */
export async function fetchUnreadReplies(): Promise<UnreadReplies> {
  const client = await api();
  const answer = await client.get('requests/unread').json(unreadRepliesResponse);
  return { total: answer.unread_count, byRequest: Object.fromEntries(answer.requests.map((request) => [request.id, request.unread_count])) };
}

/** POST /api/v1/requests/{id}/read (beyond SPEC, issue 32): read up to `messageId`; answers what stays unread. */
export async function markRequestRead(requestId: number, messageId: number): Promise<number> {
  const client = await api();
  const payload: MarkRequestReadRequest = { message_id: messageId };
  return (await client.post(`requests/${requestId}/read`, { json: payload }).json(markRequestReadResponse)).unread_count;
}
