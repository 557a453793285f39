import { type SQL, and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Message, Request, RequestStatus } from '../../../src/contract/requests.ts';
import type { SubmittedRequest } from '../../../src/contract/surveys.ts';
import { type Executor, preparedFor, qualified } from '../../db/client.ts';
import { requests, users } from '../../db/schema.ts';
import { surveyCategories } from '../../db/surveys.schema.ts';
import { messages, requestEvents } from '../../db/threads.schema.ts';
import { notFound } from '../shared/userFacingError.ts';

/**
 * The request lifecycle and the employee's view of their requests. An employee reaches only their own requests:
 * someone else's answers exactly as an id that does not exist.
 */

export type RequestRow = typeof requests.$inferSelect;
export type MessageRow = typeof messages.$inferSelect;

export const REQUEST_NOT_FOUND = 'Request not found';

export const requestNotFound = () => notFound(REQUEST_NOT_FOUND);

/** Who did something, as the history records them. */
export interface Actor {
  id: number;
  name: string;
}

/** Concierges and admins work the console and may see every request. */
export function isStaffRole(role: (typeof users.$inferSelect)['role']): boolean {
  return role === 'concierge' || role === 'admin';
}

export function fullNameOf(user: { firstName: string; lastName: string }): string {
  return `${user.firstName} ${user.lastName}`.trim();
}

export function messageToWire(row: MessageRow): Message {
  return {
    id: row.id,
    body_html: row.bodyHtml,
    source: row.source,
    source_name: row.sourceName,
    external_created_at: row.createdAt.toISOString(),
    attachment_keys: row.attachmentKeys,
  };
}

/** The messages of each request, oldest first. */
export async function messagesByRequest(db: Executor, requestIds: readonly number[]): Promise<Map<number, Message[]>> {
  const byRequest = new Map<number, Message[]>(requestIds.map((id) => [id, []]));
  if (requestIds.length === 0) return byRequest;
  const rows = await db
    .select()
    .from(messages)
    .where(inArray(messages.requestId, [...requestIds]))
    .orderBy(asc(messages.createdAt), asc(messages.id));
  for (const row of rows) byRequest.get(row.requestId)?.push(messageToWire(row));
  return byRequest;
}

/** What SPEC §3 Request answers of the row, and no more (a list reads every column it names, on every page). */
const describedRequestFields = {
  request: {
    id: requests.id,
    externalId: requests.externalId,
    name: requests.name,
    status: requests.status,
    issuedAt: requests.issuedAt,
    createdAt: requests.createdAt,
    details: requests.details,
  },
  categoryName: surveyCategories.name,
  categoryImageUrl: surveyCategories.imageUrl,
};

/** A message of a thread as the database lists it (an array is cheaper for it to build than an object). */
type ThreadEntry = [id: number, bodyHtml: string, source: Message['source'], sourceName: string, createdAt: string, attachmentKeys: string[]];

/** The request's thread, oldest first: made by the database so that a list is one query. */
const requestThread = sql<ThreadEntry[]>`COALESCE((
  SELECT json_agg(json_build_array(
    ${qualified(messages.id)}, ${qualified(messages.bodyHtml)}, ${qualified(messages.source)}, ${qualified(messages.sourceName)},
    ${qualified(messages.createdAt)}, ${qualified(messages.attachmentKeys)}) ORDER BY ${qualified(messages.createdAt)}, ${qualified(messages.id)})
  FROM ${messages} WHERE ${qualified(messages.requestId)} = ${qualified(requests.id)}), '[]'::json)`;

/** SPEC §3 Message of a thread entry, as `messageToWire` answers a row. */
function messageOfThread([id, bodyHtml, source, sourceName, createdAt, attachmentKeys]: ThreadEntry): Message {
  return {
    id,
    body_html: bodyHtml,
    source,
    source_name: sourceName,
    external_created_at: new Date(createdAt).toISOString(),
    attachment_keys: attachmentKeys,
  };
}

function selectDescribedRequests(db: Executor, condition: SQL | undefined) {
  return db
    .select(describedRequestFields)
    .from(requests)
    .leftJoin(surveyCategories, eq(surveyCategories.id, requests.surveyCategoryId))
    .where(condition);
}

function selectRequestsWithThreads(db: Executor, condition: SQL | undefined) {
  return db
    .select({ ...describedRequestFields, messages: requestThread })
    .from(requests)
    .leftJoin(surveyCategories, eq(surveyCategories.id, requests.surveyCategoryId))
    .where(condition)
    .orderBy(asc(requests.issuedAt), asc(requests.id));
}

type DescribedRequestRow = Awaited<ReturnType<ReturnType<typeof selectDescribedRequests>['execute']>>[number];

/** The fields that name a request in every answer that shows one (the employee's and the console's). */
export function requestIdentity(request: Pick<typeof requests.$inferSelect, 'id' | 'externalId' | 'name' | 'status' | 'issuedAt'>) {
  return {
    id: request.id,
    external_id: request.externalId,
    name: request.name,
    status: request.status,
    issued_at: request.issuedAt.toISOString(),
  };
}

