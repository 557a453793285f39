import { type SQL, and, asc, count, desc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  type ConsoleQueue,
  type ConsoleRequest,
  type ConsoleRequestSummary,
  type ConsoleRequestsFilter,
  type QueueCounts,
  STATUS_TRANSITIONS,
  type StaffMember,
  type SurveyAnswer,
  type ThreadEntry,
} from '../../../src/contract/console.ts';
import { REQUEST_STATUS_LABELS, type RequestStatus } from '../../../src/contract/requests.ts';
import { WAITING_ONLY_WHILE_OPEN } from '../../../src/contract/sla.ts';
import { type Database, type Executor, preparedFor, qualified } from '../../db/client.ts';
import { requestQueueSizes, requests, uploads, users } from '../../db/schema.ts';
import { surveyCategories, surveyQuestions, userRequestAnswers } from '../../db/surveys.schema.ts';
import { internalNotes, messages, requestEvents, requestReadMarkers } from '../../db/threads.schema.ts';
import { markThreadRead } from './messages.ts';
import { notifyStatusChange } from './notifications.ts';
import { requestIdentity } from './requests.ts';
import { requestServiceLevels } from '../../db/service.schema.ts';
import { requestSlaClocks } from '../../db/sla.schema.ts';
import {
  consoleClockColumns,
  consoleLevelColumns,
  promisedTimeZone,
  recordReopening,
  serviceLevelOf,
  setWaitingOnEmployee,
  stopResolutionClock,
} from '../sla/serviceClock.ts';
import type { RealtimeNotice } from '../realtime/realtime.ts';
import { formattedAnswer } from '../surveys/surveys.ts';
import {
  type Actor,
  type RequestRow,
  applyStatusChange,
  fullNameOf,
  isStaffRole,
  lockRequest,
  messagesByRequest,
  ownerOf,
  requestNotFound,
} from './requests.ts';
import { companiesOf, findUserById } from '../accounts/users.ts';
import { conflict, unprocessable } from '../shared/userFacingError.ts';
import { recordCompletion } from '../service/completion.ts';
import { ratingLinks } from '../service/ratingLinks.ts';
import { claimedFirstMessage } from '../../../src/contract/assignment.ts';

/**
 * The concierge console: queues, search, a request's full picture (employee, survey answers, thread with internal
 * notes and history), claiming, assigning, status changes and read markers. Only staff routes call these.
 */

export const NOT_STAFF_ASSIGNEE = 'Requests can only be assigned to an active concierge or admin.';

export function statusChangeRefusal(from: RequestStatus, to: RequestStatus): string {
  return from === to
    ? `This request is already ${REQUEST_STATUS_LABELS[to]}.`
    : `A request that is ${REQUEST_STATUS_LABELS[from]} cannot be moved to ${REQUEST_STATUS_LABELS[to]}.`;
}

type StaffRole = StaffMember['role'];
const STAFF_ROLES: readonly StaffRole[] = ['concierge', 'admin'];

/** Everyone a request can be assigned to, by name. */
export async function listStaff(db: Executor): Promise<StaffMember[]> {
  const rows = await db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email, role: users.role })
    .from(users)
    // A deactivated account cannot sign in, so nothing can be assigned to it.
    .where(and(inArray(users.role, [...STAFF_ROLES]), isNull(users.deactivatedAt)))
    .orderBy(asc(users.firstName), asc(users.lastName), asc(users.id));
  return rows.map((row) => ({ id: row.id, full_name: fullNameOf(row), email: row.email, role: row.role as StaffRole }));
}

/** The requests of the kept sizes (request_queue_sizes) that `condition` picks. */
const sizeWhere = (condition: SQL) => sql<number>`coalesce(sum(${requestQueueSizes.size}) filter (where ${condition}), 0)`.mapWith(Number);

/**
 * Every console list asks for the queue sizes: read from the few rows the database keeps (migration 0027), not
 * counted over every request; prepared once per database.
 */
