import { and, count, eq, gte, lt, sql } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.ts';
import { familiarClients, signInFailures, users } from '../../db/schema.ts';
import { consumeOneTimeToken, emailCappedLink } from './oneTimeTokens.ts';
import type { UserRow } from './sessions.ts';
import { normalisedEmail } from './users.ts';
import { unprocessable } from '../shared/userFacingError.ts';

/**
 * Sign-in throttling (issue 9 point 5), after Devise's paranoid mode, OWASP ASVS 2.2 and smart lockout:
 * - failures are counted per address whether or not an account has it, so every answer is the same for both;
 * - one client that fails PER_CLIENT_LIMIT times on an address within PER_CLIENT_WINDOW_MS is refused for that
 *   address without a password check, until the window has passed or the password is reset;
 * - ACCOUNT_LIMIT failures on an address within ACCOUNT_WINDOW_MS, from any clients, lock it for clients the owner has
 *   not signed in from within FAMILIAR_FOR_MS: strangers cannot keep the owner out of their usual devices. The owner
 *   is e-mailed an unlock link once per lock; the link or a password reset clears every count.
 */
export const PER_CLIENT_LIMIT = 5;
export const PER_CLIENT_WINDOW_MS = 15 * 60 * 1000;
export const ACCOUNT_LIMIT = 20;
export const ACCOUNT_WINDOW_MS = 60 * 60 * 1000;
export const FAMILIAR_FOR_MS = 30 * 24 * 60 * 60 * 1000;
export const UNLOCK_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;
/** Unlock e-mails one address may be sent in an hour, however often it is locked again after an unlock. */
export const UNLOCK_LINKS_PER_HOUR = 3;
/** Failures older than this count for nothing and are deleted. */
const FAILURES_KEPT_MS = 24 * 60 * 60 * 1000;

export const TOO_MANY_SIGN_IN_ATTEMPTS_ERROR = 'Too many unsuccessful sign-in attempts. Please try again later or reset your password.';
export const INVALID_UNLOCK_TOKEN_ERROR = 'Invalid unlock token.';
export const ACCOUNT_UNLOCKED_MESSAGE = 'Your account has been unlocked. You can sign in now.';

async function failuresSince(db: Executor, emailKey: string, since: Date, client?: string): Promise<number> {
  const [{ failures }] = await db
    .select({ failures: count() })
    .from(signInFailures)
    .where(
      and(
        eq(signInFailures.emailKey, emailKey),
        gte(signInFailures.createdAt, since),
        client === undefined ? undefined : eq(signInFailures.client, client),
      ),
    );
  return failures;
}

async function isFamiliar(db: Executor, userId: number, client: string, now: Date): Promise<boolean> {
  const [row] = await db
    .select({ userId: familiarClients.userId })
    .from(familiarClients)
    .where(
      and(
        eq(familiarClients.userId, userId),
        eq(familiarClients.client, client),
        gte(familiarClients.lastSignedInAt, new Date(now.getTime() - FAMILIAR_FOR_MS)),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** Whether this client may try a password for this address now (the same answer for addresses without an account). */
export async function mayTrySignIn(db: Executor, emailKey: string, client: string, user: UserRow | undefined, now: Date) {
  const perClient = await failuresSince(db, emailKey, new Date(now.getTime() - PER_CLIENT_WINDOW_MS), client);
  if (perClient >= PER_CLIENT_LIMIT) return false;
  const perAccount = await failuresSince(db, emailKey, new Date(now.getTime() - ACCOUNT_WINDOW_MS));
  if (perAccount < ACCOUNT_LIMIT) return true;
  return user !== undefined && isFamiliar(db, user.id, client, now);
}

/**
 * Counts a wrong password (or an unknown address). The failure that brings the address to the account limit locks
 * the account and, in the same transaction, e-mails its owner the unlock link, once per lock.
 */
export async function recordFailedSignIn(
  db: Database,
  failure: { emailKey: string; client: string; user: UserRow | undefined },
  appUrl: string,
  now = new Date(),
) {
  await db.transaction(async (tx) => {
    await tx.delete(signInFailures).where(lt(signInFailures.createdAt, new Date(now.getTime() - FAILURES_KEPT_MS)));
    await tx.insert(signInFailures).values({ emailKey: failure.emailKey, client: failure.client, createdAt: now });
    const { user } = failure;
    if (!user) return;
    const perAccount = await failuresSince(tx, failure.emailKey, new Date(now.getTime() - ACCOUNT_WINDOW_MS));
    if (perAccount < ACCOUNT_LIMIT) return;
    // One unlock e-mail per lock: only the failure that sets locked_at (first, or again after a lock has aged) sends it.
    const [lockedNow] = await tx
      .update(users)
      .set({ lockedAt: now })
      .where(and(eq(users.id, user.id), lockedBefore(new Date(now.getTime() - ACCOUNT_WINDOW_MS))))
      .returning({ id: users.id });
    if (!lockedNow) return;
    // The account is locked all the same; only the e-mail is held back past the cap.
    await emailCappedLink(tx, user, {
      purpose: 'unlock',
      perHour: UNLOCK_LINKS_PER_HOUR,
      ttlMs: UNLOCK_TOKEN_TTL_MS,
      pathOf: (token) => `/unlock/${token}`,
      subject: 'Your Life Concierge account is locked',
      lines: (link) => [
        'There were many unsuccessful attempts to sign in to your account, so we locked it on devices you have not',
        'signed in from recently. Devices you use to sign in can still do so.',
        'Open this link to unlock it everywhere (it works once, for 24 hours):',
        '',
        link,
        '',
        'If these attempts were not yours, reset your password: that also unlocks your account.',
      ],
    }, appUrl, now);
  });
}

function lockedBefore(cutoff: Date) {
  return sql`(${users.lockedAt} is null or ${users.lockedAt} < ${cutoff})`;
}

/** A successful sign-in: this client's failures on the address are forgiven and the client becomes familiar. */
export async function recordSuccessfulSignIn(db: Executor, user: UserRow, client: string, now: Date) {
  await db.delete(signInFailures).where(and(eq(signInFailures.emailKey, normalisedEmail(user.email)), eq(signInFailures.client, client)));
  await db
    .insert(familiarClients)
    .values({ userId: user.id, client, lastSignedInAt: now })
    .onConflictDoUpdate({ target: [familiarClients.userId, familiarClients.client], set: { lastSignedInAt: now } });
}

/** The owner proved they read the mailbox (unlock link, password reset): every count on the address goes. */
export async function clearLockout(db: Executor, userId: number) {
  const [user] = await db.update(users).set({ lockedAt: null }).where(eq(users.id, userId)).returning({ email: users.email });
  if (user) await db.delete(signInFailures).where(eq(signInFailures.emailKey, normalisedEmail(user.email)));
}

/** GET /users/unlock: a good unlock token clears the lock and the failure counts; it works once. */
export async function unlockWithToken(db: Database, token: string, now = new Date()) {
  await db.transaction(async (tx) => {
    const userId = await consumeOneTimeToken(tx, 'unlock', token, now);
    if (userId === null) throw unprocessable(INVALID_UNLOCK_TOKEN_ERROR);
    await clearLockout(tx, userId);
  });
}
