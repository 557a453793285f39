import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { oneTimeTokens, signInFailures, users } from '../../server/db/schema.ts';
import { normalisedEmail } from '../../server/domain/accounts/users.ts';
import { suiteContext } from './harness.ts';
import { PASSWORD, latestLink, outboxTo, registerUser, resetPasswordByLink, tokenOf, uniqueEmail } from './helpers.ts';

const TOO_MANY = { error: 'Too many unsuccessful sign-in attempts. Please try again later or reset your password.' };
const INVALID_CREDENTIALS = { error: 'Invalid email or password.' };
const INVALID_UNLOCK_TOKEN = { error: 'Invalid unlock token.' };
const UNLOCKED = { success: true, message: 'Your account has been unlocked. You can sign in now.' };

const context = suiteContext({ AUTH_RATE_LIMIT: '1000' });

let clientCounter = 0;
/** A client address no test has used yet. */
function newClient(): string {
  clientCounter += 1;
  return `10.9.${Math.floor(clientCounter / 250)}.${clientCounter % 250}`;
}

function signInFrom(client: string, email: string, password: string) {
  return context.app.inject({
    method: 'POST',
    url: '/api/v1/users/sign_in',
    payload: { user: { email, password } },
    remoteAddress: client,
  });
}

/** `times` wrong passwords from `client`; the answers as { status, body }. */
async function failFrom(client: string, email: string, times: number) {
  const answers: Array<{ status: number; body: string }> = [];
  for (let attempt = 0; attempt < times; attempt += 1) {
    const response = await signInFrom(client, email, 'wrong password');
    answers.push({ status: response.statusCode, body: response.body });
  }
  return answers;
}

/** Strangers fail from four clients, five times each: the address-wide limit. */
async function lockByStrangers(email: string) {
  for (let stranger = 0; stranger < 4; stranger += 1) await failFrom(newClient(), email, 5);
}

function unlockRequest(token: string) {
  return context.app.inject({ method: 'GET', url: '/api/v1/users/unlock', query: { unlock_token: token } });
}

/** Moves every failure on the address `minutes` into the past, as if that time had gone by. */
async function age(email: string, minutes: number) {
  await context.db
    .update(signInFailures)
    .set({ createdAt: sql`${signInFailures.createdAt} - make_interval(mins => ${minutes})` })
    .where(eq(signInFailures.emailKey, normalisedEmail(email)));
}

const invalid = { status: 401, body: JSON.stringify(INVALID_CREDENTIALS) };
const tooMany = { status: 401, body: JSON.stringify(TOO_MANY) };

describe('sign-in throttling answers known and unknown addresses alike', () => {
  it('per client: five failures, then the sixth attempt is refused unchecked, byte for byte the same', async () => {
    const known = await registerUser(context);
    const unknown = uniqueEmail('nobody');
    const client = newClient();
    const knownAnswers = await failFrom(client, known, 6);
    const unknownAnswers = await failFrom(client, unknown, 6);
    expect(knownAnswers).toEqual([...Array(5).fill(invalid), tooMany]);
    expect(unknownAnswers).toEqual(knownAnswers);

    // Even the right password is not checked from that client; another client is not affected.
    expect((await signInFrom(client, known, PASSWORD)).json()).toEqual(TOO_MANY);
    expect((await signInFrom(newClient(), known, PASSWORD)).statusCode).toBe(200);
  });

  it('per address: twenty failures from strangers lock it for new clients, the same for an unknown address', async () => {
    const known = await registerUser(context);
    const unknown = uniqueEmail('nobody');
    await lockByStrangers(known);
    await lockByStrangers(unknown);
    const client = newClient();
    const knownAnswer = await signInFrom(client, known, PASSWORD);
    const unknownAnswer = await signInFrom(client, unknown, PASSWORD);
    expect(knownAnswer.statusCode).toBe(401);
    expect(knownAnswer.json()).toEqual(TOO_MANY);
    expect(unknownAnswer.body).toBe(knownAnswer.body);
    expect(knownAnswer.headers.authorization).toBeUndefined();
  });

  it('the pair limit lifts after fifteen minutes, the address limit after the hour', async () => {
    const email = await registerUser(context);
    const client = newClient();
    await failFrom(client, email, 5);
    await age(email, 14);
    expect((await signInFrom(client, email, PASSWORD)).json()).toEqual(TOO_MANY);
    await age(email, 2);
    expect((await signInFrom(client, email, PASSWORD)).statusCode).toBe(200);

    await lockByStrangers(email);
    await age(email, 59);
    expect((await signInFrom(newClient(), email, PASSWORD)).json()).toEqual(TOO_MANY);
    await age(email, 2);
    expect((await signInFrom(newClient(), email, PASSWORD)).statusCode).toBe(200);
  });

  it('a success forgives that client its failures', async () => {
    const email = await registerUser(context);
    const client = newClient();
    expect(await failFrom(client, email, 4)).toEqual(Array(4).fill(invalid));
    expect((await signInFrom(client, email, PASSWORD)).statusCode).toBe(200);
    expect(await failFrom(client, email, 4)).toEqual(Array(4).fill(invalid));
    expect((await signInFrom(client, email, PASSWORD)).statusCode).toBe(200);
  });
});

