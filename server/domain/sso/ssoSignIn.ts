import { and, eq, gt, lt } from 'drizzle-orm';
import * as client from 'openid-client';
import type { SsoFailureReason } from '../../../src/contract/sso.ts';
import type { Database, Executor } from '../../db/client.ts';
import { userCompanies, users } from '../../db/schema.ts';
import { ssoHandoffs, ssoSessions, ssoSignIns } from '../../db/sso.schema.ts';
import { emailDomainOf } from '../admin/companies.ts';
import { unusablePasswordHash } from '../admin/staff.ts';
import { markEmailConfirmed } from '../accounts/emailConfirmation.ts';
import { createSession } from '../accounts/sessions.ts';
import { findUserByEmail, normalisedEmail, signInRefusal } from '../accounts/users.ts';
import { digest, newToken } from '../shared/tokens.ts';
import type { OidcClients } from './oidcClients.ts';
import { type DomainSso, ssoForEmail, ssoOfCompany, ssoRedirectUri } from './ssoSettings.ts';

/** How long the identity provider has to send the user back (they may have to type a password and a code there). */
export const SSO_SIGN_IN_TTL_MS = 10 * 60 * 1000;
/** How long the app has to take a finished sign-in: the browser goes straight from the callback to the app. */
export const SSO_HANDOFF_TTL_MS = 2 * 60 * 1000;

/** An SSO sign-in that stopped, with the reason the user is shown and, for the log, what the check said. */
export class SsoFailure extends Error {
  readonly reason: SsoFailureReason;
  constructor(reason: SsoFailureReason, detail: string) {
    super(detail);
    this.reason = reason;
  }
}

export interface SsoContext {
  db: Database;
  clients: OidcClients;
  appUrl: string;
  now?: () => Date;
}

const nowOf = (context: SsoContext) => context.now?.() ?? new Date();

/**
 * Starts a sign-in at the identity provider of the address's company: authorization code with PKCE (S256), a fresh
 * state and nonce kept server-side under the state's digest and bound to this browser by `browserToken` (set as a
 * cookie by the caller, compared at the callback: a code obtained in another browser is refused).
 */
export async function startSsoSignIn(context: SsoContext, email: string) {
  const sso = await ssoForEmail(context.db, email);
  if (!sso) throw new SsoFailure('unavailable', 'no SSO covers the address');
  let configuration: client.Configuration;
  try {
    configuration = await context.clients.configurationFor(sso);
  } catch (error) {
    throw new SsoFailure('unavailable', `identity provider unreachable: ${(error as Error).message}`);
  }
  const now = nowOf(context);
  const state = client.randomState();
  const nonce = client.randomNonce();
  const codeVerifier = client.randomPKCECodeVerifier();
  const browserToken = newToken();
  await context.db.delete(ssoSignIns).where(lt(ssoSignIns.expiresAt, now));
  await context.db.insert(ssoSignIns).values({
    stateDigest: digest(state),
    browserDigest: digest(browserToken),
    companyId: sso.companyId,
    codeVerifier,
    nonce,
    expiresAt: new Date(now.getTime() + SSO_SIGN_IN_TTL_MS),
  });
  const authorizationUrl = client.buildAuthorizationUrl(configuration, {
    redirect_uri: ssoRedirectUri(context.appUrl),
    scope: 'openid email profile',
    state,
    nonce,
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    login_hint: normalisedEmail(email),
  });
  return { authorizationUrl: authorizationUrl.toString(), browserToken };
}

/** The provider's error codes that mean the user said no or went back, rather than the provider refusing. */
const CANCELLED_ERRORS = new Set(['access_denied', 'interaction_required', 'login_required', 'consent_required']);

/**
 * The provider sent the browser back. The sign-in under way is taken (single use) by its state; it must belong to
 * this browser and be in time. The code is exchanged with the PKCE verifier; openid-client checks the ID token's
 * signature (the issuer's published keys), issuer, audience, expiry (with CLOCK_TOLERANCE_SECONDS) and nonce. The
 * address must be verified by the provider and at one of the company's SSO domains; the employee is then made or
 * joined to the company (the provider vouches for the address) and gets a one-time code for the app.
 */
export async function finishSsoSignIn(
  context: SsoContext,
  { callbackUrl, browserToken }: { callbackUrl: URL; browserToken: string | undefined },
): Promise<{ code: string; userId: number }> {
  const now = nowOf(context);
  const params = callbackUrl.searchParams;
  const state = params.get('state');
  if (!state) throw new SsoFailure('state_mismatch', 'callback without state');
  const [pending] = await context.db.delete(ssoSignIns).where(eq(ssoSignIns.stateDigest, digest(state))).returning();
  if (!pending) throw new SsoFailure('state_mismatch', 'no sign-in under way has this state');
  if (browserToken === undefined || digest(browserToken) !== pending.browserDigest) {
    throw new SsoFailure('state_mismatch', 'the sign-in started in another browser');
  }
  if (pending.expiresAt <= now) throw new SsoFailure('expired', 'the sign-in under way expired');
  const providerError = params.get('error');
  if (providerError) {
    throw new SsoFailure(CANCELLED_ERRORS.has(providerError) ? 'cancelled' : 'refused', `identity provider answered ${providerError}`);
  }
  const sso = await ssoOfCompany(context.db, pending.companyId);
  if (!sso) throw new SsoFailure('unavailable', 'the company has no SSO any more');

  const claims = await verifiedClaims(context, sso, callbackUrl, { state, nonce: pending.nonce, codeVerifier: pending.codeVerifier });
  const email = typeof claims.email === 'string' ? normalisedEmail(claims.email) : null;
  if (!email) throw new SsoFailure('refused', 'the ID token carries no email claim');
  if (claims.email_verified !== true) throw new SsoFailure('email_unverified', 'email_verified is not true');
  if (!sso.emailDomains.includes(emailDomainOf(email))) throw new SsoFailure('domain_not_allowed', `${emailDomainOf(email)} is not an SSO domain of the company`);

  return context.db.transaction(async (tx) => {
    const userId = await provisionEmployee(tx, sso, email, claims, now);
    const refusal = await signInRefusal(tx, userId);
    if (refusal) throw new SsoFailure('account_closed', refusal);
    const code = newToken();
    await tx.insert(ssoHandoffs).values({
      codeDigest: digest(code),
      userId,
      companyId: sso.companyId,
      expiresAt: new Date(now.getTime() + SSO_HANDOFF_TTL_MS),
    });
    return { code, userId };
  });
}

