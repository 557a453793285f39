import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { offeringCompanies } from '../../server/db/offerings.schema.ts';
import { companies, companyEmailDomains, users } from '../../server/db/schema.ts';
import { seedDemoAccounts } from '../../server/db/seed/demoAccounts.ts';
import { seedOfferingCatalogue } from '../../server/db/seed/offeringCatalogue.ts';
import { CONFIRMATION_LINKS_PER_HOUR } from '../../server/domain/accounts/emailConfirmation.ts';
import { signInResponse, user as userSchema } from '../../src/contract/account.ts';
import { offeringsResponse } from '../../src/contract/offerings.ts';
import { suiteContext } from './harness.ts';
import {
  PASSWORD,
  authHeaders,
  currentUserRequest,
  errorOf,
  latestLink,
  outboxTo,
  registerUser,
  resetPasswordByLink,
  signInRequest,
  signUpRequest,
  signedIn,
  tokenOf,
  uniqueEmail,
} from './helpers.ts';

/** Issue 9 point 9 (who may join a company) and the sign-up side of point 5 (no enumeration), on the demo companies. */
const context = suiteContext({ AUTH_RATE_LIMIT: '1000', INTERNAL_COMPANY_NAMES: 'Life Concierge' }, async (created) => {
  await seedDemoAccounts(created.db, { nodeEnv: 'development', password: 'demo-password' });
  await seedOfferingCatalogue(created.db, { nodeEnv: 'development' });
});

async function currentUserOf(authorization: string) {
  const response = await currentUserRequest(context, authorization);
  expect(response.statusCode, response.body).toBe(200);
  return userSchema.parse((response.json() as { user: unknown }).user);
}

async function benefitIdsSeenBy(authorization: string): Promise<number[]> {
  const response = await context.app.inject({
    method: 'GET',
    url: '/api/v1/offerings?types=benefit',
    headers: authHeaders(authorization),
  });
  expect(response.statusCode, response.body).toBe(200);
  return offeringsResponse.parse(response.json()).offerings.map((offering) => offering.id);
}

async function acmeBenefitIds(): Promise<number[]> {
  const rows = await context.db
    .select({ id: offeringCompanies.offeringId })
    .from(offeringCompanies)
    .innerJoin(companies, eq(companies.id, offeringCompanies.companyId))
    .where(eq(companies.slug, 'acme'));
  return rows.map((row) => row.id);
}

function confirm(token: string) {
  return context.app.inject({ method: 'GET', url: '/api/v1/users/confirmation', query: { confirmation_token: token } });
}

function askForNewLink(authorization?: string) {
  return context.app.inject({
    method: 'POST',
    url: '/api/v1/users/confirmation',
    headers: authorization ? authHeaders(authorization) : {},
  });
}

describe('who may sign up to a company', () => {
  it('gives each demo company its e-mail domain and the staff company none', async () => {
    const rows = await context.db
      .select({ slug: companies.slug, domain: companyEmailDomains.domain })
      .from(companyEmailDomains)
      .innerJoin(companies, eq(companies.id, companyEmailDomains.companyId))
      .orderBy(companies.slug);
    expect(rows).toEqual([
      { slug: 'acme', domain: 'acme.test' },
      { slug: 'globex', domain: 'globex.test' },
      { slug: 'initech', domain: 'initech.test' },
    ]);
  });

  it('admits an address at one of the company’s domains, whatever its case', async () => {
    const response = await signUpRequest(context, { email: uniqueEmail('ada', 'ACME.test'), company_slug: 'ACME' });
    expect(response.statusCode, response.body).toBe(201);
  });

  it('refuses an address at another domain with a 422 that names the domain to use, and creates nothing', async () => {
    for (const email of [uniqueEmail('outsider', 'gmail.test'), uniqueEmail('near', 'mail.acme.test'), uniqueEmail('x', 'acme.test.evil')]) {
      const response = await signUpRequest(context, { email, company_slug: 'acme' });
      expect(response.statusCode, email).toBe(422);
      expect(errorOf(response)).toBe('Sign up with your work e-mail address at Acme Corporation (ending in @acme.test).');
      expect(await context.db.select().from(users).where(eq(users.email, email))).toEqual([]);
      expect(await outboxTo(context, email)).toEqual([]);
    }
  });

  it('admits nobody to the staff company by sign-up, whatever the address', async () => {
    for (const email of [uniqueEmail('staff', 'demo.test'), uniqueEmail('staff', 'lifeconcierge.com')]) {
      const response = await signUpRequest(context, { email, company_slug: 'life-concierge' });
      expect(response.statusCode).toBe(422);
      expect(errorOf(response)).toBe('Life Concierge does not take sign-ups. Ask your employer how to join.');
    }
  });

  it('still refuses a company it does not know', async () => {
    const response = await signUpRequest(context, { email: uniqueEmail('x', 'acme.test'), company_slug: 'umbrella' });
    expect(response.statusCode).toBe(422);
    expect(errorOf(response)).toBe('We don\'t know the company "umbrella". Check your sign-up link.');
  });
});

