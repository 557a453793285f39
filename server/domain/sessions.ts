import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { companies, mfaTokens, sessions, userCompanies, users } from '../db/schema.ts';
import { digest, newToken } from './tokens.ts';

export const SESSION_TTL_MS = 24 * 60 * 60 * 1000;
export const MFA_TOKEN_TTL_MS = 30 * 24 * 60 * 60 * 1000;

export type UserRow = typeof users.$inferSelect;

export interface AuthenticatedUser {
  id: number;
  externalId: string;
  email: string;
  role: UserRow['role'];
  sessionId: number;
  /** MFA applies to this user: a verified phone, or a company whose policy requires it. */
  mfaApplies: boolean;
}

export async function createSession(db: Executor, userId: number, now = new Date()) {
  const token = newToken();
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  await db.insert(sessions).values({ userId, tokenDigest: digest(token), expiresAt });
  return { token, expiresAt };
}

/** Accepts "Bearer <token>" or the bare token, as the client echoes back whatever sign-in gave it. */
export function tokenFromAuthorization(header: string | undefined): string | null {
  if (!header) return null;
  const token = header.replace(/^Bearer\s+/i, '').trim();
  return token.length > 0 ? token : null;
}

export async function companyRequiresMfa(db: Executor, userId: number): Promise<boolean> {
  const rows = await db
    .select({ id: companies.id })
    .from(userCompanies)
    .innerJoin(companies, eq(companies.id, userCompanies.companyId))
    .where(and(eq(userCompanies.userId, userId), eq(companies.mfaPolicy, 'required')))
    .limit(1);
  return rows.length > 0;
}

export async function findSessionUser(db: Executor, token: string, now = new Date()): Promise<AuthenticatedUser | null> {
  const [row] = await db
    .select({ sessionId: sessions.id, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenDigest, digest(token)), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
    .limit(1);
  if (!row) return null;
  const mfaApplies = row.user.mfaPhone !== null || (await companyRequiresMfa(db, row.user.id));
  return {
    id: row.user.id,
    externalId: row.user.externalId,
    email: row.user.email,
    role: row.user.role,
    sessionId: row.sessionId,
    mfaApplies,
  };
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

export async function isValidMfaToken(db: Executor, userId: number, token: string, now = new Date()) {
  const rows = await db
    .select({ id: mfaTokens.id })
    .from(mfaTokens)
    .where(
      and(
        eq(mfaTokens.userId, userId),
        eq(mfaTokens.tokenDigest, digest(token)),
        isNull(mfaTokens.revokedAt),
        gt(mfaTokens.expiresAt, now),
      ),
    )
    .limit(1);
  return rows.length > 0;
}
