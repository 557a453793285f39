import { and, eq, max, sql } from 'drizzle-orm';
import { IDEMPOTENCY_KEY_REUSED_ERROR } from '../../../src/contract/common.ts';
import { MESSAGE_ERRORS, type Request } from '../../../src/contract/requests.ts';
import type { FileStorage } from '../ports/fileStorage.ts';
import { type Database, type Executor, isUniqueViolation, preparedStatement } from '../../db/client.ts';
import { internalNotes, messages, requestReadMarkers } from '../../db/threads.schema.ts';
import { scheduleReplyEmail } from './replyEmails.ts';
import { recordFirstResponse, recordReopening, resumeOnEmployeeMessage } from '../sla/serviceClock.ts';
import type { RealtimeNotice } from '../realtime/realtime.ts';
import {
  type RequestWithThreadColumns,
  type ThreadEntry,
  applyStatusChange,
  findOwnedRequest,
  fullNameOf,
  lockRequestForWriter,
  requestNotFound,
  requestOfColumns,
  requestWithThreadColumns,
  touchRequest,
} from './requests.ts';
import { markdownToSafeHtml, plainTextToHtml } from './sanitize.ts';
import { attachUploadsToRequest, confirmStoredUpload, findUpload } from '../uploads/uploads.ts';
import { digest } from '../shared/tokens.ts';
import { unprocessable } from '../shared/userFacingError.ts';

/**
 * Writing in a request's thread: the employee's messages, the concierge's replies and the staff's internal notes.
 * Each write is one transaction that locks the request (a plain employee message, one statement that also reads
 * what the post answers), and returns the notices to publish once it has committed.
 */

/**
 * Ties the message's files to the request so that staff (or the employee) may open them. Each must be an upload of
 * the author whose bytes have arrived and passed the image/PDF check, and not part of another request.
 */
async function attachFiles(
  tx: Executor,
  storage: FileStorage,
  { authorUserId, requestId, keys }: { authorUserId: number; requestId: number; keys: readonly string[] },
) {
  for (const key of keys) {
    const upload = await findUpload(tx, key);
    // Bytes PUT straight to an object store are checked on first use (a refused file throws a 415 here).
    const stored = upload && upload.ownerUserId === authorUserId && (await confirmStoredUpload(tx, storage, upload));
    if (!stored) throw unprocessable(MESSAGE_ERRORS.fileNotFound);
  }
  const attached = await attachUploadsToRequest(tx, { ownerUserId: authorUserId, requestId, keys });
  if (!attached) throw unprocessable(MESSAGE_ERRORS.fileNotFound);
}

/** The key of a post that may be retried, and a digest of what it asked for. */
export interface IdempotentPost {
  key: string;
  fingerprint: string;
}

/** What a keyed post asked for, as a digest: a retry must ask for exactly the same. */
export function idempotentPost(key: string | undefined, ask: Record<string, unknown>): IdempotentPost | null {
  return key === undefined ? null : { key, fingerprint: digest(JSON.stringify(ask)) };
}

/**
 * Whether this keyed post was already stored (a retry: true), or is new (false). The same key with another ask is a
 * 422. Called with the request locked, so a concurrent retry waits for the first post to commit and then finds it.
 */
async function alreadyPosted(
  tx: Executor,
  table: typeof messages | typeof internalNotes,
  authorUserId: number,
  post: IdempotentPost | null,
): Promise<boolean> {
  if (!post) return false;
  const [previous] = await tx
    .select({ fingerprint: table.idempotencyFingerprint })
    .from(table)
    .where(and(eq(table.authorUserId, authorUserId), eq(table.idempotencyKey, post.key)));
  if (!previous) return false;
  if (previous.fingerprint !== post.fingerprint) throw unprocessable(IDEMPOTENCY_KEY_REUSED_ERROR);
  return true;
}

/**
 * Runs a keyed insert; a key that a concurrent post took first (a unique violation) is the same 422 as a key reused
 * later.
 */
