import { readFileSync } from 'node:fs';
import { count } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { companies, companyEmailDomains, userCompanies, users } from '../../server/db/schema.ts';
import { listDemoAccounts, readDemoSeed, seedDemoAccounts } from '../../server/db/seed/demoAccounts.ts';
import { signInResponse, user as userSchema } from '../../src/contract/account.ts';
import { suiteContext } from './harness.ts';
import { currentUserRequest, signInRequest, signedIn } from './helpers.ts';

const SEED_PASSWORD = 'seeded-secret';

const context = suiteContext({ AUTH_RATE_LIMIT: '1000' });

async function rowCounts() {
  const [[companyCount], [userCount], [linkCount]] = await Promise.all([
    context.db.select({ n: count() }).from(companies),
    context.db.select({ n: count() }).from(users),
    context.db.select({ n: count() }).from(userCompanies),
  ]);
  return { companies: companyCount.n, users: userCount.n, links: linkCount.n };
}

async function currentUserOf(email: string) {
  const response = await currentUserRequest(context, await signedIn(context, email, SEED_PASSWORD));
  expect(response.statusCode, response.body).toBe(200);
  return userSchema.parse((response.json() as { user: unknown }).user);
}

describe('demo seed', () => {
  it('does nothing in production', async () => {
    expect(await seedDemoAccounts(context.db, { nodeEnv: 'production', password: SEED_PASSWORD })).toBe(false);
    expect(await rowCounts()).toEqual({ companies: 0, users: 0, links: 0 });
  });

  it('fills an empty database once; later starts change nothing', async () => {
    expect(await seedDemoAccounts(context.db, { nodeEnv: 'development', password: SEED_PASSWORD })).toBe(true);
    const seeded = await rowCounts();
    expect(seeded).toEqual({ companies: 4, users: 4, links: 4 });

    expect(await seedDemoAccounts(context.db, { nodeEnv: 'development', password: 'another-password' })).toBe(false);
    expect(await rowCounts()).toEqual(seeded);
    expect((await signInRequest(context, 'employee@demo.test', 'another-password')).statusCode).toBe(401);
  });

  it('gives a demo database made before companies had e-mail domains its domains at the next start', async () => {
    const domainsOf = () => context.db.select().from(companyEmailDomains).orderBy(companyEmailDomains.domain);
    const seededDomains = await domainsOf();
    expect(seededDomains.map((row) => row.domain)).toEqual(['acme.test', 'globex.test', 'initech.test']);
    await context.db.delete(companyEmailDomains);

    expect(await seedDemoAccounts(context.db, { nodeEnv: 'development', password: SEED_PASSWORD })).toBe(false);
    expect(await domainsOf()).toEqual(seededDomains);
    expect(await seedDemoAccounts(context.db, { nodeEnv: 'production', password: SEED_PASSWORD })).toBe(false);
    expect(await domainsOf()).toEqual(seededDomains);
  });

  it('creates the four companies with their MFA policies and logos', async () => {
    const rows = await context.db.select().from(companies).orderBy(companies.id);
    expect(rows.map(({ slug, name, mfaPolicy, imageUrl }) => ({ slug, name, mfaPolicy, imageUrl }))).toEqual([
      { slug: 'acme', name: 'Acme Corporation', mfaPolicy: 'off', imageUrl: '/seed/acme.svg' },
      { slug: 'globex', name: 'Globex', mfaPolicy: 'required', imageUrl: '/seed/globex.svg' },
      { slug: 'initech', name: 'Initech', mfaPolicy: 'optional', imageUrl: '/seed/initech.svg' },
      { slug: 'life-concierge', name: 'Life Concierge', mfaPolicy: 'off', imageUrl: '/seed/life-concierge.svg' },
    ]);
    for (const { imageUrl } of rows) {
      const svg = readFileSync(new URL(`../../public${imageUrl}`, import.meta.url), 'utf8');
      expect(svg, String(imageUrl)).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]*>[\s\S]*<\/svg>\s*$/);
    }
  });

  it('lets the demo employee sign in, onboarded, without MFA', async () => {
    const signIn = await signInRequest(context, 'employee@demo.test', SEED_PASSWORD);
    expect(signInResponse.parse(signIn.json())).toMatchObject({
      mfa_required: false,
      mfa_requires_verification: false,
      mfa_enrollment_available: false,
    });
    expect(await currentUserOf('employee@demo.test')).toMatchObject({
      role: 'employee',
      onboarding_required: false,
      internal_user: false,
      companies: [{ name: 'Acme Corporation', image_url: '/seed/acme.svg' }],
    });
  });

  it('makes the globex employee enrol in MFA at first sign-in', async () => {
    const signIn = await signInRequest(context, 'globex@demo.test', SEED_PASSWORD);
    expect(signInResponse.parse(signIn.json())).toMatchObject({ mfa_required: false, mfa_requires_verification: true });
    const current = await currentUserRequest(context, String(signIn.headers.authorization));
    expect(current.json()).toEqual({ error: 'MFA authentication required' });
  });

  it('makes the concierge and the admin internal staff', async () => {
    expect(await currentUserOf('concierge@demo.test')).toMatchObject({ role: 'concierge', internal_user: true });
    expect(await currentUserOf('admin@demo.test')).toMatchObject({ role: 'admin', internal_user: true });
  });

  it('lists the demo accounts for the start-up banner', async () => {
    expect(await listDemoAccounts(context.db)).toEqual([
      { email: 'employee@demo.test', role: 'employee', company: 'Acme Corporation' },
      { email: 'globex@demo.test', role: 'employee', company: 'Globex' },
      { email: 'concierge@demo.test', role: 'concierge', company: 'Life Concierge' },
      { email: 'admin@demo.test', role: 'admin', company: 'Life Concierge' },
    ]);
    expect(readDemoSeed().accounts.map((account) => account.email)).toEqual(
      (await listDemoAccounts(context.db)).map((account) => account.email),
    );
  });
});
