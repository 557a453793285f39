import { and, eq, isNull, sql } from 'drizzle-orm';
import type { AdminSso, PutSsoRequest, SsoMode } from '../../../src/contract/sso.ts';
import { SSO_CALLBACK_PATH, SSO_SECRET_REQUIRED_ERROR } from '../../../src/contract/sso.ts';
import type { Database, Executor } from '../../db/client.ts';
import { companies, companyEmailDomains } from '../../db/schema.ts';
import { companySso } from '../../db/sso.schema.ts';
import { type AuditedFields, changedFields, recordAudit } from '../admin/audit.ts';
import { emailDomainOf, findCompany } from '../admin/companies.ts';
import { invalidField } from '../shared/userFacingError.ts';
import type { SecretBox } from './secretBox.ts';

/** The redirect URI every company registers at its identity provider. */
export function ssoRedirectUri(appUrl: string): string {
  return new URL(SSO_CALLBACK_PATH, appUrl).toString();
}

/** The row's associated data: a sealed secret opens only on its own company's row. */
export function secretContextOf(companyId: number): string {
  return `company_sso:${companyId}`;
}

export function notCompanyDomainError(domain: string, companyName: string): string {
  return `${domain} is not one of ${companyName}’s e-mail domains. Add it to the company first.`;
}

export function ssoRequiredError(companyName: string): string {
  return `${companyName} signs you in with single sign-on. Use “Continue with ${companyName} SSO” on the sign-in page.`;
}

type SsoRow = typeof companySso.$inferSelect;

