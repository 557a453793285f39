import * as z from 'zod/mini';
import { IDEMPOTENCY_KEY_HEADER } from '../contract/common.constants.ts';
import {
  type CreateMessageRequest,
  MESSAGE_ERRORS,
  REQUEST_LISTS,
  type RequestList,
  request,
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

/** GET /api/v1/requests/open | in_progress | completed; a missing status becomes the list's own. */
export async function listRequests(list: RequestList): Promise<ClientRequest[]> {
  const client = await api();
  const body = await expectSuccess(client.get(`requests/${list}`), 200);
  return receivedListAnswer.parse(body).requests.map((received) => asClientRequest(received, REQUEST_LISTS[list]));
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
 * POST /api/v1/requests/{id}/messages; answers the request with its whole thread. Blank text is never sent
 * (SPEC §5): it is refused here, before any call.
 */
export async function createMessage(requestId: number, message: NewMessage, idempotencyKey: string): Promise<ClientRequest> {
  if (message.body.trim() === '') throw new Error(MESSAGE_ERRORS.blank);
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
