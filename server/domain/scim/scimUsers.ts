import { and, asc, count, eq, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm';
import { type ScimPatchOperation, ScimError as PatchError, scimPatch } from 'scim-patch';
import { EMAIL_PATTERN } from '../../../src/contract/account.rules.ts';
import { SCIM_BASE_PATH, SCIM_MAX_PAGE, SCIM_SCHEMAS, type ScimUser, type ScimUserInput, scimUserInput } from '../../../src/contract/scim.ts';
import type { Database, Executor } from '../../db/client.ts';
import { scimUsers } from '../../db/scim.schema.ts';
import { companyEmailDomains, sessions, userCompanies, users } from '../../db/schema.ts';
import { hashPassword } from '../accounts/passwords.ts';
import { accountClosed, normalisedEmail } from '../accounts/users.ts';
import { newToken } from '../shared/tokens.ts';
import { UserFacingError, conflict, notFound } from '../shared/userFacingError.ts';

/** RFC 7644 §3.12's scimType values this service answers with a 400. */
export type ScimType = 'invalidFilter' | 'invalidSyntax' | 'invalidPath' | 'invalidValue' | 'noTarget' | 'mutability' | 'tooMany';
export const SCIM_TYPES: readonly ScimType[] = ['invalidFilter', 'invalidSyntax', 'invalidPath', 'invalidValue', 'noTarget', 'mutability', 'tooMany'];

/**
 * A SCIM 400: the server's one error class, its field naming the RFC's scimType (the SCIM routes answer it as an
 * RFC 7644 error body).
 */
export function scimRefusal(scimType: ScimType, detail: string): UserFacingError {
  return new UserFacingError(422, detail, { [scimType]: detail });
}

export const SCIM_USER_NOT_FOUND_ERROR = 'No such User in this directory.';
export const SCIM_USERNAME_TAKEN_ERROR = 'A User with this userName exists already.';
export const SCIM_EXTERNAL_ID_TAKEN_ERROR = 'A User with this externalId exists already.';
export const SCIM_STAFF_ADDRESS_ERROR = 'This address belongs to an account a directory cannot manage.';
export const SCIM_FILTER_ERROR = 'Only `userName eq "..."`, `externalId eq "..."` and `id eq "..."` filters are supported.';
export const SCIM_ACTIVE_ERROR = 'active must be true or false.';
export const scimDomainError = (domains: readonly string[]) =>
  domains.length === 0
    ? 'This company has no e-mail domain: add one in the console before provisioning.'
    : `userName must be an e-mail address at ${domains.join(', ')}.`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The member's resource, as one query reads it: the account, its membership of the company, what the directory said. */
const memberFields = {
  userId: users.id,
  id: users.externalId,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  accountCreatedAt: users.createdAt,
  suspendedAt: userCompanies.suspendedAt,
  externalId: scimUsers.externalId,
  userName: scimUsers.userName,
  version: scimUsers.version,
  createdAt: scimUsers.createdAt,
  updatedAt: scimUsers.updatedAt,
};

function selectMembers(db: Executor) {
  return db
    .select(memberFields)
    .from(userCompanies)
    .innerJoin(users, eq(users.id, userCompanies.userId))
    .leftJoin(scimUsers, and(eq(scimUsers.companyId, userCompanies.companyId), eq(scimUsers.userId, userCompanies.userId)))
    .$dynamic();
}
type MemberRow = Awaited<ReturnType<typeof selectMembers>>[number];

/** The company's members a directory sees: its employees, but those the directory deleted. */
const visibleMember = (companyId: number) =>
  and(eq(userCompanies.companyId, companyId), eq(users.role, 'employee'), isNull(scimUsers.deletedAt));

export function toScimUser(row: MemberRow, baseUrl: string): ScimUser {
  const formatted = `${row.firstName} ${row.lastName}`.trim();
  const created = row.createdAt ?? row.accountCreatedAt;
  return {
    schemas: [SCIM_SCHEMAS.user],
    id: row.id,
    ...(row.externalId === null ? {} : { externalId: row.externalId }),
    userName: row.userName ?? row.email,
    name: { givenName: row.firstName, familyName: row.lastName, formatted },
    displayName: formatted,
    emails: [{ value: row.email, primary: true, type: 'work' }],
    active: row.suspendedAt === null,
    meta: {
      resourceType: 'User',
      created: created.toISOString(),
      lastModified: (row.updatedAt ?? created).toISOString(),
      location: `${baseUrl}${SCIM_BASE_PATH}/Users/${row.id}`,
      version: etagOf(row),
    },
  };
}

export function etagOf(row: Pick<MemberRow, 'version'>): string {
  return `W/"${row.version ?? 0}"`;
}

async function findMember(db: Executor, companyId: number, id: string, lock = false): Promise<MemberRow> {
  if (!UUID.test(id)) throw notFound(SCIM_USER_NOT_FOUND_ERROR);
  const query = selectMembers(db).where(and(visibleMember(companyId), eq(users.externalId, id)));
  const [row] = await (lock ? query.for('update', { of: userCompanies }) : query);
  if (!row) throw notFound(SCIM_USER_NOT_FOUND_ERROR);
  return row;
}

export async function getScimUser(db: Executor, companyId: number, id: string, baseUrl: string): Promise<ScimUser> {
  return toScimUser(await findMember(db, companyId, id), baseUrl);
}

/** RFC 7644 §3.4.2.2, the filters directories send before they create: `userName`, `externalId` or `id`, with `eq`. */
function filterCondition(filter: string | undefined) {
  if (filter === undefined || filter.trim() === '') return undefined;
  const match = /^\s*(userName|externalId|id)\s+eq\s+"((?:[^"\\]|\\.)*)"\s*$/i.exec(filter);
  if (!match) throw scimRefusal('invalidFilter', SCIM_FILTER_ERROR);
  const value = match[2].replace(/\\(.)/g, '$1');
  switch (match[1].toLowerCase()) {
    case 'username':
      // userName is not case-exact (RFC 7643 §4.1.1).
      return or(eq(users.email, normalisedEmail(value)), eq(sql`lower(${scimUsers.userName})`, value.toLowerCase()));
    case 'externalid':
      return eq(scimUsers.externalId, value);
    default:
      return UUID.test(value) ? eq(users.externalId, value) : sql`false`;
  }
}

