import { and, asc, eq, sql } from 'drizzle-orm';
import type { User } from '../../../src/contract/account.ts';
import { ACCESS_TURNED_OFF_ERROR } from '../../../src/contract/common.constants.ts';
import { type Executor, preparedFor, qualified } from '../../db/client.ts';
import { companies, requests, userCompanies, users } from '../../db/schema.ts';
import type { UserRow } from './sessions.ts';

export type MfaPolicy = (typeof companies.$inferSelect)['mfaPolicy'];

/** An address as it is stored, looked up and counted: trimmed and lower-cased. */
export function normalisedEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function findUserByEmail(db: Executor, email: string): Promise<UserRow | undefined> {
  const [user] = await db.select().from(users).where(eq(users.email, normalisedEmail(email))).limit(1);
  return user;
}

export async function findUserById(db: Executor, id: number): Promise<UserRow | undefined> {
  const [user] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return user;
}

/**
 * A sign-up claims the company of its link; the claim is granted once the address is confirmed (issue 9 point 9).
 * Granted companies sponsor the user: their benefits, their name in the app, internal_user. Claimed ones only
 * tighten MFA (a required policy applies from the start).
 */
export type Membership = 'granted' | 'claimed';

/** What grants a membership, said of the user row of the query (every query that tells sponsors uses it). */
export const membershipGranted = sql`${qualified(users.emailConfirmedAt)} IS NOT NULL`;

/** A deactivated company sponsors nobody and applies no MFA policy; said of the companies row of the query. */
export const companyActive = sql`${qualified(companies.deactivatedAt)} IS NULL`;

/**
 * The company still sponsors this member: it is active, and its directory has not turned the member off (SCIM); said
 * of the user_companies and companies rows of the query.
 */
export const membershipActive = sql`(${companyActive} AND ${qualified(userCompanies.suspendedAt)} IS NULL)`;

/**
 * The account of the user row of the query may not be used: an admin deactivated it, or it is an employee's whose
 * every company is deactivated (staff, and employees of no company, do not depend on a company).
 */
export const accountClosed = sql`(${qualified(users.deactivatedAt)} IS NOT NULL OR (${qualified(users.role)} = 'employee'
  AND EXISTS (SELECT 1 FROM ${userCompanies} WHERE ${qualified(userCompanies.userId)} = ${qualified(users.id)})
  AND NOT EXISTS (
    SELECT 1 FROM ${userCompanies} INNER JOIN ${companies} ON ${qualified(companies.id)} = ${qualified(userCompanies.companyId)}
    WHERE ${qualified(userCompanies.userId)} = ${qualified(users.id)} AND ${membershipActive})))`;

export const ACCOUNT_DEACTIVATED_ERROR = 'This account has been deactivated. Ask your administrator if you need it again.';
export const COMPANY_DEACTIVATED_ERROR = "Your company's Life Concierge service has ended. Ask your employer if you think this is a mistake.";

/** A member of a company turned off by its directory (SCIM): a closed account with a suspended membership. */
const suspendedByDirectory = sql<boolean>`EXISTS (SELECT 1 FROM ${userCompanies}
  WHERE ${qualified(userCompanies.userId)} = ${qualified(users.id)} AND ${qualified(userCompanies.suspendedAt)} IS NOT NULL)`;

/** Why a user who gave the right password may not sign in, or null when they may. */
export async function signInRefusal(db: Executor, userId: number): Promise<string | null> {
  const [row] = await db
    .select({ deactivatedAt: users.deactivatedAt, closed: sql<boolean>`${accountClosed}`, suspended: suspendedByDirectory })
    .from(users)
    .where(eq(users.id, userId));
  if (!row?.closed) return null;
  if (row.deactivatedAt !== null) return ACCOUNT_DEACTIVATED_ERROR;
  return row.suspended ? ACCESS_TURNED_OFF_ERROR : COMPANY_DEACTIVATED_ERROR;
}

function membershipsOf(userId: number, membership: Membership) {
  return and(eq(userCompanies.userId, userId), membership === 'granted' ? and(membershipActive, membershipGranted) : companyActive);
}

