import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { signInResponse } from '../../src/contract/account.ts';
import { AUTHORIZATION_HEADER, errorBody } from '../../src/contract/common.ts';
import {
  SSO_CALLBACK_PATH,
  SSO_CODE_INVALID_ERROR,
  SSO_RETURN_PATH,
  type SsoFailureReason,
  ssoCallbackQuery,
  ssoDiscoverRequest,
  ssoDiscoverResponse,
  ssoSessionRequest,
  ssoStartQuery,
} from '../../src/contract/sso.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import type { OidcClients } from '../domain/sso/oidcClients.ts';
import { SSO_SIGN_IN_TTL_MS, SsoFailure, finishSsoSignIn, startSsoSignIn, takeSsoHandoff } from '../domain/sso/ssoSignIn.ts';
import { ssoForEmail } from '../domain/sso/ssoSettings.ts';
import { unauthorized } from '../domain/shared/userFacingError.ts';
import { authRateLimit } from './authRateLimit.ts';

/** The cookie that binds a sign-in under way to the browser that started it (sent back on the provider's redirect). */
const BROWSER_COOKIE = 'lc_sso_browser';

function browserCookie(value: string, appUrl: string, maxAgeSeconds: number): string {
  const secure = appUrl.startsWith('https:') ? '; Secure' : '';
  // Lax: the provider sends the browser back with a top-level GET, which carries it; nothing else does.
  return `${BROWSER_COOKIE}=${value}; Path=${SSO_CALLBACK_PATH}; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${secure}`;
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of header?.split(';') ?? []) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

/** Back to the app: the outcome travels in the fragment, which no server, log or Referer sees. */
function returnAddress(outcome: { code: string } | { error: SsoFailureReason }): string {
  return `${SSO_RETURN_PATH}#${new URLSearchParams(outcome).toString()}`;
}

/**
 * Single sign-on, under /api/v1/sso (issue 29): discovery by the address's domain, the start at the company's
 * identity provider, the provider's callback, and the exchange of the callback's one-time code for a session.
 */
export const ssoRoutes: FastifyPluginAsyncZod<{ config: Config; db: Database; clients: OidcClients; now?: () => Date }> = async (
  app,
  { config, db, clients, now },
) => {
  const context = { db, clients, appUrl: config.APP_URL, now };
  const rateLimited = { rateLimit: authRateLimit(config) };
  const redirect = (description: string) => ({ otherSuccess: { status: 302, description } });

  app.post(
    '/discover',
    { config: rateLimited, schema: { body: ssoDiscoverRequest, response: { 200: ssoDiscoverResponse, 422: errorBody, 429: errorBody } } },
    async (request) => {
      const sso = await ssoForEmail(db, request.body.email);
      if (!sso) return { sso: null };
      const startUrl = `/api/v1/sso/start?${new URLSearchParams({ email: request.body.email })}`;
      return { sso: { company_name: sso.companyName, mode: sso.mode, start_url: startUrl } };
    },
  );

  app.get(
    '/start',
    {
      config: { ...rateLimited, ...redirect('To the identity provider; or back to /sign-in/sso#error=unavailable.') },
      schema: { querystring: ssoStartQuery, response: { 422: errorBody, 429: errorBody } },
    },
    async (request, reply) => {
      try {
        const { authorizationUrl, browserToken } = await startSsoSignIn(context, request.query.email);
        reply.header('set-cookie', browserCookie(browserToken, config.APP_URL, SSO_SIGN_IN_TTL_MS / 1000));
        return reply.redirect(authorizationUrl, 302);
      } catch (error) {
        if (!(error instanceof SsoFailure)) throw error;
        request.log.warn({ reason: error.reason, detail: error.message }, 'SSO sign-in not started');
        return reply.redirect(returnAddress({ error: error.reason }), 302);
      }
    },
  );

  app.get(
    '/callback',
    {
      config: { ...rateLimited, ...redirect('Back to /sign-in/sso, with #code=<one-time code> or #error=<reason>.') },
      schema: { querystring: ssoCallbackQuery, response: { 422: errorBody, 429: errorBody } },
    },
    async (request, reply) => {
      reply.header('set-cookie', browserCookie('', config.APP_URL, 0));
      try {
        const { code } = await finishSsoSignIn(context, {
          callbackUrl: new URL(request.url, config.APP_URL),
          browserToken: cookieValue(request.headers.cookie, BROWSER_COOKIE),
        });
        return reply.redirect(returnAddress({ code }), 302);
      } catch (error) {
        if (!(error instanceof SsoFailure)) throw error;
        request.log.warn({ reason: error.reason, detail: error.message }, 'SSO sign-in stopped');
        return reply.redirect(returnAddress({ error: error.reason }), 302);
      }
    },
  );

  app.post(
    '/session',
    {
      config: rateLimited,
      schema: { body: ssoSessionRequest, response: { 200: signInResponse, 401: errorBody, 422: errorBody, 429: errorBody } },
    },
    async (request, reply) => {
      const session = await takeSsoHandoff(db, request.body.code);
      if (!session) throw unauthorized(SSO_CODE_INVALID_ERROR);
      reply.header(AUTHORIZATION_HEADER, `Bearer ${session.token}`);
      // The identity provider did the second factor: the app asks for none (docs/spec-differences.md).
      return { expires_at: session.expiresAt.toISOString(), mfa_required: false, mfa_requires_verification: false, mfa_enrollment_available: false };
    },
  );
};
