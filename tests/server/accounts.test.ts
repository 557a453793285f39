import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requests, userCompanies, users } from '../../server/db/schema.ts';
import { signInResponse, signUpResponseData, user as userSchema } from '../../src/contract/account.ts';
import { createTestContext, suiteContext, type TestContext } from './harness.ts';
import {
  PASSWORD,
  authHeaders,
  createCompany,
  currentUserRequest,
  errorOf,
  registerUser,
  signInRequest,
  signUpRequest,
  signedIn,
  uniqueEmail,
} from './helpers.ts';

// The rate limit has its own test below; here it must not get in the way.
const context = suiteContext({ AUTH_RATE_LIMIT: '1000', INTERNAL_COMPANY_NAMES: 'Life Concierge' }, async (created) => {
  await createCompany(created, { slug: 'acme', name: 'Acme Corporation' });
  await createCompany(created, { slug: 'staff', name: 'Life Concierge' });
  await createCompany(created, { slug: 'globex', name: 'Globex', mfaPolicy: 'required' });
  await createCompany(created, { slug: 'initech', name: 'Initech', mfaPolicy: 'optional' });
});

describe('POST /api/v1/users/sign_up', () => {
  it('creates an employee of the company and answers 201 with a JSON string holding the e-mail', async () => {
    const email = uniqueEmail('new', 'acme.test');
    const response = await signUpRequest(context, { email: `  ${email.toUpperCase()} `, company_slug: 'acme' });

    expect(response.statusCode).toBe(201);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const data: unknown = response.json();
    expect(typeof data).toBe('string');
    expect(signUpResponseData.parse(JSON.parse(data as string))).toEqual({ email });

    const [stored] = await context.db.select().from(users).where(eq(users.email, email));
    expect(stored.role).toBe('employee');
    expect(stored.firstName).toBe('Ada');
    expect(stored.termsAcceptedAt).not.toBeNull();
    expect(stored.passwordHash).toMatch(/^\$argon2id\$/);
    expect(stored.passwordHash).not.toContain(PASSWORD);
    const links = await context.db.select().from(userCompanies).where(eq(userCompanies.userId, stored.id));
    expect(links).toHaveLength(1);
  });

  it('refuses a company slug it does not know', async () => {
    const response = await signUpRequest(context, { email: uniqueEmail(), company_slug: 'umbrella' });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ error: 'We don\'t know the company "umbrella". Check your sign-up link.' });
  });


  it('answers bad input with 422 and the offending fields, never a 500', async () => {
    const response = await signUpRequest(context, { email: 'not-an-address', password: '123', name: '' });
    expect(response.statusCode).toBe(422);
    const body = response.json() as { error: string; fields: Record<string, string> };
    expect(Object.keys(body.fields).sort()).toEqual(['user.email', 'user.name', 'user.password']);

    const empty = await context.app.inject({ method: 'POST', url: '/api/v1/users/sign_up', payload: {} });
    expect(empty.statusCode).toBe(422);
    expect(Object.keys((empty.json() as { fields: object }).fields)).toEqual(['user']);
  });
});

describe('POST /api/v1/users/sign_in', () => {
  it('puts the session token in the authorization header and the MFA flags in the body', async () => {
    const email = await registerUser(context, { company_slug: 'acme' });
    const response = await signInRequest(context, email);

    expect(response.statusCode).toBe(200);
    expect(response.headers.authorization).toMatch(/^Bearer [\w-]{20,}$/);
    const body = signInResponse.parse(response.json());
    expect(body).toEqual({
      expires_at: expect.any(String),
      mfa_required: false,
      mfa_requires_verification: false,
      mfa_enrollment_available: false,
    });
    const hoursLeft = (Date.parse(body.expires_at) - Date.now()) / 3_600_000;
    expect(hoursLeft).toBeGreaterThan(23);
    expect(hoursLeft).toBeLessThanOrEqual(24);
  });

  it('accepts the e-mail in any case and with spaces around it', async () => {
    const email = await registerUser(context);
    expect((await signInRequest(context, ` ${email.toUpperCase()} `)).statusCode).toBe(200);
  });

  it('flags the enrolment a company asks for: required (globex) and optional (initech)', async () => {
    const globex = signInResponse.parse((await signInRequest(context, await registerUser(context, { company_slug: 'globex' }))).json());
    expect(globex).toMatchObject({ mfa_required: false, mfa_requires_verification: true, mfa_enrollment_available: false });

    const initech = signInResponse.parse((await signInRequest(context, await registerUser(context, { company_slug: 'initech' }))).json());
    expect(initech).toMatchObject({ mfa_required: false, mfa_requires_verification: false, mfa_enrollment_available: true });
  });

  it('answers a wrong password and an unknown e-mail with the same 401, without a token', async () => {
    const email = await registerUser(context);
    const wrongPassword = await signInRequest(context, email, 'not the password');
    const unknownEmail = await signInRequest(context, uniqueEmail('nobody'), PASSWORD);

    for (const response of [wrongPassword, unknownEmail]) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ error: 'Invalid email or password.' });
      expect(response.headers.authorization).toBeUndefined();
    }
  });

  it('spends argon2 time on an unknown e-mail as on a known one (no enumeration by timing)', async () => {
    const email = await registerUser(context);
    const time = async (address: string) => {
      const started = performance.now();
      await signInRequest(context, address, 'not the password');
      return performance.now() - started;
    };
    await time(uniqueEmail('warm-up'));
    const known = Math.min(await time(email), await time(email));
    const unknown = Math.min(await time(uniqueEmail('nobody')), await time(uniqueEmail('nobody')));
    // A skipped password check would answer an unknown e-mail in a small fraction of the time.
    expect(unknown).toBeGreaterThan(known * 0.3);
  });

  it('answers a malformed body with 422, not 500', async () => {
    const response = await context.app.inject({
      method: 'POST',
      url: '/api/v1/users/sign_in',
      payload: { user: { email: 'someone@example.com' } },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ fields: { 'user.password': expect.any(String) } });
  });
});

