import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../../server/db/schema.ts';
import { MFA_TOKEN_HEADER } from '../../src/contract/common.ts';
import { suiteContext } from './harness.ts';
import { authHeaders, createCompany, currentUserRequest, enrolPhone, latestSmsCode, outboxTo, registerUser, signedIn } from './helpers.ts';

const ALREADY_ENROLLED = { error: 'Your phone number is already verified for multi-factor authentication.' };
const INVALID_CODE = { error: 'Invalid verification code.' };

const context = suiteContext({ AUTH_RATE_LIMIT: '1000' }, async (created) => {
  await createCompany(created, { slug: 'globex', name: 'Globex', mfaPolicy: 'required' });
});

let phoneCounter = 0;
function newPhone(): string {
  phoneCounter += 1;
  return `312555${String(phoneCounter).padStart(4, '0')}`;
}

/** A globex employee with `phone` enrolled, signed in on a device that passed its code. */
async function enrolledEmployee(phone: string) {
  const email = await registerUser(context, { company_slug: 'globex' });
  const authorization = await signedIn(context, email);
  const mfaToken = await enrolPhone(context, authorization, phone);
  return { email, authorization, mfaToken };
}

function startChange(headers: Record<string, string>, phone: string) {
  return context.app.inject({ method: 'POST', url: '/api/v1/mfa', headers, payload: { mfa_number: phone } });
}

function verify(headers: Record<string, string>, otp: string) {
  return context.app.inject({ method: 'POST', url: '/api/v1/mfa/verify', headers, payload: { otp } });
}

async function storedPhones(email: string) {
  const [user] = await context.db.select({ mfaPhone: users.mfaPhone, mfaPendingPhone: users.mfaPendingPhone }).from(users).where(eq(users.email, email));
  return user;
}

/** Another six-digit code than `code`. */
function wrongCode(code: string): string {
  return code === '000000' ? '111111' : '000000';
}

describe('changing the MFA phone (issue 32 point 3)', () => {
  it('refuses an anonymous caller', async () => {
    const response = await startChange({}, newPhone());
    expect(response.statusCode).toBe(401);
  });

  it('refuses a session that has not passed an SMS code on this device', async () => {
    const oldPhone = newPhone();
    const { email } = await enrolledEmployee(oldPhone);
    const unverified = await signedIn(context, email);
    const newNumber = newPhone();

    const response = await startChange(authHeaders(unverified), newNumber);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual(ALREADY_ENROLLED);
    expect(await outboxTo(context, newNumber)).toEqual([]);
    expect(await storedPhones(email)).toEqual({ mfaPhone: oldPhone, mfaPendingPhone: null });
  });

  it('keeps the old phone until the new one is verified, and shows only its last digits', async () => {
    const oldPhone = newPhone();
    const { email, authorization, mfaToken } = await enrolledEmployee(oldPhone);
    const headers = authHeaders(authorization, mfaToken);
    const newNumber = newPhone();

    const started = await startChange(headers, newNumber);
    expect(started.statusCode, started.body).toBe(200);
    expect(await storedPhones(email)).toEqual({ mfaPhone: oldPhone, mfaPendingPhone: newNumber });
    const before = await currentUserRequest(context, authorization, mfaToken);
    expect(before.json()).toMatchObject({ user: { mfa_enrolled: true, mfa_phone_last_digits: oldPhone.slice(-4) } });
    expect(before.body).not.toContain(oldPhone);

    const code = await latestSmsCode(context, newNumber);
    const wrong = await verify(headers, wrongCode(code));
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual(INVALID_CODE);
    expect(await storedPhones(email)).toEqual({ mfaPhone: oldPhone, mfaPendingPhone: newNumber });

    const verified = await verify(headers, code);
    expect(verified.statusCode, verified.body).toBe(200);
    expect(await storedPhones(email)).toEqual({ mfaPhone: newNumber, mfaPendingPhone: null });
    const after = await currentUserRequest(context, authorization, String(verified.headers[MFA_TOKEN_HEADER]));
    expect(after.json()).toMatchObject({ user: { mfa_phone_last_digits: newNumber.slice(-4) } });
  });

  it('lets no other employee change the phone with the code texted for it', async () => {
    const ownerPhone = newPhone();
    const owner = await enrolledEmployee(ownerPhone);
    const other = await enrolledEmployee(newPhone());
    const newNumber = newPhone();
    await startChange(authHeaders(owner.authorization, owner.mfaToken), newNumber);
    const code = await latestSmsCode(context, newNumber);

    const stolen = await verify(authHeaders(other.authorization, other.mfaToken), code);
    expect(stolen.statusCode).toBe(401);
    expect(stolen.json()).toEqual(INVALID_CODE);
    expect(await storedPhones(owner.email)).toEqual({ mfaPhone: ownerPhone, mfaPendingPhone: newNumber });
    expect((await storedPhones(other.email)).mfaPhone).not.toBe(newNumber);
  });
});
