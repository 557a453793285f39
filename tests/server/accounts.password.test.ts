import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { oneTimeTokens, users } from '../../server/db/schema.ts';
import { suiteContext } from './harness.ts';
import {
  PASSWORD,
  currentUserRequest,
  latestLink,
  outboxTo,
  registerUser,
  signInRequest,
  signedIn,
  tokenOf,
  uniqueEmail,
} from './helpers.ts';

const REQUESTED = {
  success: true,
  message:
    'If your email address exists in our database, you will receive a password recovery link at your email address in a few minutes.',
};
const UPDATED = {
  success: true,
  message: 'Your password has been updated successfully. You can sign in with your new password now.',
};
const INVALID_LINK = { error: 'Your password reset link is invalid or has expired. Please request a new one.' };
const NEW_PASSWORD = 'a brand new secret';

const context = suiteContext({ AUTH_RATE_LIMIT: '1000' });

function forgotPassword(email: string) {
  return context.app.inject({ method: 'POST', url: '/api/v1/users/password', payload: { user: { email } } });
}

function resetPassword(token: string, password = NEW_PASSWORD, confirmation = password) {
  return context.app.inject({
    method: 'PUT',
    url: '/api/v1/users/password',
    payload: { reset_password_token: token, password, password_confirmation: confirmation },
  });
}

async function resetTokenFor(email: string) {
  expect((await forgotPassword(email)).statusCode).toBe(200);
  return tokenOf(await latestLink(context, email));
}

describe('POST /api/v1/users/password (forgot password)', () => {
  it('answers a known and an unknown address alike, and e-mails only the known one', async () => {
    const known = await registerUser(context);
    const unknown = uniqueEmail('nobody');
    const knownResponse = await forgotPassword(known);
    const unknownResponse = await forgotPassword(unknown);

    for (const response of [knownResponse, unknownResponse]) {
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual(REQUESTED);
    }
    expect(knownResponse.body).toBe(unknownResponse.body);
    expect(await outboxTo(context, unknown)).toHaveLength(0);
    const [message] = await outboxTo(context, known);
    expect(message).toMatchObject({ channel: 'email', to: known });
    expect(message.links).toEqual([expect.stringMatching(/^http:\/\/localhost:3000\/reset-password\/[\w-]{20,}$/)]);
  });

  it('stores only a digest of the token, valid for two hours', async () => {
    const email = await registerUser(context);
    const token = await resetTokenFor(email);
    const [user] = await context.db.select().from(users).where(eq(users.email, email));
    const [row] = await context.db
      .select()
      .from(oneTimeTokens)
      .where(and(eq(oneTimeTokens.userId, user.id), eq(oneTimeTokens.purpose, 'password_reset')));
    expect(row.tokenDigest).not.toContain(token);
    const hours = (row.expiresAt.getTime() - row.createdAt.getTime()) / 3_600_000;
    expect(hours).toBeCloseTo(2, 1);
  });
});

describe('PUT /api/v1/users/password (reset)', () => {
  it('sets the new password: the new one signs in, the old one does not', async () => {
    const email = await registerUser(context);
    const response = await resetPassword(await resetTokenFor(email));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(UPDATED);
    expect((await signInRequest(context, email, NEW_PASSWORD)).statusCode).toBe(200);
    expect((await signInRequest(context, email, PASSWORD)).statusCode).toBe(401);
  });

  it('ends every session of the user', async () => {
    const email = await registerUser(context);
    const before = await signedIn(context, email);
    expect((await currentUserRequest(context, before)).statusCode).toBe(200);

    await resetPassword(await resetTokenFor(email));
    const after = await currentUserRequest(context, before);
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({ error: 'Your session has expired. Please sign in again.' });
  });

  it('lifts a lockout', async () => {
    const email = await registerUser(context);
    for (let attempt = 0; attempt < 5; attempt += 1) await signInRequest(context, email, 'wrong password');
    expect((await signInRequest(context, email, PASSWORD)).statusCode).toBe(401);

    await resetPassword(await resetTokenFor(email));
    expect((await signInRequest(context, email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('refuses a confirmation that does not match, and keeps the token usable', async () => {
    const email = await registerUser(context);
    const token = await resetTokenFor(email);
    const mismatch = await resetPassword(token, NEW_PASSWORD, 'something else');
    expect(mismatch.statusCode).toBe(422);
    expect(mismatch.json()).toEqual({ error: 'Passwords do not match' });
    expect((await resetPassword(token)).statusCode).toBe(200);
  });

  it('refuses a used token', async () => {
    const email = await registerUser(context);
    const token = await resetTokenFor(email);
    expect((await resetPassword(token)).statusCode).toBe(200);
    const reused = await resetPassword(token, 'yet another secret');
    expect(reused.statusCode).toBe(422);
    expect(reused.json()).toEqual(INVALID_LINK);
    expect((await signInRequest(context, email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('refuses an older link once a newer one has been used', async () => {
    const email = await registerUser(context);
    const older = await resetTokenFor(email);
    const newer = await resetTokenFor(email);
    expect((await resetPassword(newer)).statusCode).toBe(200);
    expect((await resetPassword(older, 'yet another secret')).json()).toEqual(INVALID_LINK);
  });

  it('refuses an expired token and an unknown one', async () => {
    const email = await registerUser(context);
    const token = await resetTokenFor(email);
    const [user] = await context.db.select().from(users).where(eq(users.email, email));
    await context.db
      .update(oneTimeTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(and(eq(oneTimeTokens.userId, user.id), eq(oneTimeTokens.purpose, 'password_reset')));

    for (const candidate of [token, 'no-such-token']) {
      const response = await resetPassword(candidate);
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual(INVALID_LINK);
    }
    expect((await signInRequest(context, email, PASSWORD)).statusCode).toBe(200);
  });

  it('refuses a password outside 6-128 characters with 422 field errors', async () => {
    const response = await resetPassword('whatever', '12345');
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ fields: { password: expect.any(String), password_confirmation: expect.any(String) } });
  });
});
