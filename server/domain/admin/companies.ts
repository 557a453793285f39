import { and, asc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { AdminCompany, NewCompany, UpdateCompanyRequest } from '../../../src/contract/admin.ts';
import type { FileStorage } from '../ports/fileStorage.ts';
import { type Database, type Executor, qualified } from '../../db/client.ts';
import { companies, companyEmailDomains, sessions, userCompanies, users } from '../../db/schema.ts';
import { type AuditedFields, changedFields, recordAudit, recordSwitch } from './audit.ts';
import { confirmStoredUpload, findUpload, ownImageUpload } from '../uploads/uploads.ts';
import { conflict, invalidField, notFound, transactionRefusingClashes, unprocessable } from '../shared/userFacingError.ts';
import { accountClosed, normalisedEmail } from '../accounts/users.ts';

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

/* Managing companies in the console's admin area (issue 13). Every write is audited in its own transaction. */

export const COMPANY_NOT_FOUND_ERROR = 'Company not found';
export const LOGO_UPLOAD_ERROR = 'The logo must be an image you have uploaded.';
export const CONCURRENT_CLASH_ERROR = 'Another change took this slug or e-mail domain at the same moment. Please try again.';

export function slugTakenError(slug: string, companyName: string): string {
  return `The slug "${slug}" is already used by ${companyName}.`;
}

export function domainTakenError(domain: string, companyName: string): string {
  return `${domain} already admits sign-ups to ${companyName}.`;
}

/** Where the app shows a logo uploaded in the console: GET /api/v1/company_logos/{key} sends the browser to the file. */
export function companyLogoPath(uploadKey: string): string {
  return `/api/v1/company_logos/${encodeURIComponent(uploadKey)}`;
}

const companyFields = {
  id: companies.id,
  name: companies.name,
  slug: companies.slug,
  imageUrl: companies.imageUrl,
  logoUploadKey: companies.logoUploadKey,
  mfaPolicy: companies.mfaPolicy,
  internalStaff: companies.internalStaff,
  deactivatedAt: companies.deactivatedAt,
  createdAt: companies.createdAt,
  emailDomains: sql<string[]>`COALESCE((
    SELECT json_agg(${qualified(companyEmailDomains.domain)} ORDER BY ${qualified(companyEmailDomains.domain)})
    FROM ${companyEmailDomains} WHERE ${qualified(companyEmailDomains.companyId)} = ${qualified(companies.id)}), '[]'::json)`,
  employeeCount: sql<number>`(
    SELECT count(*) FROM ${userCompanies} WHERE ${qualified(userCompanies.companyId)} = ${qualified(companies.id)})`.mapWith(Number),
};

function selectCompanies(db: Executor) {
  return db.select(companyFields).from(companies);
}

type CompanyRow = Awaited<ReturnType<typeof selectCompanies>>[number];

function asAdminCompany(row: CompanyRow): AdminCompany {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    image_url: row.imageUrl,
    logo_upload_key: row.logoUploadKey,
    mfa_policy: row.mfaPolicy,
    email_domains: row.emailDomains,
    internal_staff: row.internalStaff,
    active: row.deactivatedAt === null,
    deactivated_at: row.deactivatedAt?.toISOString() ?? null,
    employee_count: row.employeeCount,
    created_at: row.createdAt.toISOString(),
  };
}

/** What the audit log records of a company: the fields an admin sets. */
function auditedFieldsOf(company: AdminCompany): AuditedFields {
  const { name, slug, mfa_policy, email_domains, internal_staff, logo_upload_key } = company;
  return { name, slug, mfa_policy, email_domains, internal_staff, logo_upload_key };
}

export async function listCompanies(db: Executor): Promise<AdminCompany[]> {
  const rows = await selectCompanies(db).orderBy(asc(companies.name), asc(companies.id));
  return rows.map(asAdminCompany);
}

export async function findCompany(db: Executor, companyId: number): Promise<AdminCompany> {
  const [row] = await selectCompanies(db).where(eq(companies.id, companyId));
  if (!row) throw notFound(COMPANY_NOT_FOUND_ERROR);
  return asAdminCompany(row);
}

/** Locks the company's row for the rest of the transaction (its audit then tells one change after another). */
async function lockCompany(tx: Executor, companyId: number) {
  const [row] = await tx.select({ deactivatedAt: companies.deactivatedAt }).from(companies).where(eq(companies.id, companyId)).for('update');
  if (!row) throw notFound(COMPANY_NOT_FOUND_ERROR);
  return row;
}

/** A 409 naming the field when the slug or a domain belongs to another company (deactivated ones keep theirs). */
async function refuseClashes(tx: Executor, companyId: number | null, { slug, emailDomains }: { slug?: string; emailDomains?: string[] }) {
  const otherCompany = companyId === null ? undefined : ne(companies.id, companyId);
  if (slug !== undefined) {
    const [owner] = await tx.select({ name: companies.name }).from(companies).where(and(eq(companies.slug, slug), otherCompany));
    if (owner) throw conflict(slugTakenError(slug, owner.name), 'slug');
  }
  if (emailDomains && emailDomains.length > 0) {
    const taken = await tx
      .select({ domain: companyEmailDomains.domain, name: companies.name })
      .from(companyEmailDomains)
      .innerJoin(companies, eq(companies.id, companyEmailDomains.companyId))
      .where(and(inArray(companyEmailDomains.domain, emailDomains), otherCompany));
    const index = emailDomains.findIndex((domain) => taken.some((row) => row.domain === domain));
    if (index >= 0) {
      const { domain, name } = taken.find((row) => row.domain === emailDomains[index])!;
      throw conflict(domainTakenError(domain, name), `email_domains.${index}`);
    }
  }
}

