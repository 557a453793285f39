import { eq } from 'drizzle-orm';
import type { CustomFetch } from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningIdentityProvider } from '../../server/demo/identityProvider.ts';
import { auditEvents, userCompanies, users } from '../../server/db/schema.ts';
import { companySso } from '../../server/db/sso.schema.ts';
import { createSecretBox, ssoKeyFrom } from '../../server/domain/sso/secretBox.ts';
import { notCompanyDomainError, ssoRequiredError } from '../../server/domain/sso/ssoSettings.ts';
import { issuerUnreachableError } from '../../server/routes/adminSso.routes.ts';
import { SSO_CODE_INVALID_ERROR, SSO_SECRET_REQUIRED_ERROR, adminSsoResponse, ssoDiscoverResponse } from '../../src/contract/sso.ts';
import { adminCall, auditLog, expectAdminsOnly } from './admin.helpers.ts';
import { type TestContext, createTestContext } from './harness.ts';
import { authHeaders, createCompany, currentUserRequest, errorOf, signInRequest, signedIn, registerUser } from './helpers.ts';
import { type Person, createPerson } from './requests.helpers.ts';
import {
  type TestClient,
  atProvider,
  callback,
  exchange,
  identityAccount,
  newClient,
  signInWithSso,
  ssoSession,
  startSignIn,
  startTestProvider,
} from './sso.helpers.ts';

/** Issue 29 part 1: single sign-on against a real OpenID provider (oidc-provider) on loopback. */

const lines: string[] = [];
/** The clock the app checks ID tokens and sign-ins against: moved by the expiry tests. */
let clockOffsetMs = 0;
/** Lets a test change what the identity provider's token endpoint answers, as a man in the middle would. */
let rewriteTokenAnswer: ((body: Record<string, unknown>) => Record<string, unknown>) | null = null;
const seenIdTokens: string[] = [];

let context: TestContext;
let provider: RunningIdentityProvider;
let admin: Person;
const northwindClient = newClient('northwind');
const contosoClient = newClient('contoso');

const ana = identityAccount('ana@northwind.test', { given_name: 'Ana', family_name: 'Northwind' });
const una = identityAccount('una@northwind.test', { email_verified: false });
const outsider = identityAccount('olga@elsewhere.test');
const contractor = identityAccount('carl@contractors.test');
const bob = identityAccount('bob@contoso.test');
const staffAtDomain = identityAccount('sid@northwind.test');

let northwindId: number;
let contosoId: number;

const tokenAwareFetch: CustomFetch = async (url, options) => {
  const response = await fetch(url, options as RequestInit);
  if (!url.endsWith('/token') || !response.ok) return response;
  const body = (await response.json()) as Record<string, unknown>;
  if (typeof body.id_token === 'string') seenIdTokens.push(body.id_token);
  const answer = rewriteTokenAnswer ? rewriteTokenAnswer(body) : body;
  return new Response(JSON.stringify(answer), { status: response.status, headers: response.headers });
};

async function putSso(companyId: number, client: TestClient, body: object = {}) {
  return adminCall(context, admin, 'PUT', `/companies/${companyId}/sso`, {
    issuer: provider.issuer,
    client_id: client.client_id,
    client_secret: client.client_secret,
    email_domains: [],
    mode: 'optional',
    ...body,
  });
}

beforeAll(async () => {
  provider = await startTestProvider([ana, una, outsider, contractor, bob, staffAtDomain], [northwindClient, contosoClient]);
  context = await createTestContext(
    { LOG_LEVEL: 'debug', AUTH_RATE_LIMIT: '1000' },
    {
      logStream: { write: (line) => lines.push(line) },
      sso: { now: () => new Date(Date.now() + clockOffsetMs), fetch: tokenAwareFetch },
    },
  );
  admin = await createPerson(context, 'admin');
  northwindId = (await createCompany(context, { slug: 'northwind', name: 'Northwind', mfaPolicy: 'required', emailDomains: ['northwind.test', 'contractors.test'] })).id;
  contosoId = (await createCompany(context, { slug: 'contoso', name: 'Contoso', emailDomains: ['contoso.test'] })).id;
  expect((await putSso(northwindId, northwindClient, { email_domains: ['northwind.test'], mode: 'enforced' })).statusCode).toBe(200);
  expect((await putSso(contosoId, contosoClient, { email_domains: ['contoso.test'] })).statusCode).toBe(200);
}, 60_000);