describe('a membership waits for the e-mailed confirmation', () => {
  it('shows no company, no benefit and no staff flag until the link is opened, then all of them', async () => {
    const email = await registerUser(context, { company_slug: 'acme' }, { confirmed: false });
    const authorization = await signedIn(context, email);

    const pending = await currentUserOf(authorization);
    expect(pending).toMatchObject({ companies: [], internal_user: false, email_confirmation_pending: true });
    expect(await benefitIdsSeenBy(authorization)).toEqual([]);
    const acmeBenefit = (await acmeBenefitIds())[0];
    const detail = await context.app.inject({
      method: 'GET',
      url: `/api/v1/offerings/${acmeBenefit}`,
      headers: authHeaders(authorization),
    });
    expect(detail.statusCode).toBe(404);

    const [mail] = await outboxTo(context, email);
    expect(mail.subject).toBe('Confirm your e-mail address for Life Concierge');
    expect(mail.links).toEqual([expect.stringMatching(/\/confirm-email\/[\w-]{20,}$/)]);
    const confirmed = await confirm(tokenOf(mail.links[0]));
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toEqual({ success: true, message: 'Your e-mail address is confirmed.' });

    const member = await currentUserOf(authorization);
    expect(member).toMatchObject({ companies: [{ name: 'Acme Corporation' }], email_confirmation_pending: false });
    expect((await benefitIdsSeenBy(authorization)).sort()).toEqual((await acmeBenefitIds()).sort());
  });

  it('applies a claimed company’s required MFA from the start', async () => {
    const email = await registerUser(context, { company_slug: 'globex' }, { confirmed: false });
    const flags = signInResponse.parse((await signInRequest(context, email)).json());
    expect(flags).toMatchObject({ mfa_requires_verification: true });
  });

  it('takes a link once; a made-up or used link is a 422 that says to ask for a new one', async () => {
    const email = await registerUser(context, { company_slug: 'acme' }, { confirmed: false });
    const token = tokenOf(await latestLink(context, email));
    expect((await confirm(token)).statusCode).toBe(200);
    for (const used of [token, 'made-up-token']) {
      const again = await confirm(used);
      expect(again.statusCode).toBe(422);
      expect(errorOf(again)).toBe('Your confirmation link is invalid or has expired. Please request a new one.');
    }
  });

  it('sends a new link on request while the address is unconfirmed; an older link still works', async () => {
    const email = await registerUser(context, { company_slug: 'acme' }, { confirmed: false });
    const firstToken = tokenOf(await latestLink(context, email));
    const authorization = await signedIn(context, email);

    expect((await askForNewLink()).statusCode).toBe(401);
    const sent = await askForNewLink(authorization);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toEqual({ success: true, message: 'We sent you a new confirmation link. It works for 3 days.' });
    expect(await outboxTo(context, email)).toHaveLength(2);

    expect((await confirm(firstToken)).statusCode).toBe(200);
    const afterwards = await askForNewLink(authorization);
    expect(afterwards.statusCode).toBe(422);
    expect(errorOf(afterwards)).toBe('Your e-mail address is already confirmed.');
  });

  it(`sends at most ${CONFIRMATION_LINKS_PER_HOUR} links an hour, sign-up's included, then a 429`, async () => {
    const email = await registerUser(context, { company_slug: 'acme' }, { confirmed: false });
    const authorization = await signedIn(context, email);
    const statuses: number[] = [];
    for (let ask = 0; ask < CONFIRMATION_LINKS_PER_HOUR; ask += 1) statuses.push((await askForNewLink(authorization)).statusCode);
    expect(statuses).toEqual([...Array(CONFIRMATION_LINKS_PER_HOUR - 1).fill(200), 429]);
    const refused = await askForNewLink(authorization);
    expect(errorOf(refused)).toBe('Too many links sent. Please try again later.');
    expect(await outboxTo(context, email)).toHaveLength(CONFIRMATION_LINKS_PER_HOUR);
  });

  it('counts a password reset as proof of the address', async () => {
    const email = await registerUser(context, { company_slug: 'acme' }, { confirmed: false });
    const reset = await resetPasswordByLink(context, email, 'a-new-password');
    expect(reset.statusCode, reset.body).toBe(200);
    const user = await currentUserOf(await signedIn(context, email, 'a-new-password'));
    expect(user).toMatchObject({ companies: [{ name: 'Acme Corporation' }], email_confirmation_pending: false });
  });

  it('leaves the demo accounts confirmed', async () => {
    const user = await currentUserOf(await signedIn(context, 'employee@demo.test', 'demo-password'));
    expect(user).toMatchObject({ companies: [{ name: 'Acme Corporation' }], email_confirmation_pending: false });
  });
});

