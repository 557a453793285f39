import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import { type AccountRole, type AdminAccount, INVITATION_TTL_DAYS, type InviteStaffRequest } from '../../../src/contract/admin.ts';
import { type Database, type Executor, isUniqueViolation } from '../../db/client.ts';
import { companies, users } from '../../db/schema.ts';
import { employerAdmins } from '../../db/employer.schema.ts';
import { recordAudit, recordSwitch, changedFields } from './audit.ts';
import { issueOneTimeToken, retireOneTimeTokens } from '../accounts/oneTimeTokens.ts';
import { appLink, enqueueMessage } from '../shared/outbox.ts';
import { hashPassword } from '../accounts/passwords.ts';
import { revokeAllCredentials } from '../accounts/sessions.ts';
import { newToken } from '../shared/tokens.ts';
import { conflict, invalidField, notFound } from '../shared/userFacingError.ts';
import { normalisedEmail } from '../accounts/users.ts';

/* Staff accounts in the console's admin area (issue 13): invitations, roles, deactivation. Every write is audited. */

export const INVITATION_TTL_MS = INVITATION_TTL_DAYS * 24 * 60 * 60 * 1000;
export const ACCOUNT_NOT_FOUND_ERROR = 'Account not found';
export const EMAIL_TAKEN_ERROR = 'An account with this e-mail address already exists.';
export const LAST_ADMIN_ERROR = 'This is the last active admin. Make another account an admin first.';
export const INVITATION_SUBJECT = 'You are invited to the Life Concierge console';
export const EMPLOYER_INVITATION_SUBJECT = 'You are invited to your company report on Life Concierge';
export const UNKNOWN_COMPANY_ERROR = 'This company does not exist or is deactivated.';
export const EMPLOYER_ROLE_BY_INVITATION_ERROR = 'An employer admin is invited for a company: send them an invitation instead.';

/** A password hash whose password nobody knows: the account opens only through an e-mailed password link. */
export function unusablePasswordHash(): Promise<string> {
  return hashPassword(newToken());
}

/**
 * Inserts an account that cannot be signed in to until its owner opens the returned link (the reset-password page,
 * single-use, good for `linkTtlMs`) and chooses a password. Staff need no onboarding; the address is the one the
 * link goes to, so it counts as confirmed.
 */
export async function insertAccountWithPasswordLink(
  tx: Executor,
  account: { email: string; firstName: string; lastName: string; role: AccountRole; passwordHash: string },
  { linkTtlMs, appUrl, now }: { linkTtlMs: number; appUrl: string; now: Date },
): Promise<{ id: number; passwordLink: string }> {
  const [created] = await tx
    .insert(users)
    .values({ ...account, email: normalisedEmail(account.email), termsAcceptedAt: now, onboardedAt: now, awaitingPassword: true })
    .returning({ id: users.id });
  const token = await issueOneTimeToken(tx, created.id, 'password_reset', linkTtlMs, now);
  return { id: created.id, passwordLink: appLink(appUrl, `/reset-password/${token}`) };
}

const accountFields = {
  id: users.id,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  role: users.role,
  deactivatedAt: users.deactivatedAt,
  awaitingPassword: users.awaitingPassword,
  createdAt: users.createdAt,
  employerCompanyName: companies.name,
};

function selectAccounts(db: Executor) {
  return db
    .select(accountFields)
    .from(users)
    .leftJoin(employerAdmins, eq(employerAdmins.userId, users.id))
    .leftJoin(companies, eq(companies.id, employerAdmins.companyId));
}