async function insertKeyed<T>(insert: () => Promise<T>): Promise<T> {
  try {
    return await insert();
  } catch (error) {
    if (isUniqueViolation(error)) throw unprocessable(IDEMPOTENCY_KEY_REUSED_ERROR);
    throw error;
  }
}

/** The row's idempotency columns. */
const idempotencyValues = (post: IdempotentPost | null) => ({
  idempotencyKey: post?.key ?? null,
  idempotencyFingerprint: post?.fingerprint ?? null,
});

/**
 * The start of every message write: the request is locked (only among `ownerUserId`'s requests, when given; else a
 * 404); a retried post stops there (null); otherwise the message's files are tied to it and its author is loaded.
 */
async function beginMessageWrite(
  tx: Executor,
  storage: FileStorage,
  {
    authorUserId,
    requestId,
    attachmentKeys,
    ownerUserId,
    post,
  }: { authorUserId: number; requestId: number; attachmentKeys: readonly string[]; ownerUserId?: number; post: IdempotentPost | null },
) {
  const locked = await lockRequestForWriter(tx, { requestId, writerUserId: authorUserId, ownerUserId });
  if (!locked) throw requestNotFound();
  if (await alreadyPosted(tx, messages, authorUserId, post)) return null;
  await attachFiles(tx, storage, { authorUserId, requestId, keys: attachmentKeys });
  return { request: locked.request, author: locked.writer };
}

async function insertMessage(
  tx: Executor,
  { attachmentKeys, ...values }: Omit<typeof messages.$inferInsert, 'attachmentKeys'> & { attachmentKeys: readonly string[] },
) {
  const [message] = await insertKeyed(() =>
    tx
      .insert(messages)
      .values({ ...values, attachmentKeys: [...attachmentKeys] })
      .returning({ id: messages.id }),
  );
  return message;
}

/**
 * Everything in the thread so far counts as read by this staff member. Answers the notice that tells the owner how
 * far staff have read, or none for an empty thread.
 */
export async function markThreadRead(
  db: Executor,
  { staffUserId, requestId, ownerUserId }: { staffUserId: number; requestId: number; ownerUserId: number },
  now = new Date(),
): Promise<RealtimeNotice[]> {
  const [{ lastId }] = await db
    .select({ lastId: max(messages.id) })
    .from(messages)
    .where(eq(messages.requestId, requestId));
  const lastReadMessageId = lastId ?? 0;
  await db
    .insert(requestReadMarkers)
    .values({ userId: staffUserId, requestId, lastReadMessageId, updatedAt: now })
    .onConflictDoUpdate({
      target: [requestReadMarkers.userId, requestReadMarkers.requestId],
      set: { lastReadMessageId, updatedAt: now },
    });
  return lastId === null ? [] : [{ type: 'request.seen', requestId, ownerUserId, messageId: lastId }];
}

/**
 * Most of an employee's messages need nothing but themselves: no files to check, a request that stays as it is, a
 * key not seen before. Such a message is written in one statement (the request locked, the message inserted, the
 * request touched) that also answers the request with its thread, where the transaction of `postEmployeeMessage`
 * takes five round trips and a read after it. It writes nothing unless the request is the author's and not
 * Completed and the key unused; the transaction then decides what the post is (a 404, a reopening, a retry, a key
 * reused). Prepared once per database, as the hot reads are.
 *
 * The statement reads the thread as it was when it began (the new message is not in it): the message comes back
 * beside it and takes its place in the thread's newest page.
 */