afterAll(async () => {
  await context.close();
  await provider.close();
});

describe('the admin sets up a company’s SSO', () => {
  it('is for admins only', async () => {
    const employee = await createPerson(context, 'employee');
    const concierge = await createPerson(context, 'concierge');
    await expectAdminsOnly(context, { employee, concierge }, [
      ['GET', `/companies/${contosoId}/sso`],
      ['PUT', `/companies/${contosoId}/sso`, { issuer: 'https://evil.example', client_id: 'x', client_secret: 'y', email_domains: ['contoso.test'], mode: 'enforced' }],
    ]);
    const deleted = await context.app.inject({ method: 'DELETE', url: `/api/v1/admin/companies/${contosoId}/sso`, headers: employee.headers });
    expect(deleted.statusCode).toBe(403);
    const unchanged = adminSsoResponse.parse((await adminCall(context, admin, 'GET', `/companies/${contosoId}/sso`)).json());
    expect(unchanged.sso).toMatchObject({ issuer: provider.issuer, mode: 'optional' });
  });

  it('keeps the client secret sealed and never answers it; each change is audited without it', async () => {
    const company = await createCompany(context, { slug: 'fabrikam', emailDomains: ['fabrikam.test'] });
    const firstSecret = 'fabrikam-first-secret-value';
    const created = await putSso(company.id, { client_id: 'fabrikam', client_secret: firstSecret }, { email_domains: ['fabrikam.test'] });
    expect(created.statusCode, created.body).toBe(200);
    expect(adminSsoResponse.parse(created.json())).toEqual({
      sso: {
        issuer: provider.issuer,
        client_id: 'fabrikam',
        client_secret_set: true,
        email_domains: ['fabrikam.test'],
        mode: 'optional',
        redirect_uri: 'http://localhost:3000/api/v1/sso/callback',
        updated_at: expect.any(String),
      },
      redirect_uri: 'http://localhost:3000/api/v1/sso/callback',
      company: { id: company.id, name: 'fabrikam', email_domains: ['fabrikam.test'] },
    });
    // Left out, the secret stays as it was; the mode changes.
    const kept = await putSso(company.id, { client_id: 'fabrikam', client_secret: firstSecret }, { email_domains: ['fabrikam.test'], mode: 'enforced', client_secret: undefined });
    expect(kept.statusCode, kept.body).toBe(200);
    const [row] = await context.db.select().from(companySso).where(eq(companySso.companyId, company.id));
    expect(row.clientSecretSealed).not.toContain(firstSecret);
    const box = createSecretBox(ssoKeyFrom(context.config.SSO_SECRET_KEY));
    expect(box.open(row.clientSecretSealed, `company_sso:${company.id}`)).toBe(firstSecret);
    // Sealed for its own company: copied onto another company's row, it does not open.
    expect(() => box.open(row.clientSecretSealed, `company_sso:${contosoId}`)).toThrow();

    const read = await adminCall(context, admin, 'GET', `/companies/${company.id}/sso`);
    expect(read.body).not.toContain(firstSecret);
    const { events } = await auditLog(context, admin, { subject_type: 'company', subject_id: company.id });
    expect(events.map((event) => event.action)).toEqual(['company.sso_update', 'company.sso_update']);
    expect(events[0].changes).toEqual({ mode: { before: 'optional', after: 'enforced' } });
    expect(events[1].changes.client_secret).toEqual({ before: null, after: 'replaced' });
    expect(JSON.stringify(events)).not.toContain(firstSecret);

    const removed = await context.app.inject({ method: 'DELETE', url: `/api/v1/admin/companies/${company.id}/sso`, headers: admin.headers });
    expect(adminSsoResponse.parse(removed.json()).sso).toBeNull();
    expect((await auditLog(context, admin, { subject_type: 'company', subject_id: company.id })).events[0].action).toBe('company.sso_remove');
  });

  it('refuses domains that are not the company’s, a first setup without a secret, and an issuer that is no OpenID provider', async () => {
    const company = await createCompany(context, { slug: 'tailspin', name: 'Tailspin', emailDomains: ['tailspin.test'] });
    const client = { client_id: 'tailspin', client_secret: 's' };
    const otherDomain = await putSso(company.id, client, { email_domains: ['contoso.test'] });
    expect(otherDomain.statusCode).toBe(422);
    expect(otherDomain.json().fields).toEqual({ email_domains: notCompanyDomainError('contoso.test', 'Tailspin') });
    const noSecret = await putSso(company.id, client, { email_domains: ['tailspin.test'], client_secret: undefined });
    expect(noSecret.json().fields).toEqual({ client_secret: SSO_SECRET_REQUIRED_ERROR });
    const notAnIssuer = await putSso(company.id, client, { email_domains: ['tailspin.test'], issuer: 'http://127.0.0.1:9/nothing' });
    expect(notAnIssuer.statusCode).toBe(422);
    expect(notAnIssuer.json().fields).toEqual({ issuer: issuerUnreachableError('http://127.0.0.1:9/nothing') });
    const plainHttp = await putSso(company.id, client, { email_domains: ['tailspin.test'], issuer: 'http://login.tailspin.test' });
    expect(plainHttp.json().fields).toEqual({ issuer: issuerUnreachableError('http://login.tailspin.test') });
    const noDomains = await putSso(company.id, client, { email_domains: [] });
    expect(Object.keys(noDomains.json().fields)).toEqual(['email_domains']);
    expect((await adminCall(context, admin, 'GET', `/companies/${company.id}/sso`)).json().sso).toBeNull();
    expect((await adminCall(context, admin, 'GET', '/companies/999999/sso')).statusCode).toBe(404);
  });
});

