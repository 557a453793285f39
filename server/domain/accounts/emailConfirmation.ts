import { and, count, eq, gte, isNull } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.ts';
import { familiarClients, outbox, requests, uploads, users } from '../../db/schema.ts';
import { onboardingAnswers, userRequestSurveys } from '../../db/surveys.schema.ts';
import { consumeOneTimeToken, issueOneTimeToken, linkCapReached, retireOneTimeTokens } from './oneTimeTokens.ts';
import { INVALID_CONFIRMATION_LINK_ERROR } from '../../../src/contract/account.rules.ts';
import { appLink, emailAccount } from '../shared/outbox.ts';
import { tooManyRequests, unprocessable } from '../shared/userFacingError.ts';

/**
 * Confirming the address (issue 9 point 9): a new account's companies are claimed, not granted, until its owner opens
 * the e-mailed link; only then are the company's benefits shown and the company named. Every link stays good for
 * CONFIRMATION_TOKEN_TTL_MS (an older e-mail still works after a resend); opening one retires the others.
 */
export const CONFIRMATION_TOKEN_TTL_MS = 3 * 24 * 60 * 60 * 1000;
/** Links a user may ask for in an hour, on top of the per-client limit of the route. */
export const CONFIRMATION_LINKS_PER_HOUR = 5;
const HOUR_MS = 60 * 60 * 1000;
/** At most one "you already have an account" e-mail to an address in this time, however many sign-ups name it. */
export const ACCOUNT_EXISTS_NOTICE_INTERVAL_MS = HOUR_MS;

export const EMAIL_CONFIRMED_MESSAGE = 'Your e-mail address is confirmed.';
export const ALREADY_CONFIRMED_ERROR = 'Your e-mail address is already confirmed.';
export const TOO_MANY_CONFIRMATION_LINKS_ERROR = 'Too many links sent. Please try again later.';
/**
 * Requests and messages go to staff under the account's address: only once the address is proved may they be sent,
 * or anyone could write to staff as someone else by signing up with that person's address.
 */
export const EMAIL_CONFIRMATION_REQUIRED_ERROR =
  'Please confirm your e-mail address first: open the link we e-mailed you, or send it again from Benefits & Offers.';

const CONFIRMATION_SUBJECT = 'Confirm your e-mail address for Life Concierge';
const ACCOUNT_EXISTS_SUBJECT = 'Someone tried to sign up with your e-mail address';

/** Writes a confirmation link for the user, in the caller's transaction. */
export async function sendConfirmationLink(
  tx: Executor,
  user: { id: number; email: string; firstName: string; emailConfirmedAt: Date | null },
  appUrl: string,
  now = new Date(),
) {
  const token = await issueOneTimeToken(tx, user.id, 'email_confirmation', CONFIRMATION_TOKEN_TTL_MS, now);
  await emailAccount(tx, user, CONFIRMATION_SUBJECT, [
    'Open this link to confirm your e-mail address (it works once, for 3 days):',
    '',
    appLink(appUrl, `/confirm-email/${token}`),
    '',
    "Your employer's benefits show in Life Concierge once your address is confirmed.",
    'If you did not sign up, ignore this e-mail.',
  ]);
}

/**
 * A sign-up named an address that already has an account: the sign-up is answered as any other (no enumeration), and
 * the owner is told instead, at most once per ACCOUNT_EXISTS_NOTICE_INTERVAL_MS.
 */
export async function noticeSignUpOfExistingAccount(
  tx: Executor,
  user: { email: string; firstName: string; emailConfirmedAt: Date | null },
  appUrl: string,
  now = new Date(),
) {
  const [{ recent }] = await tx
    .select({ recent: count() })
    .from(outbox)
    .where(
      and(
        eq(outbox.recipient, user.email),
        eq(outbox.subject, ACCOUNT_EXISTS_SUBJECT),
        gte(outbox.createdAt, new Date(now.getTime() - ACCOUNT_EXISTS_NOTICE_INTERVAL_MS)),
      ),
    );
  if (recent > 0) return;
  await emailAccount(tx, user, ACCOUNT_EXISTS_SUBJECT, [
    'Someone tried to create a Life Concierge account with your e-mail address, which already has one.',
    'If it was you, sign in instead:',
    '',
    appLink(appUrl, '/sign-in'),
    '',
    'Forgot your password? Ask for a new one on the sign-in page. If it was not you, ignore this e-mail: your account is unchanged.',
  ]);
}

/** GET /users/confirmation: the e-mailed link proves the address. */
export async function confirmEmail(db: Database, token: string, now = new Date()) {
  await db.transaction(async (tx) => {
    const userId = await consumeOneTimeToken(tx, 'email_confirmation', token, now);
    if (userId === null) throw unprocessable(INVALID_CONFIRMATION_LINK_ERROR);
    await retireOneTimeTokens(tx, userId, 'email_confirmation', now);
    await markEmailConfirmed(tx, userId, now);
  });
}

/** Any e-mailed link the owner opened (confirmation, password reset) proves the address. */
export async function markEmailConfirmed(tx: Executor, userId: number, now = new Date()) {
  await tx
    .update(users)
    .set({ emailConfirmedAt: now })
    .where(and(eq(users.id, userId), isNull(users.emailConfirmedAt)));
}

/**
 * A password reset is the first proof of the address of an account that never confirmed it: whoever used the account
 * until then may not own the mailbox (anyone can sign up with any address). What they left goes, so that none of it
 * lands in the owner's history or keeps a hold on the account: requests with their threads and files, surveys begun,
 * files, onboarding answers (the owner is onboarded again), the MFA phone and the devices counted as the owner's.
 * Call it in the reset's transaction, before the address is marked confirmed; it does nothing to a confirmed account.
 */
export async function forgetUnconfirmedUse(tx: Executor, userId: number) {
  const [account] = await tx.select({ emailConfirmedAt: users.emailConfirmedAt }).from(users).where(eq(users.id, userId)).for('update');
  if (!account || account.emailConfirmedAt !== null) return;
  await tx.delete(requests).where(eq(requests.userId, userId));
  await tx.delete(userRequestSurveys).where(eq(userRequestSurveys.userId, userId));
  await tx.delete(uploads).where(eq(uploads.ownerUserId, userId));
  await tx.delete(onboardingAnswers).where(eq(onboardingAnswers.userId, userId));
  await tx.delete(familiarClients).where(eq(familiarClients.userId, userId));
  await tx
    .update(users)
    .set({ onboardedAt: null, mfaPhone: null, mfaPendingPhone: null, mfaEnrolledAt: null })
    .where(eq(users.id, userId));
}

/** POST /users/confirmation: a new link for the signed-in user, while the address is unconfirmed. */
export async function resendConfirmationLink(db: Database, userId: number, appUrl: string, now = new Date()) {
  await db.transaction(async (tx) => {
    // Locked so that concurrent asks count each other.
    const [user] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
    if (!user) throw new Error(`resendConfirmationLink: no user ${userId}`);
    if (user.emailConfirmedAt !== null) throw unprocessable(ALREADY_CONFIRMED_ERROR);
    if (await linkCapReached(tx, userId, 'email_confirmation', CONFIRMATION_LINKS_PER_HOUR, now)) {
      throw tooManyRequests(TOO_MANY_CONFIRMATION_LINKS_ERROR);
    }
    await sendConfirmationLink(tx, user, appUrl, now);
  });
}
