import { eq } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import { DEFAULT_POLICY } from '../../domain/sla/serviceClock.ts';
import type { Database } from '../client.ts';
import { companies } from '../schema.ts';
import { servicePolicies } from '../sla.schema.ts';

/**
 * The demo's targets (issue 28): the promise made when no policy is stored, as the default; Globex pays for faster.
 * Both in the concierge team's own hours (Monday to Friday, 9 to 18 in Paris).
 */
const DEMO_POLICIES = [
  { companySlug: null, firstResponseMinutes: DEFAULT_POLICY.firstResponseMinutes, resolutionMinutes: DEFAULT_POLICY.resolutionMinutes },
  { companySlug: 'globex', firstResponseMinutes: 60, resolutionMinutes: 9 * 60 },
] as const;

/**
 * Outside production, gives a database without service policies the demo's: a default and Globex's tighter one.
 * Safe at every start: a database that has any policy (an admin's) is left as it is.
 */
export async function seedServicePolicies(db: Database, options: { nodeEnv: Config['NODE_ENV'] }): Promise<boolean> {
  if (options.nodeEnv === 'production') return false;
  const [anyPolicy] = await db.select({ id: servicePolicies.id }).from(servicePolicies).limit(1);
  if (anyPolicy) return false;
  for (const policy of DEMO_POLICIES) {
    let companyId: number | null = null;
    if (policy.companySlug !== null) {
      const [company] = await db.select({ id: companies.id }).from(companies).where(eq(companies.slug, policy.companySlug));
      if (!company) continue;
      companyId = company.id;
    }
    await db
      .insert(servicePolicies)
      .values({
        companyId,
        firstResponseMinutes: policy.firstResponseMinutes,
        resolutionMinutes: policy.resolutionMinutes,
        timeZone: DEFAULT_POLICY.calendar.timeZone,
        week: [...DEFAULT_POLICY.calendar.week],
        holidays: [],
      })
      // Another process seeding at the same moment: its row stands.
      .onConflictDoNothing();
  }
  return true;
}
