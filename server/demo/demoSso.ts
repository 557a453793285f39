import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { companies, companyEmailDomains } from '../db/schema.ts';
import { companySso } from '../db/sso.schema.ts';
import { createSecretBox, ssoKeyFrom } from '../domain/sso/secretBox.ts';
import { secretContextOf, ssoRedirectUri } from '../domain/sso/ssoSettings.ts';
import { type IdentityAccount, type RunningIdentityProvider, startIdentityProvider } from './identityProvider.ts';

/**
 * `npm start`'s single sign-on demo (outside production only; main.ts loads this file then): a demo identity provider
 * on loopback (DEMO_IDP_PORT) and one demo company, Umbrella Health, whose SSO it is (enforced for umbrella.test). Its
 * client secret is new at every start and sealed like any other.
 */
export const DEMO_SSO_COMPANY = { slug: 'umbrella', name: 'Umbrella Health', domain: 'umbrella.test' } as const;
export const DEMO_SSO_ACCOUNTS: IdentityAccount[] = [
  { sub: 'demo-uma', email: 'uma@umbrella.test', email_verified: true, given_name: 'Uma', family_name: 'Umbrella' },
  { sub: 'demo-ned', email: 'ned@umbrella.test', email_verified: true, given_name: 'Ned', family_name: 'Newhire' },
  { sub: 'demo-una', email: 'una@umbrella.test', email_verified: false, given_name: 'Una', family_name: 'Unverified' },
];
const DEMO_CLIENT_ID = 'life-concierge-demo';

export async function startDemoSso(db: Database, config: Pick<Config, 'APP_URL' | 'DEMO_IDP_PORT' | 'SSO_SECRET_KEY'>): Promise<RunningIdentityProvider> {
  const clientSecret = randomBytes(24).toString('base64url');
  const provider = await startIdentityProvider({
    port: config.DEMO_IDP_PORT,
    accounts: DEMO_SSO_ACCOUNTS,
    clients: [{ client_id: DEMO_CLIENT_ID, client_secret: clientSecret, redirect_uris: [ssoRedirectUri(config.APP_URL)] }],
  });
  const box = createSecretBox(ssoKeyFrom(config.SSO_SECRET_KEY));
  await db.transaction(async (tx) => {
    await tx.insert(companies).values({ slug: DEMO_SSO_COMPANY.slug, name: DEMO_SSO_COMPANY.name }).onConflictDoNothing({ target: companies.slug });
    const [company] = await tx.select({ id: companies.id }).from(companies).where(eq(companies.slug, DEMO_SSO_COMPANY.slug));
    await tx.insert(companyEmailDomains).values({ domain: DEMO_SSO_COMPANY.domain, companyId: company.id }).onConflictDoNothing();
    const settings = {
      issuer: provider.issuer,
      clientId: DEMO_CLIENT_ID,
      clientSecretSealed: box.seal(clientSecret, secretContextOf(company.id)),
      emailDomains: [DEMO_SSO_COMPANY.domain],
      mode: 'enforced' as const,
      updatedAt: new Date(),
    };
    await tx.insert(companySso).values({ companyId: company.id, ...settings }).onConflictDoUpdate({ target: companySso.companyId, set: settings });
  });
  return provider;
}
