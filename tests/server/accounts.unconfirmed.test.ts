import { count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { requests, userCompanies, users } from '../../server/db/schema.ts';
import { onboardingAnswers, userRequestSurveys } from '../../server/db/surveys.schema.ts';
import { seedSurveyCatalogue } from '../../server/db/seed/surveyCatalogue.ts';
import { EMAIL_CONFIRMATION_REQUIRED_ERROR } from '../../server/domain/accounts/emailConfirmation.ts';
import { ONBOARDING_ANSWER_IDS, ONBOARDING_INTRO_SURVEY_ID, beginSurveyResponse } from '../../src/contract/surveys.ts';
import { suiteContext } from './harness.ts';
import {
  authHeaders,
  confirmEmailOf,
  createCompany,
  errorOf,
  registerUser,
  resetPasswordByLink,
  signedIn,
} from './helpers.ts';
import { createPerson, createRequest, employeeMessage } from './requests.helpers.ts';

/*
 * Issue 33 point 3: an account whose address is unconfirmed sends nothing to staff (no survey begun or submitted, no
 * message), and when the address's owner first proves it by a password reset, what the account's earlier holder
 * left goes.
 */

const context = suiteContext({ AUTH_RATE_LIMIT: '1000' }, async (created) => {
  expect(await seedSurveyCatalogue(created.db)).toBe(true);
  await createCompany(created, { slug: 'acme33' });
});

/** Someone signs up with an address at the company's domain that they do not read, and signs in. */
async function impostor() {
  const email = await registerUser(context, { company_slug: 'acme33', name: 'Not', last_name: 'TheCeo' }, { confirmed: false });
  const headers = authHeaders(await signedIn(context, email));
  const [user] = await context.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return { email, id: user.id, headers };
}

function beginIntroSurvey(headers: Record<string, string>) {
  return context.app.inject({ method: 'POST', url: `/api/v1/request_surveys/${ONBOARDING_INTRO_SURVEY_ID}/user_request_surveys`, headers, payload: {} });
}

describe('an unconfirmed address sends nothing to staff', () => {
  it('refuses to begin or submit a survey and to post a message, with a message that says what to do', async () => {
    const { id, headers } = await impostor();
    const begun = await beginIntroSurvey(headers);
    expect(begun.statusCode).toBe(422);
    expect(errorOf(begun)).toBe(EMAIL_CONFIRMATION_REQUIRED_ERROR);

    // A survey begun some other way (before this rule) cannot be submitted either.
    const [session] = await context.db.insert(userRequestSurveys).values({ userId: id, requestSurveyId: ONBOARDING_INTRO_SURVEY_ID }).returning();
    const submitted = await context.app.inject({ method: 'POST', url: `/api/v1/user_request_surveys/${session.id}/submit`, headers });
    expect(submitted.statusCode).toBe(422);
    expect(errorOf(submitted)).toBe(EMAIL_CONFIRMATION_REQUIRED_ERROR);

    const requestId = await createRequest(context, { id, email: '', firstName: '', lastName: '', headers });
    const posted = await context.app.inject({ method: 'POST', url: `/api/v1/requests/${requestId}/messages`, headers, payload: employeeMessage('Hi') });
    expect(posted.statusCode).toBe(422);
    expect(errorOf(posted)).toBe(EMAIL_CONFIRMATION_REQUIRED_ERROR);

    const [{ filed }] = await context.db.select({ filed: count() }).from(requests).where(eq(requests.userId, id));
    expect(filed).toBe(1);
  });

  it('lets the same account file requests once its owner opens the confirmation link (the sign-up flow of SPEC)', async () => {
    const { email, headers } = await impostor();
    expect((await beginIntroSurvey(headers)).statusCode).toBe(422);
    await confirmEmailOf(context, email);
    const begun = await beginIntroSurvey(headers);
    expect(begun.statusCode, begun.body).toBe(201);
    expect(beginSurveyResponse.parse(begun.json()).success).toBe(true);
  });

  it('leaves staff and confirmed employees as they were', async () => {
    const employee = await createPerson(context);
    expect((await beginIntroSurvey(employee.headers)).statusCode).toBe(201);
    const signedUp = await registerUser(context, { company_slug: 'acme33' });
    expect((await beginIntroSurvey(authHeaders(await signedIn(context, signedUp)))).statusCode).toBe(201);
  });
});

describe('the owner’s first proof of the address by a password reset', () => {
  it('keeps nothing the unconfirmed holder left: requests, surveys, onboarding, MFA phone, company claim stays', async () => {
    const { email, id, headers } = await impostor();
    // What an earlier holder may have left (requests from before this rule, onboarding, an enrolled phone).
    const requestId = await createRequest(context, { id, email, firstName: '', lastName: '', headers });
    await context.db.insert(userRequestSurveys).values({ userId: id, requestSurveyId: ONBOARDING_INTRO_SURVEY_ID });
    const onboarded = await context.app.inject({
      method: 'POST',
      url: '/api/v1/onboarding_answers',
      headers,
      payload: { answers: [{ answer_id: ONBOARDING_ANSWER_IDS.pet, value: true }], completed: true },
    });
    expect(onboarded.statusCode, onboarded.body).toBe(200);
    await context.db.update(users).set({ mfaPhone: '2125550199' }).where(eq(users.id, id));

    const reset = await resetPasswordByLink(context, email, 'the real owner chose this');
    expect(reset.statusCode, reset.body).toBe(200);

    const [account] = await context.db.select().from(users).where(eq(users.id, id));
    expect(account.emailConfirmedAt).not.toBeNull();
    expect({ onboardedAt: account.onboardedAt, mfaPhone: account.mfaPhone }).toEqual({ onboardedAt: null, mfaPhone: null });
    expect(await context.db.select().from(requests).where(eq(requests.id, requestId))).toEqual([]);
    expect(await context.db.select().from(userRequestSurveys).where(eq(userRequestSurveys.userId, id))).toEqual([]);
    expect(await context.db.select().from(onboardingAnswers).where(eq(onboardingAnswers.userId, id))).toEqual([]);
    // The company was claimed by the address itself (its domain), which the owner has now proved: it is granted.
    expect(await context.db.select().from(userCompanies).where(eq(userCompanies.userId, id))).toHaveLength(1);
    // The earlier holder's session is over.
    expect((await context.app.inject({ method: 'GET', url: '/api/v1/users/current', headers })).statusCode).toBe(401);
  });

  it('changes nothing else for an address confirmed before', async () => {
    const email = await registerUser(context, { company_slug: 'acme33' });
    const owner = authHeaders(await signedIn(context, email));
    const [user] = await context.db.select({ id: users.id }).from(users).where(eq(users.email, email));
    const requestId = await createRequest(context, { id: user.id, email, firstName: '', lastName: '', headers: owner });
    expect((await resetPasswordByLink(context, email, 'a new password here')).statusCode).toBe(200);
    expect(await context.db.select({ id: requests.id }).from(requests).where(eq(requests.id, requestId))).toEqual([{ id: requestId }]);
  });
});