describe('discovery by the address’s domain', () => {
  const discover = async (email: string) => {
    const response = await context.app.inject({ method: 'POST', url: '/api/v1/sso/discover', payload: { email } });
    expect(response.statusCode, response.body).toBe(200);
    return ssoDiscoverResponse.parse(response.json());
  };

  it('offers the company’s SSO for its SSO domains, and answers every other address alike', async () => {
    expect(await discover('Someone@Northwind.test')).toEqual({
      sso: { company_name: 'Northwind', mode: 'enforced', start_url: '/api/v1/sso/start?email=someone%40northwind.test' },
    });
    const others = await Promise.all(['x@contractors.test', 'x@never-heard-of.test', 'x@example.com'].map(discover));
    expect(new Set(others.map((answer) => JSON.stringify(answer)))).toEqual(new Set(['{"sso":null}']));
  });

  it('refuses an address that is not one', async () => {
    const response = await context.app.inject({ method: 'POST', url: '/api/v1/sso/discover', payload: { email: 'not an address' } });
    expect(response.statusCode).toBe(422);
    expect(Object.keys(response.json().fields)).toEqual(['email']);
  });
});

describe('signing in through the identity provider', () => {
  it('makes the employee at the first sign-in, in their company, and opens a normal session without the app’s MFA', async () => {
    const authorization = await ssoSession(context, ana);
    const current = await currentUserRequest(context, authorization);
    // Northwind requires MFA: the identity provider did it, so the SSO session is not asked for a code.
    expect(current.statusCode, current.body).toBe(200);
    expect(current.json().user).toMatchObject({
      email: 'ana@northwind.test',
      first_name: 'Ana',
      full_name: 'Ana Northwind',
      companies: [expect.objectContaining({ name: 'Northwind' })],
    });
    // A second sign-in is the same account.
    await ssoSession(context, ana);
    const accounts = await context.db.select({ id: users.id }).from(users).where(eq(users.email, 'ana@northwind.test'));
    expect(accounts).toHaveLength(1);
    expect(await context.db.select().from(userCompanies).where(eq(userCompanies.userId, accounts[0].id))).toEqual([
      expect.objectContaining({ companyId: northwindId }),
    ]);
  });

  it('joins an existing account to the company, and its session ends as any other: sign-out, company deactivated', async () => {
    // Bob signed up with a password before Contoso had SSO, and never opened the confirmation link.
    await registerUser(context, { email: 'bob@contoso.test' }, { confirmed: false });
    const authorization = await ssoSession(context, bob);
    expect((await currentUserRequest(context, authorization)).json().user.companies).toEqual([expect.objectContaining({ name: 'Contoso' })]);
    const signOut = await context.app.inject({ method: 'DELETE', url: '/api/v1/users/sign_out', headers: authHeaders(authorization) });
    expect(signOut.statusCode).toBe(200);
    expect((await currentUserRequest(context, authorization)).statusCode).toBe(401);

    const again = await ssoSession(context, bob);
    expect((await adminCall(context, admin, 'POST', `/companies/${contosoId}/deactivate`)).statusCode).toBe(200);
    expect((await currentUserRequest(context, again)).statusCode).toBe(401);
    try {
      // A deactivated company's SSO is no more: discovery answers as for any domain, a start sends the user back.
      const discovered = await context.app.inject({ method: 'POST', url: '/api/v1/sso/discover', payload: { email: bob.email } });
      expect(discovered.json()).toEqual({ sso: null });
      expect((await startSignIn(context, bob.email)).location).toBe('/sign-in/sso#error=unavailable');
    } finally {
      expect((await adminCall(context, admin, 'POST', `/companies/${contosoId}/reactivate`)).statusCode).toBe(200);
    }
  });

  it('hands over each finished sign-in once', async () => {
    const outcome = await signInWithSso(context, ana);
    expect((await exchange(context, outcome.code!)).statusCode).toBe(200);
    const replayed = await exchange(context, outcome.code!);
    expect(replayed.statusCode).toBe(401);
    expect(errorOf(replayed)).toBe(SSO_CODE_INVALID_ERROR);
    expect((await exchange(context, 'made-up')).statusCode).toBe(401);
  });

  it('refuses the password, and a reset, of an address under enforced SSO; not under optional SSO', async () => {
    const refused = await signInRequest(context, 'ana@northwind.test', 'any password at all');
    expect(refused.statusCode).toBe(401);
    expect(errorOf(refused)).toBe(ssoRequiredError('Northwind'));
    const reset = await context.app.inject({ method: 'POST', url: '/api/v1/users/password', payload: { user: { email: 'ana@northwind.test' } } });
    expect(reset.statusCode).toBe(422);
    expect(errorOf(reset)).toBe(ssoRequiredError('Northwind'));

    // Contoso's SSO is optional, and Northwind's contractors' domain is not under its SSO: passwords work there.
    for (const email of ['pat@contoso.test', 'cleo@contractors.test']) {
      await registerUser(context, { email });
      expect(await signedIn(context, email)).toMatch(/^Bearer /);
    }
  });
});