const plainMessageWrite = preparedStatement<RequestWithThreadColumns & { written: ThreadEntry }>(
  'write_plain_message',
  sql`
    WITH writable AS (
      SELECT id FROM requests
      WHERE id = ${sql.placeholder('requestId')} AND user_id = ${sql.placeholder('authorUserId')} AND status <> 'closed'
        -- A request waiting on the employee: their message resumes its clock (issue 28), in the transaction.
        AND NOT EXISTS (SELECT 1 FROM request_sla_clocks WHERE request_id = ${sql.placeholder('requestId')} AND paused_at IS NOT NULL)
        AND NOT EXISTS (
          SELECT 1 FROM messages
          WHERE author_user_id = ${sql.placeholder('authorUserId')} AND idempotency_key = ${sql.placeholder('idempotencyKey')})
      FOR UPDATE
    ), written AS (
      INSERT INTO messages (request_id, author_user_id, source, source_name, body_html, idempotency_key, idempotency_fingerprint, created_at)
      -- The author's name as fullNameOf writes it.
      SELECT writable.id, users.id, 'user', trim(users.first_name || ' ' || users.last_name), ${sql.placeholder('bodyHtml')},
             ${sql.placeholder('idempotencyKey')}, ${sql.placeholder('idempotencyFingerprint')}, ${sql.placeholder('now')}::timestamptz
      FROM writable, users WHERE users.id = ${sql.placeholder('authorUserId')}
      RETURNING id, request_id, body_html, source, source_name, created_at, attachment_keys
    ), touched AS (
      UPDATE requests SET updated_at = ${sql.placeholder('now')}::timestamptz FROM written WHERE requests.id = written.request_id
    )
    SELECT ${requestWithThreadColumns},
      json_build_array(written.id, written.body_html, written.source, written.source_name, written.created_at, written.attachment_keys) AS written
    FROM written
    JOIN requests ON requests.id = written.request_id
    LEFT JOIN survey_categories ON survey_categories.id = requests.survey_category_id`,
);

/** The new message's id and the request as its author now sees it, or null when the post needs the transaction. */
async function writePlainMessage(
  db: Executor,
  values: { authorUserId: number; requestId: number; bodyHtml: string; post: IdempotentPost | null; now: Date },
): Promise<{ messageId: number; request: Request } | null> {
  try {
    const { rows } = await plainMessageWrite(db).execute({
      authorUserId: values.authorUserId,
      requestId: values.requestId,
      bodyHtml: values.bodyHtml,
      ...idempotencyValues(values.post),
      now: values.now.toISOString(),
    });
    const [row] = rows;
    if (!row) return null;
    return { messageId: row.written[0], request: requestOfColumns(row, row.written) };
  } catch (error) {
    // The key taken by a concurrent post: the transaction tells a retry from a reused key.
    if (isUniqueViolation(error)) return null;
    throw error;
  }
}

/**
 * The owner writes in their request's thread. The text is stored escaped, never as markup. Writing on a Completed
 * request reopens it: back In Progress with its concierge, or In Queue when nobody is assigned. The employee is not
 * e-mailed about their own message or their own reopening.
 */
export async function postEmployeeMessage(
  db: Database,
  storage: FileStorage,
  {
    authorUserId,
    requestId,
    body,
    attachmentKeys,
    idempotencyKey,
    now = new Date(),
  }: { authorUserId: number; requestId: number; body: string; attachmentKeys: readonly string[]; idempotencyKey?: string; now?: Date },
): Promise<{ notices: RealtimeNotice[]; request: Request }> {
  const post = idempotentPost(idempotencyKey, { requestId, body, attachmentKeys });
  const bodyHtml = plainTextToHtml(body);
  const created = (messageId: number): RealtimeNotice => ({ type: 'message.created', requestId, ownerUserId: authorUserId, messageId });
  if (attachmentKeys.length === 0) {
    const written = await writePlainMessage(db, { authorUserId, requestId, bodyHtml, post, now });
    if (written) return { notices: [created(written.messageId)], request: written.request };
  }
  const notices = await db.transaction(async (tx): Promise<RealtimeNotice[]> => {
    // An employee writes only in their own requests' threads.
    const write = await beginMessageWrite(tx, storage, { authorUserId, requestId, attachmentKeys, ownerUserId: authorUserId, post });
    // A retry: the message is there already, and was announced when it was stored.
    if (!write) return [];
    const { request, author } = write;
    const message = await insertMessage(tx, {
      requestId,
      authorUserId,
      source: 'user',
      sourceName: fullNameOf(author),
      bodyHtml,
      attachmentKeys,
      ...idempotencyValues(post),
      createdAt: now,
    });
    if (request.status !== 'closed') {
      await touchRequest(tx, requestId, now);
      // A clock that resumes moves the request's due times: the console's queues hear of it.
      const resumed = await resumeOnEmployeeMessage(tx, requestId, now);
      return resumed ? [created(message.id), { type: 'request.updated', requestId, ownerUserId: request.userId }] : [created(message.id)];
    }
    const reopenedTo = request.assigneeUserId === null ? 'open' : 'in_progress';
    await applyStatusChange(tx, request, reopenedTo, { id: author.id, name: fullNameOf(author) }, now);
    await recordReopening(tx, requestId, now);
    return [created(message.id), { type: 'request.updated', requestId, ownerUserId: request.userId }];
  });
  // The request as its author now sees it: with their message (for a retry, the one stored the first time).
  const request = await findOwnedRequest(db, authorUserId, requestId);
  if (!request) throw requestNotFound();
  return { notices, request };
}

