import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { MFA_REQUIRED_ERROR } from '../../src/contract/common.ts';
import type { App } from '../../server/app.ts';
import { companies, mfaTokens, sessions, users } from '../../server/db/schema.ts';
import { createSessionCache } from '../../server/domain/accounts/sessionCache.ts';
import { createSession, tokenFromAuthorization } from '../../server/domain/accounts/sessions.ts';
import { digest } from '../../server/domain/shared/tokens.ts';
import { SESSION_EXPIRED_ERROR } from '../../server/plugins/authenticate.ts';
import { suiteContext, testEngine } from './harness.ts';
import { expectSeenByAnotherProcess, handHub } from './realtime.helpers.ts';
import {
  authHeaders,
  createCompany,
  enrolPhone,
  currentUserRequest,
  errorOf,
  registerUser,
  resetPasswordByLink,
  signedIn,
} from './helpers.ts';

/**
 * Signed-in calls read their session from a per-process cache (server/domain/accounts/sessionCache.ts). Whatever
 * caching does, revoking a session or an MFA device, or changing what MFA a user needs, takes effect at the caller's
 * next call.
 */
const context = suiteContext({ AUTH_RATE_LIMIT: '1000' });

async function signedInEmployee(companySlug?: string) {
  const email = await registerUser(context, companySlug ? { company_slug: companySlug } : {});
  const authorization = await signedIn(context, email);
  const [user] = await context.db.select().from(users).where(eq(users.email, email));
  return { email, authorization, userId: user.id };
}

/** Answers from the cache: the first read fills it, the second is served from it. */
async function expectCachedReads(authorization: string, mfaToken?: string) {
  for (let read = 0; read < 2; read += 1) {
    const response = await currentUserRequest(context, authorization, mfaToken);
    expect(response.statusCode, response.body).toBe(200);
  }
}

function signOut(authorization: string) {
  return context.app.inject({ method: 'DELETE', url: '/api/v1/users/sign_out', headers: authHeaders(authorization) });
}

describe('revocation through the API takes effect at the next call', () => {
  it('refuses a signed-out session at once, every time (20 rounds)', async () => {
    for (let round = 0; round < 20; round += 1) {
      const { authorization } = await signedInEmployee();
      await expectCachedReads(authorization);
      expect((await signOut(authorization)).statusCode).toBe(200);
      const after = await currentUserRequest(context, authorization);
      expect(after.statusCode).toBe(401);
      expect(errorOf(after)).toBe(SESSION_EXPIRED_ERROR);
    }
  });

  it('ends the other sessions and the remembered MFA device of a password reset at once', async () => {
    await createCompany(context, { slug: 'cache-globex', mfaPolicy: 'required' });
    const { email, authorization } = await signedInEmployee('cache-globex');
    const mfaToken = await enrolPhone(context, authorization, '4155550177');
    await expectCachedReads(authorization, mfaToken);

    const reset = await resetPasswordByLink(context, email, 'a new password 123');
    expect(reset.statusCode, reset.body).toBe(200);
    expect((await currentUserRequest(context, authorization, mfaToken)).statusCode).toBe(401);
  });

  it('asks for MFA at once when the session’s own MFA code enrols a phone (MFA then applies)', async () => {
    await createCompany(context, { slug: 'cache-initech', mfaPolicy: 'optional' });
    const { email, authorization } = await signedInEmployee('cache-initech');
    const onAnotherDevice = await signedIn(context, email);
    await expectCachedReads(onAnotherDevice);
    await enrolPhone(context, authorization, '4155550178');
    const other = await currentUserRequest(context, onAnotherDevice);
    expect(other.statusCode).toBe(401);
    expect(errorOf(other)).toBe(MFA_REQUIRED_ERROR);
  });
});

