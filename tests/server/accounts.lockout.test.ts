import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { oneTimeTokens, users } from '../../server/db/schema.ts';
import { suiteContext } from './harness.ts';
import { PASSWORD, latestLink, outboxTo, registerUser, signInRequest, tokenOf } from './helpers.ts';

const LOCKED = { error: 'Your account is locked. Use the link we e-mailed you to unlock it, or try again in an hour.' };
const INVALID_CREDENTIALS = { error: 'Invalid email or password.' };
const INVALID_UNLOCK_TOKEN = { error: 'Invalid unlock token.' };
const UNLOCKED = { success: true, message: 'Your account has been unlocked. You can sign in now.' };

const context = suiteContext({ AUTH_RATE_LIMIT: '1000' });

async function failSignIns(email: string, times: number) {
  const bodies: unknown[] = [];
  for (let attempt = 0; attempt < times; attempt += 1) {
    const response = await signInRequest(context, email, 'wrong password');
    expect(response.statusCode).toBe(401);
    bodies.push(response.json());
  }
  return bodies;
}

function unlockRequest(token: string) {
  return context.app.inject({ method: 'GET', url: '/api/v1/users/unlock', query: { unlock_token: token } });
}

async function lockedAccount() {
  const email = await registerUser(context);
  await failSignIns(email, 5);
  return email;
}

describe('lockout', () => {
  it('locks the account at the fifth consecutive failure and e-mails an unlock link', async () => {
    const email = await registerUser(context);
    const bodies = await failSignIns(email, 5);

    expect(bodies.slice(0, 4)).toEqual(Array(4).fill(INVALID_CREDENTIALS));
    expect(bodies[4]).toEqual(LOCKED);
    const [stored] = await context.db.select().from(users).where(eq(users.email, email));
    expect(stored.lockedAt).not.toBeNull();

    const messages = await outboxTo(context, email);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ channel: 'email', to: email, delivered_at: null });
    expect(messages[0].links).toEqual([expect.stringMatching(/^http:\/\/localhost:3000\/unlock\/[\w-]{20,}$/)]);
    expect(messages[0].text).toContain(messages[0].links[0]);
  });

  it('refuses the right password while locked, and sends no second e-mail', async () => {
    const email = await lockedAccount();
    const response = await signInRequest(context, email, PASSWORD);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(LOCKED);
    expect(response.headers.authorization).toBeUndefined();
    await failSignIns(email, 2);
    expect(await outboxTo(context, email)).toHaveLength(1);
  });

  it('counts consecutive failures only: a success resets the count', async () => {
    const email = await registerUser(context);
    await failSignIns(email, 4);
    expect((await signInRequest(context, email)).statusCode).toBe(200);
    const bodies = await failSignIns(email, 4);
    expect(bodies).toEqual(Array(4).fill(INVALID_CREDENTIALS));
    expect((await signInRequest(context, email)).statusCode).toBe(200);
  });

  it('unlocks with the e-mailed link, once', async () => {
    const email = await lockedAccount();
    const token = tokenOf(await latestLink(context, email));

    const response = await unlockRequest(token);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(UNLOCKED);
    expect((await signInRequest(context, email)).statusCode).toBe(200);

    const reused = await unlockRequest(token);
    expect(reused.statusCode).toBe(422);
    expect(reused.json()).toEqual(INVALID_UNLOCK_TOKEN);
  });

  it('starts a fresh count after unlocking: four failures do not lock again', async () => {
    const email = await lockedAccount();
    await unlockRequest(tokenOf(await latestLink(context, email)));
    expect(await failSignIns(email, 4)).toEqual(Array(4).fill(INVALID_CREDENTIALS));
    expect((await signInRequest(context, email)).statusCode).toBe(200);
  });

  it('refuses an expired unlock link and an unknown one with the SPEC message', async () => {
    const email = await lockedAccount();
    const token = tokenOf(await latestLink(context, email));
    const [user] = await context.db.select().from(users).where(eq(users.email, email));
    await context.db
      .update(oneTimeTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(and(eq(oneTimeTokens.userId, user.id), eq(oneTimeTokens.purpose, 'unlock')));

    const expired = await unlockRequest(token);
    expect(expired.statusCode).toBe(422);
    expect(expired.json()).toEqual(INVALID_UNLOCK_TOKEN);
    expect((await signInRequest(context, email)).json()).toEqual(LOCKED);

    const unknown = await unlockRequest('no-such-token');
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json()).toEqual(INVALID_UNLOCK_TOKEN);
  });

  it('does not unlock with a password reset token', async () => {
    const email = await lockedAccount();
    await context.app.inject({ method: 'POST', url: '/api/v1/users/password', payload: { user: { email } } });
    const resetToken = tokenOf(await latestLink(context, email));
    expect((await unlockRequest(resetToken)).json()).toEqual(INVALID_UNLOCK_TOKEN);
  });

  it('lifts the lock by itself an hour later, and counts from zero again', async () => {
    const email = await lockedAccount();
    const justUnderAnHour = new Date(Date.now() - 59 * 60 * 1000);
    await context.db.update(users).set({ lockedAt: justUnderAnHour }).where(eq(users.email, email));
    expect((await signInRequest(context, email)).json()).toEqual(LOCKED);

    const overAnHour = new Date(Date.now() - 61 * 60 * 1000);
    await context.db.update(users).set({ lockedAt: overAnHour }).where(eq(users.email, email));
    expect(await failSignIns(email, 1)).toEqual([INVALID_CREDENTIALS]);
    const response = await signInRequest(context, email);
    expect(response.statusCode).toBe(200);
    const [stored] = await context.db.select().from(users).where(eq(users.email, email));
    expect(stored).toMatchObject({ lockedAt: null, failedSignInCount: 0 });
  });

  it('answers a missing unlock_token with 422', async () => {
    const response = await context.app.inject({ method: 'GET', url: '/api/v1/users/unlock' });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ fields: { unlock_token: expect.any(String) } });
  });
});