describe('GET /api/v1/users/current', () => {
  it('describes the signed-in user', async () => {
    const email = await registerUser(context, { name: 'Grace', last_name: 'Brewster Hopper', company_slug: 'acme' });
    const authorization = await signedIn(context, email);
    const [stored] = await context.db.select().from(users).where(eq(users.email, email));
    await context.db.insert(requests).values([
      { userId: stored.id, name: 'Book a vet visit' },
      { userId: stored.id, name: 'Find a plumber', status: 'closed' },
    ]);

    const response = await currentUserRequest(context, authorization);
    expect(response.statusCode).toBe(200);
    const { user } = response.json() as { user: unknown };
    expect(userSchema.parse(user)).toEqual({
      external_id: stored.externalId,
      full_name: 'Grace Brewster Hopper',
      first_name: 'Grace',
      initials: 'GH',
      email,
      request_count: 2,
      companies: [{ id: expect.any(Number), name: 'Acme Corporation', image_url: null }],
      role: 'employee',
      internal_user: false,
      onboarding_required: true,
      mfa_enrolled: false,
      mfa_phone_last_digits: null,
      email_confirmation_pending: false,
    });
  });

  it('tells internal staff apart by company name, and needs no onboarding for staff or onboarded users', async () => {
    const email = await registerUser(context, { company_slug: 'staff' });
    await context.db.update(users).set({ role: 'concierge' }).where(eq(users.email, email));
    const staff = (await currentUserRequest(context, await signedIn(context, email))).json() as { user: { internal_user: boolean; onboarding_required: boolean; role: string } };
    expect(staff.user).toMatchObject({ internal_user: true, onboarding_required: false, role: 'concierge' });

    const onboarded = await registerUser(context, { company_slug: 'acme' });
    await context.db.update(users).set({ onboardedAt: new Date() }).where(eq(users.email, onboarded));
    const employee = (await currentUserRequest(context, await signedIn(context, onboarded))).json() as { user: { onboarding_required: boolean } };
    expect(employee.user.onboarding_required).toBe(false);
  });

  it('answers 401 without a session or with a made-up token', async () => {
    const missing = await context.app.inject({ method: 'GET', url: '/api/v1/users/current' });
    expect(missing.statusCode).toBe(401);
    const madeUp = await currentUserRequest(context, 'Bearer made-up-token');
    expect(madeUp.statusCode).toBe(401);
    expect(errorOf(madeUp)).toBe('Your session has expired. Please sign in again.');
  });
});

describe('DELETE /api/v1/users/sign_out', () => {
  it('revokes the session: the token gets 401 afterwards, another session of the user lives on', async () => {
    const email = await registerUser(context);
    const first = await signedIn(context, email);
    const second = await signedIn(context, email);

    const response = await context.app.inject({ method: 'DELETE', url: '/api/v1/users/sign_out', headers: authHeaders(first) });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true });

    expect((await currentUserRequest(context, first)).statusCode).toBe(401);
    expect((await currentUserRequest(context, second)).statusCode).toBe(200);
    const again = await context.app.inject({ method: 'DELETE', url: '/api/v1/users/sign_out', headers: authHeaders(first) });
    expect(again.statusCode).toBe(401);
  });
});

describe('rate limits', () => {
  let limited: TestContext;
  beforeAll(async () => {
    limited = await createTestContext({ AUTH_RATE_LIMIT: '3' });
  });
  afterAll(async () => {
    await limited.close();
  });

  it('answers the call after AUTH_RATE_LIMIT per minute with 429 and the SPEC-style message', async () => {
    const statuses: number[] = [];
    for (let call = 0; call < 4; call += 1) {
      statuses.push((await signInRequest(limited, 'nobody@example.com', 'wrong-password')).statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
    const blocked = await signInRequest(limited, 'nobody@example.com', 'wrong-password');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual({ error: 'Too many attempts. Please wait a minute and try again.' });
    expect(blocked.headers['retry-after']).toBeDefined();
  });

  it('limits sign-up, forgot-password and reset-password too, each on its own count', async () => {
    const calls = {
      signUp: () => signUpRequest(limited, { email: 'not-an-address' }),
      forgot: () =>
        limited.app.inject({ method: 'POST', url: '/api/v1/users/password', payload: { user: { email: 'a@example.com' } } }),
      reset: () =>
        limited.app.inject({
          method: 'PUT',
          url: '/api/v1/users/password',
          payload: { reset_password_token: 'nope', password: 'secret1', password_confirmation: 'secret1' },
        }),
    };
    for (const [name, call] of Object.entries(calls)) {
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 4; attempt += 1) statuses.push((await call()).statusCode);
      expect(statuses.slice(0, 3).includes(429), name).toBe(false);
      expect(statuses[3], name).toBe(429);
    }
  });

  it('leaves the other account calls alone', async () => {
    for (let call = 0; call < 5; call += 1) {
      const response = await limited.app.inject({ method: 'GET', url: '/api/v1/users/current' });
      expect(response.statusCode).toBe(401);
    }
  });
});
