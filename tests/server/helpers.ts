import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { companies, companyEmailDomains } from '../../server/db/schema.ts';
import { AUTHORIZATION_HEADER, MFA_TOKEN_HEADER } from '../../src/contract/common.ts';
import { type OutboxMessage, outboxResponse } from '../../src/contract/dev.ts';
import type { TestContext } from './harness.ts';

/** Account helpers for the server tests: they go through the HTTP API, as a client would. */

export const PASSWORD = 'correct horse battery';

let accountCounter = 0;
/** A fresh address per call, so tests in one file never share an account by accident. */
export function uniqueEmail(prefix = 'user', domain = 'example.com'): string {
  accountCounter += 1;
  return `${prefix}${accountCounter}.${Date.now().toString(36)}@${domain}`;
}

/** The e-mail domain a test company admits unless told otherwise: "acme" admits "acme.test". */
export function companyDomain(slug: string): string {
  return `${slug}.test`;
}

export async function createCompany(
  context: TestContext,
  company: { slug: string; name?: string; mfaPolicy?: 'off' | 'optional' | 'required'; emailDomains?: string[] },
) {
  const [row] = await context.db
    .insert(companies)
    .values({ slug: company.slug, name: company.name ?? company.slug, mfaPolicy: company.mfaPolicy ?? 'off' })
    .returning();
  const domains = company.emailDomains ?? [companyDomain(company.slug)];
  if (domains.length > 0) {
    await context.db.insert(companyEmailDomains).values(domains.map((domain) => ({ domain, companyId: row.id })));
  }
  return row;
}

export function signUpRequest(
  context: TestContext,
  user: { email: string; password?: string; name?: string; last_name?: string; company_slug?: string },
) {
  return context.app.inject({
    method: 'POST',
    url: '/api/v1/users/sign_up',
    payload: {
      user: { password: PASSWORD, name: 'Ada', last_name: 'Lovelace', terms_of_service: 1, ...user },
    },
  });
}

/**
 * Signs up through the API and checks it worked; returns the e-mail, by default at the domain of the company and
 * confirmed through its e-mailed link (so the company is granted), unless `confirmed` is false.
 */
export async function registerUser(
  context: TestContext,
  user: { email?: string; password?: string; name?: string; last_name?: string; company_slug?: string } = {},
  { confirmed = true } = {},
): Promise<string> {
  const email = user.email ?? uniqueEmail('user', user.company_slug ? companyDomain(user.company_slug) : undefined);
  const response = await signUpRequest(context, { ...user, email });
  expect(response.statusCode, response.body).toBe(201);
  if (confirmed) await confirmEmailOf(context, email);
  return email;
}

/** Opens the newest confirmation link e-mailed to `email`, as its owner would. */
export async function confirmEmailOf(context: TestContext, email: string) {
  const response = await context.app.inject({
    method: 'GET',
    url: '/api/v1/users/confirmation',
    query: { confirmation_token: tokenOf(await latestLink(context, email)) },
  });
  expect(response.statusCode, response.body).toBe(200);
}

export function signInRequest(context: TestContext, email: string, password = PASSWORD) {
  return context.app.inject({
    method: 'POST',
    url: '/api/v1/users/sign_in',
    payload: { user: { email, password } },
  });
}

/** Signs in and returns the authorization header value the client would keep. */
export async function signedIn(context: TestContext, email: string, password = PASSWORD): Promise<string> {
  const response = await signInRequest(context, email, password);
  expect(response.statusCode, response.body).toBe(200);
  const authorization = response.headers[AUTHORIZATION_HEADER];
  expect(authorization).toMatch(/^Bearer \S+$/);
  return String(authorization);
}

export function authHeaders(authorization: string, mfaToken?: string): Record<string, string> {
  return mfaToken ? { [AUTHORIZATION_HEADER]: authorization, [MFA_TOKEN_HEADER]: mfaToken } : { [AUTHORIZATION_HEADER]: authorization };
}

export function currentUserRequest(context: TestContext, authorization: string, mfaToken?: string) {
  return context.app.inject({
    method: 'GET',
    url: '/api/v1/users/current',
    headers: authHeaders(authorization, mfaToken),
  });
}

/** The messages the server wrote to `to` (an e-mail address or phone), newest first, read from the dev outbox. */
export async function outboxTo(context: TestContext, to: string): Promise<OutboxMessage[]> {
  const response = await context.app.inject({ method: 'GET', url: '/api/dev/outbox', query: { to } });
  expect(response.statusCode, response.body).toBe(200);
  return outboxResponse.parse(response.json()).messages;
}

/** The one link of the newest message to `to`. */
export async function latestLink(context: TestContext, to: string): Promise<string> {
  const [latest] = await outboxTo(context, to);
  expect(latest?.links).toHaveLength(1);
  return latest.links[0];
}

/** The six-digit code of the newest SMS to `phone`. */
export async function latestSmsCode(context: TestContext, phone: string): Promise<string> {
  const [latest] = await outboxTo(context, phone);
  expect(latest?.channel).toBe('sms');
  const code = /\b(\d{6})\b/.exec(latest.text)?.[1];
  if (!code) throw new Error(`No code in SMS: ${latest.text}`);
  return code;
}

/** Asks for a reset link for `email` and opens it with `password`, as the owner would; the answer of the reset. */
export async function resetPasswordByLink(context: TestContext, email: string, password: string) {
  await context.app.inject({ method: 'POST', url: '/api/v1/users/password', payload: { user: { email } } });
  return context.app.inject({
    method: 'PUT',
    url: '/api/v1/users/password',
    payload: { reset_password_token: tokenOf(await latestLink(context, email)), password, password_confirmation: password },
  });
}

/** Enrols `phone` with the code texted to it, as the MFA screens do; the remembered device's token. */
export async function enrolPhone(context: TestContext, authorization: string, phone: string): Promise<string> {
  const enrolled = await context.app.inject({
    method: 'POST',
    url: '/api/v1/mfa',
    headers: authHeaders(authorization),
    payload: { mfa_number: phone },
  });
  expect(enrolled.statusCode, enrolled.body).toBe(200);
  const verified = await context.app.inject({
    method: 'POST',
    url: '/api/v1/mfa/verify',
    headers: authHeaders(authorization),
    payload: { otp: await latestSmsCode(context, phone) },
  });
  expect(verified.statusCode, verified.body).toBe(200);
  return String(verified.headers[MFA_TOKEN_HEADER]);
}

/** The last path segment of a link: the token of a reset or unlock link. */
export function tokenOf(link: string): string {
  return new URL(link).pathname.split('/').pop() ?? '';
}

export function errorOf(response: LightMyRequestResponse): string {
  return (response.json() as { error: string }).error;
}