const queueCountsQuery = preparedFor((db) =>
  db
    .select({
      in_queue: sizeWhere(sql`${requestQueueSizes.status} = 'open'`),
      in_progress_mine: sizeWhere(sql`${requestQueueSizes.status} = 'in_progress' and ${requestQueueSizes.assigneeUserId} = ${sql.placeholder('staffUserId')}`),
      in_progress: sizeWhere(sql`${requestQueueSizes.status} = 'in_progress'`),
      completed: sizeWhere(sql`${requestQueueSizes.status} = 'closed'`),
    })
    .from(requestQueueSizes)
    .prepare('console_queue_counts'),
);

export async function queueCounts(db: Executor, staffUserId: number): Promise<QueueCounts> {
  const [row] = await queueCountsQuery(db).execute({ staffUserId });
  return row!;
}

const assignees = alias(users, 'assignee');

function queueCondition(queue: ConsoleQueue | undefined, staffUserId: number): SQL | undefined {
  switch (queue) {
    case 'in_queue':
      return eq(requests.status, 'open');
    case 'in_progress_mine':
      return and(eq(requests.status, 'in_progress'), eq(requests.assigneeUserId, staffUserId));
    case 'in_progress':
      return eq(requests.status, 'in_progress');
    case 'completed':
      return eq(requests.status, 'closed');
    case undefined:
      return undefined;
  }
}

/** The earliest running target's due time (none while paused or once settled): request_service_levels_next_due_idx. */
const nextDueAt = sql`least(${requestServiceLevels.firstResponseDueAt}, ${requestServiceLevels.resolutionDueAt})`;

/** The open queues are sorted by due time unless arrival is asked for (issue 28). */
const sortedByDueTime = (queue: ConsoleQueue | undefined, sort: ConsoleRequestsFilter['sort']) =>
  queue !== undefined && queue !== 'completed' && sort !== 'arrival';

/**
 * The open queues by due time, soonest first, then those without one by arrival. Else, by arrival: first come, first
 * served in the queue; most recently closed first when done; latest activity otherwise.
 */
function queueOrder(queue: ConsoleQueue | undefined, sort: ConsoleRequestsFilter['sort']): SQL[] {
  if (sortedByDueTime(queue, sort)) return [sql`${nextDueAt} asc nulls last`, asc(requests.issuedAt), asc(requests.id)];
  if (queue === 'in_queue') return [asc(requests.issuedAt), asc(requests.id)];
  if (queue === 'completed') return [sql`${requests.closedAt} desc nulls last`, desc(requests.id)];
  return [desc(requests.updatedAt), desc(requests.id)];
}

/**
 * A search (q=): the request's name, or its employee's name or e-mail, contains the text. Written as the union of two
 * index reads (the trigram indexes of migration 0026) rather than a filter over every request joined with its
 * employee, which a year of data makes seconds long.
 */
