import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { type Executor, preparedFor, qualified } from '../../db/client.ts';
import { companies, mfaTokens, sessions, userCompanies, users } from '../../db/schema.ts';
import { ssoSessions } from '../../db/sso.schema.ts';
import { digest, newToken } from '../shared/tokens.ts';
import { ACCESS_TURNED_OFF_ERROR } from '../../../src/contract/common.constants.ts';
import { accountClosed, companyActive, membershipActive, membershipGranted, signInRefusal } from './users.ts';

export const SESSION_TTL_MS = 24 * 60 * 60 * 1000;
export const MFA_TOKEN_TTL_MS = 30 * 24 * 60 * 60 * 1000;

export type UserRow = typeof users.$inferSelect;

/** The user behind a live session, as one lookup finds them. */
interface SessionUser {
  id: number;
  externalId: string;
  email: string;
  role: UserRow['role'];
  sessionId: number;
  /** MFA applies to this user: a verified phone, or a company whose policy requires it. */
  mfaApplies: boolean;
  /** The companies that sponsor the user (their benefits): granted once the address is confirmed. */
  grantedCompanyIds: number[];
  /** The owner proved the address by an e-mailed link: until then nothing the user writes reaches staff. */
  emailConfirmed: boolean;
}

/** The signed-in user of a request. */
export interface AuthenticatedUser extends SessionUser {
  /** The request carried a live mfa-token of the user: this device passed an SMS code (what changing the MFA phone needs). */
  mfaVerified: boolean;
}

export async function createSession(db: Executor, userId: number, now = new Date()) {
  const token = newToken();
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  const [{ id }] = await db.insert(sessions).values({ userId, tokenDigest: digest(token), expiresAt }).returning({ id: sessions.id });
  return { id, token, expiresAt };
}

/** Accepts "Bearer <token>" or the bare token, as the client echoes back whatever sign-in gave it. */
export function tokenFromAuthorization(header: string | undefined): string | null {
  if (!header) return null;
  const token = header.replace(/^Bearer\s+/i, '').trim();
  return token.length > 0 ? token : null;
}

/** MFA applies to the user: a verified phone, or a company of theirs whose policy requires it. */
const mfaApplies = sql<boolean>`(${qualified(users.mfaPhone)} IS NOT NULL OR EXISTS (
  SELECT 1 FROM ${userCompanies} INNER JOIN ${companies} ON ${qualified(companies.id)} = ${qualified(userCompanies.companyId)}
  WHERE ${qualified(userCompanies.userId)} = ${qualified(users.id)} AND ${qualified(companies.mfaPolicy)} = 'required' AND ${companyActive}))`;

/** The expiry of the remembered MFA device named by the request's mfa-token header: the user's, live; else null. */
const mfaTokenExpiresAt = sql<Date | null>`(
  SELECT ${qualified(mfaTokens.expiresAt)} FROM ${mfaTokens}
  WHERE ${qualified(mfaTokens.userId)} = ${qualified(users.id)} AND ${qualified(mfaTokens.tokenDigest)} = ${sql.placeholder('mfaTokenDigest')}
    AND ${qualified(mfaTokens.revokedAt)} IS NULL AND ${qualified(mfaTokens.expiresAt)} > ${sql.placeholder('now')}
  LIMIT 1)`.mapWith(mfaTokens.expiresAt);

const grantedCompanyIds = sql<number[]>`COALESCE((
  SELECT json_agg(${qualified(userCompanies.companyId)} ORDER BY ${qualified(userCompanies.companyId)})
  FROM ${userCompanies} INNER JOIN ${companies} ON ${qualified(companies.id)} = ${qualified(userCompanies.companyId)}
  WHERE ${qualified(userCompanies.userId)} = ${qualified(users.id)} AND ${membershipGranted} AND ${membershipActive}), '[]'::json)`;

function prepareSessionLookup(db: Executor) {
  return db
    .select({
      sessionId: sessions.id,
      id: users.id,
      externalId: users.externalId,
      email: users.email,
      role: users.role,
      // A session the company's identity provider started had its second factor there (issue 29).
      mfaApplies: sql<boolean>`(${mfaApplies} AND NOT EXISTS (
        SELECT 1 FROM ${ssoSessions} WHERE ${qualified(ssoSessions.sessionId)} = ${qualified(sessions.id)}))`,
      grantedCompanyIds,
      emailConfirmed: sql<boolean>`${membershipGranted}`,
      expiresAt: sessions.expiresAt,
      mfaTokenExpiresAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.tokenDigest, sql.placeholder('sessionDigest')),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, sql.placeholder('now')),
        // Revoked with the account's deactivation too: this also holds for a session a sign-in opened meanwhile.
        sql`NOT ${accountClosed}`,
      ),
    )
    .limit(1)
    .prepare('find_session_user');
}

/** Every request of a signed-in user runs it. */
const sessionLookup = preparedFor(prepareSessionLookup);

export interface SessionLookup extends SessionUser {
  /** When the session ends. */
  expiresAt: Date;
  /** When the device token given with the lookup ends; null when none was given or it is not valid for the user. */
  mfaTokenExpiresAt: Date | null;
}

/** The live session of a token with its user, in one query; with `mfaToken`, that device token's expiry when valid. */
export async function findSessionUser(
  db: Executor,
  token: string,
  { mfaToken, now = new Date() }: { mfaToken?: string; now?: Date } = {},
): Promise<SessionLookup | null> {
  const [row] = await sessionLookup(db).execute({
    sessionDigest: digest(token),
    mfaTokenDigest: mfaToken === undefined ? null : digest(mfaToken),
    now,
  });
  return row ?? null;
}

/**
 * For a token that names no live session: the directory's message when its account was closed by the company's
 * directory (SCIM), so that the employee is told why rather than that the session expired; else null.
 */
export async function turnedOffSessionRefusal(db: Executor, token: string): Promise<string | null> {
  const [row] = await db.select({ userId: sessions.userId }).from(sessions).where(eq(sessions.tokenDigest, digest(token))).limit(1);
  if (!row) return null;
  const refusal = await signInRefusal(db, row.userId);
  return refusal === ACCESS_TURNED_OFF_ERROR ? refusal : null;
}

export async function revokeSession(db: Executor, sessionId: number, now = new Date()) {
  await db.update(sessions).set({ revokedAt: now }).where(eq(sessions.id, sessionId));
}

/** Password change: every session and remembered MFA device of the user ends. */
export async function revokeAllCredentials(db: Executor, userId: number, now = new Date()) {
  await db.update(sessions).set({ revokedAt: now }).where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
  await db.update(mfaTokens).set({ revokedAt: now }).where(and(eq(mfaTokens.userId, userId), isNull(mfaTokens.revokedAt)));
}

export async function createMfaToken(db: Executor, userId: number, now = new Date()) {
  const token = newToken();
  await db
    .insert(mfaTokens)
    .values({ userId, tokenDigest: digest(token), expiresAt: new Date(now.getTime() + MFA_TOKEN_TTL_MS) });
  return token;
}
