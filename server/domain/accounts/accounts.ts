import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { userCompanies, users } from '../../db/schema.ts';
import { companyAdmitting } from '../admin/companies.ts';
import { forgetUnconfirmedUse, markEmailConfirmed, noticeSignUpOfExistingAccount, sendConfirmationLink } from './emailConfirmation.ts';
import {
  TOO_MANY_SIGN_IN_ATTEMPTS_ERROR,
  clearLockout,
  mayTrySignIn,
  recordFailedSignIn,
  recordSuccessfulSignIn,
} from './lockout.ts';
import { consumeOneTimeToken, emailCappedLink, retireOneTimeTokens } from './oneTimeTokens.ts';
import { hashPassword, verifyPassword, verifyPasswordOfUnknownAccount } from './passwords.ts';
import { createSession, revokeAllCredentials } from './sessions.ts';
import { companiesOf, findUserByEmail, mfaSignInFlags, normalisedEmail, signInRefusal } from './users.ts';
import { unauthorized, unprocessable } from '../shared/userFacingError.ts';
import { passwordRefusalForSso } from '../sso/ssoSettings.ts';

export const INVALID_CREDENTIALS_ERROR = 'Invalid email or password.';
export const PASSWORD_RESET_REQUESTED_MESSAGE =
  'If your email address exists in our database, you will receive a password recovery link at your email address in a few minutes.';
export const PASSWORD_UPDATED_MESSAGE =
  'Your password has been updated successfully. You can sign in with your new password now.';
export const PASSWORDS_DO_NOT_MATCH_ERROR = 'Passwords do not match';
export const INVALID_RESET_TOKEN_ERROR =
  'Your password reset link is invalid or has expired. Please request a new one.';
export const RESET_TOKEN_TTL_MS = 2 * 60 * 60 * 1000;
/** Reset e-mails one address may be sent in an hour, however many clients ask: a mailbox cannot be bombed. */
export const RESET_LINKS_PER_HOUR = 3;

/**
 * Checks the password and opens a session. An unknown address and a wrong password fail alike (same answer, same
 * argon2 work, same counting); a throttled client or a locked account (lockout.ts) is refused before any password
 * check, with one answer for known and unknown addresses. `client` is the caller's address.
 */
export async function signIn(
  db: Database,
  credentials: { email: string; password: string },
  client: string,
  appUrl: string,
  now = new Date(),
) {
  const emailKey = normalisedEmail(credentials.email);
  // Told by domain, before any account is looked up: discovery tells anyone that much about the domain.
  const ssoRefusal = await passwordRefusalForSso(db, emailKey);
  if (ssoRefusal) throw unauthorized(ssoRefusal);
  const user = await findUserByEmail(db, emailKey);
  if (!(await mayTrySignIn(db, emailKey, client, user, now))) throw unauthorized(TOO_MANY_SIGN_IN_ATTEMPTS_ERROR);

  const passwordIsRight = user
    ? await verifyPassword(user.passwordHash, credentials.password)
    : await verifyPasswordOfUnknownAccount(credentials.password);
  if (!user || !passwordIsRight) {
    await recordFailedSignIn(db, { emailKey, client, user }, appUrl, now);
    throw unauthorized(INVALID_CREDENTIALS_ERROR);
  }

  // Told only to whoever knows the password: a stranger learns nothing about the account.
  const refusal = await signInRefusal(db, user.id);
  if (refusal) throw unauthorized(refusal);
  await recordSuccessfulSignIn(db, user, client, now);
  const [session, userCompanyRows] = await Promise.all([
    createSession(db, user.id, now),
    companiesOf(db, user.id, 'claimed'),
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

/**
 * Creates an employee account, claiming the company of the sign-up link when the company admits the address
 * (domain/admin/companies.ts), and e-mails the link that confirms the address and so grants the company. An address
 * that already has an account is answered the same way (issue 9 point 5: no enumeration); its owner is e-mailed
 * instead and nothing changes. Returns the e-mail as given, trimmed and lower-cased.
 */
export async function signUp(db: Database, input: SignUpInput, appUrl: string, now = new Date()): Promise<string> {
  const email = normalisedEmail(input.email);
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    const companyId = input.companySlug === undefined ? null : await companyAdmitting(tx, input.companySlug, email);
    const [created] = await tx
      .insert(users)
      .values({
        email,
        passwordHash,
        firstName: input.firstName,
        lastName: input.lastName,
        role: 'employee',
        termsAcceptedAt: now,
        emailConfirmedAt: null,
      })
      .onConflictDoNothing({ target: users.email })
      .returning({ id: users.id, email: users.email, firstName: users.firstName, emailConfirmedAt: users.emailConfirmedAt });
    if (!created) {
      const owner = await findUserByEmail(tx, email);
      if (owner) await noticeSignUpOfExistingAccount(tx, owner, appUrl, now);
      return email;
    }
    if (companyId !== null) await tx.insert(userCompanies).values({ userId: created.id, companyId });
    await sendConfirmationLink(tx, created, appUrl, now);
    return email;
  });
}

/**
 * Forgot password: e-mails a reset link when the account exists and has had fewer than RESET_LINKS_PER_HOUR this
 * hour, and does nothing visible otherwise (the caller answers every ask alike).
 */
export async function requestPasswordReset(db: Database, email: string, appUrl: string, now = new Date()) {
  const ssoRefusal = await passwordRefusalForSso(db, email);
  if (ssoRefusal) throw unprocessable(ssoRefusal);
  const user = await findUserByEmail(db, email);
  if (!user) return;
  await db.transaction(async (tx) => {
    // Locked so that concurrent asks count each other.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, user.id)).for('update');
    await emailCappedLink(tx, user, {
      purpose: 'password_reset',
      perHour: RESET_LINKS_PER_HOUR,
      ttlMs: RESET_TOKEN_TTL_MS,
      pathOf: (token) => `/reset-password/${token}`,
      subject: 'Reset your Life Concierge password',
      lines: (link) => [
        'Someone asked to reset the password of your Life Concierge account.',
        'Open this link to choose a new one (it works once, for 2 hours):',
        '',
        link,
        '',
        'If it was not you, ignore this e-mail: your password stays as it is.',
      ],
    }, appUrl, now);
  });
}

/**
 * Sets a new password with an e-mailed token. Every session and remembered MFA device of the user ends, the
 * other outstanding reset links die, and a lockout is lifted (the user has proved they own the mailbox); on an
 * address never confirmed before, what the account's earlier holder left goes (forgetUnconfirmedUse).
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
    // A link sent before the company enforced SSO no longer gives a password (the transaction keeps the token).
    const [{ email }] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId));
    const ssoRefusal = await passwordRefusalForSso(tx, email);
    if (ssoRefusal) throw unprocessable(ssoRefusal);
    await retireOneTimeTokens(tx, userId, 'password_reset', now);
    await tx
      .update(users)
      .set({ passwordHash, passwordChangedAt: now, awaitingPassword: false })
      .where(eq(users.id, userId));
    await clearLockout(tx, userId);
    await forgetUnconfirmedUse(tx, userId);
    await markEmailConfirmed(tx, userId, now);
    await revokeAllCredentials(tx, userId, now);
    return userId;
  });
}