describe('what the app refuses', () => {
  it('a cancelled sign-in', async () => {
    const { location, browserCookie } = await startSignIn(context, ana.email);
    expect(await callback(context, await atProvider(location, 'cancel'), browserCookie)).toEqual({ error: 'cancelled' });
  });

  it('a forged state, and a callback in a browser that did not start the sign-in', async () => {
    const { location, browserCookie } = await startSignIn(context, ana.email);
    const back = new URL(await atProvider(location, { sub: ana.sub }));
    const forged = new URL(back);
    forged.searchParams.set('state', 'forged-state');
    expect(await callback(context, forged.toString(), browserCookie)).toEqual({ error: 'state_mismatch' });
    // Login CSRF: the victim's browser has no binding cookie for the attacker's sign-in.
    expect(await callback(context, back.toString(), 'lc_sso_browser=someone-else')).toEqual({ error: 'state_mismatch' });
    // The state was used up by that try: the right browser cannot use it either now.
    expect(await callback(context, back.toString(), browserCookie)).toEqual({ error: 'state_mismatch' });
  });

  it('a replayed code', async () => {
    const first = await startSignIn(context, ana.email);
    const back = new URL(await atProvider(first.location, { sub: ana.sub }));
    expect(await callback(context, back.toString(), first.browserCookie)).toEqual({ code: expect.any(String) });
    expect(await callback(context, back.toString(), first.browserCookie)).toEqual({ error: 'state_mismatch' });
    // Grafted onto a fresh sign-in of the same browser, the used code is refused by the provider.
    const second = await startSignIn(context, ana.email);
    const grafted = new URL(back);
    grafted.searchParams.set('state', new URL(second.location).searchParams.get('state')!);
    expect(await callback(context, grafted.toString(), second.browserCookie)).toEqual({ error: 'refused' });
  });

  it('a code issued to another client', async () => {
    const contoso = await startSignIn(context, bob.email);
    const contosoBack = new URL(await atProvider(contoso.location, { sub: bob.sub }));
    const northwind = await startSignIn(context, ana.email);
    const grafted = new URL(contosoBack);
    grafted.searchParams.set('state', new URL(northwind.location).searchParams.get('state')!);
    expect(await callback(context, grafted.toString(), northwind.browserCookie)).toEqual({ error: 'refused' });
  });

  it('an ID token made for another client', async () => {
    await ssoSession(context, bob);
    const contosoToken = seenIdTokens.at(-1)!;
    rewriteTokenAnswer = (body) => ({ ...body, id_token: contosoToken });
    try {
      expect(await signInWithSso(context, ana)).toEqual({ error: 'refused' });
    } finally {
      rewriteTokenAnswer = null;
    }
    expect(lines.some((line) => line.includes('SSO sign-in stopped') && line.includes('(aud)'))).toBe(true);
  });

  it('an expired ID token, and a sign-in that took too long', async () => {
    clockOffsetMs = 2 * 60 * 60 * 1000;
    try {
      expect(await signInWithSso(context, ana)).toEqual({ error: 'expired' });
    } finally {
      clockOffsetMs = 0;
    }
    const { location, browserCookie } = await startSignIn(context, ana.email);
    const back = await atProvider(location, { sub: ana.sub });
    clockOffsetMs = 11 * 60 * 1000;
    try {
      expect(await callback(context, back, browserCookie)).toEqual({ error: 'expired' });
    } finally {
      clockOffsetMs = 0;
    }
  });

  it('an e-mail address the provider has not verified, or outside the company’s SSO domains', async () => {
    expect(await signInWithSso(context, una)).toEqual({ error: 'email_unverified' });
    // Started for a Northwind address, signed in at the provider as someone of another domain.
    expect(await signInWithSso(context, outsider, ana.email)).toEqual({ error: 'domain_not_allowed' });
    expect(await signInWithSso(context, contractor, ana.email)).toEqual({ error: 'domain_not_allowed' });
    const made = await context.db.select().from(users).where(eq(users.email, una.email));
    expect(made).toEqual([]);
  });

  it('a staff account at a company’s SSO domain (its sign-in stays the console’s, with its MFA)', async () => {
    await context.db.insert(users).values({ email: staffAtDomain.email, passwordHash: 'x', firstName: 'Sid', lastName: 'Staff', role: 'concierge' });
    expect(await signInWithSso(context, staffAtDomain)).toEqual({ error: 'account_closed' });
  });

  it('a start for an address no SSO covers', async () => {
    const response = await context.app.inject({ method: 'GET', url: '/api/v1/sso/start', query: { email: 'x@example.com' } });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/sign-in/sso#error=unavailable');
  });
});

describe('secrets', () => {
  it('no client secret, code or session token reaches a log line or an answer', async () => {
    const authorization = await ssoSession(context, ana);
    const secrets = [northwindClient.client_secret, contosoClient.client_secret, authorization.replace('Bearer ', '')];
    const offenders = lines.filter((line) => secrets.some((secret) => line.includes(secret)));
    expect(offenders).toEqual([]);
    expect(lines.some((line) => line.includes('/api/v1/sso/callback'))).toBe(true);
    expect(lines.filter((line) => /[?&]code=(?!\[redacted\])/.test(line))).toEqual([]);
    const events = await context.db.select().from(auditEvents);
    expect(JSON.stringify(events)).not.toContain(northwindClient.client_secret);
  });
});
