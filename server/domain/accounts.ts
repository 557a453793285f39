import { eq } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { companies, userCompanies, users } from '../db/schema.ts';
import {
  TOO_MANY_SIGN_IN_ATTEMPTS_ERROR,
  clearLockout,
  emailKeyOf,
  mayTrySignIn,
  recordFailedSignIn,
  recordSuccessfulSignIn,
} from './lockout.ts';
import { consumeOneTimeToken, issueOneTimeToken, retireOneTimeTokens } from './oneTimeTokens.ts';
import { appLink, enqueueMessage } from './outbox.ts';
import { hashPassword, verifyPassword, verifyPasswordOfUnknownAccount } from './passwords.ts';
import { createSession, revokeAllCredentials } from './sessions.ts';
import { companiesOf, findUserByEmail, mfaSignInFlags } from './users.ts';
import { unauthorized, unprocessable } from './userFacingError.ts';

export const INVALID_CREDENTIALS_ERROR = 'Invalid email or password.';
export const EMAIL_TAKEN_ERROR = 'Email has already been taken';
export const PASSWORD_RESET_REQUESTED_MESSAGE =
  'If your email address exists in our database, you will receive a password recovery link at your email address in a few minutes.';
export const PASSWORD_UPDATED_MESSAGE =
  'Your password has been updated successfully. You can sign in with your new password now.';
export const PASSWORDS_DO_NOT_MATCH_ERROR = 'Passwords do not match';
export const INVALID_RESET_TOKEN_ERROR =
  'Your password reset link is invalid or has expired. Please request a new one.';
export const RESET_TOKEN_TTL_MS = 2 * 60 * 60 * 1000;

export function unknownCompanyError(slug: string): string {
  return `We don't know the company "${slug}". Check your sign-up link.`;
}

/**
 * Checks the password and opens a session. An unknown address and a wrong password fail alike (same answer, same
 * argon2 work, same counting); a throttled client or a locked account (server/domain/lockout.ts) is refused before any
 * password check, with one answer for known and unknown addresses. `client` is the caller's address.
 */
export async function signIn(
  db: Database,
  credentials: { email: string; password: string },
  client: string,
  appUrl: string,
  now = new Date(),
) {
  const emailKey = emailKeyOf(credentials.email);
  const user = await findUserByEmail(db, emailKey);
  if (!(await mayTrySignIn(db, emailKey, client, user, now))) throw unauthorized(TOO_MANY_SIGN_IN_ATTEMPTS_ERROR);

  const passwordIsRight = user
    ? await verifyPassword(user.passwordHash, credentials.password)
    : await verifyPasswordOfUnknownAccount(credentials.password);
  if (!user || !passwordIsRight) {
    await recordFailedSignIn(db, { emailKey, client, user }, appUrl, now);
    throw unauthorized(INVALID_CREDENTIALS_ERROR);
  }

  await recordSuccessfulSignIn(db, user, client, now);
  const [session, userCompanyRows] = await Promise.all([
    createSession(db, user.id, now),
    companiesOf(db, user.id),
  ]);
  return {
    token: session.token,
    expiresAt: session.expiresAt,
    mfa: mfaSignInFlags(user, userCompanyRows.map((company) => company.mfaPolicy)),
  };
}

export interface SignUpInput {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  companySlug?: string;
}

/** Creates an employee account, linked to the company of the sign-up link. Returns the stored e-mail. */
export async function signUp(db: Database, input: SignUpInput, now = new Date()): Promise<string> {
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    let companyId: number | null = null;
    if (input.companySlug !== undefined) {
      const [company] = await tx
        .select({ id: companies.id })
        .from(companies)
        .where(eq(companies.slug, input.companySlug.toLowerCase()))
        .limit(1);
      if (!company) throw unprocessable(unknownCompanyError(input.companySlug));
      companyId = company.id;
    }
    const [created] = await tx
      .insert(users)
      .values({
        email: input.email.trim().toLowerCase(),
        passwordHash,
        firstName: input.firstName,
        lastName: input.lastName,
        role: 'employee',
        termsAcceptedAt: now,
      })
      .onConflictDoNothing({ target: users.email })
      .returning({ id: users.id, email: users.email });
    if (!created) throw unprocessable(EMAIL_TAKEN_ERROR);
    if (companyId !== null) await tx.insert(userCompanies).values({ userId: created.id, companyId });
    return created.email;
  });
}

/** Forgot password: e-mails a reset link when the account exists, and does nothing visible otherwise. */
export async function requestPasswordReset(db: Database, email: string, appUrl: string, now = new Date()) {
  const user = await findUserByEmail(db, email);
  if (!user) return;
  await db.transaction(async (tx) => {
    const token = await issueOneTimeToken(tx, user.id, 'password_reset', RESET_TOKEN_TTL_MS, now);
    await enqueueMessage(tx, {
      channel: 'email',
      to: user.email,
      subject: 'Reset your Life Concierge password',
      text: [
        `Hello ${user.firstName},`,
        '',
        'Someone asked to reset the password of your Life Concierge account.',
        'Open this link to choose a new one (it works once, for 2 hours):',
        '',
        appLink(appUrl, `/reset-password/${token}`),
        '',
        'If it was not you, ignore this e-mail: your password stays as it is.',
      ].join('\n'),
    });
  });
}

/**
 * Sets a new password with an e-mailed token. Every session and remembered MFA device of the user ends, the
 * other outstanding reset links die, and a lockout is lifted (the user has proved they own the mailbox).
 * Returns the user, whose open live-update streams the caller ends.
 */
export async function resetPassword(
  db: Database,
  input: { token: string; password: string; passwordConfirmation: string },
  now = new Date(),
) {
  if (input.password !== input.passwordConfirmation) throw unprocessable(PASSWORDS_DO_NOT_MATCH_ERROR);
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    const userId = await consumeOneTimeToken(tx, 'password_reset', input.token, now);
    if (userId === null) throw unprocessable(INVALID_RESET_TOKEN_ERROR);
    await retireOneTimeTokens(tx, userId, 'password_reset', now);
    await tx
      .update(users)
      .set({ passwordHash, passwordChangedAt: now })
      .where(eq(users.id, userId));
    await clearLockout(tx, userId);
    await revokeAllCredentials(tx, userId, now);
    return userId;
  });
}