export interface ScimListOptions {
  filter?: string;
  startIndex?: number;
  count?: number;
}

/** A page of the company's members, oldest first; `startIndex` below 1 counts as 1, `count` is 0 to 200. */
export async function listScimUsers(db: Executor, companyId: number, options: ScimListOptions, baseUrl: string) {
  const where = and(visibleMember(companyId), filterCondition(options.filter));
  const startIndex = Math.max(1, options.startIndex ?? 1);
  const pageSize = Math.min(SCIM_MAX_PAGE, Math.max(0, options.count ?? SCIM_MAX_PAGE));
  const [[{ total }], rows] = await Promise.all([
    db
      .select({ total: count() })
      .from(userCompanies)
      .innerJoin(users, eq(users.id, userCompanies.userId))
      .leftJoin(scimUsers, and(eq(scimUsers.companyId, userCompanies.companyId), eq(scimUsers.userId, userCompanies.userId)))
      .where(where),
    pageSize === 0
      ? Promise.resolve([])
      : selectMembers(db).where(where).orderBy(asc(users.id)).limit(pageSize).offset(startIndex - 1),
  ]);
  return {
    schemas: [SCIM_SCHEMAS.listResponse],
    totalResults: total,
    startIndex,
    itemsPerPage: rows.length,
    Resources: rows.map((row) => toScimUser(row, baseUrl)),
  };
}

/** `active` as directories send it: a boolean, or Entra ID's "True"/"False". Absent: active. */
function activeOf(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  throw scimRefusal('invalidValue', SCIM_ACTIVE_ERROR);
}

/** What the account keeps of a User: the address (userName), the names, and whether the membership is on. */
interface MemberDetails {
  email: string;
  userName: string;
  externalId: string | null;
  firstName: string;
  lastName: string;
  active: boolean;
}

