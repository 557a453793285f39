import { type SQL, and, asc, desc, eq, exists, inArray, or, sql } from 'drizzle-orm';
import {
  type LastMessage,
  MESSAGE_PREVIEW_MAX,
  type Message,
  OLDER_MESSAGES_ERRORS,
  type Request,
  type RequestStatus,
  THREAD_PAGE_SIZE,
} from '../../../src/contract/requests.ts';
import type { SubmittedRequest } from '../../../src/contract/surveys.ts';
import { type Executor, preparedFor, qualified } from '../../db/client.ts';
import { requests, users } from '../../db/schema.ts';
import { surveyCategories } from '../../db/surveys.schema.ts';
import { messages, requestEvents, requestReadMarkers } from '../../db/threads.schema.ts';
import { matches, prefixQuery, searchDocument } from '../../db/textSearch.ts';
import { withdrawCompletion } from '../service/completion.ts';
import { notFound, unprocessable } from '../shared/userFacingError.ts';
import { previewOfHtml } from './sanitize.ts';

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
  /** Null for the service itself (automatic assignment). */
  id: number | null;
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
export type ThreadEntry = [id: number, bodyHtml: string, source: Message['source'], sourceName: string, createdAt: string, attachmentKeys: string[]];

/** A constant of the statement's text, not a parameter: every statement that reads a thread is the same text. */
const NEWEST_PAGE_LIMIT = sql.raw(String(THREAD_PAGE_SIZE + 1));

/**
 * The request's newest THREAD_PAGE_SIZE messages and one more (which tells that older ones exist), oldest first: made
 * by the database so that a list is one query, read newest first along messages_thread_idx.
 */
const requestThread = sql<ThreadEntry[]>`COALESCE((
  SELECT json_agg(json_build_array(newest.id, newest.body_html, newest.source, newest.source_name, newest.created_at, newest.attachment_keys)
    ORDER BY newest.created_at, newest.id)
  FROM (
    SELECT ${qualified(messages.id)}, ${qualified(messages.bodyHtml)}, ${qualified(messages.source)}, ${qualified(messages.sourceName)},
           ${qualified(messages.createdAt)}, ${qualified(messages.attachmentKeys)}
    FROM ${messages} WHERE ${qualified(messages.requestId)} = ${qualified(requests.id)}
    ORDER BY ${qualified(messages.createdAt)} DESC, ${qualified(messages.id)} DESC LIMIT ${NEWEST_PAGE_LIMIT}) AS newest), '[]'::json)`;

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

/** The newest message a concierge or admin has read (markers of other users, if any, do not count). */
const seenByStaffMessageId = sql<number | null>`(
  SELECT max(${qualified(requestReadMarkers.lastReadMessageId)}) FROM ${requestReadMarkers}
  JOIN ${users} ON ${qualified(users.id)} = ${qualified(requestReadMarkers.userId)}
  WHERE ${qualified(requestReadMarkers.requestId)} = ${qualified(requests.id)} AND ${qualified(users.role)} IN ('concierge', 'admin'))`;

/**
 * The owner's unread replies (issue 32): the concierge's messages after the owner's read marker (0 before their first
 * read). Counted by the database, as a long thread answers only its newest page.
 */
const ownerUnreadReplies = sql<number>`(
  SELECT count(*)::int FROM ${messages}
  WHERE ${qualified(messages.requestId)} = ${qualified(requests.id)} AND ${qualified(messages.source)} = 'life_concierge'
    AND ${qualified(messages.id)} > COALESCE((
      SELECT ${qualified(requestReadMarkers.lastReadMessageId)} FROM ${requestReadMarkers}
      WHERE ${qualified(requestReadMarkers.requestId)} = ${qualified(requests.id)}
        AND ${qualified(requestReadMarkers.userId)} = ${qualified(requests.userId)}), 0))`;

