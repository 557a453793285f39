import { eq } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { companies, companyEmailDomains } from '../db/schema.ts';
import { unprocessable } from './userFacingError.ts';
import { normalisedEmail } from './users.ts';

export function unknownCompanyError(slug: string): string {
  return `We don't know the company "${slug}". Check your sign-up link.`;
}

export function closedCompanyError(companyName: string): string {
  return `${companyName} does not take sign-ups. Ask your employer how to join.`;
}

export function otherDomainError(companyName: string, domains: readonly string[]): string {
  const endings = domains.map((domain) => `@${domain}`).join(' or ');
  return `Sign up with your work e-mail address at ${companyName} (ending in ${endings}).`;
}

/** The part after the last "@", lower-cased: "Ada@Acme.TEST" -> "acme.test". */
export function emailDomainOf(email: string): string {
  return normalisedEmail(email).split('@').pop() ?? '';
}

/**
 * The company of a sign-up link, when it admits the address (issue 9 point 9): the address must be at one of the
 * company's e-mail domains; a company that lists none (the staff companies), or is deactivated, admits nobody by
 * sign-up. Refusals are 422s that say what to do; they tell nothing about accounts, only about the company the link
 * names.
 */
export async function companyAdmitting(db: Executor, slug: string, email: string): Promise<number> {
  const [company] = await db
    .select({ id: companies.id, name: companies.name, deactivatedAt: companies.deactivatedAt })
    .from(companies)
    .where(eq(companies.slug, slug.toLowerCase()))
    .limit(1);
  if (!company) throw unprocessable(unknownCompanyError(slug));
  if (company.deactivatedAt !== null) throw unprocessable(closedCompanyError(company.name));
  const domains = (
    await db
      .select({ domain: companyEmailDomains.domain })
      .from(companyEmailDomains)
      .where(eq(companyEmailDomains.companyId, company.id))
      .orderBy(companyEmailDomains.domain)
  ).map((row) => row.domain);
  if (domains.length === 0) throw unprocessable(closedCompanyError(company.name));
  if (!domains.includes(emailDomainOf(email))) throw unprocessable(otherDomainError(company.name, domains));
  return company.id;
}
