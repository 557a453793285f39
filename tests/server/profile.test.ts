import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { currentUserResponse } from '../../src/contract/account.ts';
import { PASSWORD_CHANGED_MESSAGE, PROFILE_ERRORS } from '../../src/contract/profile.ts';
import { ONBOARDING_ANSWER_IDS } from '../../src/contract/surveys.ts';
import { suiteContext } from './harness.ts';
import { PASSWORD, authHeaders, currentUserRequest, registerUser, signInRequest, signedIn } from './helpers.ts';
import { createPerson } from './requests.helpers.ts';

/**
 * Issue 32 point 3: the signed-in user edits their own name and password (and, through the onboarding answers, their
 * phone, address and interests). Nobody reaches anyone else's profile: every route acts on the caller alone.
 */

const context = suiteContext({ AUTH_RATE_LIMIT: '1000' });

function rename(headers: Record<string, string>, user: unknown) {
  return context.app.inject({ method: 'PATCH', url: '/api/v1/users/current', headers, payload: { user } });
}

function changePassword(headers: Record<string, string>, change: unknown) {
  return context.app.inject({ method: 'PUT', url: '/api/v1/users/current/password', headers, payload: change as object });
}

describe('the name', () => {
  it('is changed for the caller alone, trimmed, and read back by /users/current', async () => {
    const employee = await createPerson(context);
    const other = await createPerson(context);

    const renamed = await rename(employee.headers, { name: '  Ada ', last_name: 'King Lovelace' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(currentUserResponse.parse(renamed.json()).user).toMatchObject({ full_name: 'Ada King Lovelace', first_name: 'Ada', initials: 'AL' });
    const current = await context.app.inject({ method: 'GET', url: '/api/v1/users/current', headers: employee.headers });
    expect(currentUserResponse.parse(current.json()).user.full_name).toBe('Ada King Lovelace');
    // The other employee is untouched.
    const theirs = await context.app.inject({ method: 'GET', url: '/api/v1/users/current', headers: other.headers });
    expect(currentUserResponse.parse(theirs.json()).user.full_name).toBe(`${other.firstName} ${other.lastName}`);
  });

  it('answers 401 to a visitor, and serves staff for their own account', async () => {
    expect((await rename({}, { name: 'Eve', last_name: 'Intruder' })).statusCode).toBe(401);
    const concierge = await createPerson(context, 'concierge');
    const renamed = await rename(concierge.headers, { name: 'Casey', last_name: 'Renamed' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(currentUserResponse.parse(renamed.json()).user.full_name).toBe('Casey Renamed');
  });

  it('refuses blank and overlong names with a 422 naming the field', async () => {
    const employee = await createPerson(context);
    const blank = await rename(employee.headers, { name: '   ', last_name: 'Lovelace' });
    expect(blank.statusCode).toBe(422);
    expect(blank.json().fields).toEqual({ 'user.name': PROFILE_ERRORS.firstName });
    const noLast = await rename(employee.headers, { name: 'Ada', last_name: '' });
    expect(noLast.json().fields).toEqual({ 'user.last_name': PROFILE_ERRORS.lastName });
    const long = await rename(employee.headers, { name: 'A'.repeat(101), last_name: 'Lovelace' });
    expect(long.json().fields).toEqual({ 'user.name': PROFILE_ERRORS.nameTooLong });
  });

  it('never answers 5xx, whatever is sent (fuzzed)', async () => {
    const employee = await createPerson(context);
    await fc.assert(
      fc.asyncProperty(fc.anything(), fc.anything(), async (name, lastName) => {
        const response = await rename(employee.headers, { name, last_name: lastName });
        // 400: the input guard's refusal (NUL and the like), 422: the schema's.
        expect([200, 400, 422]).toContain(response.statusCode);
      }),
      { numRuns: 60, seed: 32 },
    );
  });
});

describe('the password', () => {
  it('needs the current one; then every other session ends and this one stays', async () => {
    const email = await registerUser(context);
    const here = await signedIn(context, email);
    const elsewhere = await signedIn(context, email);

    const wrong = await changePassword(authHeaders(here), { current_password: 'not my password', password: 'a new secret', password_confirmation: 'a new secret' });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().fields).toEqual({ current_password: PROFILE_ERRORS.wrongCurrentPassword });
    expect((await currentUserRequest(context, elsewhere)).statusCode).toBe(200);

    const changed = await changePassword(authHeaders(here), { current_password: PASSWORD, password: 'a new secret', password_confirmation: 'a new secret' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toEqual({ success: true, message: PASSWORD_CHANGED_MESSAGE });
    expect((await currentUserRequest(context, here)).statusCode).toBe(200);
    expect((await currentUserRequest(context, elsewhere)).statusCode).toBe(401);
    expect((await signInRequest(context, email, PASSWORD)).statusCode).toBe(401);
    expect((await signInRequest(context, email, 'a new secret')).statusCode).toBe(200);
  });

  it('refuses a short password and a confirmation that does not match, naming the field', async () => {
    const email = await registerUser(context);
    const here = authHeaders(await signedIn(context, email));
    const short = await changePassword(here, { current_password: PASSWORD, password: '12345', password_confirmation: '12345' });
    expect(short.statusCode).toBe(422);
    expect(short.json().fields).toEqual({ password: PROFILE_ERRORS.newPassword });
    const mismatch = await changePassword(here, { current_password: PASSWORD, password: 'a new secret', password_confirmation: 'another one' });
    expect(mismatch.json().fields).toEqual({ password_confirmation: PROFILE_ERRORS.mismatch });
    const missing = await changePassword(here, { current_password: '', password: 'a new secret', password_confirmation: 'a new secret' });
    expect(missing.json().fields).toEqual({ current_password: PROFILE_ERRORS.currentPassword });
    // Nothing changed.
    expect((await signInRequest(context, email, PASSWORD)).statusCode).toBe(200);
  });

  it('answers 401 to a visitor; another employee changes only their own', async () => {
    expect((await changePassword({}, { current_password: PASSWORD, password: 'a new secret', password_confirmation: 'a new secret' })).statusCode).toBe(401);
    const mine = await registerUser(context);
    const theirs = await registerUser(context);
    const theirHeaders = authHeaders(await signedIn(context, theirs));
    // Their own current password is what counts: mine is not theirs.
    const response = await changePassword(theirHeaders, { current_password: PASSWORD, password: 'their new one', password_confirmation: 'their new one' });
    expect(response.statusCode).toBe(200);
    expect((await signInRequest(context, mine, PASSWORD)).statusCode).toBe(200);
    expect((await signInRequest(context, theirs, 'their new one')).statusCode).toBe(200);
  });

  it('never answers 5xx, whatever is sent (fuzzed)', async () => {
    const employee = await createPerson(context);
    await fc.assert(
      fc.asyncProperty(fc.anything(), fc.anything(), fc.anything(), async (current, password, confirmation) => {
        const response = await changePassword(employee.headers, { current_password: current, password, password_confirmation: confirmation });
        // Random inputs never pass for the current password: nothing changes.
        expect([400, 422]).toContain(response.statusCode);
      }),
      { numRuns: 40, seed: 32 },
    );
  });
});

describe('the phone, address and interests (the onboarding answers)', () => {
  it('are saved and read back for the caller alone', async () => {
    const employee = await createPerson(context);
    const other = await createPerson(context);
    const { phone, address, addressLine1, city, state, postalCode, country, pet } = ONBOARDING_ANSWER_IDS;
    const saved = await context.app.inject({
      method: 'POST',
      url: '/api/v1/onboarding_answers',
      headers: employee.headers,
      payload: {
        answers: [
          { answer_id: phone, value: '(212) 555-0147' },
          { answer_id: pet, value: true },
          {
            answer_id: address,
            value: [
              { answer_id: addressLine1, value: '1 Main St' },
              { answer_id: city, value: 'Portland' },
              { answer_id: state, value: 'OR' },
              { answer_id: postalCode, value: '97201' },
              { answer_id: country, value: 'USA' },
            ],
          },
        ],
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const mine = await context.app.inject({ method: 'GET', url: '/api/v1/onboarding_answers', headers: employee.headers });
    expect(mine.json().answers).toEqual(expect.arrayContaining([{ answer_id: phone, value: '2125550147' }, { answer_id: pet, value: true }]));
    const theirs = await context.app.inject({ method: 'GET', url: '/api/v1/onboarding_answers', headers: other.headers });
    expect(theirs.json().answers).toEqual([]);
    expect((await context.app.inject({ method: 'GET', url: '/api/v1/onboarding_answers' })).statusCode).toBe(401);
  });
});
