import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { type IdentityAccount, type RunningIdentityProvider, startIdentityProvider } from '../../server/demo/identityProvider.ts';
import { AUTHORIZATION_HEADER } from '../../src/contract/common.ts';
import { SSO_RETURN_PATH } from '../../src/contract/sso.ts';
import type { TestContext } from './harness.ts';

/** A browser's way through an SSO sign-in, against the app (inject) and a real OpenID provider (HTTP on loopback). */

export const CALLBACK_URL = 'http://localhost:3000/api/v1/sso/callback';

export interface TestClient {
  client_id: string;
  client_secret: string;
}

export function newClient(name: string): TestClient {
  return { client_id: `${name}-${randomBytes(4).toString('hex')}`, client_secret: `secret-${randomBytes(16).toString('hex')}` };
}

let accountCounter = 0;
export function identityAccount(email: string, overrides: Partial<IdentityAccount> = {}): IdentityAccount {
  accountCounter += 1;
  return { sub: `user-${accountCounter}`, email, email_verified: true, given_name: 'Sam', family_name: `Single${accountCounter}`, ...overrides };
}

export function startTestProvider(accounts: IdentityAccount[], clients: TestClient[], idTokenTtlSeconds?: number): Promise<RunningIdentityProvider> {
  return startIdentityProvider({
    accounts,
    clients: clients.map((client) => ({ ...client, redirect_uris: [CALLBACK_URL] })),
    idTokenTtlSeconds,
  });
}

/** GET /api/v1/sso/start: the provider's address and the cookie that binds the sign-in to this browser. */
export async function startSignIn(context: TestContext, email: string) {
  const response = await context.app.inject({ method: 'GET', url: '/api/v1/sso/start', query: { email } });
  expect(response.statusCode, response.body).toBe(302);
  const setCookie = String(response.headers['set-cookie'] ?? '');
  const browserCookie = /^(lc_sso_browser=[^;]+)/.exec(setCookie)?.[1];
  return { location: String(response.headers.location), browserCookie };
}

/** Follows the provider's redirects as a browser would, with its cookies, until it sends the browser to the app. */
async function follow(url: string, jar: Map<string, string>, init: RequestInit = {}): Promise<string> {
  let next = url;
  let request = init;
  for (let hop = 0; hop < 10; hop += 1) {
    if (next.startsWith(CALLBACK_URL)) return next;
    const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(next, { ...request, redirect: 'manual', headers: { ...(request.headers as object), cookie } });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, ...value] = pair.split('=');
      jar.set(name, value.join('='));
    }
    const location = response.headers.get('location');
    if (location) {
      next = new URL(location, next).toString();
      request = {};
      continue;
    }
    const page = await response.text();
    return page.includes('/interaction/') ? `page:${page}` : `unexpected:${response.status}:${page}`;
  }
  throw new Error('too many redirects');
}

/**
 * At the provider: opens the authorization address, then signs in as `sub` (or cancels) on its sign-in page.
 * Answers the address the provider sends the browser back to (the app's callback with code or error).
 */
export async function atProvider(authorizationUrl: string, choice: { sub: string } | 'cancel'): Promise<string> {
  const jar = new Map<string, string>();
  const page = await follow(authorizationUrl, jar);
  const uid = /\/interaction\/([\w-]+)\/login/.exec(page)?.[1];
  if (!uid) throw new Error(`no sign-in page: ${page.slice(0, 300)}`);
  const origin = new URL(authorizationUrl).origin;
  const action = choice === 'cancel' ? 'abort' : 'login';
  const body = choice === 'cancel' ? '' : new URLSearchParams({ account: choice.sub }).toString();
  return follow(`${origin}/interaction/${uid}/${action}`, jar, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
}

/** GET the app's callback as the browser would (with the binding cookie, unless left out): where the app sends it. */
export async function callback(context: TestContext, callbackUrl: string, browserCookie: string | undefined) {
  const url = new URL(callbackUrl);
  const response = await context.app.inject({
    method: 'GET',
    url: `${url.pathname}${url.search}`,
    headers: browserCookie ? { cookie: browserCookie } : {},
  });
  expect(response.statusCode, response.body).toBe(302);
  const location = String(response.headers.location);
  expect(location.startsWith(`${SSO_RETURN_PATH}#`), location).toBe(true);
  return Object.fromEntries(new URLSearchParams(location.split('#')[1])) as { code?: string; error?: string };
}

/** POST /api/v1/sso/session: the one-time code for a session. */
export function exchange(context: TestContext, code: string) {
  return context.app.inject({ method: 'POST', url: '/api/v1/sso/session', payload: { code } });
}

/** A whole sign-in as `account`: the outcome the app's return address carries. */
export async function signInWithSso(context: TestContext, account: IdentityAccount, email = account.email) {
  const { location, browserCookie } = await startSignIn(context, email);
  const back = await atProvider(location, { sub: account.sub });
  return callback(context, back, browserCookie);
}

/** A whole sign-in that ends with a session: its Authorization header value. */
export async function ssoSession(context: TestContext, account: IdentityAccount): Promise<string> {
  const outcome = await signInWithSso(context, account);
  expect(outcome).toEqual({ code: expect.any(String) });
  const response = await exchange(context, outcome.code!);
  expect(response.statusCode, response.body).toBe(200);
  return String(response.headers[AUTHORIZATION_HEADER]);
}