/** A transaction that writes a slug or domains: one that a concurrent write took first is a 409 too. */
function writeCompany<T>(db: Database, write: (tx: Executor) => Promise<T>): Promise<T> {
  return transactionRefusingClashes(db, CONCURRENT_CLASH_ERROR, write);
}

async function replaceEmailDomains(tx: Executor, companyId: number, domains: readonly string[]) {
  await tx.delete(companyEmailDomains).where(eq(companyEmailDomains.companyId, companyId));
  if (domains.length > 0) await tx.insert(companyEmailDomains).values(domains.map((domain) => ({ domain, companyId })));
}

/**
 * The logo columns for an upload key: an image the admin uploaded for no request (the logo is then public: everyone
 * sponsored by the company sees it), or no logo for null.
 */
async function logoColumns(db: Executor, storage: FileStorage, adminUserId: number, key: string | null) {
  if (key === null) return { logoUploadKey: null, imageUrl: null };
  if (!(await ownImageUpload(db, storage, adminUserId, key))) throw invalidField('logo_upload_key', LOGO_UPLOAD_ERROR);
  return { logoUploadKey: key, imageUrl: companyLogoPath(key) };
}

export async function createCompany(
  db: Database,
  storage: FileStorage,
  actorUserId: number,
  input: NewCompany,
  now = new Date(),
): Promise<AdminCompany> {
  const logo = await logoColumns(db, storage, actorUserId, input.logo_upload_key);
  return writeCompany(db, async (tx) => {
    await refuseClashes(tx, null, { slug: input.slug, emailDomains: input.email_domains });
    const [created] = await tx
      .insert(companies)
      .values({ name: input.name, slug: input.slug, mfaPolicy: input.mfa_policy, internalStaff: input.internal_staff, ...logo, createdAt: now })
      .returning({ id: companies.id });
    await replaceEmailDomains(tx, created.id, input.email_domains);
    const company = await findCompany(tx, created.id);
    await recordAudit(tx, {
      actorUserId,
      action: 'company.create',
      subjectType: 'company',
      subjectId: company.id,
      changes: changedFields(null, auditedFieldsOf(company)),
      at: now,
    });
    return company;
  });
}

/** Changes the fields given; `email_domains` replaces the list. A change that changes nothing is not audited. */
export async function updateCompany(
  db: Database,
  storage: FileStorage,
  actorUserId: number,
  companyId: number,
  input: UpdateCompanyRequest,
  now = new Date(),
): Promise<AdminCompany> {
  const current = await findCompany(db, companyId);
  const newLogo = input.logo_upload_key !== undefined && input.logo_upload_key !== current.logo_upload_key;
  const logo = newLogo ? await logoColumns(db, storage, actorUserId, input.logo_upload_key ?? null) : {};
  return writeCompany(db, async (tx) => {
    await lockCompany(tx, companyId);
    const before = await findCompany(tx, companyId);
    await refuseClashes(tx, companyId, { slug: input.slug, emailDomains: input.email_domains });
    const columns = { name: input.name, slug: input.slug, mfaPolicy: input.mfa_policy, internalStaff: input.internal_staff, ...logo };
    if (Object.values(columns).some((value) => value !== undefined)) {
      await tx.update(companies).set(columns).where(eq(companies.id, companyId));
    }
    if (input.email_domains) await replaceEmailDomains(tx, companyId, input.email_domains);
    const after = await findCompany(tx, companyId);
    const changes = changedFields(auditedFieldsOf(before), auditedFieldsOf(after));
    if (Object.keys(changes).length > 0) {
      await recordAudit(tx, { actorUserId, action: 'company.update', subjectType: 'company', subjectId: companyId, changes, at: now });
    }
    return after;
  });
}

/**
 * Deactivating: the company admits no sign-ups and sponsors nobody, and its employees whose every company is now
 * deactivated cannot sign in (accounts/users.ts accountClosed); their sessions end in the same transaction.
 * Reactivating undoes all but the ended sessions. Asking for the state the company is in changes nothing.
 */
export async function setCompanyActive(
  db: Database,
  actorUserId: number,
  companyId: number,
  active: boolean,
  now = new Date(),
): Promise<AdminCompany> {
  return db.transaction(async (tx) => {
    const { deactivatedAt } = await lockCompany(tx, companyId);
    if ((deactivatedAt === null) !== active) {
      await tx.update(companies).set({ deactivatedAt: active ? null : now }).where(eq(companies.id, companyId));
      if (!active) {
        const closedMembers = tx
          .select({ id: users.id })
          .from(users)
          .innerJoin(userCompanies, eq(userCompanies.userId, users.id))
          .where(and(eq(userCompanies.companyId, companyId), accountClosed));
        await tx.update(sessions).set({ revokedAt: now }).where(and(inArray(sessions.userId, closedMembers), isNull(sessions.revokedAt)));
      }
      await recordSwitch(tx, {
        actorUserId,
        actions: { on: 'company.reactivate', off: 'company.deactivate' },
        subjectType: 'company',
        subjectId: companyId,
        field: 'active',
        value: active,
        at: now,
      });
    }
    return findCompany(tx, companyId);
  });
}

/** The stored logo an address of companyLogoPath names, while a company shows it; null otherwise. */
export async function findCompanyLogo(db: Executor, storage: FileStorage, uploadKey: string) {
  const [company] = await db.select({ id: companies.id }).from(companies).where(eq(companies.logoUploadKey, uploadKey)).limit(1);
  const row = company ? await findUpload(db, uploadKey) : null;
  return row ? confirmStoredUpload(db, storage, row) : null;
}