describe('a locked account stays open to its owner', () => {
  it('a client the owner signed in from keeps working while strangers lock the account', async () => {
    const email = await registerUser(context);
    const ownersLaptop = newClient();
    expect((await signInFrom(ownersLaptop, email, PASSWORD)).statusCode).toBe(200);
    await lockByStrangers(email);
    expect((await signInFrom(newClient(), email, PASSWORD)).json()).toEqual(TOO_MANY);
    expect((await signInFrom(ownersLaptop, email, PASSWORD)).statusCode).toBe(200);
  });

  it('e-mails one unlock link per lock, which unlocks every client once', async () => {
    const email = await registerUser(context);
    await lockByStrangers(email);
    await lockByStrangers(email);
    const messages = (await outboxTo(context, email)).filter((message) => message.subject !== 'Confirm your e-mail address for Life Concierge');
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ channel: 'email', to: email, subject: 'Your Life Concierge account is locked' });
    expect(messages[0].links).toEqual([expect.stringMatching(/^http:\/\/localhost:3000\/unlock\/[\w-]{20,}$/)]);

    const token = tokenOf(messages[0].links[0]);
    const unlocked = await unlockRequest(token);
    expect(unlocked.statusCode).toBe(200);
    expect(unlocked.json()).toEqual(UNLOCKED);
    expect((await signInFrom(newClient(), email, PASSWORD)).statusCode).toBe(200);
    const reused = await unlockRequest(token);
    expect(reused.statusCode).toBe(422);
    expect(reused.json()).toEqual(INVALID_UNLOCK_TOKEN);
  });

  it('a password reset unlocks too', async () => {
    const email = await registerUser(context);
    await lockByStrangers(email);
    const newPassword = 'a fresh password';
    const reset = await resetPasswordByLink(context, email, newPassword);
    expect(reset.statusCode, reset.body).toBe(200);
    expect((await signInFrom(newClient(), email, newPassword)).statusCode).toBe(200);
    const [stored] = await context.db.select().from(users).where(eq(users.email, email));
    expect(stored.lockedAt).toBeNull();
  });

  it('refuses an expired unlock link, an unknown one and a reset token with the SPEC message', async () => {
    const email = await registerUser(context);
    await lockByStrangers(email);
    const token = tokenOf(await latestLink(context, email));
    const [user] = await context.db.select().from(users).where(eq(users.email, email));
    await context.db
      .update(oneTimeTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(and(eq(oneTimeTokens.userId, user.id), eq(oneTimeTokens.purpose, 'unlock')));
    for (const refused of [token, 'no-such-token']) {
      const response = await unlockRequest(refused);
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual(INVALID_UNLOCK_TOKEN);
    }
    expect((await signInFrom(newClient(), email, PASSWORD)).json()).toEqual(TOO_MANY);

    await context.app.inject({ method: 'POST', url: '/api/v1/users/password', payload: { user: { email } } });
    expect((await unlockRequest(tokenOf(await latestLink(context, email)))).json()).toEqual(INVALID_UNLOCK_TOKEN);
  });

  it('answers a missing unlock_token with 422', async () => {
    const response = await context.app.inject({ method: 'GET', url: '/api/v1/users/unlock' });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ fields: { unlock_token: expect.any(String) } });
  });
});

describe('unlock link guessing', () => {
  const limited = suiteContext({ AUTH_RATE_LIMIT: '3' });

  it('is rate limited per client like the other account calls', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 4; attempt += 1) {
      const response = await limited.app.inject({ method: 'GET', url: '/api/v1/users/unlock', query: { unlock_token: `guess-${attempt}` } });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([422, 422, 422, 429]);
  });
});
