import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { users } from '../../server/db/schema.ts';
import { createMfaToken, createSession } from '../../server/domain/accounts/sessions.ts';
import { AUTHORIZATION_HEADER, MFA_TOKEN_HEADER } from '../../src/contract/common.ts';
import {
  type NextScreenItem,
  type OnboardingAnswersRequest,
  beginSurveyResponse,
  nextScreenItemResponse,
} from '../../src/contract/surveys.ts';
import type { TestContext } from './harness.ts';
import { uniqueEmail } from './helpers.ts';
import { PDF, PNG, uploadFile } from './requests.helpers.ts';

/** Survey and onboarding calls as the client makes them, for the survey server tests. */

/** The eight request categories of SPEC §1, in the order the catalogue and the API give them. */
export const SPEC_CATEGORY_NAMES = [
  'Car',
  'Family',
  'Finances',
  'Home / Moving',
  'Medical / Employer Benefits',
  'Pet',
  'Travel',
  'Wildcard',
];

export interface TestUser {
  id: number;
  email: string;
  /** The session token, and the MFA token when the user has an MFA phone. */
  headers: Record<string, string>;
}

/**
 * A signed-in employee, created in the database with a real session (sign-up's password hashing would only slow
 * these tests down; the account flows have their own tests).
 */
export async function createSignedInUser(
  context: TestContext,
  profile: { firstName?: string; lastName?: string; mfaPhone?: string } = {},
): Promise<TestUser> {
  const email = uniqueEmail('surveys');
  const [user] = await context.db
    .insert(users)
    .values({
      email,
      passwordHash: 'not used: these users sign in by session',
      firstName: profile.firstName ?? 'Grace',
      lastName: profile.lastName ?? 'Hopper',
      termsAcceptedAt: new Date(),
      mfaPhone: profile.mfaPhone ?? null,
    })
    .returning({ id: users.id });
  const { token } = await createSession(context.db, user.id);
  const headers: Record<string, string> = { [AUTHORIZATION_HEADER]: `Bearer ${token}` };
  // A verified MFA phone means every call needs a verified device too.
  if (profile.mfaPhone) headers[MFA_TOKEN_HEADER] = await createMfaToken(context.db, user.id);
  return { id: user.id, email, headers };
}

export function apiGet(context: TestContext, user: TestUser, url: string) {
  return context.app.inject({ method: 'GET', url, headers: user.headers });
}

export function apiPost(context: TestContext, user: TestUser, url: string, payload?: object) {
  return context.app.inject({
    method: 'POST',
    url,
    headers: user.headers,
    ...(payload ? { payload } : {}),
  });
}

export function json<T>(response: LightMyRequestResponse, status: number): T {
  expect(response.statusCode, response.body).toBe(status);
  return response.json() as T;
}

export async function beginSurvey(context: TestContext, user: TestUser, requestSurveyId: number): Promise<number> {
  const response = await apiPost(context, user, `/api/v1/request_surveys/${requestSurveyId}/user_request_surveys`, {
    for_alpha: true,
  });
  return beginSurveyResponse.parse(json(response, 201)).user_request_survey.id;
}

export async function nextItem(context: TestContext, user: TestUser, sessionId: number): Promise<NextScreenItem | null> {
  const response = await apiGet(context, user, `/api/v1/user_request_surveys/${sessionId}/next_screen_item`);
  return nextScreenItemResponse.parse(json(response, 200)).next_item;
}

export function answer(context: TestContext, user: TestUser, sessionId: number, questionId: number, value: string | null) {
  return apiPost(context, user, `/api/v1/user_request_surveys/${sessionId}/user_request_answers`, {
    user_request_answer: { object_satisfied_id: questionId, object_satisfied_type: 'Datum', value },
  });
}

export function submit(context: TestContext, user: TestUser, sessionId: number) {
  return apiPost(context, user, `/api/v1/user_request_surveys/${sessionId}/submit`);
}

export function saveOnboarding(context: TestContext, user: TestUser, body: OnboardingAnswersRequest) {
  return apiPost(context, user, '/api/v1/onboarding_answers', body);
}

/**
 * An upload of `user`: announced through POST /uploads/presigned_url and, unless `store` is false, its bytes (a PDF
 * or a PNG, by the name's extension) PUT and checked. Its key.
 */
export function createUploadKey(context: TestContext, user: TestUser, filename: string, { store = true } = {}): Promise<string> {
  return uploadFile(context, user, { filename, bytes: filename.endsWith('.pdf') ? PDF : PNG, store });
}
