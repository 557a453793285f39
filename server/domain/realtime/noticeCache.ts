import type { RealtimeHub, RealtimeNotice } from './realtime.ts';

/**
 * A per-process cache of reads about one user each, kept only while nothing about them can have changed. The rules
 * every such cache of this server follows, in one place:
 *
 * - The database announces the changes that matter on the live-updates channel, whoever made them (triggers of
 *   migrations 0008 and 0012); `forgets` tells which user's entries a notice makes stale (null: everyone's,
 *   undefined: none). The cache forgets them as each notice arrives.
 * - A read that was under way while anything was forgotten does not store what it read: it may predate the change.
 * - While notices cannot be heard (the PostgreSQL listener is reconnecting) nothing is stored or served.
 * - An entry lives at most `maxAgeMs`, or less when `keep` says so; at most `maxEntries` are kept, oldest dropped first.
 */
export interface NoticeCacheOptions {
  forgets(notice: RealtimeNotice): number | null | undefined;
  maxEntries: number;
  maxAgeMs: number;
}

/** Whether, and until when, a value read may be kept: its user, and an end earlier than the maximum age. */
export interface Keep {
  userId: number;
  until?: number;
}

export interface NoticeCache<Value> {
  /** The value of `key`, from memory when it can be, else `load`ed and stored when `keep` allows. */
  read(key: string, load: () => Promise<Value>, keep: (value: Value) => Keep | null, now?: number): Promise<Value>;
  /** Forgets the user's entries (null: all of them), as a notice would. */
  forget(userId: number | null): void;
  /** Resolves once every change committed so far has reached this cache. */
  settle(): Promise<void>;
  readonly size: number;
  close(): void;
}

interface Entry<Value> {
  value: Value;
  userId: number;
  validUntil: number;
}

export function createNoticeCache<Value>(realtime: RealtimeHub, { forgets, maxEntries, maxAgeMs }: NoticeCacheOptions): NoticeCache<Value> {
  const entries = new Map<string, Entry<Value>>();
  const keysOfUser = new Map<number, Set<string>>();
  let generation = 0;

  const drop = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    const keys = keysOfUser.get(entry.userId);
    keys?.delete(key);
    if (keys?.size === 0) keysOfUser.delete(entry.userId);
  };
  const forget = (userId: number | null) => {
    generation += 1;
    if (userId === null) {
      entries.clear();
      keysOfUser.clear();
    } else {
      for (const key of keysOfUser.get(userId) ?? []) entries.delete(key);
      keysOfUser.delete(userId);
    }
  };
  const unsubscribe = realtime.subscribe({
    onNotice(notice) {
      const userId = forgets(notice);
      if (userId !== undefined) forget(userId);
    },
    onInterrupted: () => forget(null),
  });

  return {
    async read(key, load, keep, now = Date.now()) {
      // The hub's interruption emptied the cache when it lost its listener.
      if (!realtime.live) return load();
      const cached = entries.get(key);
      if (cached && cached.validUntil > now) return cached.value;
      if (cached) drop(key);

      const startedAt = generation;
      const value = await load();
      const kept = keep(value);
      if (kept && generation === startedAt && realtime.live) {
        if (entries.size >= maxEntries) drop(entries.keys().next().value!);
        entries.set(key, { value, userId: kept.userId, validUntil: Math.min(now + maxAgeMs, kept.until ?? Infinity) });
        const keys = keysOfUser.get(kept.userId) ?? new Set();
        keysOfUser.set(kept.userId, keys.add(key));
      }
      return value;
    },
    forget,
    async settle() {
      if (!(await realtime.settle())) forget(null);
    },
    get size() {
      return entries.size;
    },
    close() {
      unsubscribe();
      forget(null);
    },
  };
}
