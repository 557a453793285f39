import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { oneTimeTokens, signInFailures, users } from '../../server/db/schema.ts';
import { RESET_LINKS_PER_HOUR } from '../../server/domain/accounts/accounts.ts';
import { UNLOCK_LINKS_PER_HOUR } from '../../server/domain/accounts/lockout.ts';
import { suiteContext } from './harness.ts';
import { PASSWORD, latestLink, outboxTo, registerUser, signUpRequest, tokenOf, uniqueEmail } from './helpers.ts';

/* Issue 33 points 2 and 4: no mailbox can be bombed with links, nor sent text a stranger typed. */

const context = suiteContext({ AUTH_RATE_LIMIT: '1000' });

const RESET_SUBJECT = 'Reset your Life Concierge password';
const UNLOCK_SUBJECT = 'Your Life Concierge account is locked';
const REQUESTED = {
  success: true,
  message:
    'If your email address exists in our database, you will receive a password recovery link at your email address in a few minutes.',
};

let clientCounter = 0;
function newClient(): string {
  clientCounter += 1;
  return `10.33.${Math.floor(clientCounter / 250)}.${clientCounter % 250}`;
}

function forgotPassword(email: string, client = newClient()) {
  return context.app.inject({ method: 'POST', url: '/api/v1/users/password', payload: { user: { email } }, remoteAddress: client });
}

async function mailsTo(email: string, subject: string) {
  return (await outboxTo(context, email)).filter((message) => message.subject === subject);
}

describe('password-reset e-mails per address', () => {
  it(`25 asks from one client send ${RESET_LINKS_PER_HOUR} e-mails, and every ask gets the same answer`, async () => {
    const email = await registerUser(context);
    const client = newClient();
    for (let ask = 0; ask < 25; ask += 1) {
      const response = await forgotPassword(email, client);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual(REQUESTED);
    }
    expect(await mailsTo(email, RESET_SUBJECT)).toHaveLength(RESET_LINKS_PER_HOUR);
  });

  it('asks from many clients share the address’s cap; another address has its own, and the newest link works', async () => {
    const email = await registerUser(context);
    const other = await registerUser(context);
    for (let client = 0; client < 6; client += 1) for (let ask = 0; ask < 5; ask += 1) await forgotPassword(email);
    expect(await mailsTo(email, RESET_SUBJECT)).toHaveLength(RESET_LINKS_PER_HOUR);

    expect((await forgotPassword(other)).statusCode).toBe(200);
    expect(await mailsTo(other, RESET_SUBJECT)).toHaveLength(1);

    const reset = await context.app.inject({
      method: 'PUT',
      url: '/api/v1/users/password',
      payload: { reset_password_token: tokenOf(await latestLink(context, email)), password: 'chosen anew', password_confirmation: 'chosen anew' },
    });
    expect(reset.statusCode, reset.body).toBe(200);
  });

  it('concurrent asks count each other', async () => {
    const email = await registerUser(context);
    await Promise.all(Array.from({ length: 10 }, () => forgotPassword(email)));
    expect(await mailsTo(email, RESET_SUBJECT)).toHaveLength(RESET_LINKS_PER_HOUR);
  });

  it('an hour later the address may be sent links again', async () => {
    const email = await registerUser(context);
    for (let ask = 0; ask < RESET_LINKS_PER_HOUR + 2; ask += 1) await forgotPassword(email);
    const [user] = await context.db.select({ id: users.id }).from(users).where(eq(users.email, email));
    await context.db
      .update(oneTimeTokens)
      .set({ createdAt: new Date(Date.now() - 61 * 60 * 1000) })
      .where(and(eq(oneTimeTokens.userId, user.id), eq(oneTimeTokens.purpose, 'password_reset')));
    await forgotPassword(email);
    expect(await mailsTo(email, RESET_SUBJECT)).toHaveLength(RESET_LINKS_PER_HOUR + 1);
  });
});

describe('unlock e-mails per address', () => {
  function signInFrom(client: string, email: string, password: string) {
    return context.app.inject({ method: 'POST', url: '/api/v1/users/sign_in', payload: { user: { email, password } }, remoteAddress: client });
  }
  /** Strangers fail from four clients, five times each: the address-wide limit, which locks the account. */
  async function lockByStrangers(email: string) {
    for (let stranger = 0; stranger < 4; stranger += 1) {
      const client = newClient();
      for (let attempt = 0; attempt < 5; attempt += 1) await signInFrom(client, email, 'wrong password');
    }
  }

  it(`a lock unlocked and locked again over and over e-mails at most ${UNLOCK_LINKS_PER_HOUR} links an hour`, async () => {
    const email = await registerUser(context);
    const [user] = await context.db.select({ id: users.id }).from(users).where(eq(users.email, email));
    for (let cycle = 0; cycle < UNLOCK_LINKS_PER_HOUR + 2; cycle += 1) {
      await lockByStrangers(email);
      // The owner's unlock (or any clearing of the lock) lets strangers lock it again.
      await context.db.update(users).set({ lockedAt: null }).where(eq(users.id, user.id));
      await context.db.delete(signInFailures).where(eq(signInFailures.emailKey, email));
    }
    expect(await mailsTo(email, UNLOCK_SUBJECT)).toHaveLength(UNLOCK_LINKS_PER_HOUR);
    // The account is locked all the same: strangers are refused without a password check.
    await lockByStrangers(email);
    expect((await signInFrom(newClient(), email, PASSWORD)).statusCode).toBe(401);
    // About 120 sign-ins, each with its argon2 check.
  }, 120_000);
});

describe('e-mails to an unconfirmed address carry nothing a stranger typed', () => {
  const spam = 'Claim your prize at https://evil.example';

  it('the sign-up’s confirmation e-mail greets no one by the name given', async () => {
    const email = uniqueEmail('outsider', 'gmail.test');
    expect((await signUpRequest(context, { email, name: spam })).statusCode).toBe(201);
    const [confirmation] = await outboxTo(context, email);
    expect(confirmation.text.startsWith('Hello,\n')).toBe(true);
    expect(confirmation.text).not.toContain('prize');
    expect(confirmation.links).toEqual([expect.stringMatching(/^http:\/\/localhost:3000\/confirm-email\//)]);
  });

  it('nor do a reset, a resent link or an "already have an account" notice while the address is unconfirmed', async () => {
    const email = uniqueEmail('outsider', 'gmail.test');
    expect((await signUpRequest(context, { email, name: spam })).statusCode).toBe(201);
    await forgotPassword(email);
    expect((await signUpRequest(context, { email, name: 'Someone else' })).statusCode).toBe(201);
    const sent = await outboxTo(context, email);
    expect(sent.map((message) => message.subject).sort()).toEqual([
      'Confirm your e-mail address for Life Concierge',
      RESET_SUBJECT,
      'Someone tried to sign up with your e-mail address',
    ]);
    for (const message of sent) {
      expect(message.text.startsWith('Hello,\n')).toBe(true);
      expect(message.text).not.toContain('prize');
    }
  });

  it('greets a confirmed owner by name', async () => {
    const email = await registerUser(context, { name: 'Grace' });
    await forgotPassword(email);
    const [reset] = await mailsTo(email, RESET_SUBJECT);
    expect(reset.text.startsWith('Hello Grace,\n')).toBe(true);
  });
});
