import { readFileSync } from 'node:fs';
import { eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import type { Config } from '../../config.ts';
import { hashPassword, verifyPassword } from '../../domain/accounts/passwords.ts';
import type { Database, Executor } from '../client.ts';
import { companies, companyEmailDomains, userCompanies, users } from '../schema.ts';

const seedCompanies = z.array(
  z.object({
    slug: z.string().regex(/^[a-z0-9-]+$/),
    name: z.string().min(1),
    mfa_policy: z.enum(['off', 'optional', 'required']),
    image_url: z.string().min(1),
    /** Sign-ups are admitted from these domains only; none for the staff company. */
    email_domains: z.array(z.string().regex(/^[a-z0-9.-]+\.[a-z]+$/)),
    /** The service's own staff company: its members are internal users. */
    internal_staff: z.boolean().default(false),
  }),
);

const seedAccounts = z.array(
  z.object({
    email: z.email(),
    first_name: z.string().min(1),
    last_name: z.string().min(1),
    role: z.enum(['employee', 'concierge', 'admin']),
    companies: z.array(z.string()),
    onboarded: z.boolean(),
  }),
);

function readSeedFile<S extends z.ZodType>(name: string, schema: S): z.infer<S> {
  const text = readFileSync(new URL(`./${name}`, import.meta.url), 'utf8');
  return schema.parse(JSON.parse(text));
}

/** The demo companies and accounts, from companies.json and accounts.json beside this file. */
export function readDemoSeed() {
  const companyRows = readSeedFile('companies.json', seedCompanies);
  const accountRows = readSeedFile('accounts.json', seedAccounts);
  return { companies: companyRows, accounts: accountRows };
}

type DemoSeed = ReturnType<typeof readDemoSeed>;

/**
 * Gives the demo companies that exist their e-mail domains, leaving any domain already listed as it is: a demo
 * database made before companies had domains gets them at the next start.
 */
async function addDemoEmailDomains(db: Executor, seed: DemoSeed) {
  const rows = await db
    .select({ id: companies.id, slug: companies.slug })
    .from(companies)
    .where(inArray(companies.slug, seed.companies.map((company) => company.slug)));
  const idBySlug = new Map(rows.map((row) => [row.slug, row.id]));
  const domains = seed.companies.flatMap((company) => {
    const companyId = idBySlug.get(company.slug);
    return companyId === undefined ? [] : company.email_domains.map((domain) => ({ domain, companyId }));
  });
  if (domains.length > 0) await db.insert(companyEmailDomains).values(domains).onConflictDoNothing();
}

/**
 * Outside production, fills an empty database (no companies yet) with the demo companies and accounts, all with
 * `password`; a database that has them gets only what later seeds added (the companies' e-mail domains). Does
 * nothing in production, and is safe at every start. Returns whether it seeded the companies and accounts.
 */
export async function seedDemoAccounts(
  db: Database,
  options: { nodeEnv: Config['NODE_ENV']; password: string },
): Promise<boolean> {
  if (options.nodeEnv === 'production') return false;
  const seed = readDemoSeed();
  const [anyCompany] = await db.select({ id: companies.id }).from(companies).limit(1);
  if (anyCompany) {
    await addDemoEmailDomains(db, seed);
    return false;
  }

  // One hash (and salt) per account; hashed before the transaction, which then stays short.
  const passwordHashes = await Promise.all(seed.accounts.map(() => hashPassword(options.password)));
  const now = new Date();
  return db.transaction(async (tx) => {
    const insertedCompanies = await tx
      .insert(companies)
      .values(seed.companies.map((company) => ({
        slug: company.slug,
        name: company.name,
        mfaPolicy: company.mfa_policy,
        imageUrl: company.image_url,
        internalStaff: company.internal_staff,
      })))
      // Another process seeding at the same moment: its rows stand, this one stops.
      .onConflictDoNothing()
      .returning({ id: companies.id, slug: companies.slug });
    if (insertedCompanies.length < seed.companies.length) return false;
    const companyIdBySlug = new Map(insertedCompanies.map((company) => [company.slug, company.id]));

    for (const [index, account] of seed.accounts.entries()) {
      const [user] = await tx
        .insert(users)
        .values({
          email: account.email.toLowerCase(),
          passwordHash: passwordHashes[index],
          firstName: account.first_name,
          lastName: account.last_name,
          role: account.role,
          termsAcceptedAt: now,
          onboardedAt: account.onboarded ? now : null,
        })
        .returning({ id: users.id });
      const links = account.companies.map((slug) => {
        const companyId = companyIdBySlug.get(slug);
        if (companyId === undefined) throw new Error(`accounts.json: unknown company ${slug}`);
        return { userId: user.id, companyId };
      });
      if (links.length > 0) await tx.insert(userCompanies).values(links);
    }
    await addDemoEmailDomains(tx, seed);
    return true;
  });
}

/** The demo accounts that exist in the database, for the start-up banner. */
export async function listDemoAccounts(db: Database) {
  const emails = readDemoSeed().accounts.map((account) => account.email.toLowerCase());
  const rows = await db
    .select({ email: users.email, role: users.role, company: companies.name })
    .from(users)
    .leftJoin(userCompanies, eq(userCompanies.userId, users.id))
    .leftJoin(companies, eq(companies.id, userCompanies.companyId))
    .where(inArray(users.email, emails))
    .orderBy(users.id);
  return rows;
}

/**
 * The demo accounts that still open with `password` (the seed's known password): a database that was started in
 * demo mode and is now served for real must not keep them.
 */
export async function demoAccountsOpenWith(db: Database, password: string): Promise<string[]> {
  const emails = readDemoSeed().accounts.map((account) => account.email.toLowerCase());
  const rows = await db.select({ email: users.email, passwordHash: users.passwordHash }).from(users).where(inArray(users.email, emails));
  const opens = await Promise.all(rows.map((row) => verifyPassword(row.passwordHash, password)));
  return rows.filter((_, index) => opens[index]).map((row) => row.email);
}