function searchCondition(text: string | undefined): SQL | undefined {
  if (!text) return undefined;
  const pattern = `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
  return sql`${requests.id} in (
    select named.id from ${requests} as named where named.name ilike ${pattern}
    union
    select theirs.id from ${requests} as theirs where theirs.user_id in (
      select ${qualified(users.id)} from ${users}
      where (${qualified(users.firstName)} || ' ' || ${qualified(users.lastName)}) ilike ${pattern} or ${qualified(users.email)} ilike ${pattern}))`;
}

const isoOrNull = (value: Date | null) => (value ? value.toISOString() : null);
const asDate = (value: unknown) => (value === null || value === undefined ? null : new Date(value as string));

/** The summary columns of requests, as seen by one staff member (their unread count). */
function summarySelection(staffUserId: number) {
  return {
    request: requests,
    categoryName: surveyCategories.name,
    categoryImageUrl: surveyCategories.imageUrl,
    employee: { id: users.id, externalId: users.externalId, firstName: users.firstName, lastName: users.lastName, email: users.email },
    assignee: {
      id: assignees.id,
      firstName: assignees.firstName,
      lastName: assignees.lastName,
      email: assignees.email,
      role: assignees.role,
    },
    unreadCount: sql<number>`(
      select count(*) from ${messages}
      where ${messages.requestId} = ${requests.id} and ${messages.source} = 'user' and ${messages.id} > coalesce((
        select ${requestReadMarkers.lastReadMessageId} from ${requestReadMarkers}
        where ${requestReadMarkers.requestId} = ${requests.id} and ${requestReadMarkers.userId} = ${staffUserId}
      ), 0)
    )`.mapWith(Number),
    lastMessageAt: sql<Date | null>`(select max(${messages.createdAt}) from ${messages} where ${messages.requestId} = ${requests.id})`.mapWith(asDate),
    clock: consoleClockColumns,
    level: consoleLevelColumns,
    slaTimeZone: promisedTimeZone,
  };
}

function selectSummaries(db: Executor, staffUserId: number) {
  return db
    .select(summarySelection(staffUserId))
    .from(requests)
    .innerJoin(users, eq(users.id, requests.userId))
    .leftJoin(assignees, eq(assignees.id, requests.assigneeUserId))
    .leftJoin(surveyCategories, eq(surveyCategories.id, requests.surveyCategoryId))
    .leftJoin(requestSlaClocks, eq(requestSlaClocks.requestId, requests.id))
    .leftJoin(requestServiceLevels, eq(requestServiceLevels.requestId, requests.id));
}

type SummaryRow = Awaited<ReturnType<ReturnType<typeof selectSummaries>['execute']>>[number];

function toSummary(row: SummaryRow, now: Date): ConsoleRequestSummary {
  const { request, employee, assignee, clock, level } = row;
  return {
    ...requestIdentity(request),
    updated_at: request.updatedAt.toISOString(),
    closed_at: isoOrNull(request.closedAt),
    survey_category_name: row.categoryName,
    employee: { id: employee.id, full_name: fullNameOf(employee), email: employee.email },
    assignee:
      assignee?.id && isStaffRole(assignee.role)
        ? { id: assignee.id, full_name: fullNameOf(assignee), email: assignee.email, role: assignee.role as StaffRole }
        : null,
    unread_count: row.unreadCount,
    last_message_at: isoOrNull(row.lastMessageAt),
    service_level: clock && level ? serviceLevelOf({ ...clock, timeZone: row.slaTimeZone ?? '' }, level, request.status, now) : null,
  };
}

const selectIds = (db: Executor) => db.select({ id: requests.id }).from(requests);

/**
 * The ids of one page, in the queue's order. By due time, the requests with a due time come first, read in due-time
 * order from the service levels' index (a page costs its own rows, not a sort of the whole queue); those without one
 * (paused, or filed before the SLA clock) follow by arrival, and are read only when the page reaches them.
 */
async function pageIds(db: Executor, condition: SQL | undefined, query: ConsoleRequestsFilter): Promise<number[]> {
  const ids = (rows: Array<{ id: number }>) => rows.map((row) => row.id);
  if (!sortedByDueTime(query.queue, query.sort)) {
    return ids(await selectIds(db).leftJoin(requestServiceLevels, eq(requestServiceLevels.requestId, requests.id))
      .where(condition).orderBy(...queueOrder(query.queue, query.sort)).limit(query.limit).offset(query.offset));
  }
  const reach = query.offset + query.limit;
  const due = await selectIds(db)
    .innerJoin(requestServiceLevels, eq(requestServiceLevels.requestId, requests.id))
    .where(and(condition, sql`${nextDueAt} is not null`))
    .orderBy(asc(nextDueAt), asc(requests.issuedAt), asc(requests.id))
    .limit(reach);
  const page = ids(due.slice(query.offset));
  if (due.length === reach) return page;
  const undated = await selectIds(db)
    .leftJoin(requestServiceLevels, eq(requestServiceLevels.requestId, requests.id))
    .where(and(condition, sql`${nextDueAt} is null`))
    .orderBy(asc(requests.issuedAt), asc(requests.id))
    .limit(query.limit - page.length)
    .offset(Math.max(0, query.offset - due.length));
  return [...page, ...ids(undated)];
}

/** One page of a queue (or of every request), optionally narrowed by a search, with the queue sizes. */
export async function listConsoleRequests(
  db: Executor,
  staffUserId: number,
  query: ConsoleRequestsFilter,
  now = new Date(),
) {
  const condition = and(queueCondition(query.queue, staffUserId), searchCondition(query.q));
  const [rows, counts, matches] = await Promise.all([
    pageIds(db, condition, query).then((ids) =>
      ids.length === 0
        ? []
        : selectSummaries(db, staffUserId)
            .where(inArray(requests.id, ids))
            .orderBy(...queueOrder(query.queue, query.sort)),
    ),
    queueCounts(db, staffUserId),
    // Without a search, the queue's size is the total: the counts hold it, and the hot path counts the queue once.
    query.q ? db.select({ total: count() }).from(requests).where(condition) : null,
  ]);
  const total = matches ? matches[0]!.total : queueSize(counts, query.queue);
  return { requests: rows.map((row) => toSummary(row, now)), counts, total };
}

/** How many requests a queue holds; every request (a request is in one of three statuses) without one. */
function queueSize(counts: QueueCounts, queue: ConsoleQueue | undefined): number {
  return queue ? counts[queue] : counts.in_queue + counts.in_progress + counts.completed;
}

/**
 * The survey the request came from, question by question as the employee answered it (skipped ones left out):
 * options by their label, phones formatted, files by name with their key.
 */
async function surveyAnswersOf(db: Executor, request: RequestRow): Promise<SurveyAnswer[]> {
  if (request.userRequestSurveyId === null) return [];
  const rows = await db
    .select({
      questionId: surveyQuestions.id,
      label: surveyQuestions.label,
      type: surveyQuestions.type,
      selectOptions: surveyQuestions.selectOptions,
      value: userRequestAnswers.value,
      filename: uploads.filename,
    })
    .from(userRequestAnswers)
    .innerJoin(surveyQuestions, eq(surveyQuestions.id, userRequestAnswers.questionId))
    .leftJoin(
      uploads,
      and(eq(surveyQuestions.type, 'SingleUploadInput'), eq(uploads.key, userRequestAnswers.value), eq(uploads.ownerUserId, request.userId)),
    )
    .where(and(eq(userRequestAnswers.userRequestSurveyId, request.userRequestSurveyId), ne(userRequestAnswers.value, '')))
    .orderBy(asc(surveyQuestions.position));
  return rows.map((row) => ({
    question_id: row.questionId,
    label: row.label,
    answer: formattedAnswer(row, row.value, row.filename) ?? row.value,
    attachment_key: row.type === 'SingleUploadInput' ? row.value : null,
  }));
}

const KIND_ORDER: Record<ThreadEntry['kind'], number> = { event: 0, message: 1, note: 2 };

function entryTime(entry: ThreadEntry): string {
  return entry.kind === 'message' ? entry.external_created_at : entry.created_at;
}

/** Messages, internal notes and history merged, oldest first. */
async function timelineOf(db: Executor, requestId: number): Promise<ThreadEntry[]> {
  const [threads, notes, events] = await Promise.all([
    messagesByRequest(db, [requestId]),
    db.select().from(internalNotes).where(eq(internalNotes.requestId, requestId)),
    db.select().from(requestEvents).where(eq(requestEvents.requestId, requestId)),
  ]);
  const entries: ThreadEntry[] = [
    ...(threads.get(requestId) ?? []).map((message) => ({ kind: 'message' as const, ...message })),
    ...notes.map((note) => ({
      kind: 'note' as const,
      id: note.id,
      body_html: note.bodyHtml,
      author_name: note.authorName,
      created_at: note.createdAt.toISOString(),
    })),
    ...events.map((event) => ({
      kind: 'event' as const,
      id: event.id,
      event: event.kind,
      actor_name: event.actorName,
      from_status: event.fromStatus,
      to_status: event.toStatus,
      assignee_name: event.assigneeName,
      created_at: event.createdAt.toISOString(),
    })),
  ];
  return entries.sort(
    (a, b) => entryTime(a).localeCompare(entryTime(b)) || KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || a.id - b.id,
  );
}

/** A request as the console shows it, or null when there is no such request. */
export async function findConsoleRequest(db: Executor, staffUserId: number, requestId: number, now = new Date()): Promise<ConsoleRequest | null> {
  const [row] = await selectSummaries(db, staffUserId).where(eq(requests.id, requestId));
  if (!row) return null;
  const [companies, surveyAnswers, thread] = await Promise.all([
    companiesOf(db, row.employee.id),
    surveyAnswersOf(db, row.request),
    timelineOf(db, requestId),
  ]);
  const summary = toSummary(row, now);
  return {
    ...summary,
    created_at: row.request.createdAt.toISOString(),
    details: row.request.details,
    survey_category_image_url: row.categoryImageUrl,
    employee: {
      ...summary.employee,
      external_id: row.employee.externalId,
      companies: companies.map((company) => ({ id: company.id, name: company.name, image_url: company.imageUrl })),
    },
    survey_answers: surveyAnswers,
    thread,
  };
}

async function actorOf(db: Executor, userId: number): Promise<Actor & { id: number }> {
  const user = await findUserById(db, userId);
  if (!user) throw new Error(`Actor ${userId} not found`);
  return { id: user.id, name: fullNameOf(user) };
}

/**
 * Within a transaction: moves the locked request and e-mails its owner about it. A completion credits the actor and
 * its e-mail asks for a rating through signed links (issue 28), which need the signing secret.
 */
async function moveAndNotify(
  tx: Executor,
  request: RequestRow,
  to: RequestStatus,
  actor: Actor,
  { appUrl, signingSecret }: { appUrl: string; signingSecret?: string },
  now: Date,
) {
  await applyStatusChange(tx, request, to, actor, now);
  const completed = to === 'closed';
  if (completed) {
    // The turnaround clock settles first: the credit below is written over the service level it saves.
    await stopResolutionClock(tx, request.id, now);
    await recordCompletion(tx, { request, completedByUserId: actor.id, now });
  }
  // Reopening starts a new resolution clock (issue 28).
  if (request.status === 'closed') await recordReopening(tx, request.id, now);
  const rateLinks = completed && signingSecret ? ratingLinks(signingSecret, appUrl, request.id, now) : undefined;
  await notifyStatusChange(tx, { appUrl, employee: await ownerOf(tx, request), request, from: request.status, to, rateLinks });
}

async function recordAssignment(tx: Executor, request: RequestRow, assignee: Actor & { id: number }, actor: Actor, now: Date) {
  await tx.update(requests).set({ assigneeUserId: assignee.id, updatedAt: now }).where(eq(requests.id, request.id));
  await tx.insert(requestEvents).values({
    requestId: request.id,
    kind: 'assigned',
    actorUserId: actor.id,
    actorName: actor.name,
    assigneeUserId: assignee.id,
    assigneeName: assignee.name,
    createdAt: now,
  });
}

/**
 * Assigns the request to a staff member (claiming is assigning to oneself). An In Queue request goes In
 * Progress, and its owner is e-mailed. Assigning to the current assignee changes nothing. A claim (`claimOnly`) of
 * a request someone else holds is refused with 409 naming them: of two claims at once, the second waits on the row
 * lock and then finds the first one's name.
 */
export async function assignRequest(
  db: Database,
  {
    actorUserId,
    requestId,
    assigneeUserId,
    appUrl,
    claimOnly = false,
  }: { actorUserId: number; requestId: number; assigneeUserId: number; appUrl: string; claimOnly?: boolean },
): Promise<RealtimeNotice[]> {
  return db.transaction(async (tx) => {
    const request = await lockRequest(tx, requestId);
    if (!request) throw requestNotFound();
    const assigneeUser = await findUserById(tx, assigneeUserId);
    if (!assigneeUser || !isStaffRole(assigneeUser.role) || assigneeUser.deactivatedAt !== null) {
      throw unprocessable(NOT_STAFF_ASSIGNEE);
    }
    if (request.assigneeUserId === assigneeUserId) return [];
    if (claimOnly && request.assigneeUserId !== null) {
      const holder = await findUserById(tx, request.assigneeUserId);
      throw conflict(claimedFirstMessage(holder ? fullNameOf(holder) : 'Someone else'));
    }

    const actor = await actorOf(tx, actorUserId);
    return assignLockedRequest(tx, request, { id: assigneeUser.id, name: fullNameOf(assigneeUser) }, actor, appUrl);
  });
}

/**
 * Within a transaction, on a locked request: records the assignment and moves an In Queue request In Progress,
 * e-mailing its owner. The notices to publish once committed.
 */
export async function assignLockedRequest(
  tx: Executor,
  request: RequestRow,
  assignee: Actor & { id: number },
  actor: Actor,
  appUrl: string,
  now = new Date(),
): Promise<RealtimeNotice[]> {
  await recordAssignment(tx, request, assignee, actor, now);
  if (request.status === 'open') await moveAndNotify(tx, request, 'in_progress', actor, { appUrl }, now);
  return [{ type: 'request.updated', requestId: request.id, ownerUserId: request.userId }];
}

/**
 * Moves the request along STATUS_TRANSITIONS (409 otherwise) and e-mails its owner. Starting work on a request
 * nobody has claimed assigns it to the one who started it.
 */
export async function changeRequestStatus(
  db: Database,
  {
    actorUserId,
    requestId,
    status,
    appUrl,
    signingSecret,
    now = new Date(),
  }: { actorUserId: number; requestId: number; status: RequestStatus; appUrl: string; signingSecret: string; now?: Date },
): Promise<RealtimeNotice[]> {
  return db.transaction(async (tx) => {
    const request = await lockRequest(tx, requestId);
    if (!request) throw requestNotFound();
    if (!STATUS_TRANSITIONS[request.status].includes(status)) {
      throw conflict(statusChangeRefusal(request.status, status));
    }
    const actor = await actorOf(tx, actorUserId);
    if (status === 'in_progress' && request.assigneeUserId === null) await recordAssignment(tx, request, actor, actor, now);
    await moveAndNotify(tx, request, status, actor, { appUrl, signingSecret }, now);
    return [{ type: 'request.updated', requestId, ownerUserId: request.userId }];
  });
}

/** Marks the thread read for the staff member: the notices to publish, or null when there is no such request. */
export async function markRequestRead(db: Executor, staffUserId: number, requestId: number): Promise<RealtimeNotice[] | null> {
  const [found] = await db.select({ ownerUserId: requests.userId }).from(requests).where(eq(requests.id, requestId));
  if (!found) return null;
  return markThreadRead(db, { staffUserId, requestId, ownerUserId: found.ownerUserId });
}

/**
 * The concierge marks the request waiting on the employee (its turnaround clock stops until the employee writes) or
 * no longer waiting. 409 for a Completed request.
 */
export async function markWaitingOnEmployee(
  db: Database,
  { requestId, waiting, now }: { requestId: number; waiting: boolean; now: Date },
): Promise<RealtimeNotice[]> {
  return db.transaction(async (tx) => {
    const request = await lockRequest(tx, requestId);
    if (!request) throw requestNotFound();
    if (request.status === 'closed') throw conflict(WAITING_ONLY_WHILE_OPEN);
    const changed = await setWaitingOnEmployee(tx, requestId, waiting, now);
    return changed ? [{ type: 'request.updated', requestId, ownerUserId: request.userId }] : [];
  });
}
