import { and, asc, eq, ne } from 'drizzle-orm';
import {
  SAVED_REPLY_ERRORS,
  type FilledSavedReply,
  type SavedReply,
  type SavedReplyRequest,
  fillPlaceholders,
} from '../../../src/contract/assignment.ts';
import type { Database, Executor } from '../../db/client.ts';
import { savedReplies } from '../../db/assignment.schema.ts';
import { requests, users } from '../../db/schema.ts';
import { findUserById } from '../accounts/users.ts';
import { fullNameOf, requestNotFound } from '../requests/requests.ts';
import { conflict, notFound, transactionRefusingClashes } from '../shared/userFacingError.ts';
import { changedFields, recordAudit, recordSwitch } from './audit.ts';

/**
 * Saved replies (issue 28): admins write and archive them (every change in the audit log); every concierge uses the
 * active ones from the composer, filled in for the request at hand.
 */

export const SAVED_REPLY_NOT_FOUND = 'Saved reply not found';

type Row = typeof savedReplies.$inferSelect;

const toWire = (row: Row): SavedReply => ({
  id: row.id,
  title: row.title,
  short_code: row.shortCode,
  body_markdown: row.bodyMarkdown,
  active: row.active,
  updated_at: row.updatedAt.toISOString(),
});

const audited = (reply: SavedReplyRequest) => ({ title: reply.title, short_code: reply.short_code, body_markdown: reply.body_markdown });

/** Every saved reply (the admin's list), or the active ones only (the composer's), by short code. */
export async function listSavedReplies(db: Executor, { activeOnly }: { activeOnly: boolean }): Promise<SavedReply[]> {
  const rows = await db
    .select()
    .from(savedReplies)
    .where(activeOnly ? eq(savedReplies.active, true) : undefined)
    .orderBy(asc(savedReplies.shortCode));
  return rows.map(toWire);
}

async function lockReply(tx: Executor, id: number): Promise<Row> {
  const [row] = await tx.select().from(savedReplies).where(eq(savedReplies.id, id)).for('update');
  if (!row) throw notFound(SAVED_REPLY_NOT_FOUND);
  return row;
}

/** A short code another reply has is a 409 on the short code (a concurrent twin is caught by the unique index). */
async function refuseTakenShortCode(tx: Executor, shortCode: string, exceptId?: number) {
  const [taken] = await tx
    .select({ id: savedReplies.id })
    .from(savedReplies)
    .where(and(eq(savedReplies.shortCode, shortCode), exceptId === undefined ? undefined : ne(savedReplies.id, exceptId)));
  if (taken) throw conflict(SAVED_REPLY_ERRORS.shortCodeTaken(shortCode), 'short_code');
}

const writing = (db: Database, reply: SavedReplyRequest, write: (tx: Executor) => Promise<SavedReply>) =>
  transactionRefusingClashes(db, SAVED_REPLY_ERRORS.shortCodeTaken(reply.short_code), write);

export function createSavedReply(db: Database, actorUserId: number, reply: SavedReplyRequest): Promise<SavedReply> {
  return writing(db, reply, async (tx) => {
    await refuseTakenShortCode(tx, reply.short_code);
    const [row] = await tx
      .insert(savedReplies)
      .values({ title: reply.title, shortCode: reply.short_code, bodyMarkdown: reply.body_markdown, createdByUserId: actorUserId })
      .returning();
    await recordAudit(tx, { actorUserId, action: 'saved_reply.create', subjectType: 'saved_reply', subjectId: row.id, changes: changedFields(null, audited(reply)) });
    return toWire(row);
  });
}

export function updateSavedReply(db: Database, actorUserId: number, id: number, reply: SavedReplyRequest): Promise<SavedReply> {
  return writing(db, reply, async (tx) => {
    const before = await lockReply(tx, id);
    await refuseTakenShortCode(tx, reply.short_code, id);
    const changes = changedFields(audited({ title: before.title, short_code: before.shortCode, body_markdown: before.bodyMarkdown }), audited(reply));
    if (Object.keys(changes).length === 0) return toWire(before);
    const [row] = await tx
      .update(savedReplies)
      .set({ title: reply.title, shortCode: reply.short_code, bodyMarkdown: reply.body_markdown, updatedAt: new Date() })
      .where(eq(savedReplies.id, id))
      .returning();
    await recordAudit(tx, { actorUserId, action: 'saved_reply.update', subjectType: 'saved_reply', subjectId: id, changes });
    return toWire(row);
  });
}

/** Archives (no longer offered in the composer) or restores a reply. */
export function setSavedReplyActive(db: Database, actorUserId: number, id: number, active: boolean): Promise<SavedReply> {
  return db.transaction(async (tx) => {
    const before = await lockReply(tx, id);
    if (before.active === active) return toWire(before);
    const [row] = await tx.update(savedReplies).set({ active, updatedAt: new Date() }).where(eq(savedReplies.id, id)).returning();
    await recordSwitch(tx, {
      actorUserId,
      actions: { on: 'saved_reply.restore', off: 'saved_reply.archive' },
      subjectType: 'saved_reply',
      subjectId: id,
      field: 'active',
      value: active,
    });
    return toWire(row);
  });
}

/** An active reply's Markdown for a request: the employee's first name, the request's name and the concierge's. */
export async function fillSavedReply(db: Executor, { replyId, requestId, conciergeUserId }: { replyId: number; requestId: number; conciergeUserId: number }): Promise<FilledSavedReply> {
  const [reply] = await db.select().from(savedReplies).where(and(eq(savedReplies.id, replyId), eq(savedReplies.active, true)));
  if (!reply) throw notFound(SAVED_REPLY_NOT_FOUND);
  const [request] = await db
    .select({ name: requests.name, employeeFirstName: users.firstName })
    .from(requests)
    .innerJoin(users, eq(users.id, requests.userId))
    .where(eq(requests.id, requestId));
  if (!request) throw requestNotFound();
  const concierge = await findUserById(db, conciergeUserId);
  if (!concierge) throw new Error(`fillSavedReply: no user ${conciergeUserId}`);
  return {
    body_markdown: fillPlaceholders(reply.bodyMarkdown, {
      employee_first_name: request.employeeFirstName,
      request_name: request.name,
      concierge_name: fullNameOf(concierge),
    }),
  };
}