export async function companiesOf(db: Executor, userId: number, membership: Membership = 'granted') {
  return db
    .select({ id: companies.id, name: companies.name, imageUrl: companies.imageUrl, mfaPolicy: companies.mfaPolicy })
    .from(userCompanies)
    .innerJoin(companies, eq(companies.id, userCompanies.companyId))
    .innerJoin(users, eq(users.id, userCompanies.userId))
    .where(membershipsOf(userId, membership))
    .orderBy(asc(companies.id));
}

/** What the client must do about MFA right after sign-in (SPEC §3 sign-in response, §4 MFA flags). */
export function mfaSignInFlags(user: Pick<UserRow, 'mfaPhone'>, policies: readonly MfaPolicy[]) {
  const enrolled = user.mfaPhone !== null;
  return {
    mfa_required: enrolled,
    mfa_requires_verification: !enrolled && policies.includes('required'),
    mfa_enrollment_available: !enrolled && policies.includes('optional'),
  };
}

/** First letters of the first and last word, upper-cased ("Ada King Lovelace" -> "AL"). */
export function initialsOf(fullName: string): string {
  const words = fullName.split(/\s+/).filter(Boolean);
  if (words.length === 0) return '';
  const first = words[0].charAt(0);
  const last = words.length > 1 ? words[words.length - 1].charAt(0) : '';
  return `${first}${last}`.toUpperCase();
}

/** The companies that sponsor the user (granted memberships), as SPEC §3 User.companies, made by the database. */
const sponsoringCompanies = sql<User['companies']>`COALESCE((
  SELECT json_agg(json_build_object('id', ${qualified(companies.id)}, 'name', ${qualified(companies.name)}, 'image_url', ${qualified(companies.imageUrl)})
    ORDER BY ${qualified(companies.id)})
  FROM ${userCompanies} INNER JOIN ${companies} ON ${qualified(companies.id)} = ${qualified(userCompanies.companyId)}
  WHERE ${qualified(userCompanies.userId)} = ${qualified(users.id)} AND ${membershipGranted} AND ${membershipActive}), '[]'::json)`;

/** A sponsoring company of the user is one of the service's own staff companies. */
const sponsoredByStaffCompany = sql<boolean>`EXISTS (
  SELECT 1 FROM ${userCompanies} INNER JOIN ${companies} ON ${qualified(companies.id)} = ${qualified(userCompanies.companyId)}
  WHERE ${qualified(userCompanies.userId)} = ${qualified(users.id)} AND ${membershipGranted} AND ${membershipActive}
    AND ${qualified(companies.internalStaff)})`;

/** GET /users/current runs on every page load: one query, prepared once per database. */
const currentUserLookup = preparedFor((db) =>
  db
    .select({
      externalId: users.externalId,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      role: users.role,
      onboardedAt: users.onboardedAt,
      mfaPhone: users.mfaPhone,
      emailConfirmedAt: users.emailConfirmedAt,
      companies: sponsoringCompanies,
      sponsoredByStaffCompany,
      requestCount: sql<number>`(SELECT count(*) FROM ${requests} WHERE ${qualified(requests.userId)} = ${qualified(users.id)})`.mapWith(Number),
    })
    .from(users)
    .where(eq(users.id, sql.placeholder('userId')))
    .prepare('describe_current_user'),
);

/**
 * The signed-in user as GET /users/current answers it. An internal user is sponsored by a company flagged as a staff
 * company in the admin area, or by one named in INTERNAL_COMPANY_NAMES (how deployments told them apart before).
 */
export async function describeUser(db: Executor, userId: number, internalCompanyNames: readonly string[]): Promise<User> {
  const [user] = await currentUserLookup(db).execute({ userId });
  if (!user) throw new Error(`describeUser: no user ${userId}`);
  const fullName = `${user.firstName} ${user.lastName}`.trim();
  return {
    external_id: user.externalId,
    full_name: fullName,
    first_name: user.firstName,
    initials: initialsOf(fullName),
    email: user.email,
    request_count: user.requestCount,
    companies: user.companies,
    role: user.role,
    internal_user: user.sponsoredByStaffCompany || user.companies.some((company) => internalCompanyNames.includes(company.name)),
    onboarding_required: user.role === 'employee' && user.onboardedAt === null,
    mfa_enrolled: user.mfaPhone !== null,
    mfa_phone_last_digits: user.mfaPhone?.slice(-4) ?? null,
    email_confirmation_pending: user.emailConfirmedAt === null,
  };
}