/**
 * A concierge replies. The Markdown is stored as sanitised HTML under the concierge's first name; the reply counts
 * as having read the thread; the employee will be e-mailed a link to the request if the reply is still unread
 * `replyEmailDelayMs` later (or in their digest: replyEmails.ts). The status does not change.
 */
export async function postConciergeReply(
  db: Database,
  storage: FileStorage,
  {
    authorUserId,
    requestId,
    markdown,
    attachmentKeys,
    replyEmailDelayMs,
    idempotencyKey,
    now = new Date(),
  }: {
    authorUserId: number;
    requestId: number;
    markdown: string;
    attachmentKeys: readonly string[];
    replyEmailDelayMs: number;
    idempotencyKey?: string;
    now?: Date;
  },
): Promise<RealtimeNotice[]> {
  const bodyHtml = markdownToSafeHtml(markdown);
  // Markdown made only of what the sanitiser removes (a lone <script>, say) leaves nothing to send.
  if (!bodyHtml) throw unprocessable(MESSAGE_ERRORS.blank);
  const post = idempotentPost(idempotencyKey, { requestId, markdown, attachmentKeys });
  return db.transaction(async (tx) => {
    const write = await beginMessageWrite(tx, storage, { authorUserId, requestId, attachmentKeys, post });
    // A retry: stored, announced and its e-mail scheduled the first time.
    if (!write) return [];
    const { request, author } = write;
    const message = await insertMessage(tx, {
      requestId,
      authorUserId,
      source: 'life_concierge',
      sourceName: author.firstName,
      bodyHtml,
      attachmentKeys,
      ...idempotencyValues(post),
      createdAt: now,
    });
    await touchRequest(tx, requestId, now);
    await recordFirstResponse(tx, requestId, now);
    const seen = await markThreadRead(tx, { staffUserId: authorUserId, requestId, ownerUserId: request.userId }, now);
    await scheduleReplyEmail(tx, { employeeUserId: request.userId, requestId, delayMs: replyEmailDelayMs, now });
    return [{ type: 'message.created', requestId, ownerUserId: request.userId, messageId: message.id }, ...seen];
  });
}

/** A staff-only note on the request. Nobody is notified; only staff streams hear of it. */
export async function addInternalNote(
  db: Database,
  {
    authorUserId,
    requestId,
    markdown,
    idempotencyKey,
  }: { authorUserId: number; requestId: number; markdown: string; idempotencyKey?: string },
): Promise<RealtimeNotice[]> {
  const bodyHtml = markdownToSafeHtml(markdown);
  if (!bodyHtml) throw unprocessable(MESSAGE_ERRORS.blank);
  const post = idempotentPost(idempotencyKey, { requestId, markdown });
  return db.transaction(async (tx) => {
    const locked = await lockRequestForWriter(tx, { requestId, writerUserId: authorUserId });
    if (!locked) throw requestNotFound();
    if (await alreadyPosted(tx, internalNotes, authorUserId, post)) return [];
    const author = locked.writer;
    const [note] = await insertKeyed(() =>
      tx
        .insert(internalNotes)
        .values({ requestId, authorUserId, authorName: fullNameOf(author), bodyHtml, ...idempotencyValues(post) })
        .returning({ id: internalNotes.id }),
    );
    return [{ type: 'note.created', requestId, noteId: note.id }];
  });
}
