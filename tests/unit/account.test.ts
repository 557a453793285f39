import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { User } from '../../src/contract/account.ts';
import { MFA_REQUIRED_ERROR } from '../../src/contract/common.ts';
import { AccountError, enrollMfa, fetchCurrentUser, requestPasswordReset, resetPassword, sendMfaCode, signIn, signOut, signUp, unlockAccount, verifyMfaCode } from '../../src/services/account.ts';
import { ACCOUNT_MESSAGES } from '../../src/services/account.messages.ts';

interface Answer {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

const fetchMock = vi.fn<(request: Request) => Promise<Response>>();
/** What each request carried (read as it is sent: the client consumes the body afterwards). */
const sent: { request: Request; body: string }[] = [];

/** The next call gets this answer. */
function answerWith({ status = 200, body, headers = {} }: Answer) {
  fetchMock.mockImplementationOnce(async (request) => {
    sent.push({ request, body: await request.clone().text() });
    return new Response(body === undefined ? null : JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json', ...headers },
    });
  });
}

function lastRequest() {
  const last = sent.at(-1);
  if (!last) throw new Error('No request was sent');
  return { method: last.request.method, url: last.request.url, json: (): unknown => JSON.parse(last.body) };
}

async function failureOf(call: Promise<unknown>): Promise<AccountError> {
  const error = await call.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(AccountError);
  return error as AccountError;
}

const USER: User = {
  external_id: 'u-1',
  full_name: 'Ada Lovelace',
  first_name: 'Ada',
  initials: 'AL',
  email: 'ada@example.com',
  request_count: 2,
  companies: [{ id: 1, name: 'Acme', image_url: null }],
  role: 'employee',
  internal_user: false,
  onboarding_required: false,
  mfa_enrolled: false,
  mfa_phone_last_digits: null,
  email_confirmation_pending: false,
};

const SIGN_IN_BODY = {
  expires_at: '2030-01-01T00:00:00.000Z',
  mfa_required: false,
  mfa_requires_verification: true,
  mfa_enrollment_available: false,
};

