import type { Executor } from '../db/client.ts';
import type { RealtimeHub } from './realtime.ts';
import { type SessionLookup, findSessionUser } from './sessions.ts';
import { digest } from './tokens.ts';

/**
 * Every signed-in call needs its session, its user and whether MFA is satisfied. They change rarely, so each server
 * process keeps the answers it has read, and forgets them the moment they may have changed:
 *
 * - The database announces every change that matters (a session or MFA device revoked, a phone enrolled, a role,
 *   e-mail or company changed: triggers of migration 0008) on the live-updates channel, whoever made it; the cache
 *   forgets the user's entries, or all of them, as each announcement arrives.
 * - A call that changes credentials answers only after this process has heard its own change (`settle`, wired by
 *   the authenticate plugin), so the caller's next call never sees what it just revoked.
 * - A lookup that was reading while a change arrived does not store what it read.
 * - While announcements cannot be heard (the PostgreSQL listener is reconnecting) nothing is cached or served.
 * - An entry lives at most MAX_AGE_MS, and never past its session's or MFA device's expiry.
 *
 * Another server process on the same database forgets a revoked session when the announcement reaches it, within
 * about a millisecond of the commit.
 */
export const SESSION_CACHE_MAX_AGE_MS = 60_000;
export const SESSION_CACHE_MAX_ENTRIES = 10_000;

interface Entry {
  found: SessionLookup;
  userId: number;
  validUntil: number;
}

export interface SessionCache {
  /** The live session of a token (and the validity of an MFA device token), from memory when it can be. */
  find(token: string, mfaToken: string | undefined, now?: Date): Promise<SessionLookup | null>;
  /** Resolves once every credential change committed so far has reached this cache. */
  settle(): Promise<void>;
  readonly size: number;
  close(): void;
}

export function createSessionCache(
  db: Executor,
  realtime: RealtimeHub,
  { maxEntries = SESSION_CACHE_MAX_ENTRIES }: { maxEntries?: number } = {},
): SessionCache {
  const entries = new Map<string, Entry>();
  // Bumped by every forgetting: a lookup that began before one does not store its (maybe stale) answer.
  let generation = 0;

  const forget = (userId: number | null) => {
    generation += 1;
    if (userId === null) entries.clear();
    else for (const [key, entry] of entries) if (entry.userId === userId) entries.delete(key);
  };
  const unsubscribe = realtime.subscribe({
    onNotice(notice) {
      if (notice.type === 'credentials.changed') forget(notice.userId);
    },
    onInterrupted: () => forget(null),
  });

  return {
    async find(token, mfaToken, now = new Date()) {
      // The hub's interruption emptied the cache when it lost its listener.
      if (!realtime.live) return findSessionUser(db, token, { mfaToken, now });
      const key = `${digest(token)} ${mfaToken === undefined ? '' : digest(mfaToken)}`;
      const cached = entries.get(key);
      if (cached && cached.validUntil > now.getTime()) return cached.found;
      if (cached) entries.delete(key);

      const startedAt = generation;
      const found = await findSessionUser(db, token, { mfaToken, now });
      if (found && generation === startedAt && realtime.live) {
        if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
        const expiries = [now.getTime() + SESSION_CACHE_MAX_AGE_MS, found.expiresAt.getTime()];
        if (found.mfaTokenExpiresAt) expiries.push(found.mfaTokenExpiresAt.getTime());
        entries.set(key, { found, userId: found.id, validUntil: Math.min(...expiries) });
      }
      return found;
    },
    async settle() {
      if (!(await realtime.settle())) forget(null);
    },
    get size() {
      return entries.size;
    },
    close() {
      unsubscribe();
      entries.clear();
    },
  };
}