async function verifiedClaims(
  context: SsoContext,
  sso: DomainSso,
  callbackUrl: URL,
  expected: { state: string; nonce: string; codeVerifier: string },
): Promise<client.IDToken> {
  try {
    const configuration = await context.clients.configurationFor(sso);
    const tokens = await client.authorizationCodeGrant(configuration, callbackUrl, {
      pkceCodeVerifier: expected.codeVerifier,
      expectedState: expected.state,
      expectedNonce: expected.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (!claims) throw new Error('no ID token');
    return claims;
  } catch (error) {
    const { code } = error as { code?: string };
    const reason: SsoFailureReason = code === 'OAUTH_JWT_TIMESTAMP_CHECK_FAILED' ? 'expired' : 'refused';
    const which = failedCheckOf(error);
    throw new SsoFailure(reason, `${code ?? 'error'}: ${(error as Error).message}${which ? ` (${which})` : ''}`);
  }
}

/**
 * The claim whose check failed, or the provider's error code, from the error or its causes (openid-client wraps
 * oauth4webapi's): for the log, which never gets a token, a code or a secret.
 */
function failedCheckOf(error: unknown): string | undefined {
  let current = error as { claim?: unknown; error?: unknown; cause?: unknown } | undefined;
  for (let depth = 0; current && depth < 4; depth += 1) {
    if (typeof current.claim === 'string') return current.claim;
    if (typeof current.error === 'string') return current.error;
    current = current.cause as typeof current;
  }
  return undefined;
}

/** The words of a name claim, when the provider gives no given and family names. */
function namesOf(claims: client.IDToken, email: string): { firstName: string; lastName: string } {
  const text = (value: unknown) => (typeof value === 'string' ? value.trim().slice(0, 100) : '');
  const given = text(claims.given_name);
  const family = text(claims.family_name);
  if (given) return { firstName: given, lastName: family };
  const [first, ...rest] = text(claims.name).split(/\s+/).filter(Boolean);
  return { firstName: first ?? email.split('@')[0], lastName: rest.join(' ') };
}

/**
 * The employee behind the address: made at the first sign-in (name from the claims, address confirmed, no password
 * anyone knows: a reset link gives one where the company allows passwords), and made a member of the company. Staff
 * accounts do not sign in by a company's SSO: the console's own rules (MFA) stay theirs.
 */
async function provisionEmployee(tx: Executor, sso: DomainSso, email: string, claims: client.IDToken, now: Date): Promise<number> {
  let user = await findUserByEmail(tx, email);
  if (!user) {
    const [created] = await tx
      .insert(users)
      .values({ email, passwordHash: await unusablePasswordHash(), ...namesOf(claims, email), role: 'employee', emailConfirmedAt: now })
      .onConflictDoNothing({ target: users.email })
      .returning();
    user = created ?? (await findUserByEmail(tx, email));
  }
  if (!user) throw new Error('provisionEmployee: the account vanished');
  if (user.role !== 'employee') throw new SsoFailure('account_closed', `a ${user.role} account may not sign in by a company's SSO`);
  await tx.insert(userCompanies).values({ userId: user.id, companyId: sso.companyId }).onConflictDoNothing();
  if (user.emailConfirmedAt === null) await markEmailConfirmed(tx, user.id, now);
  return user.id;
}

/**
 * The app takes a finished sign-in: the one-time code (single use, SSO_HANDOFF_TTL_MS) becomes a normal session,
 * marked as one the identity provider authenticated (the app's MFA does not apply to it). Null when the code is
 * unknown, used or expired, or the account may not sign in any more.
 */
export async function takeSsoHandoff(db: Database, code: string, now = new Date()) {
  return db.transaction(async (tx) => {
    const [handoff] = await tx
      .delete(ssoHandoffs)
      .where(and(eq(ssoHandoffs.codeDigest, digest(code)), gt(ssoHandoffs.expiresAt, now)))
      .returning();
    if (!handoff) return null;
    if (await signInRefusal(tx, handoff.userId)) return null;
    const session = await createSession(tx, handoff.userId, now);
    await tx.insert(ssoSessions).values({ sessionId: session.id, companyId: handoff.companyId });
    return session;
  });
}
