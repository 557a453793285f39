import { and, asc, desc, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { outbox } from '../../db/schema.ts';
import { type Log, errorForLog } from '../../logging.ts';
import type { MessageTransport } from '../ports/messageTransport.ts';
import { type RepeatingWorker, startRepeatingWorker } from './repeatingWorker.ts';

export type OutboxChannel = (typeof outbox.$inferSelect)['channel'];
export type OutboxRow = typeof outbox.$inferSelect;

export type Transports = Record<OutboxChannel, MessageTransport>;

/** A claimed row is left alone by other workers this long; a worker that dies mid-delivery is retried after it. */
const CLAIM_LEASE_MS = 5 * 60 * 1000;
const FIRST_RETRY_DELAY_MS = 30 * 1000;
const MAX_RETRY_DELAY_MS = 60 * 60 * 1000;
const BATCH_SIZE = 20;

/** Exponential backoff: 30 s, 1 min, 2 min, ... capped at an hour. A message is never given up on. */
export function retryDelayMs(failedAttempts: number): number {
  return Math.min(FIRST_RETRY_DELAY_MS * 2 ** Math.max(0, failedAttempts - 1), MAX_RETRY_DELAY_MS);
}

/** An address in the web app for an e-mailed link, e.g. appLink(APP_URL, `/unlock/${token}`). */
export function appLink(appUrl: string, path: string): string {
  return `${appUrl.replace(/\/+$/, '')}${path}`;
}

/**
 * The first line of an e-mail to an account: by name only once its address is confirmed. Until then the name is
 * whatever a sign-up typed, and must not reach a mailbox whose owner may never have asked for anything (a spam relay).
 */
function greetingTo(account: { firstName: string; emailConfirmedAt: Date | null }): string {
  return account.emailConfirmedAt === null ? 'Hello,' : `Hello ${account.firstName},`;
}

export function linksIn(text: string): string[] {
  return text.match(/https?:\/\/[^\s<>"]+/g) ?? [];
}

/**
 * Writes a message for the worker to deliver. Call it with the transaction that makes the change the message
 * tells about, so that the message exists exactly when the change does.
 */
export async function enqueueMessage(
  db: Executor,
  message: { channel: OutboxChannel; to: string; subject?: string; text: string },
) {
  await db.insert(outbox).values({
    channel: message.channel,
    recipient: message.to,
    subject: message.subject ?? null,
    body: message.text,
    links: linksIn(message.text),
  });
}

/** An e-mail to an account: its lines follow the greeting (greetingTo) and a blank line. */
export async function emailAccount(
  db: Executor,
  account: { email: string; firstName: string; emailConfirmedAt: Date | null },
  subject: string,
  lines: readonly string[],
) {
  await enqueueMessage(db, { channel: 'email', to: account.email, subject, text: [greetingTo(account), '', ...lines].join('\n') });
}

/** Newest first, optionally only those sent to one address or phone number. */
export async function listOutbox(db: Executor, filter: { to?: string; limit: number }): Promise<OutboxRow[]> {
  return db
    .select()
    .from(outbox)
    .where(filter.to ? eq(sql`lower(${outbox.recipient})`, filter.to.toLowerCase()) : undefined)
    .orderBy(desc(outbox.id))
    .limit(filter.limit);
}

/**
 * Claims the due messages (skipping rows another worker holds), hands each to its channel's transport and
 * records the outcome: delivered, or the error and when to try again. Returns how many went each way.
 */
export async function deliverPendingMessages(
  db: Executor,
  transports: Transports,
  log: Log,
  now = new Date(),
): Promise<{ delivered: number; failed: number }> {
  const due = db
    .select({ id: outbox.id })
    .from(outbox)
    .where(and(isNull(outbox.deliveredAt), lte(outbox.nextAttemptAt, now)))
    .orderBy(asc(outbox.id))
    .limit(BATCH_SIZE)
    .for('update', { skipLocked: true });
  const claimed = await db
    .update(outbox)
    .set({ nextAttemptAt: new Date(now.getTime() + CLAIM_LEASE_MS) })
    .where(inArray(outbox.id, due))
    .returning();

  let delivered = 0;
  let failed = 0;
  for (const row of claimed.sort((a, b) => a.id - b.id)) {
    const attempts = row.attempts + 1;
    try {
      await transports[row.channel].send({ to: row.recipient, subject: row.subject, text: row.body });
      await db.update(outbox).set({ attempts, deliveredAt: now, lastError: null }).where(eq(outbox.id, row.id));
      delivered += 1;
    } catch (error) {
      const lastError = error instanceof Error ? error.message : String(error);
      const nextAttemptAt = new Date(now.getTime() + retryDelayMs(attempts));
      await db.update(outbox).set({ attempts, lastError, nextAttemptAt }).where(eq(outbox.id, row.id));
      log.warn({ outboxId: row.id, channel: row.channel, attempts, nextAttemptAt, err: errorForLog(error) }, 'outbox delivery failed');
      failed += 1;
    }
  }
  return { delivered, failed };
}

/** Delivers due messages every `intervalMs` until stopped. */
export function startOutboxWorker(options: { db: Executor; transports: Transports; log: Log; intervalMs?: number }): RepeatingWorker {
  const { db, transports, log, intervalMs } = options;
  return startRepeatingWorker({ name: 'outbox', log, intervalMs, round: () => deliverPendingMessages(db, transports, log) });
}
