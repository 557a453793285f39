import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { otpCodes, users } from '../../server/db/schema.ts';
import { signInResponse } from '../../src/contract/account.ts';
import { createTestContext, suiteContext, type TestContext } from './harness.ts';
import {
  authHeaders,
  enrolPhone,
  createCompany,
  currentUserRequest,
  latestSmsCode,
  outboxTo,
  registerUser,
  resetPasswordByLink,
  signInRequest,
  signedIn,
} from './helpers.ts';

const MFA_REQUIRED = { error: 'MFA authentication required' };
const INVALID_CODE = { error: 'Invalid verification code.' };
const EXPIRED_CODE = { error: 'Your verification code has expired. Please request a new code.' };
const TOO_MANY = { error: 'Too many attempts. Please request a new code.' };

let phoneCounter = 0;

const context = suiteContext({ AUTH_RATE_LIMIT: '1000' }, async (created) => {
  await createCompany(created, { slug: 'globex', name: 'Globex', mfaPolicy: 'required' });
  await createCompany(created, { slug: 'initech', name: 'Initech', mfaPolicy: 'optional' });
  await createCompany(created, { slug: 'acme', name: 'Acme Corporation' });
});

function newPhone(): string {
  phoneCounter += 1;
  return `212555${String(phoneCounter).padStart(4, '0')}`;
}

function enroll(authorization: string, phone: string) {
  return context.app.inject({
    method: 'POST',
    url: '/api/v1/mfa',
    headers: authHeaders(authorization),
    payload: { mfa_number: phone },
  });
}

function sendOtp(authorization: string) {
  return context.app.inject({ method: 'POST', url: '/api/v1/mfa/send-otp', headers: authHeaders(authorization) });
}

function verify(authorization: string, otp: string) {
  return context.app.inject({
    method: 'POST',
    url: '/api/v1/mfa/verify',
    headers: authHeaders(authorization),
    payload: { otp },
  });
}

/** A code of six digits that is not `code`. */
function wrongCode(code: string): string {
  return code === '000000' ? '111111' : '000000';
}

/** A globex user who has enrolled `phone`; returns the e-mail. */
async function enrolledUser(phone: string) {
  const email = await registerUser(context, { company_slug: 'globex' });
  await enrolPhone(context, await signedIn(context, email), phone);
  return email;
}

describe('MFA enrolment required by the company (globex)', () => {
  it('blocks /users/current until a code is verified, then lets the mfa-token through', async () => {
    const email = await registerUser(context, { company_slug: 'globex' });
    const signIn = await signInRequest(context, email);
    expect(signInResponse.parse(signIn.json()).mfa_requires_verification).toBe(true);
    const authorization = String(signIn.headers.authorization);

    const blocked = await currentUserRequest(context, authorization);
    expect(blocked.statusCode).toBe(401);
    expect(blocked.json()).toEqual(MFA_REQUIRED);

    const phone = newPhone();
    const enrolment = await enroll(authorization, phone);
    expect(enrolment.statusCode).toBe(200);
    expect(enrolment.json()).toEqual({ success: true });
    const [sms] = await outboxTo(context, phone);
    expect(sms).toMatchObject({ channel: 'sms', to: phone, subject: null, links: [] });

    const verified = await verify(authorization, await latestSmsCode(context, phone));
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toEqual({ success: true });
    const mfaToken = verified.headers['mfa-token'];
    expect(mfaToken).toMatch(/^[\w-]{20,}$/);

    expect((await currentUserRequest(context, authorization, 'not-the-token')).json()).toEqual(MFA_REQUIRED);
    const allowed = await currentUserRequest(context, authorization, String(mfaToken));
    expect(allowed.statusCode).toBe(200);
    expect(allowed.json()).toMatchObject({ user: { email, mfa_enrolled: true } });

    const [stored] = await context.db.select().from(users).where(eq(users.email, email));
    expect(stored).toMatchObject({ mfaPhone: phone, mfaPendingPhone: null });
    expect(stored.mfaEnrolledAt).not.toBeNull();
  });

  it('stores codes only as digests', async () => {
    const email = await registerUser(context, { company_slug: 'globex' });
    const phone = newPhone();
    await enroll(await signedIn(context, email), phone);
    const code = await latestSmsCode(context, phone);
    const [user] = await context.db.select().from(users).where(eq(users.email, email));
    const [row] = await context.db.select().from(otpCodes).where(eq(otpCodes.userId, user.id));
    expect(row.codeDigest).toMatch(/^[0-9a-f]{64}$/);
    expect(row.codeDigest).not.toContain(code);
  });

  it('re-sends the enrolment code to the pending phone; only the newest code counts', async () => {
    const email = await registerUser(context, { company_slug: 'globex' });
    const authorization = await signedIn(context, email);
    const phone = newPhone();
    await enroll(authorization, phone);
    const first = await latestSmsCode(context, phone);

    const resent = await sendOtp(authorization);
    expect(resent.statusCode).toBe(200);
    expect(await outboxTo(context, phone)).toHaveLength(2);
    const second = await latestSmsCode(context, phone);

    if (first !== second) expect((await verify(authorization, first)).json()).toEqual(INVALID_CODE);
    expect((await verify(authorization, second)).statusCode).toBe(200);
  });
});