/** `currentEmail`: the member's address as it stands (none on creation); an address kept as it is is not checked again. */
async function detailsOf(db: Executor, companyId: number, input: ScimUserInput, currentEmail: string | null = null): Promise<MemberDetails> {
  const userName = input.userName;
  const email = normalisedEmail(userName);
  const domains = (
    await db.select({ domain: companyEmailDomains.domain }).from(companyEmailDomains).where(eq(companyEmailDomains.companyId, companyId))
  ).map((row) => row.domain);
  // The company's directory vouches for addresses at its own domains only: never for another company's people. A
  // member who joined before the company's domains changed keeps their address through a PATCH of something else.
  if (email !== currentEmail && (!EMAIL_PATTERN.test(email) || !domains.includes(email.slice(email.lastIndexOf('@') + 1)))) {
    throw scimRefusal('invalidValue', scimDomainError(domains));
  }
  const display = input.displayName?.trim().split(/\s+/) ?? [];
  const firstName = input.name?.givenName?.trim() || display[0] || email.slice(0, email.indexOf('@'));
  const lastName = input.name?.familyName?.trim() || display.slice(1).join(' ');
  return { email, userName, externalId: input.externalId ?? null, firstName, lastName, active: activeOf(input.active) };
}

/**
 * Turns the membership on or off. Off: the company sponsors the member no more; if it was their last company, the
 * account closes, and its sessions (and with them its live streams: the database announces the change) end now.
 */
async function setMembershipActive(tx: Executor, companyId: number, userId: number, active: boolean, now: Date) {
  const changed = await tx
    .update(userCompanies)
    .set({ suspendedAt: active ? null : now })
    .where(
      and(
        eq(userCompanies.companyId, companyId),
        eq(userCompanies.userId, userId),
        active ? isNotNull(userCompanies.suspendedAt) : isNull(userCompanies.suspendedAt),
      ),
    )
    .returning({ userId: userCompanies.userId });
  if (active || changed.length === 0) return;
  const closed = tx.select({ id: users.id }).from(users).where(and(eq(users.id, userId), accountClosed));
  await tx.update(sessions).set({ revokedAt: now }).where(and(inArray(sessions.userId, closed), isNull(sessions.revokedAt)));
}

async function refuseTakenExternalId(tx: Executor, companyId: number, userId: number | null, externalId: string | null) {
  if (externalId === null) return;
  const [other] = await tx
    .select({ userId: scimUsers.userId })
    .from(scimUsers)
    .where(and(eq(scimUsers.companyId, companyId), eq(scimUsers.externalId, externalId)));
  if (other && other.userId !== userId) throw conflict(SCIM_EXTERNAL_ID_TAKEN_ERROR, 'externalId');
}

/** Writes what the directory said of a member whose membership exists, bumping the resource's version. */
async function writeMember(tx: Executor, companyId: number, userId: number, details: MemberDetails, now: Date) {
  const [clash] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.email, details.email), sql`${users.id} <> ${userId}`));
  if (clash) throw conflict(SCIM_USERNAME_TAKEN_ERROR, 'userName');
  await refuseTakenExternalId(tx, companyId, userId, details.externalId);
  await tx.update(users).set({ email: details.email, firstName: details.firstName, lastName: details.lastName }).where(eq(users.id, userId));
  await tx
    .insert(scimUsers)
    .values({ companyId, userId, externalId: details.externalId, userName: details.userName, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: [scimUsers.companyId, scimUsers.userId],
      set: { externalId: details.externalId, userName: details.userName, updatedAt: now, deletedAt: null, version: sql`${scimUsers.version} + 1` },
    });
  await setMembershipActive(tx, companyId, userId, details.active, now);
}

/**
 * POST /Users: a new member. An address with no account gets one that nobody can sign in to until its owner chooses a
 * password (Forgot password) or signs in through the company's SSO; an existing employee's account joins the company.
 * 409 (uniqueness) when the company's directory has that member already.
 */
