import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Database, Executor } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { consumeOneTimeToken, issueOneTimeToken } from './oneTimeTokens.ts';
import { appLink, enqueueMessage } from './outbox.ts';
import type { UserRow } from './sessions.ts';
import { unprocessable } from './userFacingError.ts';

export const MAX_FAILED_SIGN_INS = 5;
/** A lock lifts by itself after this long. */
export const LOCK_DURATION_MS = 60 * 60 * 1000;
export const UNLOCK_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;

export const ACCOUNT_LOCKED_ERROR =
  'Your account is locked. Use the link we e-mailed you to unlock it, or try again in an hour.';
export const INVALID_UNLOCK_TOKEN_ERROR = 'Invalid unlock token.';
export const ACCOUNT_UNLOCKED_MESSAGE = 'Your account has been unlocked. You can sign in now.';

type LockState = Pick<UserRow, 'lockedAt'>;

export function isLocked(user: LockState, now: Date): boolean {
  return user.lockedAt !== null && now.getTime() - user.lockedAt.getTime() < LOCK_DURATION_MS;
}

/** A lock that has run its hour: the counter starts again from zero. */
export function lockHasLapsed(user: LockState, now: Date): boolean {
  return user.lockedAt !== null && !isLocked(user, now);
}

export async function clearLockout(db: Executor, userId: number) {
  await db.update(users).set({ failedSignInCount: 0, lockedAt: null }).where(eq(users.id, userId));
}

/**
 * Counts a wrong password. The failure that reaches the limit locks the account and, in the same transaction,
 * writes the unlock e-mail. The count and the lock are single statements, so concurrent failures lock once.
 * Returns whether the account is locked now.
 */
export async function recordFailedSignIn(db: Database, user: UserRow, appUrl: string, now = new Date()) {
  return db.transaction(async (tx) => {
    const [{ failedCount }] = await tx
      .update(users)
      .set({ failedSignInCount: sql`${users.failedSignInCount} + 1` })
      .where(eq(users.id, user.id))
      .returning({ failedCount: users.failedSignInCount });
    if (failedCount < MAX_FAILED_SIGN_INS) return false;

    const [lockedNow] = await tx
      .update(users)
      .set({ lockedAt: now })
      .where(and(eq(users.id, user.id), isNull(users.lockedAt)))
      .returning({ id: users.id });
    if (lockedNow) {
      const token = await issueOneTimeToken(tx, user.id, 'unlock', UNLOCK_TOKEN_TTL_MS, now);
      await enqueueMessage(tx, {
        channel: 'email',
        to: user.email,
        subject: 'Your Life Concierge account is locked',
        text: [
          `Hello ${user.firstName},`,
          '',
          `Your account was locked after ${MAX_FAILED_SIGN_INS} unsuccessful sign-in attempts.`,
          'Open this link to unlock it (it works once, for 24 hours):',
          '',
          appLink(appUrl, `/unlock/${token}`),
          '',
          'Otherwise the lock lifts by itself in an hour. If these attempts were not yours, reset your password.',
        ].join('\n'),
      });
    }
    return true;
  });
}

/** GET /users/unlock: a good unlock token clears the lock and the failure count; it works once. */
export async function unlockWithToken(db: Database, token: string, now = new Date()) {
  await db.transaction(async (tx) => {
    const userId = await consumeOneTimeToken(tx, 'unlock', token, now);
    if (userId === null) throw unprocessable(INVALID_UNLOCK_TOKEN_ERROR);
    await clearLockout(tx, userId);
  });
}