function asAdminAccount(row: Awaited<ReturnType<typeof selectAccounts>>[number]): AdminAccount {
  return {
    id: row.id,
    email: row.email,
    first_name: row.firstName,
    last_name: row.lastName,
    full_name: `${row.firstName} ${row.lastName}`.trim(),
    role: row.role,
    active: row.deactivatedAt === null,
    invited: row.awaitingPassword,
    employer_company_name: row.role === 'employer_admin' ? row.employerCompanyName : null,
    deactivated_at: row.deactivatedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}

/** Every concierge, admin and employer admin, active or not, by name. */
export async function listStaffAccounts(db: Executor): Promise<AdminAccount[]> {
  const rows = await selectAccounts(db)
    .where(inArray(users.role, ['concierge', 'admin', 'employer_admin']))
    .orderBy(asc(users.firstName), asc(users.lastName), asc(users.id));
  return rows.map(asAdminAccount);
}

export async function findAccount(db: Executor, userId: number): Promise<AdminAccount> {
  const [row] = await selectAccounts(db).where(eq(users.id, userId));
  if (!row) throw notFound(ACCOUNT_NOT_FOUND_ERROR);
  return asAdminAccount(row);
}

/** The invitation's words: to the console, or to one company's report (an employer admin). */
function invitationOf(input: InviteStaffRequest, companyName: string | null, passwordLink: string) {
  const invitedTo =
    input.role === 'employer_admin'
      ? `You are invited to see ${companyName}'s Life Concierge report: how your employees use the service, in figures that never name anyone.`
      : `You are invited to the Life Concierge console as ${input.role === 'admin' ? 'an admin' : 'a concierge'}.`;
  return {
    subject: input.role === 'employer_admin' ? EMPLOYER_INVITATION_SUBJECT : INVITATION_SUBJECT,
    text: [
      `Hello ${input.first_name},`,
      '',
      invitedTo,
      `Open this link to choose your password (it works once, for ${INVITATION_TTL_DAYS} days):`,
      '',
      passwordLink,
      '',
      'Then sign in with this e-mail address. If you did not expect this invitation, ignore this e-mail.',
    ].join('\n'),
  };
}

/** The active company an employer admin is invited for, locked against a concurrent deactivation. */
async function invitedCompany(tx: Executor, companyId: number | null | undefined): Promise<{ id: number; name: string }> {
  const [company] = companyId
    ? await tx.select({ id: companies.id, name: companies.name, deactivatedAt: companies.deactivatedAt }).from(companies).where(eq(companies.id, companyId)).for('update')
    : [];
  if (!company || company.deactivatedAt !== null) throw invalidField('company_id', UNKNOWN_COMPANY_ERROR);
  return company;
}

/**
 * Creates the concierge, admin or employer admin account and e-mails the invitee the link that sets its password, in
 * one transaction: there is an account exactly when there is an invitation (and, for an employer admin, its company).
 */
export async function inviteStaff(
  db: Database,
  actorUserId: number,
  input: InviteStaffRequest,
  appUrl: string,
  now = new Date(),
): Promise<AdminAccount> {
  const passwordHash = await unusablePasswordHash();
  const email = normalisedEmail(input.email);
  try {
    return await db.transaction(async (tx) => {
      const [existing] = await tx.select({ id: users.id }).from(users).where(eq(users.email, email));
      if (existing) throw conflict(EMAIL_TAKEN_ERROR, 'email');
      const company = input.role === 'employer_admin' ? await invitedCompany(tx, input.company_id) : null;
      const { id, passwordLink } = await insertAccountWithPasswordLink(
        tx,
        { email, firstName: input.first_name, lastName: input.last_name, role: input.role, passwordHash },
        { linkTtlMs: INVITATION_TTL_MS, appUrl, now },
      );
      if (company) await tx.insert(employerAdmins).values({ userId: id, companyId: company.id });
      await enqueueMessage(tx, { channel: 'email', to: email, ...invitationOf(input, company?.name ?? null, passwordLink) });
      const account = await findAccount(tx, id);
      const { first_name, last_name, role } = account;
      const audited = company ? { email, first_name, last_name, role, company_id: company.id } : { email, first_name, last_name, role };
      await recordAudit(tx, {
        actorUserId,
        action: 'staff.invite',
        subjectType: 'account',
        subjectId: id,
        changes: changedFields(null, audited),
        at: now,
      });
      return account;
    });
  } catch (error) {
    // The same address invited at the same moment by another admin.
    if (isUniqueViolation(error)) throw conflict(EMAIL_TAKEN_ERROR, 'email');
    throw error;
  }
}

/**
 * Locks the active admins (by id) and then the account, in that order in every transaction that may take away an
 * admin, so two of them cannot each take away one of the last two; returns the admins' ids and the account. Only
 * admins who can sign in count: an invitation whose password was never chosen administers nothing (it may expire).
 */
async function lockForAdminChange(tx: Executor, userId: number) {
  const activeAdmins = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, 'admin'), isNull(users.deactivatedAt), eq(users.awaitingPassword, false)))
    .orderBy(asc(users.id))
    .for('update');
  const [account] = await tx
    .select({ role: users.role, deactivatedAt: users.deactivatedAt })
    .from(users)
    .where(eq(users.id, userId))
    .for('update');
  if (!account) throw notFound(ACCOUNT_NOT_FOUND_ERROR);
  const isLastActiveAdmin = activeAdmins.length === 1 && activeAdmins[0].id === userId;
  return { account, isLastActiveAdmin };
}

/** Any account may get any role, except that the last active admin stays one. */
export async function changeRole(
  db: Database,
  actorUserId: number,
  userId: number,
  role: AccountRole,
  now = new Date(),
): Promise<AdminAccount> {
  return db.transaction(async (tx) => {
    const { account, isLastActiveAdmin } = await lockForAdminChange(tx, userId);
    if (account.role !== role) {
      if (isLastActiveAdmin) throw conflict(LAST_ADMIN_ERROR, 'role');
      // The role reads one company's report: it comes with that company, by invitation, never by a role change.
      const [employerCompany] = await tx.select({ companyId: employerAdmins.companyId }).from(employerAdmins).where(eq(employerAdmins.userId, userId));
      if (role === 'employer_admin' && !employerCompany) throw invalidField('role', EMPLOYER_ROLE_BY_INVITATION_ERROR);
      await tx.update(users).set({ role }).where(eq(users.id, userId));
      await recordAudit(tx, {
        actorUserId,
        action: 'account.role_change',
        subjectType: 'account',
        subjectId: userId,
        changes: { role: { before: account.role, after: role } },
        at: now,
      });
    }
    return findAccount(tx, userId);
  });
}

/**
 * Deactivating: the account cannot sign in (accounts/users.ts accountClosed), and its sessions, remembered MFA
 * devices and outstanding password links end in the same transaction. Reactivating lets it sign in again. The last
 * active admin cannot be deactivated; asking for the state the account is in changes nothing.
 */
export async function setAccountActive(
  db: Database,
  actorUserId: number,
  userId: number,
  active: boolean,
  now = new Date(),
): Promise<AdminAccount> {
  return db.transaction(async (tx) => {
    const { account, isLastActiveAdmin } = await lockForAdminChange(tx, userId);
    if ((account.deactivatedAt === null) !== active) {
      if (isLastActiveAdmin) throw conflict(LAST_ADMIN_ERROR);
      await tx.update(users).set({ deactivatedAt: active ? null : now }).where(eq(users.id, userId));
      if (!active) {
        await revokeAllCredentials(tx, userId, now);
        await retireOneTimeTokens(tx, userId, 'password_reset', now);
      }
      await recordSwitch(tx, {
        actorUserId,
        actions: { on: 'account.reactivate', off: 'account.deactivate' },
        subjectType: 'account',
        subjectId: userId,
        field: 'active',
        value: active,
        at: now,
      });
    }
    return findAccount(tx, userId);
  });
}
