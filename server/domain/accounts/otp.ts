import { and, desc, eq, gte, isNull, or, sql } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.ts';
import { otpCodes, users } from '../../db/schema.ts';
import { enqueueMessage } from '../shared/outbox.ts';
import { createMfaToken } from './sessions.ts';
import { digest, digestsEqual, newOtpCode } from '../shared/tokens.ts';
import { findUserById } from './users.ts';
import { tooManyRequests, unauthorized, unprocessable } from '../shared/userFacingError.ts';

export const OTP_TTL_MS = 10 * 60 * 1000;
/** Tries per code; the next one is refused even when it is right. */
export const MAX_OTP_ATTEMPTS = 5;

export const ALREADY_ENROLLED_ERROR = 'Your phone number is already verified for multi-factor authentication.';
export const NO_PHONE_ERROR = 'There is no phone number to send a code to. Please enroll first.';
export const INVALID_CODE_ERROR = 'Invalid verification code.';
export const CODE_EXPIRED_ERROR = 'Your verification code has expired. Please request a new code.';
export const TOO_MANY_CODE_ATTEMPTS_ERROR = 'Too many attempts. Please request a new code.';
export const TOO_MANY_CODES_SENT_ERROR = 'Too many codes sent. Please try again later.';

/**
 * Texts cost money and can be pumped to premium numbers (issue 9 point 3): at most this many codes per account and,
 * across all accounts, per phone number, in each window. The per-client route limit comes on top. A number may be
 * enrolled by several accounts (a family or shared work phone, as the big providers allow); the per-number caps
 * keep that from being abused.
 */
export const SMS_LIMITS = [
  { windowMs: 60 * 60 * 1000, max: 5 },
  { windowMs: 24 * 60 * 60 * 1000, max: 10 },
] as const;

/** Refuses a code the limits do not allow. Codes to one number are serialised so that concurrent sends count each other. */
async function checkSmsLimits(tx: Executor, userId: number, phone: string, now: Date) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`sms:${phone}`}))`);
  for (const { windowMs, max } of SMS_LIMITS) {
    const since = new Date(now.getTime() - windowMs);
    const [{ toUser, toPhone }] = await tx
      .select({
        toUser: sql<number>`count(*) filter (where ${otpCodes.userId} = ${userId})`.mapWith(Number),
        toPhone: sql<number>`count(*) filter (where ${otpCodes.phone} = ${phone})`.mapWith(Number),
      })
      .from(otpCodes)
      .where(and(gte(otpCodes.createdAt, since), or(eq(otpCodes.userId, userId), eq(otpCodes.phone, phone))));
    if (toUser >= max || toPhone >= max) throw tooManyRequests(TOO_MANY_CODES_SENT_ERROR);
  }
}

type OtpPurpose = (typeof otpCodes.$inferSelect)['purpose'];

/**
 * Writes a fresh code and its SMS in the caller's transaction. Earlier unused codes of the user are retired
 * (marked used), so only the latest code counts and a new code does not add tries to the old ones.
 */
async function issueCode(tx: Executor, userId: number, purpose: OtpPurpose, phone: string, now: Date) {
  await checkSmsLimits(tx, userId, phone, now);
  await tx.update(otpCodes).set({ usedAt: now }).where(and(eq(otpCodes.userId, userId), isNull(otpCodes.usedAt)));
  const code = newOtpCode();
  await tx.insert(otpCodes).values({
    userId,
    purpose,
    phone,
    codeDigest: digest(code),
    expiresAt: new Date(now.getTime() + OTP_TTL_MS),
    createdAt: now,
  });
  await enqueueMessage(tx, {
    channel: 'sms',
    to: phone,
    text: `Your Life Concierge verification code is ${code}. It expires in 10 minutes.`,
  });
}

async function requireUser(tx: Executor, userId: number) {
  const user = await findUserById(tx, userId);
  if (!user) throw new Error(`No user ${userId}`);
  return user;
}

/**
 * POST /mfa: remembers the phone as pending and texts it an enrolment code. An enrolled user may change their phone
 * (issue 32 point 3) only from a device that passed an SMS code to the current one (`mfaVerified`); the current
 * phone stays until the new one's code is verified.
 */
export async function startEnrollment(
  db: Database,
  { userId, mfaVerified }: { userId: number; mfaVerified: boolean },
  phone: string,
  now = new Date(),
) {
  await db.transaction(async (tx) => {
    const user = await requireUser(tx, userId);
    if (user.mfaPhone !== null && !mfaVerified) throw unprocessable(ALREADY_ENROLLED_ERROR);
    await tx.update(users).set({ mfaPendingPhone: phone }).where(eq(users.id, userId));
    await issueCode(tx, userId, 'enrollment', phone, now);
  });
}

/** POST /mfa/send-otp: a sign-in code to the verified phone, else a new enrolment code to the pending one. */
export async function sendCode(db: Database, userId: number, now = new Date()) {
  await db.transaction(async (tx) => {
    const user = await requireUser(tx, userId);
    if (user.mfaPhone !== null) return issueCode(tx, userId, 'sign_in', user.mfaPhone, now);
    if (user.mfaPendingPhone !== null) return issueCode(tx, userId, 'enrollment', user.mfaPendingPhone, now);
    throw unprocessable(NO_PHONE_ERROR);
  });
}

/**
 * POST /mfa/verify: checks the code against the user's latest unused one. Each try is counted before the code
 * is compared (and outside any transaction a refusal would roll back). A good enrolment code makes the pending
 * phone the verified one. Returns a new MFA token.
 */
export async function verifyCode(db: Database, userId: number, code: string, now = new Date()): Promise<string> {
  const [latest] = await db
    .select()
    .from(otpCodes)
    .where(and(eq(otpCodes.userId, userId), isNull(otpCodes.usedAt)))
    .orderBy(desc(otpCodes.id))
    .limit(1);
  if (!latest) throw unauthorized(INVALID_CODE_ERROR);
  if (latest.expiresAt.getTime() <= now.getTime()) throw unauthorized(CODE_EXPIRED_ERROR);

  const [{ attempts }] = await db
    .update(otpCodes)
    .set({ attempts: sql`${otpCodes.attempts} + 1` })
    .where(eq(otpCodes.id, latest.id))
    .returning({ attempts: otpCodes.attempts });
  if (attempts > MAX_OTP_ATTEMPTS) throw unauthorized(TOO_MANY_CODE_ATTEMPTS_ERROR);
  if (!digestsEqual(latest.codeDigest, digest(code))) throw unauthorized(INVALID_CODE_ERROR);

  return db.transaction(async (tx) => {
    const [used] = await tx
      .update(otpCodes)
      .set({ usedAt: now })
      .where(and(eq(otpCodes.id, latest.id), isNull(otpCodes.usedAt)))
      .returning({ id: otpCodes.id });
    // A concurrent request with the same code got there first.
    if (!used) throw unauthorized(INVALID_CODE_ERROR);
    if (latest.purpose === 'enrollment') {
      await tx
        .update(users)
        .set({ mfaPhone: latest.phone, mfaPendingPhone: null, mfaEnrolledAt: now })
        .where(eq(users.id, userId));
    }
    return createMfaToken(tx, userId, now);
  });
}
