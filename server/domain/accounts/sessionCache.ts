import type { Executor } from '../../db/client.ts';
import { type Keep, createNoticeCache } from '../realtime/noticeCache.ts';
import type { RealtimeHub } from '../realtime/realtime.ts';
import { type SessionLookup, findSessionUser } from './sessions.ts';
import { digest } from '../shared/tokens.ts';

/**
 * Every signed-in call needs its session, its user and whether MFA is satisfied. They change rarely, so each server
 * process keeps the answers it has read (a notice cache: see noticeCache.ts for its rules), and forgets a user's
 * the moment the database announces a credentials change (a session or MFA device revoked, a phone enrolled, a
 * role, e-mail or company changed: triggers of migration 0008), whoever made it. A call that changes credentials
 * answers only after this process has heard its own change (`settle`, wired by the authenticate plugin), so the
 * caller's next call never sees what it just revoked. An entry lives at most MAX_AGE_MS, and never past its
 * session's or MFA device's expiry.
 *
 * Another server process on the same database forgets a revoked session when the announcement reaches it, within
 * about a millisecond of the commit.
 */
export const SESSION_CACHE_MAX_AGE_MS = 60_000;
export const SESSION_CACHE_MAX_ENTRIES = 10_000;

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
  const cache = createNoticeCache<SessionLookup | null>(realtime, {
    forgets: (notice) => (notice.type === 'credentials.changed' ? notice.userId : undefined),
    maxEntries,
    maxAgeMs: SESSION_CACHE_MAX_AGE_MS,
  });
  // Never past the session's or the MFA device's expiry; an unknown token is not kept.
  const keep = (found: SessionLookup | null): Keep | null =>
    found && { userId: found.id, until: Math.min(found.expiresAt.getTime(), found.mfaTokenExpiresAt?.getTime() ?? Infinity) };

  return {
    find(token, mfaToken, now = new Date()) {
      const key = `${digest(token)} ${mfaToken === undefined ? '' : digest(mfaToken)}`;
      return cache.read(key, () => findSessionUser(db, token, { mfaToken, now }), keep, now.getTime());
    },
    settle: cache.settle,
    get size() {
      return cache.size;
    },
    close: cache.close,
  };
}
