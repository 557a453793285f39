import { and, count, eq, gt, gte, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { oneTimeTokens } from '../../db/schema.ts';
import { appLink, emailAccount } from '../shared/outbox.ts';
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

/** An e-mailed single-use link: what it is for, how many an address may be sent an hour, and its letter. */
export interface CappedLink {
  purpose: OneTimeTokenPurpose;
  perHour: number;
  ttlMs: number;
  /** The page the link opens, for its token. */
  pathOf: (token: string) => string;
  subject: string;
  /** The e-mail's lines around the link. */
  lines: (link: string) => string[];
}

/**
 * E-mails the account a new link unless the hour's cap is reached (then nothing is sent). Lock the user's row first,
 * as linkCapReached asks.
 */
export async function emailCappedLink(
  db: Executor,
  account: Parameters<typeof emailAccount>[1] & { id: number },
  link: CappedLink,
  appUrl: string,
  now = new Date(),
) {
  if (await linkCapReached(db, account.id, link.purpose, link.perHour, now)) return;
  const token = await issueOneTimeToken(db, account.id, link.purpose, link.ttlMs, now);
  await emailAccount(db, account, link.subject, link.lines(appLink(appUrl, link.pathOf(token))));
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