beforeEach(() => {
  fetchMock.mockReset();
  sent.length = 0;
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('signIn', () => {
  it('posts the credentials and reads the token from the authorization header', async () => {
    answerWith({ body: SIGN_IN_BODY, headers: { authorization: 'Bearer abc' } });

    const answer = await signIn({ email: 'ada@example.com', password: 'secret1' });

    expect(answer).toEqual({ token: 'Bearer abc', ...SIGN_IN_BODY });
    const request = lastRequest();
    expect(request.method).toBe('POST');
    expect(new URL(request.url).pathname).toBe('/api/v1/users/sign_in');
    expect(request.json()).toEqual({ user: { email: 'ada@example.com', password: 'secret1' } });
  });

  it('fails with SPEC §8 text when no authorization header comes back', async () => {
    answerWith({ body: SIGN_IN_BODY });
    const error = await failureOf(signIn({ email: 'ada@example.com', password: 'secret1' }));
    expect(error.message).toBe(ACCOUNT_MESSAGES.noAuthorizationToken);
  });

  it("shows the server's error on 401, else the 'unable' text", async () => {
    answerWith({ status: 401, body: { error: 'Invalid email or password' } });
    expect((await failureOf(signIn({ email: 'a@b.co', password: 'wrong12' }))).message).toBe('Invalid email or password');

    answerWith({ status: 401 });
    expect((await failureOf(signIn({ email: 'a@b.co', password: 'wrong12' }))).message).toBe(
      'Unable to sign in at this time. Please try again later.',
    );
  });

  it("any other status is 'Sign in error'", async () => {
    answerWith({ status: 500, body: { error: 'Boom' } });
    const error = await failureOf(signIn({ email: 'a@b.co', password: 'secret1' }));
    expect(error.message).toBe('Sign in error');
    expect(error.status).toBe(500);
  });
});

describe('signUp', () => {
  const details = { email: 'ada@example.com', password: 'secret1', name: 'Ada', last_name: 'Lovelace' };

  it('sends terms_of_service 1 and the company slug, and reads the e-mail out of the JSON string answer', async () => {
    answerWith({ status: 201, body: JSON.stringify({ email: 'ada@example.com' }) });

    await expect(signUp({ ...details, company_slug: 'acme' })).resolves.toBe('ada@example.com');

    expect(new URL(lastRequest().url).pathname).toBe('/api/v1/users/sign_up');
    expect(lastRequest().json()).toEqual({ user: { ...details, company_slug: 'acme', terms_of_service: 1 } });
  });

  it('an answer that is not the JSON string of SPEC §7 is a sign-up error', async () => {
    answerWith({ status: 201, body: { email: 'ada@example.com' } });
    expect((await failureOf(signUp(details))).message).toBe('Sign up error');
  });

  it("shows the server's message on 401 and 422, else the 'unable' text; other statuses are 'Sign up error'", async () => {
    answerWith({ status: 422, body: { error: 'Email has already been taken' } });
    expect((await failureOf(signUp(details))).message).toBe('Email has already been taken');

    answerWith({ status: 401 });
    expect((await failureOf(signUp(details))).message).toBe('Unable to sign up at this time. Please try again later.');

    answerWith({ status: 503, body: { error: 'Maintenance' } });
    expect((await failureOf(signUp(details))).message).toBe('Sign up error');
  });
});

describe('MFA', () => {
  it('verify returns the mfa-token header', async () => {
    answerWith({ body: { success: true }, headers: { 'mfa-token': 'device-1' } });
    await expect(verifyMfaCode('123456')).resolves.toBe('device-1');
    expect(new URL(lastRequest().url).pathname).toBe('/api/v1/mfa/verify');
    expect(lastRequest().json()).toEqual({ otp: '123456' });
  });

  it('verify without an mfa-token header fails with SPEC §8 text', async () => {
    answerWith({ body: { success: true } });
    expect((await failureOf(verifyMfaCode('123456'))).message).toBe('No MFA verification token received');
  });

  it("verify failures show the server's error, else 'Unable to verify MFA token'", async () => {
    answerWith({ status: 401, body: { error: 'The code is not valid' } });
    expect((await failureOf(verifyMfaCode('123456'))).message).toBe('The code is not valid');

    answerWith({ body: { success: false }, headers: { 'mfa-token': 'device-1' } });
    expect((await failureOf(verifyMfaCode('123456'))).message).toBe('Unable to verify MFA token');
  });

  it("send-otp failures show the server's error, else the SPEC §8 text", async () => {
    answerWith({ body: { success: true } });
    await sendMfaCode();
    expect(new URL(lastRequest().url).pathname).toBe('/api/v1/mfa/send-otp');

    answerWith({ status: 429 });
    expect((await failureOf(sendMfaCode())).message).toBe('Unable to request MFA token at this time.');
  });

  it('enrolment posts the number; failures show the server error, else the SPEC §8 text', async () => {
    answerWith({ body: { success: true } });
    await enrollMfa('2125551212');
    expect(new URL(lastRequest().url).pathname).toBe('/api/v1/mfa');
    expect(lastRequest().json()).toEqual({ mfa_number: '2125551212' });

    answerWith({ status: 422, body: { error: 'You are already enrolled' } });
    expect((await failureOf(enrollMfa('2125551212'))).message).toBe('You are already enrolled');

    answerWith({ status: 500 });
    expect((await failureOf(enrollMfa('2125551212'))).message).toBe('Unable to enroll in MFA at this time.');
  });
});

describe('current user', () => {
  it('returns the parsed user', async () => {
    answerWith({ body: { user: USER } });
    await expect(fetchCurrentUser()).resolves.toEqual(USER);
  });

  it('keeps the status and server error so the session can tell an MFA challenge from a lost session', async () => {
    answerWith({ status: 401, body: { error: MFA_REQUIRED_ERROR } });
    const challenge = await failureOf(fetchCurrentUser());
    expect([challenge.status, challenge.serverError]).toEqual([401, MFA_REQUIRED_ERROR]);

    answerWith({ status: 500 });
    const failure = await failureOf(fetchCurrentUser());
    expect([failure.message, failure.status]).toEqual(['Failed to refresh current user state', 500]);
  });
});

describe('password, unlock and sign-out', () => {
  it('forgot password posts the e-mail; failures show the server message, else the SPEC §8 text', async () => {
    answerWith({ body: { success: true, message: 'Sent' } });
    await requestPasswordReset('ada@example.com');
    expect(lastRequest().json()).toEqual({ user: { email: 'ada@example.com' } });

    answerWith({ status: 500 });
    expect((await failureOf(requestPasswordReset('ada@example.com'))).message).toBe(
      'Unable to reset password at this time. Please try again later.',
    );
  });

  it('reset puts the token and both passwords', async () => {
    const request = { reset_password_token: 'tok', password: 'secret1', password_confirmation: 'secret1' };
    answerWith({ body: { success: true, message: 'Updated' } });
    await resetPassword(request);
    expect(lastRequest().method).toBe('PUT');
    expect(lastRequest().json()).toEqual(request);

    answerWith({ status: 422, body: { error: 'Reset password token is invalid' } });
    expect((await failureOf(resetPassword(request))).message).toBe('Reset password token is invalid');
  });

  it('unlock sends the token as unlock_token; failures show the server message, else the SPEC §8 text', async () => {
    answerWith({ body: { success: true, message: 'Unlocked' } });
    await unlockAccount('a/b');
    const url = new URL(lastRequest().url);
    expect([url.pathname, url.searchParams.get('unlock_token')]).toEqual(['/api/v1/users/unlock', 'a/b']);

    answerWith({ status: 422, body: { error: 'Invalid unlock token.' } });
    expect((await failureOf(unlockAccount('a/b'))).message).toBe('Invalid unlock token.');

    answerWith({ status: 502 });
    expect((await failureOf(unlockAccount('a/b'))).message).toBe('Unable to unlock your account');

    // A 2xx that says it failed: its message, else the SPEC §8 text.
    answerWith({ body: { success: false, message: 'This link was already used.' } });
    expect((await failureOf(unlockAccount('a/b'))).message).toBe('This link was already used.');
    answerWith({ body: { success: false } });
    expect((await failureOf(unlockAccount('a/b'))).message).toBe('Unable to unlock your account');
  });

  it('sign-out sends DELETE', async () => {
    answerWith({ body: { success: true } });
    await signOut();
    expect([lastRequest().method, new URL(lastRequest().url).pathname]).toEqual(['DELETE', '/api/v1/users/sign_out']);
  });
});
