import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import { MARK_READ_ERRORS } from '../../../src/contract/requests.ts';
import type { Database, Executor } from '../../db/client.ts';
import { requests } from '../../db/schema.ts';
import { messages, requestReadMarkers } from '../../db/threads.schema.ts';
import { unprocessable } from '../shared/userFacingError.ts';
import { requestNotFound } from './requests.ts';

/**
 * The employee's side of "read" (issue 32 point 1): how far the owner of a request has read its thread, kept in the
 * same markers as each staff member's (a marker is per user and request), and the concierge's messages after it,
 * which are the owner's unread replies.
 */

/** The concierge's messages of the request after `lastReadMessageId`. */
async function unreadRepliesAfter(db: Executor, requestId: number, lastReadMessageId: number): Promise<number> {
  const [{ unread }] = await db
    .select({ unread: sql<number>`count(*)`.mapWith(Number) })
    .from(messages)
    .where(and(eq(messages.requestId, requestId), eq(messages.source, 'life_concierge'), gt(messages.id, lastReadMessageId)));
  return unread;
}

/** The owner's marker on the request (0 before they first read it). */
export async function ownerReadMarker(db: Executor, ownerUserId: number, requestId: number): Promise<number> {
  const [marker] = await db
    .select({ lastReadMessageId: requestReadMarkers.lastReadMessageId })
    .from(requestReadMarkers)
    .where(and(eq(requestReadMarkers.userId, ownerUserId), eq(requestReadMarkers.requestId, requestId)));
  return marker?.lastReadMessageId ?? 0;
}

/** The owner's unread replies on the request as they stand now, with their marker. */
export async function ownerReadState(db: Executor, ownerUserId: number, requestId: number) {
  const lastReadMessageId = await ownerReadMarker(db, ownerUserId, requestId);
  return { lastReadMessageId, unreadCount: await unreadRepliesAfter(db, requestId, lastReadMessageId) };
}

/**
 * The owner has read their request's thread up to `messageId`, a message of it. The marker only moves forward, so
 * marking again, or an older message from a slower device, changes nothing. The caller announces it
 * (a 'request.read' notice), so that the owner's other tabs and devices clear their counts.
 */
export async function markReadByOwner(
  db: Database,
  { ownerUserId, requestId, messageId, now = new Date() }: { ownerUserId: number; requestId: number; messageId: number; now?: Date },
): Promise<{ lastReadMessageId: number; unreadCount: number }> {
  return db.transaction(async (tx) => {
    const [owned] = await tx
      .select({ id: requests.id })
      .from(requests)
      .where(and(eq(requests.id, requestId), eq(requests.userId, ownerUserId)));
    if (!owned) throw requestNotFound();
    const [message] = await tx
      .select({ id: messages.id })
      .from(messages)
      .where(and(eq(messages.id, messageId), eq(messages.requestId, requestId)));
    if (!message) throw unprocessable(MARK_READ_ERRORS.messageNotInRequest);
    const [marker] = await tx
      .insert(requestReadMarkers)
      .values({ userId: ownerUserId, requestId, lastReadMessageId: messageId, updatedAt: now })
      .onConflictDoUpdate({
        target: [requestReadMarkers.userId, requestReadMarkers.requestId],
        set: { lastReadMessageId: sql`GREATEST(${requestReadMarkers.lastReadMessageId}, ${messageId})`, updatedAt: now },
      })
      .returning({ lastReadMessageId: requestReadMarkers.lastReadMessageId });
    return { lastReadMessageId: marker.lastReadMessageId, unreadCount: await unreadRepliesAfter(tx, requestId, marker.lastReadMessageId) };
  });
}

/** Each of the owner's requests (of `requestIds`, when given) that has unread replies, with their count. */
export async function unreadRepliesOfOwner(
  db: Executor,
  ownerUserId: number,
  requestIds?: readonly number[],
): Promise<Array<{ id: number; name: string; unreadCount: number }>> {
  return db
    .select({ id: requests.id, name: requests.name, unreadCount: sql<number>`count(${messages.id})`.mapWith(Number) })
    .from(requests)
    .innerJoin(messages, and(eq(messages.requestId, requests.id), eq(messages.source, 'life_concierge')))
    .leftJoin(requestReadMarkers, and(eq(requestReadMarkers.requestId, requests.id), eq(requestReadMarkers.userId, ownerUserId)))
    .where(
      and(
        eq(requests.userId, ownerUserId),
        requestIds ? inArray(requests.id, [...requestIds]) : undefined,
        sql`${messages.id} > COALESCE(${requestReadMarkers.lastReadMessageId}, 0)`,
      ),
    )
    .groupBy(requests.id)
    .orderBy(asc(requests.id));
}
