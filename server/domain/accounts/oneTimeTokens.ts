import { and, count, eq, gt, gte, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { oneTimeTokens } from '../../db/schema.ts';
import { digest, newToken } from '../shared/tokens.ts';

export type OneTimeTokenPurpose = (typeof oneTimeTokens.$inferSelect)['purpose'];

/** A new single-use token for an e-mailed link; only its digest is stored. Returns the token itself. */
export async function issueOneTimeToken(
  db: Executor,
  userId: number,
  purpose: OneTimeTokenPurpose,
  ttlMs: number,
  now = new Date(),
): Promise<string> {
  const token = newToken();
  await db
    .insert(oneTimeTokens)
    .values({ userId, purpose, tokenDigest: digest(token), expiresAt: new Date(now.getTime() + ttlMs), createdAt: now });
  return token;
}

const HOUR_MS = 60 * 60 * 1000;

/**
 * Whether the user was given `perHour` tokens of that purpose in the hour before `now`, used or not: each was
 * e-mailed, so this is what caps the links sent to one address. Lock the user's row first so that concurrent asks
 * count each other.
 */
export async function linkCapReached(
  db: Executor,
  userId: number,
  purpose: OneTimeTokenPurpose,
  perHour: number,
  now = new Date(),
): Promise<boolean> {
  const [{ issued }] = await db
    .select({ issued: count() })
    .from(oneTimeTokens)
    .where(
      and(eq(oneTimeTokens.userId, userId), eq(oneTimeTokens.purpose, purpose), gte(oneTimeTokens.createdAt, new Date(now.getTime() - HOUR_MS))),
    );
  return issued >= perHour;
}

/**
 * Marks the token used if it is unused, unexpired and of that purpose, in one statement (two concurrent uses
 * cannot both succeed). Returns the owner's id, or null when the token is not good.
 */
export async function consumeOneTimeToken(
  db: Executor,
  purpose: OneTimeTokenPurpose,
  token: string,
  now = new Date(),
): Promise<number | null> {
  const [row] = await db
    .update(oneTimeTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(oneTimeTokens.tokenDigest, digest(token)),
        eq(oneTimeTokens.purpose, purpose),
        isNull(oneTimeTokens.usedAt),
        gt(oneTimeTokens.expiresAt, now),
      ),
    )
    .returning({ userId: oneTimeTokens.userId });
  return row?.userId ?? null;
}

/** Ends every outstanding token of that purpose for the user (one was used, the others are moot). */
export async function retireOneTimeTokens(db: Executor, userId: number, purpose: OneTimeTokenPurpose, now = new Date()) {
  await db
    .update(oneTimeTokens)
    .set({ usedAt: now })
    .where(and(eq(oneTimeTokens.userId, userId), eq(oneTimeTokens.purpose, purpose), isNull(oneTimeTokens.usedAt)));
}