describe('signing up with an address that has an account (no enumeration)', () => {
  it('answers exactly as for a new address, changes nothing, and e-mails the owner once an hour', async () => {
    const email = await registerUser(context, { company_slug: 'acme' });
    const [before] = await context.db.select().from(users).where(eq(users.email, email));
    const fresh = await signUpRequest(context, { email: uniqueEmail('fresh', 'acme.test'), company_slug: 'acme', password: 'another-password' });

    const taken = await signUpRequest(context, { email: email.toUpperCase(), company_slug: 'acme', password: 'another-password', name: 'Mallory' });
    expect(taken.statusCode).toBe(fresh.statusCode);
    expect(taken.headers['content-type']).toBe(fresh.headers['content-type']);
    expect(JSON.parse(taken.json() as string)).toEqual({ email });

    const [after] = await context.db.select().from(users).where(eq(users.email, email));
    expect(after).toEqual(before);
    expect((await signInRequest(context, email, 'another-password')).statusCode).toBe(401);
    expect((await signInRequest(context, email, PASSWORD)).statusCode).toBe(200);

    const [notice] = await outboxTo(context, email);
    expect(notice.subject).toBe('Someone tried to sign up with your e-mail address');
    expect(notice.text).toContain('already has one');
    expect(notice.text).not.toContain('Mallory');

    expect((await signUpRequest(context, { email, company_slug: 'acme' })).statusCode).toBe(201);
    expect((await outboxTo(context, email)).filter((message) => message.subject === notice.subject)).toHaveLength(1);
  });

  it('refuses a taken address at another domain with the company’s answer, as for a new one', async () => {
    const taken = await signUpRequest(context, { email: 'employee@demo.test', company_slug: 'acme' });
    const fresh = await signUpRequest(context, { email: uniqueEmail('fresh', 'demo.test'), company_slug: 'acme' });
    expect(taken.statusCode).toBe(422);
    expect(taken.json()).toEqual(fresh.json());
  });
});