function asAdminSso(row: SsoRow, appUrl: string): AdminSso {
  return {
    issuer: row.issuer,
    client_id: row.clientId,
    client_secret_set: row.clientSecretSealed.length > 0,
    email_domains: [...row.emailDomains].sort(),
    mode: row.mode,
    redirect_uri: ssoRedirectUri(appUrl),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** What the audit log records of a configuration: never the secret, only that it was replaced. */
function auditedFieldsOf(sso: AdminSso | null): AuditedFields | null {
  if (!sso) return null;
  const { issuer, client_id, email_domains, mode } = sso;
  return { issuer, client_id, email_domains, mode };
}

async function findSsoRow(db: Executor, companyId: number): Promise<SsoRow | undefined> {
  const [row] = await db.select().from(companySso).where(eq(companySso.companyId, companyId));
  return row;
}

export async function findCompanySso(db: Executor, companyId: number, appUrl: string): Promise<AdminSso | null> {
  await findCompany(db, companyId);
  const row = await findSsoRow(db, companyId);
  return row ? asAdminSso(row, appUrl) : null;
}

/**
 * Sets the company's identity provider. The domains must be the company's own (so no two companies' SSO claim one
 * domain); `check` proves the issuer answers its OpenID configuration before anything is stored. Audited.
 */
export async function putCompanySso(
  db: Database,
  box: SecretBox,
  { actorUserId, companyId, input, appUrl, check }: {
    actorUserId: number;
    companyId: number;
    input: PutSsoRequest;
    appUrl: string;
    check: (issuer: string) => Promise<void>;
  },
  now = new Date(),
): Promise<AdminSso> {
  const company = await findCompany(db, companyId);
  const outside = input.email_domains.find((domain) => !company.email_domains.includes(domain));
  if (outside !== undefined) throw invalidField('email_domains', notCompanyDomainError(outside, company.name));
  const stored = await findSsoRow(db, companyId);
  if (input.client_secret === undefined && !stored) throw invalidField('client_secret', SSO_SECRET_REQUIRED_ERROR);
  await check(input.issuer);
  return db.transaction(async (tx) => {
    const before = await findSsoRow(tx, companyId);
    const sealed = input.client_secret === undefined ? before?.clientSecretSealed : box.seal(input.client_secret, secretContextOf(companyId));
    if (sealed === undefined) throw invalidField('client_secret', SSO_SECRET_REQUIRED_ERROR);
    const columns = { issuer: input.issuer, clientId: input.client_id, emailDomains: input.email_domains, mode: input.mode, clientSecretSealed: sealed, updatedAt: now };
    await tx
      .insert(companySso)
      .values({ companyId, ...columns })
      .onConflictDoUpdate({ target: companySso.companyId, set: columns });
    const after = asAdminSso((await findSsoRow(tx, companyId))!, appUrl);
    const changes = changedFields(auditedFieldsOf(before ? asAdminSso(before, appUrl) : null), auditedFieldsOf(after)!);
    if (input.client_secret !== undefined) changes.client_secret = { before: before ? 'kept' : null, after: 'replaced' };
    if (Object.keys(changes).length > 0) {
      await recordAudit(tx, { actorUserId, action: 'company.sso_update', subjectType: 'company', subjectId: companyId, changes, at: now });
    }
    return after;
  });
}

/** Turns SSO off for the company: its people sign in with a password again (a password reset gives them one). */
export async function removeCompanySso(db: Database, actorUserId: number, companyId: number, appUrl: string, now = new Date()) {
  await findCompany(db, companyId);
  await db.transaction(async (tx) => {
    const [removed] = await tx.delete(companySso).where(eq(companySso.companyId, companyId)).returning();
    if (!removed) return;
    const changes = changedFields(null, auditedFieldsOf(asAdminSso(removed, appUrl))!);
    for (const change of Object.values(changes)) [change.before, change.after] = [change.after, null];
    await recordAudit(tx, { actorUserId, action: 'company.sso_remove', subjectType: 'company', subjectId: companyId, changes, at: now });
  });
}

/** The SSO of an address's domain, when an active company's SSO covers it (a domain of the company and of its SSO). */
export interface DomainSso {
  companyId: number;
  companyName: string;
  mode: SsoMode;
  issuer: string;
  clientId: string;
  clientSecretSealed: string;
  emailDomains: string[];
}

/** A company's SSO as discovery and the callback read it, but for its domains (each reads those its own way). */
const domainSsoColumns = {
  companyId: companies.id,
  companyName: companies.name,
  mode: companySso.mode,
  issuer: companySso.issuer,
  clientId: companySso.clientId,
  clientSecretSealed: companySso.clientSecretSealed,
};

/** One lookup for every address, whatever it finds: discovery answers known and unknown domains alike. */
export async function ssoForEmail(db: Executor, email: string): Promise<DomainSso | null> {
  const domain = emailDomainOf(email);
  const [row] = await db
    .select({ ...domainSsoColumns, emailDomains: companySso.emailDomains })
    .from(companyEmailDomains)
    .innerJoin(companies, eq(companies.id, companyEmailDomains.companyId))
    .innerJoin(companySso, eq(companySso.companyId, companies.id))
    .where(and(eq(companyEmailDomains.domain, domain), isNull(companies.deactivatedAt), sql`${domain} = ANY(${companySso.emailDomains})`))
    .limit(1);
  return row ?? null;
}

/** The company's SSO, for the callback: the same conditions as discovery, for the company the sign-in started with. */
export async function ssoOfCompany(db: Executor, companyId: number): Promise<DomainSso | null> {
  const [row] = await db
    .select({
      ...domainSsoColumns,
      emailDomains: sql<string[]>`ARRAY(
        SELECT d FROM unnest(${companySso.emailDomains}) AS d
        WHERE EXISTS (SELECT 1 FROM ${companyEmailDomains} WHERE ${companyEmailDomains.domain} = d AND ${companyEmailDomains.companyId} = ${companies.id}))`,
    })
    .from(companySso)
    .innerJoin(companies, eq(companies.id, companySso.companyId))
    .where(and(eq(companySso.companyId, companyId), isNull(companies.deactivatedAt)))
    .limit(1);
  return row ?? null;
}

/**
 * A password may not be used (sign-in, reset) for an address whose company enforces SSO: the refusal names the
 * company, which discovery tells anyone for that domain already. Null when the password may be used.
 */
export async function passwordRefusalForSso(db: Executor, email: string): Promise<string | null> {
  const sso = await ssoForEmail(db, email);
  return sso?.mode === 'enforced' ? ssoRequiredError(sso.companyName) : null;
}