export async function createScimUser(db: Database, companyId: number, input: ScimUserInput, baseUrl: string, now = new Date()) {
  const details = await detailsOf(db, companyId, input);
  const passwordHash = await hashPassword(newToken());
  const userId = await db.transaction(async (tx) => {
    const [existing] = await tx
      .select({ id: users.id, role: users.role, emailConfirmedAt: users.emailConfirmedAt })
      .from(users)
      .where(eq(users.email, details.email))
      .for('update');
    if (existing && existing.role !== 'employee') throw conflict(SCIM_STAFF_ADDRESS_ERROR, 'userName');
    if (existing) {
      const [member] = await selectMembers(tx).where(and(visibleMember(companyId), eq(users.id, existing.id)));
      if (member) throw conflict(SCIM_USERNAME_TAKEN_ERROR, 'userName');
    }
    const id =
      existing?.id ??
      (
        await tx
          .insert(users)
          .values({ email: details.email, passwordHash, firstName: details.firstName, lastName: details.lastName, awaitingPassword: true })
          .returning({ id: users.id })
      )[0].id;
    // The directory vouches for the address at its company's own domain: the membership is granted.
    if (existing && existing.emailConfirmedAt === null) await tx.update(users).set({ emailConfirmedAt: now }).where(eq(users.id, id));
    await tx.insert(userCompanies).values({ userId: id, companyId }).onConflictDoNothing();
    await writeMember(tx, companyId, id, details, now);
    return id;
  });
  const [row] = await selectMembers(db).where(and(eq(userCompanies.companyId, companyId), eq(users.id, userId)));
  return toScimUser(row, baseUrl);
}

/** PUT /Users/:id: the User as the directory now has it (attributes it leaves out take their defaults). */
export async function replaceScimUser(db: Database, companyId: number, id: string, input: ScimUserInput, baseUrl: string, now = new Date()) {
  await db.transaction(async (tx) => {
    const member = await findMember(tx, companyId, id, true);
    await writeMember(tx, companyId, member.userId, await detailsOf(tx, companyId, input, member.email), now);
  });
  return getScimUser(db, companyId, id, baseUrl);
}

/**
 * PATCH /Users/:id: the operations applied by scim-patch to the User as it stands, in the shapes directories send
 * (Okta's `{"op":"replace","value":{"active":false}}`, Entra ID's `{"op":"Replace","path":"active","value":"False"}`),
 * then kept as a PUT would keep the result.
 */
export async function patchScimUser(
  db: Database,
  companyId: number,
  id: string,
  operations: ReadonlyArray<{ op: string; path?: string; value?: unknown }>,
  baseUrl: string,
  now = new Date(),
) {
  await db.transaction(async (tx) => {
    const member = await findMember(tx, companyId, id, true);
    const current = toScimUser(member, baseUrl);
    let patched: unknown;
    try {
      const normalised = operations.map((operation) => ({ ...operation, op: operation.op.toLowerCase() }) as ScimPatchOperation);
      patched = scimPatch({ ...current, meta: { ...current.meta, created: new Date(current.meta.created), lastModified: new Date(current.meta.lastModified) } }, normalised);
    } catch (error) {
      if (error instanceof PatchError) throw scimRefusal(scimTypeOf(error.scimCode), error.message);
      throw error;
    }
    const input = scimUserInput.safeParse(patched);
    if (!input.success) throw scimRefusal('invalidValue', input.error.issues[0]?.message ?? 'Invalid value');
    await writeMember(tx, companyId, member.userId, await detailsOf(tx, companyId, input.data, member.email), now);
  });
  return getScimUser(db, companyId, id, baseUrl);
}

function scimTypeOf(code: string | undefined): ScimType {
  return SCIM_TYPES.find((type) => type === code) ?? 'invalidValue';
}

/**
 * DELETE /Users/:id: the member is turned off as by `active: false` and the resource is gone (404 from now on); the
 * account and its requests stay for the concierge team. Creating the same userName again brings the member back.
 */
export async function deleteScimUser(db: Database, companyId: number, id: string, now = new Date()) {
  await db.transaction(async (tx) => {
    const member = await findMember(tx, companyId, id, true);
    await tx
      .insert(scimUsers)
      .values({ companyId, userId: member.userId, userName: member.userName ?? member.email, deletedAt: now, createdAt: now, updatedAt: now })
      .onConflictDoUpdate({ target: [scimUsers.companyId, scimUsers.userId], set: { deletedAt: now, updatedAt: now, version: sql`${scimUsers.version} + 1` } });
    await setMembershipActive(tx, companyId, member.userId, false, now);
  });
}
