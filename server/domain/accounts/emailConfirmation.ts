import { and, count, eq, gte, isNull } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.ts';
import { oneTimeTokens, outbox, users } from '../../db/schema.ts';
import { consumeOneTimeToken, issueOneTimeToken, retireOneTimeTokens } from './oneTimeTokens.ts';
import { INVALID_CONFIRMATION_LINK_ERROR } from '../../../src/contract/account.rules.ts';
import { appLink, enqueueMessage } from '../shared/outbox.ts';
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

const CONFIRMATION_SUBJECT = 'Confirm your e-mail address for Life Concierge';
const ACCOUNT_EXISTS_SUBJECT = 'Someone tried to sign up with your e-mail address';

/** Writes a confirmation link for the user, in the caller's transaction. */
export async function sendConfirmationLink(
  tx: Executor,
  user: { id: number; email: string; firstName: string },
  appUrl: string,
  now = new Date(),
) {
  const token = await issueOneTimeToken(tx, user.id, 'email_confirmation', CONFIRMATION_TOKEN_TTL_MS, now);
  await enqueueMessage(tx, {
    channel: 'email',
    to: user.email,
    subject: CONFIRMATION_SUBJECT,
    text: [
      `Hello ${user.firstName},`,
      '',
      'Open this link to confirm your e-mail address (it works once, for 3 days):',
      '',
      appLink(appUrl, `/confirm-email/${token}`),
      '',
      "Your employer's benefits show in Life Concierge once your address is confirmed.",
      'If you did not sign up, ignore this e-mail.',
    ].join('\n'),
  });
}

/**
 * A sign-up named an address that already has an account: the sign-up is answered as any other (no enumeration), and
 * the owner is told instead, at most once per ACCOUNT_EXISTS_NOTICE_INTERVAL_MS.
 */
export async function noticeSignUpOfExistingAccount(
  tx: Executor,
  user: { email: string; firstName: string },
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
  await enqueueMessage(tx, {
    channel: 'email',
    to: user.email,
    subject: ACCOUNT_EXISTS_SUBJECT,
    text: [
      `Hello ${user.firstName},`,
      '',
      'Someone tried to create a Life Concierge account with your e-mail address, which already has one.',
      'If it was you, sign in instead:',
      '',
      appLink(appUrl, '/sign-in'),
      '',
      'Forgot your password? Ask for a new one on the sign-in page. If it was not you, ignore this e-mail: your account is unchanged.',
    ].join('\n'),
  });
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

/** POST /users/confirmation: a new link for the signed-in user, while the address is unconfirmed. */
export async function resendConfirmationLink(db: Database, userId: number, appUrl: string, now = new Date()) {
  await db.transaction(async (tx) => {
    // Locked so that concurrent asks count each other.
    const [user] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
    if (!user) throw new Error(`resendConfirmationLink: no user ${userId}`);
    if (user.emailConfirmedAt !== null) throw unprocessable(ALREADY_CONFIRMED_ERROR);
    const [{ recent }] = await tx
      .select({ recent: count() })
      .from(oneTimeTokens)
      .where(
        and(
          eq(oneTimeTokens.userId, userId),
          eq(oneTimeTokens.purpose, 'email_confirmation'),
          gte(oneTimeTokens.createdAt, new Date(now.getTime() - HOUR_MS)),
        ),
      );
    if (recent >= CONFIRMATION_LINKS_PER_HOUR) throw tooManyRequests(TOO_MANY_CONFIRMATION_LINKS_ERROR);
    await sendConfirmationLink(tx, user, appUrl, now);
  });
}