describe('MFA sign-in of an enrolled user', () => {
  it('says mfa_required at sign-in and texts a sign-in code on send-otp', async () => {
    const phone = newPhone();
    const email = await enrolledUser(phone);

    const signIn = await signInRequest(context, email);
    expect(signInResponse.parse(signIn.json())).toMatchObject({
      mfa_required: true,
      mfa_requires_verification: false,
      mfa_enrollment_available: false,
    });
    const authorization = String(signIn.headers.authorization);
    expect((await currentUserRequest(context, authorization)).json()).toEqual(MFA_REQUIRED);

    expect((await sendOtp(authorization)).json()).toEqual({ success: true });
    const verified = await verify(authorization, await latestSmsCode(context, phone));
    expect(verified.statusCode).toBe(200);
    expect((await currentUserRequest(context, authorization, String(verified.headers['mfa-token']))).statusCode).toBe(200);
  });

  it('refuses a wrong code, then accepts the right one', async () => {
    const phone = newPhone();
    const authorization = await signedIn(context, await enrolledUser(phone));
    await sendOtp(authorization);
    const code = await latestSmsCode(context, phone);

    const wrong = await verify(authorization, wrongCode(code));
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual(INVALID_CODE);
    expect(wrong.headers['mfa-token']).toBeUndefined();
    expect((await verify(authorization, code)).statusCode).toBe(200);
  });

  it('accepts a code once only', async () => {
    const phone = newPhone();
    const authorization = await signedIn(context, await enrolledUser(phone));
    await sendOtp(authorization);
    const code = await latestSmsCode(context, phone);
    expect((await verify(authorization, code)).statusCode).toBe(200);
    expect((await verify(authorization, code)).json()).toEqual(INVALID_CODE);
  });

  it('allows five tries per code: the sixth is refused even when right', async () => {
    const phone = newPhone();
    const authorization = await signedIn(context, await enrolledUser(phone));
    await sendOtp(authorization);
    const code = await latestSmsCode(context, phone);

    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await verify(authorization, wrongCode(code))).json()).toEqual(INVALID_CODE);
    }
    const sixth = await verify(authorization, code);
    expect(sixth.statusCode).toBe(401);
    expect(sixth.json()).toEqual(TOO_MANY);

    await sendOtp(authorization);
    expect((await verify(authorization, await latestSmsCode(context, phone))).statusCode).toBe(200);
  });

  it('accepts the right code at the fifth try', async () => {
    const phone = newPhone();
    const authorization = await signedIn(context, await enrolledUser(phone));
    await sendOtp(authorization);
    const code = await latestSmsCode(context, phone);
    for (let attempt = 0; attempt < 4; attempt += 1) await verify(authorization, wrongCode(code));
    expect((await verify(authorization, code)).statusCode).toBe(200);
  });

  it('refuses a code after ten minutes', async () => {
    const phone = newPhone();
    const email = await enrolledUser(phone);
    const authorization = await signedIn(context, email);
    await sendOtp(authorization);
    const code = await latestSmsCode(context, phone);
    const [user] = await context.db.select().from(users).where(eq(users.email, email));
    const [latest] = await context.db.select().from(otpCodes).where(eq(otpCodes.userId, user.id)).orderBy(otpCodes.id);
    expect((latest.expiresAt.getTime() - latest.createdAt.getTime()) / 60_000).toBeCloseTo(10, 1);
    await context.db
      .update(otpCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(otpCodes.userId, user.id));

    const response = await verify(authorization, code);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(EXPIRED_CODE);
  });

  it('refuses a second enrolment', async () => {
    const phone = newPhone();
    const authorization = await signedIn(context, await enrolledUser(phone));
    const response = await enroll(authorization, newPhone());
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ error: 'Your phone number is already verified for multi-factor authentication.' });
  });

  it('ends remembered MFA devices on password reset', async () => {
    const phone = newPhone();
    const email = await enrolledUser(phone);
    const authorization = await signedIn(context, email);
    await sendOtp(authorization);
    const mfaToken = String((await verify(authorization, await latestSmsCode(context, phone))).headers['mfa-token']);

    await resetPasswordByLink(context, email, 'brand new secret');

    const fresh = await signedIn(context, email, 'brand new secret');
    expect((await currentUserRequest(context, fresh, mfaToken)).json()).toEqual(MFA_REQUIRED);
  });
});

