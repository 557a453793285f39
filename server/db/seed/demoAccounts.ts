import { readFileSync } from 'node:fs';
import { eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import type { Config } from '../../config.ts';
import { hashPassword, verifyPassword } from '../../domain/passwords.ts';
import type { Database } from '../client.ts';
import { companies, userCompanies, users } from '../schema.ts';

const seedCompanies = z.array(
  z.object({
    slug: z.string().regex(/^[a-z0-9-]+$/),
    name: z.string().min(1),
    mfa_policy: z.enum(['off', 'optional', 'required']),
    image_url: z.string().min(1),
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

/**
 * Outside production, fills an empty database (no companies yet) with the demo companies and accounts, all with
 * `password`. Does nothing otherwise, so it is safe at every start. Returns whether it seeded.
 */
export async function seedDemoAccounts(
  db: Database,
  options: { nodeEnv: Config['NODE_ENV']; password: string },
): Promise<boolean> {
  if (options.nodeEnv === 'production') return false;
  const [anyCompany] = await db.select({ id: companies.id }).from(companies).limit(1);
  if (anyCompany) return false;

  const seed = readDemoSeed();
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
