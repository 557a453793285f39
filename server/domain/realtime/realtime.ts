import { EventEmitter } from 'node:events';
import { and, count, eq, gt, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import { EVENT_TICKET_TTL_MS, type LiveEvent } from '../../../src/contract/events.ts';
import type { Database, DatabaseHandle, Executor } from '../../db/client.ts';
import { requests, sessions, users } from '../../db/schema.ts';
import { eventStreamTickets, messages } from '../../db/threads.schema.ts';
import { accountClosed } from '../accounts/users.ts';
import { isStaffRole, messageToWire } from '../requests/requests.ts';
import { ownerReadState } from '../requests/unread.ts';
import { digest, newToken } from '../shared/tokens.ts';
import { tooManyRequests } from '../shared/userFacingError.ts';
import { errorForLog } from '../../logging.ts';

/**
 * Live updates between server processes. A change is announced, after its transaction commits, as a small notice
 * (ids only: a PostgreSQL NOTIFY payload is limited to 8000 bytes, and one read per process beats shipping every
 * message body through it). Every process hears every notice, reads what it names, and sends it to its own
 * subscribers who may see it.
 *
 * - PostgreSQL: NOTIFY on the shared database, LISTEN on one dedicated connection per process (a pooled
 *   connection would drop the LISTEN when returned). When that connection is lost the hub is not `live` until it
 *   is back; subscribers are told, so that clients reconnect and catch up instead of silently missing events.
 * - PGlite: one process owns the database, so an in-process emitter is the whole story.
 */

export const LIVE_UPDATES_CHANNEL = 'lc_live_updates';

export type RealtimeNotice =
  | { type: 'message.created'; requestId: number; ownerUserId: number; messageId: number }
  | { type: 'request.updated'; requestId: number; ownerUserId: number }
  /** Staff have read the request's thread up to `messageId` (the employee's thread says "Seen"). */
  | { type: 'request.seen'; requestId: number; ownerUserId: number; messageId: number }
  | { type: 'note.created'; requestId: number; noteId: number }
  /** The owner read their request's thread (issue 32): their other tabs and devices clear its unread count. */
  | { type: 'request.read'; requestId: number; ownerUserId: number }
  /** Sessions ended (one by sign-out, or all of the user's by a password change): their streams close at once. */
  | { type: 'sessions.ended'; userId: number; sessionId: number | null }
  /**
   * What the user's sessions may do changed (revoked, MFA, role, company): announced by the database's triggers
   * (migration 0008), for every writer; `userId` null when it concerns everyone (a company's MFA policy).
   */
  | { type: 'credentials.changed'; userId: number | null }
  /** The offerings catalogue was edited (triggers of migration 0009). */
  | { type: 'catalogue.changed' }
  /**
   * What the user's own pages show changed (account, requests, threads, surveys): announced by the database's
   * triggers (migration 0012); `userId` null when it concerns everyone (a company, a survey category or question).
   */
  | { type: 'views.changed'; userId: number | null }
  /**
   * A turnaround target of a request is at risk or breached (issue 28): to its assignee, or to every concierge online
   * when unassigned. Carries all it tells, so that no stream reads the database for it.
   */
  | {
      type: 'sla.alert';
      requestId: number;
      ownerUserId: number;
      requestName: string;
      target: 'first_response' | 'resolution';
      kind: 'at_risk' | 'breached';
      dueAt: string;
      assigneeUserId: number | null;
    };

export interface RealtimeSubscriber {
  onNotice(notice: RealtimeNotice): void;
  /** Notices may have been missed (the PostgreSQL listener was lost): streams should end so clients catch up. */
  onInterrupted(): void;
}

export interface RealtimeHub {
  /** Whether notices are being received right now. */
  readonly live: boolean;
  /** Announces committed changes to every process; failures are logged, never thrown (the change stands). */
  publish(notices: readonly RealtimeNotice[]): Promise<void>;
  /**
   * Resolves once this process's subscribers have had every notice committed before the call (true), or false when
   * that cannot be known (no listener, or no echo within SETTLE_TIMEOUT_MS).
   */
  settle(): Promise<boolean>;
  subscribe(subscriber: RealtimeSubscriber): () => void;
  close(): Promise<void>;
}

type Log = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

const RECONNECT_FIRST_DELAY_MS = 500;
const SETTLE_TIMEOUT_MS = 2_000;
/** The echo settle() waits for: never delivered to subscribers. */
const SETTLE_NOTICE_TYPE = 'settled' as const;
const RECONNECT_MAX_DELAY_MS = 15_000;

interface SettleEcho {
  type: typeof SETTLE_NOTICE_TYPE;
  nonce: string;
}

/** NOTIFY payloads are limited to 8000 bytes: a batch of notices is sent in payloads of at most this many. */
const PAYLOAD_MAX_BYTES = 7_000;

/**
 * What a payload of the channel carries: a notice (a trigger's), notices (a batch the app published), or the echo
 * of a settle(); nothing when it is none of those.
 */
function parsePayload(payload: string): Array<RealtimeNotice | SettleEcho> {
  try {
    const value = JSON.parse(payload) as unknown;
    const isMessage = (item: unknown): item is RealtimeNotice | SettleEcho =>
      typeof item === 'object' && item !== null && typeof (item as { type?: unknown }).type === 'string';
    return (Array.isArray(value) ? value : [value]).filter(isMessage);
  } catch {
    return [];
  }
}

/** Notices as JSON arrays that each fit a NOTIFY payload. */
export function payloadsOf(notices: readonly RealtimeNotice[]): string[] {
  const payloads: string[] = [];
  let batch: string[] = [];
  let bytes = 2;
  for (const notice of notices) {
    const json = JSON.stringify(notice);
    if (batch.length > 0 && bytes + json.length + 1 > PAYLOAD_MAX_BYTES) {
      payloads.push(`[${batch.join(',')}]`);
      batch = [];
      bytes = 2;
    }
    batch.push(json);
    bytes += json.length + 1;
  }
  if (batch.length > 0) payloads.push(`[${batch.join(',')}]`);
  return payloads;
}

/** Starts the hub for the database's engine; stop it with close() when the app closes. */
export async function startRealtimeHub(database: DatabaseHandle, log: Log): Promise<RealtimeHub> {
  const subscribers = new Set<RealtimeSubscriber>();
  const deliver = (notice: RealtimeNotice) => {
    for (const subscriber of subscribers) subscriber.onNotice(notice);
  };
  const subscribe = (subscriber: RealtimeSubscriber) => {
    subscribers.add(subscriber);
    return () => void subscribers.delete(subscriber);
  };

  if (database.engine === 'pglite' || !database.url) {
    const emitter = new EventEmitter();
    emitter.on('notice', deliver);
    // The triggers' notices: PGlite hands them over as the writing statement commits, so nothing is ever pending.
    const unlisten = await database.listen?.(LIVE_UPDATES_CHANNEL, (payload) => {
      for (const notice of parsePayload(payload)) if (notice.type !== SETTLE_NOTICE_TYPE) deliver(notice);
    });
    return {
      live: true,
      async publish(notices) {
        // Asynchronous, as a NOTIFY would be: the publisher's answer never waits on the subscribers.
        for (const notice of notices) setImmediate(() => emitter.emit('notice', notice));
      },
      // After the emits of the notices published so far, which were queued first.
      settle: () => new Promise((resolve) => setImmediate(() => resolve(true))),
      subscribe,
      async close() {
        await unlisten?.();
        emitter.removeAllListeners();
        subscribers.clear();
      },
    };
  }

  const url = database.url;
  let listener: pg.Client | null = null;
  const settleWaiters = new Map<string, (heard: boolean) => void>();
  let closed = false;
  let reconnectTimer: NodeJS.Timeout | undefined;
  let reconnectDelay = RECONNECT_FIRST_DELAY_MS;

  const scheduleReconnect = () => {
    if (closed || reconnectTimer) return;
    reconnectTimer = setTimeout(() => {
      reconnectTimer = undefined;
      void connect();
    }, reconnectDelay);
    reconnectDelay = Math.min(reconnectDelay * 2, RECONNECT_MAX_DELAY_MS);
  };

  const lose = (client: pg.Client, error?: unknown) => {
    if (listener !== client) return;
    listener = null;
    log.warn({ err: errorForLog(error) }, 'live updates: lost the LISTEN connection, reconnecting');
    for (const subscriber of subscribers) subscriber.onInterrupted();
    for (const answer of settleWaiters.values()) answer(false);
    client.end().catch(() => {});
    scheduleReconnect();
  };

  async function connect() {
    const client = new pg.Client({ connectionString: url });
    client.on('notification', ({ channel, payload }) => {
      if (channel !== LIVE_UPDATES_CHANNEL || !payload) return;
      for (const notice of parsePayload(payload)) {
        if (notice.type === SETTLE_NOTICE_TYPE) settleWaiters.get(notice.nonce)?.(true);
        else deliver(notice);
      }
    });
    client.on('error', (error) => lose(client, error));
    client.on('end', () => lose(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${LIVE_UPDATES_CHANNEL}`);
    } catch (error) {
      log.warn({ err: errorForLog(error) }, 'live updates: could not LISTEN, retrying');
      client.end().catch(() => {});
      scheduleReconnect();
      return;
    }
    if (closed) {
      await client.end().catch(() => {});
      return;
    }
    listener = client;
    reconnectDelay = RECONNECT_FIRST_DELAY_MS;
  }

  await connect();

  const notify = async (payload: string) => {
    try {
      await database.db.execute(sql`select pg_notify(${LIVE_UPDATES_CHANNEL}, ${payload})`);
      return true;
    } catch (error) {
      log.error({ err: errorForLog(error), payload }, 'live updates: NOTIFY failed');
      return false;
    }
  };

  // Every NOTIFY's commit waits for the notification queue's lock, one at a time across the database: notices
  // published while one is under way go out together in the next, so that under load one NOTIFY carries many.
  let sending: Promise<void> = Promise.resolve();
  let nextBatch: RealtimeNotice[] | null = null;
  const publish = (notices: readonly RealtimeNotice[]): Promise<void> => {
    if (notices.length === 0) return sending;
    if (!nextBatch) {
      const batch: RealtimeNotice[] = [];
      nextBatch = batch;
      sending = sending.then(async () => {
        nextBatch = null;
        for (const payload of payloadsOf(batch)) await notify(payload);
      });
    }
    nextBatch.push(...notices);
    return sending;
  };

  return {
    get live() {
      return listener !== null;
    },
    publish,
    // PostgreSQL delivers a listener's notifications in commit order: once this NOTIFY comes back, every notice
    // committed (or published) before it has been handed to the subscribers.
    async settle() {
      await sending;
      if (!listener) return false;
      const nonce = newToken();
      const heard = new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), SETTLE_TIMEOUT_MS);
        settleWaiters.set(nonce, (value) => {
          clearTimeout(timer);
          resolve(value);
        });
      }).finally(() => settleWaiters.delete(nonce));
      if (!(await notify(JSON.stringify({ type: SETTLE_NOTICE_TYPE, nonce } satisfies SettleEcho)))) settleWaiters.get(nonce)?.(false);
      return heard;
    },
    subscribe,
    async close() {
      closed = true;
      clearTimeout(reconnectTimer);
      subscribers.clear();
      for (const answer of settleWaiters.values()) answer(false);
      const client = listener;
      listener = null;
      await client?.end().catch(() => {});
    },
  };
}

/** Who is watching a stream. */
export interface Viewer {
  userId: number;
  staff: boolean;
}

/** Staff see every event; an employee only those about their own requests, and never an internal note. */
export function mayReceive(viewer: Viewer, notice: RealtimeNotice): boolean {
  // The notices of the server's own caches and streams are no one's events.
  if (
    notice.type === 'sessions.ended' ||
    notice.type === 'credentials.changed' ||
    notice.type === 'catalogue.changed' ||
    notice.type === 'views.changed'
  ) {
    return false;
  }
  // How far the owner has read is theirs alone.
  if (notice.type === 'request.read') return notice.ownerUserId === viewer.userId;
  // An alert is the team's, never the employee's: the assignee's, or every concierge's while nobody has it.
  if (notice.type === 'sla.alert') return viewer.staff && (notice.assigneeUserId === null || notice.assigneeUserId === viewer.userId);
  if (viewer.staff) return true;
  return notice.type !== 'note.created' && notice.ownerUserId === viewer.userId;
}

/** The event a notice stands for, read now; null when what it names is gone (deleted since). */
export async function liveEventFor(db: Executor, notice: RealtimeNotice): Promise<LiveEvent | null> {
  switch (notice.type) {
    case 'message.created': {
      const [row] = await db.select().from(messages).where(eq(messages.id, notice.messageId));
      return row ? { type: 'message.created', request_id: notice.requestId, message: messageToWire(row) } : null;
    }
    case 'request.updated': {
      const [row] = await db
        .select({ status: requests.status, updatedAt: requests.updatedAt })
        .from(requests)
        .where(eq(requests.id, notice.requestId));
      return row
        ? { type: 'request.updated', request_id: notice.requestId, status: row.status, updated_at: row.updatedAt.toISOString() }
        : null;
    }
    case 'request.seen':
      return { type: 'request.seen', request_id: notice.requestId, seen_by_staff_message_id: notice.messageId };
    case 'note.created':
      return { type: 'note.created', request_id: notice.requestId, note_id: notice.noteId };
    case 'request.read': {
      const { lastReadMessageId, unreadCount } = await ownerReadState(db, notice.ownerUserId, notice.requestId);
      return { type: 'request.read', request_id: notice.requestId, last_read_message_id: lastReadMessageId, unread_count: unreadCount };
    }
    case 'sla.alert':
      return {
        type: 'sla.alert',
        request_id: notice.requestId,
        request_name: notice.requestName,
        target: notice.target,
        kind: notice.kind,
        due_at: notice.dueAt,
        assignee_id: notice.assigneeUserId,
      };
    case 'sessions.ended':
    case 'credentials.changed':
    case 'catalogue.changed':
    case 'views.changed':
      return null;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Stream tickets: an EventSource cannot send the Authorization header
// ---------------------------------------------------------------------------------------------------------------

/** Tickets a session may hold unredeemed at once: a client asks for one just before it opens each stream. */
export const MAX_OUTSTANDING_TICKETS_PER_SESSION = 5;
export const TOO_MANY_TICKETS_ERROR = 'Too many live-update tickets were asked for. Please wait a minute and try again.';

/**
 * A fresh single-use ticket for the session; expired tickets are swept on the way. A session already holding
 * MAX_OUTSTANDING_TICKETS_PER_SESSION unexpired tickets is refused (429) rather than given another row.
 */
export async function issueStreamTicket(db: Database, sessionId: number, now = new Date()) {
  return db.transaction(async (tx) => {
    // Locked so that concurrent asks of one session count each other.
    await tx.select({ id: sessions.id }).from(sessions).where(eq(sessions.id, sessionId)).for('update');
    await tx.delete(eventStreamTickets).where(lte(eventStreamTickets.expiresAt, now));
    const [{ outstanding }] = await tx
      .select({ outstanding: count() })
      .from(eventStreamTickets)
      .where(eq(eventStreamTickets.sessionId, sessionId));
    if (outstanding >= MAX_OUTSTANDING_TICKETS_PER_SESSION) throw tooManyRequests(TOO_MANY_TICKETS_ERROR);
    const ticket = newToken();
    const expiresAt = new Date(now.getTime() + EVENT_TICKET_TTL_MS);
    await tx.insert(eventStreamTickets).values({ tokenDigest: digest(ticket), sessionId, expiresAt });
    return { ticket, expiresAt };
  });
}

/** A stream's viewer as the database tells it now, with the end of its session. */
export type CurrentViewer = Viewer & { sessionExpiresAt: Date };

/**
 * Of these sessions, the ones still signed in (not revoked, not expired, the account not closed: deactivated, or an
 * employee whose every company is deactivated), each with its viewer as it stands now (the role decides `staff`).
 */
export async function currentViewers(db: Executor, sessionIds: readonly number[], now = new Date()): Promise<Map<number, CurrentViewer>> {
  if (sessionIds.length === 0) return new Map();
  const rows = await db
    .select({ sessionId: sessions.id, userId: users.id, role: users.role, sessionExpiresAt: sessions.expiresAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(inArray(sessions.id, [...sessionIds]), isNull(sessions.revokedAt), gt(sessions.expiresAt, now), sql`NOT ${accountClosed}`));
  return new Map(
    rows.map((row) => [row.sessionId, { userId: row.userId, staff: isStaffRole(row.role), sessionExpiresAt: row.sessionExpiresAt }]),
  );
}

/** Whether a stream opened for `opened` may go on now: its session is still signed in and sees what it saw. */
export function viewerStands(opened: Viewer, current: Viewer | undefined): boolean {
  return current !== undefined && current.userId === opened.userId && current.staff === opened.staff;
}

/**
 * Uses up a ticket: the viewer it was issued to, or null when it is unknown, used, expired, or its session has
 * ended. Deleting it is what makes it single-use, even against two concurrent redemptions.
 */
export async function redeemStreamTicket(
  db: Executor,
  ticket: string,
  now = new Date(),
): Promise<(CurrentViewer & { sessionId: number }) | null> {
  const [redeemed] = await db
    .delete(eventStreamTickets)
    .where(eq(eventStreamTickets.tokenDigest, digest(ticket)))
    .returning({ sessionId: eventStreamTickets.sessionId, expiresAt: eventStreamTickets.expiresAt });
  if (!redeemed || redeemed.expiresAt <= now) return null;
  const viewer = (await currentViewers(db, [redeemed.sessionId], now)).get(redeemed.sessionId);
  return viewer ? { ...viewer, sessionId: redeemed.sessionId } : null;
}
