import * as z from 'zod/mini';
import { EMAIL_PATTERN } from './account.rules.ts';
import { EMAIL_DOMAIN_ERROR, EMAIL_DOMAIN_PATTERN, EMAIL_DOMAINS_MAX } from './admin.ts';
import { SSO_FAILURE_REASONS } from './sso.constants.ts';

/**
 * Single sign-on with OpenID Connect (issue 29 part 1). Public calls under /api/v1/sso: discovery by the address's
 * domain, the start (a redirect to the company's identity provider), the provider's callback (a redirect back to the
 * app's /sign-in/sso with a one-time code or a reason in the address's fragment), and the exchange of that code for
 * a session. Admin calls under /api/v1/admin/companies/{id}/sso.
 */

export { SSO_CALLBACK_PATH, SSO_FAILURE_MESSAGES, SSO_RETURN_PATH, type SsoFailureReason } from './sso.constants.ts';

export const ssoMode = z.enum(['optional', 'enforced']);
export type SsoMode = z.infer<typeof ssoMode>;

/** Why an SSO sign-in stopped, as the callback names it in the fragment (`#error=<reason>`). */
export const ssoFailureReason = z.enum(SSO_FAILURE_REASONS);

const email = z.pipe(z.string().check(z.trim(), z.toLowerCase(), z.maxLength(254)), z.email({ pattern: EMAIL_PATTERN }));

/** POST /api/v1/sso/discover: the address typed on /sign-in. */
export const ssoDiscoverRequest = z.object({ email });
export type SsoDiscoverRequest = z.infer<typeof ssoDiscoverRequest>;

/**
 * Whether the address's domain signs in with a company's SSO. An address at any other domain (known to the service
 * or not) gets `{ sso: null }`, after the same lookup: the answer tells nothing about which companies exist.
 */
export const ssoDiscoverResponse = z.object({
  sso: z.nullable(
    z.object({
      company_name: z.string(),
      /** enforced: the password does not work for this address; optional: both ways work. */
      mode: ssoMode,
      /** Where the browser goes to sign in (GET, a redirect to the identity provider). */
      start_url: z.string(),
    }),
  ),
});
export type SsoDiscoverResponse = z.infer<typeof ssoDiscoverResponse>;

/** GET /api/v1/sso/start?email=: redirects to the identity provider, or back to /sign-in/sso#error=unavailable. */
export const ssoStartQuery = z.object({ email });

/** GET /api/v1/sso/callback: what the identity provider sends back (RFC 6749 §4.1.2, OpenID Connect Core §3.1.2.5). */
export const ssoCallbackQuery = z.looseObject({
  code: z.optional(z.string().check(z.maxLength(2048))),
  state: z.optional(z.string().check(z.maxLength(512))),
  error: z.optional(z.string().check(z.maxLength(256))),
  error_description: z.optional(z.string().check(z.maxLength(2048))),
});

/** POST /api/v1/sso/session: the one-time code of the fragment becomes a session (answered as sign-in answers). */
export const ssoSessionRequest = z.object({ code: z.string().check(z.minLength(1), z.maxLength(100)) });
export const SSO_CODE_INVALID_ERROR = 'This sign-in has expired or was already used. Please sign in again.';

/* The admin's side: one identity provider per company. */

const issuer = z.pipe(
  z.string().check(z.trim(), z.minLength(1, 'Please enter the issuer'), z.maxLength(500)),
  z.url({ protocol: /^https?$/, error: 'Enter the issuer’s address, e.g. https://login.acme.com' }),
);

/** A company's identity provider as the admin sees it: never the client secret, only that one is kept. */
export const adminSso = z.object({
  issuer: z.string(),
  client_id: z.string(),
  client_secret_set: z.boolean(),
  email_domains: z.array(z.string()),
  mode: ssoMode,
  /** The redirect URI to register at the identity provider. */
  redirect_uri: z.string(),
  updated_at: z.string(),
});
export type AdminSso = z.infer<typeof adminSso>;

/**
 * GET/PUT/DELETE /api/v1/admin/companies/{id}/sso: the company (its name, and the e-mail domains its SSO may cover),
 * its SSO (null when none), and the redirect URI to register at the identity provider.
 */
export const adminSsoResponse = z.object({
  company: z.object({ id: z.number().check(z.int()), name: z.string(), email_domains: z.array(z.string()) }),
  sso: z.nullable(adminSso),
  redirect_uri: z.string(),
});
export type AdminSsoResponse = z.infer<typeof adminSsoResponse>;

export const SSO_SECRET_REQUIRED_ERROR = 'Please enter the client secret';
export const SSO_DOMAINS_REQUIRED_ERROR = 'Choose at least one of the company’s e-mail domains';

/**
 * PUT /api/v1/admin/companies/{id}/sso: sets the company's identity provider. `client_secret` is write-only: leave
 * it out to keep the one stored (required the first time). `email_domains` must be among the company's own.
 */
export const putSsoRequest = z.object({
  issuer,
  client_id: z.string().check(z.trim(), z.minLength(1, 'Please enter the client ID'), z.maxLength(255)),
  client_secret: z.optional(z.string().check(z.minLength(1, SSO_SECRET_REQUIRED_ERROR), z.maxLength(1024))),
  email_domains: z
    .array(z.string().check(z.trim(), z.toLowerCase(), z.regex(EMAIL_DOMAIN_PATTERN, EMAIL_DOMAIN_ERROR)))
    .check(
      z.minLength(1, SSO_DOMAINS_REQUIRED_ERROR),
      z.maxLength(EMAIL_DOMAINS_MAX),
      z.refine((domains) => new Set(domains).size === domains.length, 'List each domain once'),
    ),
  mode: ssoMode,
});
export type PutSsoRequest = z.infer<typeof putSsoRequest>;
