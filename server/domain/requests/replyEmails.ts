import { and, asc, eq, inArray, lte } from 'drizzle-orm';
import type { ReplyEmailChoice } from '../../../src/contract/notifications.ts';
import type { Database, Executor } from '../../db/client.ts';
import { notificationSettings, pendingReplyEmails } from '../../db/notifications.schema.ts';
import { users } from '../../db/schema.ts';
import { notifyUnreadReplies } from './notifications.ts';
import { unreadRepliesOfOwner } from './unread.ts';

/**
 * E-mails about the concierge's replies (issue 32 point 1): a reply is e-mailed only if it is still unread when its
 * e-mail falls due, after the delay of the 'each' choice or at the daily digest's hour. The wait is a row of
 * pending_reply_emails, written with the reply, so it survives a restart; the sweep claims due rows as the outbox
 * worker claims messages (FOR UPDATE SKIP LOCKED) and writes their e-mail to the outbox and deletes them in the same
 * transaction, so that each is sent once whichever process claims it.
 */

/** The digest goes out once a day at this hour (UTC). */
export const DIGEST_HOUR_UTC = 8;
const SWEEP_BATCH_SIZE = 100;

/** The next digest's time after `now`. */
export function nextDigestAt(now: Date): Date {
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), DIGEST_HOUR_UTC));
  return today > now ? today : new Date(today.getTime() + 24 * 60 * 60 * 1000);
}

export async function replyEmailChoiceOf(db: Executor, userId: number): Promise<ReplyEmailChoice> {
  const [row] = await db
    .select({ replyEmails: notificationSettings.replyEmails })
    .from(notificationSettings)
    .where(eq(notificationSettings.userId, userId));
  return row?.replyEmails ?? 'each';
}

export async function setReplyEmailChoice(db: Executor, userId: number, choice: ReplyEmailChoice, now = new Date()) {
  await db
    .insert(notificationSettings)
    .values({ userId, replyEmails: choice, updatedAt: now })
    .onConflictDoUpdate({ target: notificationSettings.userId, set: { replyEmails: choice, updatedAt: now } });
}

/**
 * A concierge replied on the employee's request: unless they want no e-mails, the request waits for its e-mail. A
 * request already waiting keeps its time, so that replies in one window share one e-mail.
 */
export async function scheduleReplyEmail(
  tx: Executor,
  { employeeUserId, requestId, delayMs, now }: { employeeUserId: number; requestId: number; delayMs: number; now: Date },
) {
  const choice = await replyEmailChoiceOf(tx, employeeUserId);
  if (choice === 'none') return;
  const dueAt = choice === 'digest' ? nextDigestAt(now) : new Date(now.getTime() + delayMs);
  await tx.insert(pendingReplyEmails).values({ userId: employeeUserId, requestId, dueAt }).onConflictDoNothing();
}

/**
 * Claims the due waits (skipping those another process holds) and, per employee, e-mails the requests among them
 * that still have unread replies, in one e-mail; a wait whose replies were read, or whose employee now wants none,
 * ends without one. Returns how many e-mails were written.
 */
export async function sendDueReplyEmails(db: Database, { appUrl, now = new Date() }: { appUrl: string; now?: Date }): Promise<number> {
  return db.transaction(async (tx) => {
    const due = await tx
      .select({ userId: pendingReplyEmails.userId, requestId: pendingReplyEmails.requestId })
      .from(pendingReplyEmails)
      .where(lte(pendingReplyEmails.dueAt, now))
      .orderBy(asc(pendingReplyEmails.dueAt))
      .limit(SWEEP_BATCH_SIZE)
      .for('update', { skipLocked: true });
    const requestsByUser = new Map<number, number[]>();
    for (const { userId, requestId } of due) requestsByUser.set(userId, [...(requestsByUser.get(userId) ?? []), requestId]);
    let written = 0;
    for (const [userId, requestIds] of requestsByUser) {
      await tx.delete(pendingReplyEmails).where(and(eq(pendingReplyEmails.userId, userId), inArray(pendingReplyEmails.requestId, requestIds)));
      const choice = await replyEmailChoiceOf(tx, userId);
      if (choice === 'none') continue;
      const unread = await unreadRepliesOfOwner(tx, userId, requestIds);
      if (unread.length === 0) continue;
      const [employee] = await tx.select({ email: users.email, firstName: users.firstName }).from(users).where(eq(users.id, userId));
      await notifyUnreadReplies(tx, { appUrl, employee, unread, digest: choice === 'digest' });
      written += 1;
    }
    return written;
  });
}