function selectRequestsWithThreads(db: Executor, condition: SQL | undefined) {
  return db
    .select({ ...describedRequestFields, messages: requestThread, seenByStaffMessageId, unreadCount: ownerUnreadReplies })
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

function lastMessageOf(thread: readonly Message[]): LastMessage | null {
  const last = thread.at(-1);
  if (!last) return null;
  return {
    body_preview: previewOfHtml(last.body_html, MESSAGE_PREVIEW_MAX),
    created_at: last.external_created_at,
    from_staff: last.source === 'life_concierge',
  };
}

function toRequest(row: DescribedRequestRow & { messages: ThreadEntry[]; seenByStaffMessageId: number | null; unreadCount: number }): Request {
  const hasOlderMessages = row.messages.length > THREAD_PAGE_SIZE;
  const thread = row.messages.slice(hasOlderMessages ? 1 : 0).map(messageOfThread);
  return {
    ...toSubmittedRequest(row),
    messages: thread,
    seen_by_staff_message_id: row.seenByStaffMessageId === null ? null : Number(row.seenByStaffMessageId),
    unread_count: Number(row.unreadCount),
    last_message: lastMessageOf(thread),
    has_older_messages: hasOlderMessages,
  };
}

/**
 * The columns `selectRequestsWithThreads` reads, named, for a statement written in SQL whose FROM has `requests` and
 * left-joins `survey_categories` (the write of an employee's message answers the request this way, in its own round
 * trip). Read them back with `requestOfColumns`.
 */
export const requestWithThreadColumns = sql`
  ${qualified(requests.id)} AS id, ${qualified(requests.externalId)} AS external_id, ${qualified(requests.name)} AS name,
  ${qualified(requests.status)} AS status, ${qualified(requests.issuedAt)} AS issued_at, ${qualified(requests.createdAt)} AS created_at,
  ${qualified(requests.details)} AS details, ${qualified(surveyCategories.name)} AS category_name,
  ${qualified(surveyCategories.imageUrl)} AS category_image_url, ${requestThread} AS messages,
  ${seenByStaffMessageId} AS seen_by_staff_message_id, ${ownerUnreadReplies} AS unread_count`;

export type RequestWithThreadColumns = {
  id: number;
  external_id: string;
  name: string;
  status: RequestStatus;
  issued_at: Date;
  created_at: Date;
  details: string | null;
  category_name: string | null;
  category_image_url: string | null;
  messages: ThreadEntry[];
  seen_by_staff_message_id: number | null;
  unread_count: number;
};

const isOrderedAfter = (entry: ThreadEntry, other: ThreadEntry) => {
  const [time, otherTime] = [new Date(entry[4]).getTime(), new Date(other[4]).getTime()];
  return time > otherTime || (time === otherTime && entry[0] > other[0]);
};

/** The newest page of a thread with a message its statement wrote (not in the statement's snapshot) in its place. */
function withWrittenEntry(page: readonly ThreadEntry[], written: ThreadEntry): ThreadEntry[] {
  const after = page.findIndex((entry) => isOrderedAfter(entry, written));
  const thread = after === -1 ? [...page, written] : page.toSpliced(after, 0, written);
  return thread.slice(-(THREAD_PAGE_SIZE + 1));
}

/**
 * The request of `requestWithThreadColumns`. A statement that wrote a message reads the thread as it was before it
 * (its snapshot): `written` is then that message.
 */
export function requestOfColumns(row: RequestWithThreadColumns, written?: ThreadEntry): Request {
  const thread = written ? withWrittenEntry(row.messages, written) : row.messages;
  return toRequest({
    request: {
      id: row.id,
      externalId: row.external_id,
      name: row.name,
      status: row.status,
      issuedAt: new Date(row.issued_at),
      createdAt: new Date(row.created_at),
      details: row.details,
    },
    categoryName: row.category_name,
    categoryImageUrl: row.category_image_url,
    messages: thread,
    seenByStaffMessageId: row.seen_by_staff_message_id,
    unreadCount: row.unread_count,
  });
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

/**
 * The THREAD_PAGE_SIZE messages of the owner's request just older than the message `before` (issue 31), oldest first,
 * and whether still older ones exist; null when the request is not theirs. A `before` outside the thread is a 422.
 */
export async function findOlderMessages(
  db: Executor,
  { ownerUserId, requestId, before }: { ownerUserId: number; requestId: number; before: number },
): Promise<{ messages: Message[]; hasOlderMessages: boolean } | null> {
  const [owned] = await db
    .select({ id: requests.id, cursor: sql<boolean>`EXISTS (SELECT 1 FROM ${messages} WHERE ${qualified(messages.id)} = ${before} AND ${qualified(messages.requestId)} = ${requestId})` })
    .from(requests)
    .where(and(eq(requests.id, requestId), eq(requests.userId, ownerUserId)));
  if (!owned) return null;
  if (!owned.cursor) throw unprocessable(OLDER_MESSAGES_ERRORS.notInThread);
  const olderThanCursor = sql`(${qualified(messages.createdAt)}, ${qualified(messages.id)}) < (SELECT cursor.created_at, cursor.id FROM ${messages} AS cursor WHERE cursor.id = ${before})`;
  const rows = await db
    .select()
    .from(messages)
    .where(and(eq(messages.requestId, requestId), olderThanCursor))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(THREAD_PAGE_SIZE + 1);
  return { messages: rows.slice(0, THREAD_PAGE_SIZE).reverse().map(messageToWire), hasOlderMessages: rows.length > THREAD_PAGE_SIZE };
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
 * The owner's requests whose name, details or messages match what they typed (issue 32), issued_at ascending: found
 * by the database's full-text indexes. Internal notes are another table, never searched here.
 */
export async function searchOwnedRequests(db: Executor, ownerUserId: number, typed: string): Promise<Request[]> {
  const query = prefixQuery(typed);
  if (!query) return [];
  const matchingMessage = db
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.requestId, requests.id), matches(searchDocument(messages.bodyHtml), query)));
  const rows = await selectRequestsWithThreads(
    db,
    and(eq(requests.userId, ownerUserId), or(matches(searchDocument(requests.name, requests.details), query), exists(matchingMessage))),
  );
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
 * Closing stamps closed_at; leaving Completed clears it and withdraws the completion from the reports.
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
  if (request.status === 'closed' && to !== 'closed') await withdrawCompletion(tx, request.id, now);
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