describe('optional MFA and no MFA', () => {
  it('lets an initech user in without MFA, and enrol by choice', async () => {
    const email = await registerUser(context, { company_slug: 'initech' });
    const authorization = await signedIn(context, email);
    expect((await currentUserRequest(context, authorization)).statusCode).toBe(200);

    const phone = newPhone();
    await enroll(authorization, phone);
    const verified = await verify(authorization, await latestSmsCode(context, phone));
    expect(verified.statusCode).toBe(200);
    // Enrolled now: later sessions need a code.
    const next = await signInRequest(context, email);
    expect(signInResponse.parse(next.json()).mfa_required).toBe(true);
    expect((await currentUserRequest(context, String(next.headers.authorization))).json()).toEqual(MFA_REQUIRED);
  });

  it('has no phone to text before enrolment', async () => {
    const authorization = await signedIn(context, await registerUser(context, { company_slug: 'acme' }));
    const response = await sendOtp(authorization);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ error: 'There is no phone number to send a code to. Please enroll first.' });
    expect((await verify(authorization, '123456')).json()).toEqual(INVALID_CODE);
  });

  it('needs a session for every MFA call', async () => {
    for (const url of ['/api/v1/mfa', '/api/v1/mfa/send-otp', '/api/v1/mfa/verify']) {
      const response = await context.app.inject({ method: 'POST', url, payload: { otp: '123456', mfa_number: '2125551212' } });
      expect(response.statusCode, url).toBe(401);
    }
  });

  it('checks the shapes: 10-digit phone, 6-digit code', async () => {
    const authorization = await signedIn(context, await registerUser(context));
    const phone = await enroll(authorization, '212555121');
    expect(phone.statusCode).toBe(422);
    expect(phone.json()).toMatchObject({ fields: { mfa_number: expect.any(String) } });
    const code = await verify(authorization, '12345a');
    expect(code.statusCode).toBe(422);
    expect(code.json()).toMatchObject({ fields: { otp: expect.any(String) } });
  });
});

describe('MFA rate limits', () => {
  let limited: TestContext;
  beforeAll(async () => {
    limited = await createTestContext({ AUTH_RATE_LIMIT: '2' });
  });
  afterAll(async () => {
    await limited.close();
  });

  it('limits send-otp and verify', async () => {
    const email = await registerUser(limited);
    const authorization = await signedIn(limited, email);
    for (const url of ['/api/v1/mfa/send-otp', '/api/v1/mfa/verify']) {
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const response = await limited.app.inject({
          method: 'POST',
          url,
          headers: authHeaders(authorization),
          payload: { otp: '123456' },
        });
        statuses.push(response.statusCode);
        if (response.statusCode === 429) {
          expect(response.json()).toEqual({ error: 'Too many attempts. Please wait a minute and try again.' });
        }
      }
      expect(statuses[2], url).toBe(429);
      expect(statuses.slice(0, 2).includes(429), url).toBe(false);
    }
  });
});

describe('SMS limits (issue 9 point 3)', () => {
  const TOO_MANY_CODES = { error: 'Too many codes sent. Please try again later.' };

  async function signedInEmployee() {
    return signedIn(context, await registerUser(context, { company_slug: 'acme' }));
  }

  /** Moves the codes of `where` `hours` into the past, as if that time had gone by. */
  async function ageCodes(where: ReturnType<typeof eq>, hours: number) {
    await context.db
      .update(otpCodes)
      .set({ createdAt: sql`${otpCodes.createdAt} - make_interval(hours => ${hours})` })
      .where(where);
  }

  it('texts one account at most five codes an hour, whatever the numbers, and says why', async () => {
    const authorization = await signedInEmployee();
    const phones = Array.from({ length: 6 }, newPhone);
    const statuses: number[] = [];
    for (const phone of phones) statuses.push((await enroll(authorization, phone)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const refused = await sendOtp(authorization);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual(TOO_MANY_CODES);
    expect(await outboxTo(context, phones[5])).toEqual([]);
  });

  it('texts one number at most five codes an hour across accounts, and ten a day', async () => {
    const phone = newPhone();
    const statuses: number[] = [];
    for (let account = 0; account < 6; account += 1) statuses.push((await enroll(await signedInEmployee(), phone)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    expect(await outboxTo(context, phone)).toHaveLength(5);

    await ageCodes(eq(otpCodes.phone, phone), 2);
    for (let account = 0; account < 5; account += 1) expect((await enroll(await signedInEmployee(), phone)).statusCode).toBe(200);
    const overTheDay = await enroll(await signedInEmployee(), phone);
    expect(overTheDay.statusCode).toBe(429);
    expect(overTheDay.json()).toEqual(TOO_MANY_CODES);

    await ageCodes(eq(otpCodes.phone, phone), 24);
    expect((await enroll(await signedInEmployee(), phone)).statusCode).toBe(200);
  });

  it('lets a number be shared by several accounts (a family phone)', async () => {
    const phone = newPhone();
    await enrolledUser(phone);
    await enrolledUser(phone);
    const holders = await context.db.select({ id: users.id }).from(users).where(eq(users.mfaPhone, phone));
    expect(holders).toHaveLength(2);
  });
});