function toSubmittedRequest({ request, categoryName, categoryImageUrl }: DescribedRequestRow): SubmittedRequest {
  return {
    ...requestIdentity(request),
    created_at: request.createdAt.toISOString(),
    details: request.details,
    survey_category_name: categoryName,
    survey_category_image_url: categoryImageUrl,
  };
}

function toRequest(row: DescribedRequestRow & { messages: ThreadEntry[] }): Request {
  return { ...toSubmittedRequest(row), messages: row.messages.map(messageOfThread) };
}

/** A request as its submission answers it (SPEC §3 Request without its thread), or null when there is none. */
export async function findSubmittedRequest(db: Executor, requestId: number): Promise<SubmittedRequest | null> {
  const [row] = await selectDescribedRequests(db, eq(requests.id, requestId));
  return row ? toSubmittedRequest(row) : null;
}

/** A request page and every message post read it: prepared once per database. */
const ownedRequest = preparedFor((db) =>
  selectRequestsWithThreads(
    db,
    and(eq(requests.id, sql.placeholder('requestId')), eq(requests.userId, sql.placeholder('ownerUserId'))),
  ).prepare('find_owned_request'),
);

/** The owner's request with its thread, or null (unknown id, or not theirs). */
export async function findOwnedRequest(db: Executor, ownerUserId: number, requestId: number): Promise<Request | null> {
  const [found] = await ownedRequest(db).execute({ ownerUserId, requestId });
  return found ? toRequest(found) : null;
}

/** The employee's lists are read on every page: the query is prepared once per database. */
const ownedRequestsList = preparedFor((db) =>
  selectRequestsWithThreads(
    db,
    and(eq(requests.userId, sql.placeholder('ownerUserId')), eq(requests.status, sql.placeholder('status'))),
  ).prepare('list_owned_requests'),
);

/** The owner's requests in one status, issued_at ascending (SPEC §4 Message thread: merged lists sort by it). */
export async function listOwnedRequests(db: Executor, ownerUserId: number, status: RequestStatus): Promise<Request[]> {
  const rows = await ownedRequestsList(db).execute({ ownerUserId, status });
  return rows.map(toRequest);
}

/**
 * The request row, locked until the transaction ends so that concurrent changes apply one after the other; with
 * `ownerUserId`, only when it is theirs. Null when not found.
 */
export async function lockRequest(tx: Executor, requestId: number, ownerUserId?: number): Promise<RequestRow | null> {
  const [row] = await tx.select().from(requests).where(requestOf(requestId, ownerUserId)).for('update');
  return row ?? null;
}

/** The request locked as `lockRequest` does, and the name of the user about to write in it, in one round trip. */
export async function lockRequestForWriter(
  tx: Executor,
  { requestId, writerUserId, ownerUserId }: { requestId: number; writerUserId: number; ownerUserId?: number },
): Promise<{ request: RequestRow; writer: { id: number; firstName: string; lastName: string } } | null> {
  const [row] = await tx
    .select({ request: requests, writer: { id: users.id, firstName: users.firstName, lastName: users.lastName } })
    .from(requests)
    .innerJoin(users, eq(users.id, writerUserId))
    .where(requestOf(requestId, ownerUserId))
    .for('update', { of: requests });
  return row ?? null;
}

function requestOf(requestId: number, ownerUserId: number | undefined) {
  return ownerUserId === undefined ? eq(requests.id, requestId) : and(eq(requests.id, requestId), eq(requests.userId, ownerUserId));
}

/** The request's owner, for notifications. */
export async function ownerOf(db: Executor, request: Pick<RequestRow, 'userId'>) {
  const [owner] = await db
    .select({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(eq(users.id, request.userId));
  if (!owner) throw new Error(`Request owner ${request.userId} not found`);
  return owner;
}

/**
 * Moves a locked request to `to` and records it in the history. The caller has decided the move is allowed.
 * Closing stamps closed_at; leaving Completed clears it.
 */
export async function applyStatusChange(
  tx: Executor,
  request: RequestRow,
  to: RequestStatus,
  actor: Actor,
  now = new Date(),
): Promise<RequestRow> {
  const [updated] = await tx
    .update(requests)
    .set({ status: to, closedAt: to === 'closed' ? now : null, updatedAt: now })
    .where(eq(requests.id, request.id))
    .returning();
  await tx.insert(requestEvents).values({
    requestId: request.id,
    kind: 'status_changed',
    actorUserId: actor.id,
    actorName: actor.name,
    fromStatus: request.status,
    toStatus: to,
    createdAt: now,
  });
  return updated;
}

/** Something happened in the thread: the request moves up the "latest activity" orders. */
export async function touchRequest(tx: Executor, requestId: number, now = new Date()) {
  await tx.update(requests).set({ updatedAt: now }).where(eq(requests.id, requestId));
}