describe('changes made outside the API calls reach the cache through the database', () => {
  // PGlite hands a trigger's notice over as the statement commits; PostgreSQL delivers it a moment later.
  const untilRefused = async (authorization: string, mfaToken?: string) =>
    vi.waitFor(
      async () => {
        const response = await currentUserRequest(context, authorization, mfaToken);
        expect(response.statusCode).toBe(401);
        return response;
      },
      { timeout: 2_000, interval: 5 },
    );

  it('a session revoked by a statement (another process, a console, an operator)', async () => {
    const { authorization } = await signedInEmployee();
    await expectCachedReads(authorization);
    await context.db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.userId, (await userIdOf(authorization))!));
    if (testEngine === 'pglite') expect((await currentUserRequest(context, authorization)).statusCode).toBe(401);
    expect(errorOf(await untilRefused(authorization))).toBe(SESSION_EXPIRED_ERROR);
  });

  it('a remembered MFA device revoked by a statement', async () => {
    await createCompany(context, { slug: 'cache-umbrella', mfaPolicy: 'required' });
    const { authorization, userId } = await signedInEmployee('cache-umbrella');
    await context.db.update(users).set({ mfaPhone: '+14155550179' }).where(eq(users.id, userId));
    const [device] = await context.db
      .insert(mfaTokens)
      .values({ userId, tokenDigest: 'placeholder', expiresAt: new Date(Date.now() + 60_000) })
      .returning();
    const mfaToken = 'a-remembered-device-token';
    await context.db.update(mfaTokens).set({ tokenDigest: digest(mfaToken) }).where(eq(mfaTokens.id, device.id));
    await vi.waitFor(async () => expect((await currentUserRequest(context, authorization, mfaToken)).statusCode).toBe(200));
    await expectCachedReads(authorization, mfaToken);
    await context.db.update(mfaTokens).set({ revokedAt: new Date() }).where(eq(mfaTokens.id, device.id));
    expect(errorOf(await untilRefused(authorization, mfaToken))).toBe(MFA_REQUIRED_ERROR);
  });

  it('a company that starts requiring MFA', async () => {
    const company = await createCompany(context, { slug: 'cache-hooli', mfaPolicy: 'off' });
    const { authorization } = await signedInEmployee('cache-hooli');
    await expectCachedReads(authorization);
    await context.db.update(companies).set({ mfaPolicy: 'required' }).where(eq(companies.id, company.id));
    expect(errorOf(await untilRefused(authorization))).toBe(MFA_REQUIRED_ERROR);
  });

  it('a role taken away is seen at the next call', async () => {
    const { authorization, userId } = await signedInEmployee();
    await context.db.update(users).set({ role: 'concierge' }).where(eq(users.id, userId));
    const queue = () => context.app.inject({ method: 'GET', url: '/api/v1/console/staff', headers: authHeaders(authorization) });
    await vi.waitFor(async () => expect((await queue()).statusCode).not.toBe(403), { timeout: 2_000, interval: 5 });
    await context.db.update(users).set({ role: 'employee' }).where(eq(users.id, userId));
    await vi.waitFor(async () => expect((await queue()).statusCode).toBe(403), { timeout: 2_000, interval: 5 });
  });
});

async function userIdOf(authorization: string): Promise<number | undefined> {
  const [row] = await context.db
    .select({ userId: sessions.userId })
    .from(sessions)
    .where(eq(sessions.tokenDigest, digest(tokenFromAuthorization(authorization)!)));
  return row?.userId;
}

describe.runIf(testEngine === 'postgres')('two server processes on one database', () => {
  it('a sign-out in one is refused by the other as soon as the database has told it', async () => {
    const { authorization } = await signedInEmployee();
    const read = (other: App) => other.inject({ method: 'GET', url: '/api/v1/users/current', headers: authHeaders(authorization) });
    await expectSeenByAnotherProcess(context, {
      cached: async (other) => {
        expect((await read(other)).statusCode).toBe(200);
        expect((await read(other)).statusCode).toBe(200);
      },
      change: async () => expect((await signOut(authorization)).statusCode).toBe(200),
      seen: async (other) => expect((await read(other)).statusCode).toBe(401),
    });
  });
});

describe('the cache itself', () => {
  it('does not keep what a lookup read while a change arrived', async () => {
    const { userId } = await signedInEmployee();
    const { token } = await createSession(context.db, userId);
    const { hub, notify } = handHub();
    const cache = createSessionCache(context.db, hub);
    const lookup = cache.find(token, undefined);
    notify({ type: 'credentials.changed', userId });
    expect(await lookup).not.toBeNull();
    expect(cache.size).toBe(0);
    await cache.find(token, undefined);
    expect(cache.size).toBe(1);
    notify({ type: 'credentials.changed', userId: null });
    expect(cache.size).toBe(0);
    cache.close();
  });

  it('caches nothing for an unknown token, serves nothing while notices cannot be heard, and stays bounded', async () => {
    const { userId } = await signedInEmployee();
    const { token } = await createSession(context.db, userId);
    const { hub, setLive } = handHub();
    const cache = createSessionCache(context.db, hub, { maxEntries: 3 });
    expect(await cache.find('not-a-session', undefined)).toBeNull();
    expect(cache.size).toBe(0);
    await cache.find(token, undefined);
    expect(cache.size).toBe(1);
    setLive(false);
    await context.db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.userId, userId));
    expect(await cache.find(token, undefined)).toBeNull();
    expect(cache.size).toBe(0);
    const { token: fresh } = await createSession(context.db, userId);
    expect(await cache.find(fresh, undefined)).not.toBeNull();
    expect(cache.size).toBe(0);
    setLive(true);
    for (let index = 0; index < 5; index += 1) await cache.find(fresh, `device-${index}`);
    expect(cache.size).toBe(3);
    cache.close();
  });
});
