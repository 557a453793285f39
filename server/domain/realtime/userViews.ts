import { createNoticeCache } from './noticeCache.ts';
import type { RealtimeHub } from './realtime.ts';

/**
 * What an employee's pages read on every load (users/current, the request lists, the survey's next question) is the
 * same from one load to the next until something of theirs changes. Each server process keeps the answers it has
 * read (a notice cache: see noticeCache.ts for its rules) and forgets a user's when the database announces a change
 * to what those answers are made of, whoever made it: their account, requests, threads and surveys (triggers of
 * migration 0012), their sessions, role and companies (migration 0008); a new message in one of their threads,
 * staff reading it and their own reading of one are announced by the app that wrote them (message.created,
 * request.seen, request.read). A change to a company, a survey category or a survey's
 * questions forgets everyone's.
 *
 * The caller's own writes are seen by their next read at once: the app forgets the caller's answers as it answers
 * any call of theirs that may write (`forget`), and a staff member's write answers once this process has heard it
 * (`settle`), so that the employee's next read shows it. Another process forgets them when the announcement reaches
 * it, within about a millisecond of the commit.
 */
export const USER_VIEWS_MAX_AGE_MS = 60_000;
/** Lists with their threads can be tens of kilobytes each: a few thousand active employees' worth. */
export const USER_VIEWS_MAX_ENTRIES = 5_000;

export interface UserViews {
  /** The user's answer to `view` (a name naming the call and its parameters), from memory when it can be. */
  read<Value>(userId: number, view: string, load: () => Promise<Value>): Promise<Value>;
  forget(userId: number | null): void;
  /** Resolves once every change committed so far has reached this cache. */
  settle(): Promise<void>;
  close(): void;
}

export function createUserViews(realtime: RealtimeHub, { maxEntries = USER_VIEWS_MAX_ENTRIES }: { maxEntries?: number } = {}): UserViews {
  const cache = createNoticeCache<unknown>(realtime, {
    forgets: (notice) => {
      switch (notice.type) {
        case 'views.changed':
        case 'credentials.changed':
          return notice.userId;
        case 'message.created':
        case 'request.seen':
        case 'request.read':
          return notice.ownerUserId;
        default:
          return undefined;
      }
    },
    maxEntries,
    maxAgeMs: USER_VIEWS_MAX_AGE_MS,
  });
  return {
    read: <Value>(userId: number, view: string, load: () => Promise<Value>) =>
      cache.read(`${userId} ${view}`, load, () => ({ userId })) as Promise<Value>,
    forget: cache.forget,
    settle: cache.settle,
    close: cache.close,
  };
}
