import { count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditEvents, mfaTokens, sessions, users } from '../../server/db/schema.ts';
import { INVALID_RESET_TOKEN_ERROR } from '../../server/domain/accounts/accounts.ts';
import {
  EMAIL_TAKEN_ERROR,
  INVITATION_SUBJECT,
  INVITATION_TTL_MS,
  LAST_ADMIN_ERROR,
  inviteStaff,
} from '../../server/domain/admin/staff.ts';
import { ACCOUNT_DEACTIVATED_ERROR } from '../../server/domain/accounts/users.ts';
import { staffResponse } from '../../src/contract/console.ts';
import { type AdminAccount, adminAccountResponse, adminStaffResponse } from '../../src/contract/admin.ts';
import { type Method, adminCall, auditLog, expectAdminsOnly } from './admin.helpers.ts';
import { type TestContext, suiteContext } from './harness.ts';
import {
  PASSWORD,
  currentUserRequest,
  enrolPhone,
  errorOf,
  latestLink,
  outboxTo,
  registerUser,
  signInRequest,
  signedIn,
  tokenOf,
  uniqueEmail,
} from './helpers.ts';
import { type Person, createPerson } from './requests.helpers.ts';

const context = suiteContext({ AUTH_RATE_LIMIT: '1000' });

function invite(admin: Person, invitee: { email: string; first_name?: string; last_name?: string; role?: string }) {
  return adminCall(context, admin, 'POST', '/staff', { first_name: 'Ivy', last_name: 'Invitee', role: 'concierge', ...invitee });
}

/** Sets the password through the reset-password page's call, as the invitee opening the link would. */
function choosePassword(testContext: TestContext, link: string, password = PASSWORD) {
  return testContext.app.inject({
    method: 'PUT',
    url: '/api/v1/users/password',
    payload: { reset_password_token: tokenOf(link), password, password_confirmation: password },
  });
}

async function accountOf(response: { statusCode: number; body: string; json(): unknown }, status = 200): Promise<AdminAccount> {
  expect(response.statusCode, response.body).toBe(status);
  return adminAccountResponse.parse(response.json()).account;
}

/** Each of the calls, made by `admin`, is refused with the last admin's 409. */
async function expectRefusedAsLastAdmin(testContext: TestContext, admin: Person, calls: ReadonlyArray<readonly [Method, string, object?]>) {
  for (const [method, path, payload] of calls) {
    const response = await adminCall(testContext, admin, method, path, payload);
    expect(response.statusCode, `${method} ${path}`).toBe(409);
    expect(errorOf(response)).toBe(LAST_ADMIN_ERROR);
  }
}

async function auditRowCount() {
  const [{ rows }] = await context.db.select({ rows: count() }).from(auditEvents);
  return rows;
}

/** Signs in a fresh employee and reads twice, so that the session is served from the cache. */
async function warmSession() {
  const email = await registerUser(context);
  const authorization = await signedIn(context, email);
  for (let read = 0; read < 2; read += 1) expect((await currentUserRequest(context, authorization)).statusCode).toBe(200);
  const [user] = await context.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return { email, authorization, userId: user.id };
}

describe('who may manage staff', () => {
  it('refuses every staff route to a visitor (401), an employee and a concierge (403), and serves an admin', async () => {
    const admin = await createPerson(context, 'admin');
    const concierge = await createPerson(context, 'concierge');
    const employee = await createPerson(context, 'employee');
    const auditRowsBefore = await auditRowCount();
    const email = uniqueEmail('outsider-invite');
    await expectAdminsOnly(context, { employee, concierge }, [
      ['GET', '/staff'],
      ['GET', `/staff/${concierge.id}`],
      ['POST', '/staff', { email, first_name: 'Ivy', last_name: 'Invitee', role: 'admin' }],
      ['PATCH', `/staff/${employee.id}`, { role: 'admin' }],
      ['POST', `/staff/${admin.id}/deactivate`],
      ['POST', `/staff/${admin.id}/reactivate`],
      ['PATCH', `/staff/${employee.id}`, { role: 'overlord' }],
    ]);
    expect(await context.db.select().from(users).where(eq(users.email, email))).toEqual([]);
    expect(await outboxTo(context, email)).toEqual([]);
    const [employeeRow] = await context.db.select().from(users).where(eq(users.id, employee.id));
    expect(employeeRow).toMatchObject({ role: 'employee' });
    expect(await auditRowCount()).toBe(auditRowsBefore);
  });

  it('lists concierges and admins with their active flag, not employees', async () => {
    const admin = await createPerson(context, 'admin');
    const concierge = await createPerson(context, 'concierge');
    const employee = await createPerson(context, 'employee');
    await accountOf(await adminCall(context, admin, 'POST', `/staff/${concierge.id}/deactivate`));
    const response = await adminCall(context, admin, 'GET', '/staff');
    expect(response.statusCode).toBe(200);
    const staff = adminStaffResponse.parse(response.json()).staff;
    expect(staff.find((account) => account.id === concierge.id)).toMatchObject({ role: 'concierge', active: false, email: concierge.email });
    expect(staff.find((account) => account.id === admin.id)).toMatchObject({ role: 'admin', active: true, invited: false });
    expect(staff.map((account) => account.id)).not.toContain(employee.id);
    expect(await accountOf(await adminCall(context, admin, 'GET', `/staff/${employee.id}`))).toMatchObject({ role: 'employee' });
    expect((await adminCall(context, admin, 'GET', '/staff/999999')).statusCode).toBe(404);
  });
});

describe('inviting staff', () => {
  it('creates the account and e-mails a single-use link that sets its password; the invitee then signs in', async () => {
    const admin = await createPerson(context, 'admin');
    const email = uniqueEmail('new-concierge');
    const account = await accountOf(await invite(admin, { email: `  ${email.toUpperCase()} `, first_name: 'Nia', last_name: 'New' }), 201);
    expect(account).toMatchObject({ email, first_name: 'Nia', last_name: 'New', full_name: 'Nia New', role: 'concierge', active: true, invited: true });

    // Nobody can sign in before the invitee chooses a password.
    expect((await signInRequest(context, email)).statusCode).toBe(401);
    const [mail] = await outboxTo(context, email);
    expect(mail.subject).toBe(INVITATION_SUBJECT);
    expect(mail.text).toContain('as a concierge');
    expect(mail.links).toEqual([expect.stringMatching(/^http:\/\/localhost:3000\/reset-password\/[\w-]{20,}$/)]);

    expect((await choosePassword(context, mail.links[0])).statusCode).toBe(200);
    // Accepted: the staff list says so (issue 32).
    expect(await accountOf(await adminCall(context, admin, 'GET', `/staff/${account.id}`))).toMatchObject({ active: true, invited: false });
    const authorization = await signedIn(context, email);
    const current = await currentUserRequest(context, authorization);
    expect(current.json()).toMatchObject({ user: { role: 'concierge', email, onboarding_required: false } });
    const queue = await context.app.inject({ method: 'GET', url: '/api/v1/console/requests', headers: { authorization } });
    expect(queue.statusCode).toBe(200);

    const reused = await choosePassword(context, mail.links[0], 'another-password');
    expect(reused.statusCode).toBe(422);
    expect(errorOf(reused)).toBe(INVALID_RESET_TOKEN_ERROR);

    const { events } = await auditLog(context, admin, { subject_type: 'account', subject_id: account.id });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      action: 'staff.invite',
      actor: { id: admin.id },
      changes: {
        email: { before: null, after: email },
        first_name: { before: null, after: 'Nia' },
        last_name: { before: null, after: 'New' },
        role: { before: null, after: 'concierge' },
      },
    });
    expect(JSON.stringify(events[0])).not.toMatch(/password|hash|token|argon/i);
  });

  it('lets an invitation link expire', async () => {
    const admin = await createPerson(context, 'admin');
    const email = uniqueEmail('late-invitee');
    const sentAt = new Date(Date.now() - INVITATION_TTL_MS - 60_000);
    await inviteStaff(context.db, admin.id, { email, first_name: 'Lou', last_name: 'Late', role: 'admin' }, context.config.APP_URL, sentAt);
    const expired = await choosePassword(context, await latestLink(context, email));
    expect(expired.statusCode).toBe(422);
    expect(errorOf(expired)).toBe(INVALID_RESET_TOKEN_ERROR);
  });

  it('refuses an address that has an account with a 409 on the e-mail field, and sends nothing', async () => {
    const admin = await createPerson(context, 'admin');
    const existing = await registerUser(context);
    const mailsBefore = (await outboxTo(context, existing)).length;
    const auditRowsBefore = await auditRowCount();
    const response = await invite(admin, { email: existing.toUpperCase(), role: 'admin' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ error: EMAIL_TAKEN_ERROR, fields: { email: EMAIL_TAKEN_ERROR } });
    const [row] = await context.db.select().from(users).where(eq(users.email, existing));
    expect(row.role).toBe('employee');
    expect(await outboxTo(context, existing)).toHaveLength(mailsBefore);
    expect(await auditRowCount()).toBe(auditRowsBefore);
  });

  it('refuses a bad role, address or name with a 422 naming the field, and creates nothing', async () => {
    const admin = await createPerson(context, 'admin');
    const cases: Array<[payload: Record<string, string>, field: string]> = [
      [{ role: 'employee' }, 'role'],
      [{ role: 'owner' }, 'role'],
      [{ email: 'not-an-address' }, 'email'],
      [{ first_name: '  ' }, 'first_name'],
    ];
    for (const [payload, field] of cases) {
      const email = payload.email ?? uniqueEmail('bad-invite');
      const response = await invite(admin, { email, ...payload });
      expect(response.statusCode, JSON.stringify(payload)).toBe(422);
      expect(Object.keys(response.json().fields)).toEqual([field]);
      expect(await context.db.select().from(users).where(eq(users.email, email))).toEqual([]);
    }
  });
});

describe('changing a role', () => {
  it('gives any account any role, takes effect on its live session, and audits the change', async () => {
    const admin = await createPerson(context, 'admin');
    const { authorization, userId } = await warmSession();
    const toConsole = () => context.app.inject({ method: 'GET', url: '/api/v1/console/requests', headers: { authorization } });
    expect((await toConsole()).statusCode).toBe(403);

    const promoted = await accountOf(await adminCall(context, admin, 'PATCH', `/staff/${userId}`, { role: 'concierge' }));
    expect(promoted).toMatchObject({ id: userId, role: 'concierge' });
    expect((await toConsole()).statusCode).toBe(200);
    await accountOf(await adminCall(context, admin, 'PATCH', `/staff/${userId}`, { role: 'concierge' }));
    await accountOf(await adminCall(context, admin, 'PATCH', `/staff/${userId}`, { role: 'employee' }));
    expect((await toConsole()).statusCode).toBe(403);

    const { events } = await auditLog(context, admin, { subject_type: 'account', subject_id: userId });
    expect(events.map((event) => [event.action, event.changes, event.actor?.id])).toEqual([
      ['account.role_change', { role: { before: 'concierge', after: 'employee' } }, admin.id],
      ['account.role_change', { role: { before: 'employee', after: 'concierge' } }, admin.id],
    ]);
  });

  it('refuses an unknown role (422) or account (404)', async () => {
    const admin = await createPerson(context, 'admin');
    const concierge = await createPerson(context, 'concierge');
    const bad = await adminCall(context, admin, 'PATCH', `/staff/${concierge.id}`, { role: 'superuser' });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().fields)).toEqual(['role']);
    expect((await adminCall(context, admin, 'PATCH', '/staff/999999', { role: 'admin' })).statusCode).toBe(404);
  });
});

describe('deactivating an account', () => {
  it('ends every session at once, even one served from the cache, and refuses sign-in until reactivated', async () => {
    const admin = await createPerson(context, 'admin');
    const { email, authorization, userId } = await warmSession();
    const mfaToken = await enrolPhone(context, authorization, '2125550142');
    for (let read = 0; read < 2; read += 1) expect((await currentUserRequest(context, authorization, mfaToken)).statusCode).toBe(200);

    const deactivated = await accountOf(await adminCall(context, admin, 'POST', `/staff/${userId}/deactivate`));
    expect(deactivated).toMatchObject({ id: userId, active: false, deactivated_at: expect.any(String) });
    expect((await currentUserRequest(context, authorization, mfaToken)).statusCode).toBe(401);
    const rows = await context.db.select().from(sessions).where(eq(sessions.userId, userId));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.revokedAt !== null)).toBe(true);
    const devices = await context.db.select().from(mfaTokens).where(eq(mfaTokens.userId, userId));
    expect(devices.every((device) => device.revokedAt !== null)).toBe(true);

    const refused = await signInRequest(context, email);
    expect(refused.statusCode).toBe(401);
    expect(errorOf(refused)).toBe(ACCOUNT_DEACTIVATED_ERROR);
    // A wrong password says nothing about the account.
    expect(errorOf(await signInRequest(context, email, 'wrong-password'))).toBe('Invalid email or password.');

    await accountOf(await adminCall(context, admin, 'POST', `/staff/${userId}/deactivate`));
    expect(await accountOf(await adminCall(context, admin, 'POST', `/staff/${userId}/reactivate`))).toMatchObject({ active: true });
    expect((await signInRequest(context, email)).statusCode).toBe(200);
    // The ended session stays ended.
    expect((await currentUserRequest(context, authorization, mfaToken)).statusCode).toBe(401);

    const { events } = await auditLog(context, admin, { subject_type: 'account', subject_id: userId });
    expect(events.map((event) => [event.action, event.changes])).toEqual([
      ['account.reactivate', { active: { before: false, after: true } }],
      ['account.deactivate', { active: { before: true, after: false } }],
    ]);
  });

  it('ends a pending invitation and takes a deactivated concierge off the console’s assign-to list', async () => {
    const admin = await createPerson(context, 'admin');
    const email = uniqueEmail('withdrawn');
    const account = await accountOf(await invite(admin, { email }), 201);
    const link = await latestLink(context, email);
    await accountOf(await adminCall(context, admin, 'POST', `/staff/${account.id}/deactivate`));
    expect((await choosePassword(context, link)).statusCode).toBe(422);
    const assignable = staffResponse.parse(
      (await context.app.inject({ method: 'GET', url: '/api/v1/console/staff', headers: admin.headers })).json(),
    ).staff;
    expect(assignable.map((member) => member.id)).not.toContain(account.id);
    expect(assignable.map((member) => member.id)).toContain(admin.id);
  });
});

describe('the last active admin', () => {
  // A database of its own, so that the admins counted are this suite's.
  const lonely = suiteContext({ AUTH_RATE_LIMIT: '1000' });

  it('cannot demote or deactivate themselves, nor be demoted or deactivated, until another admin is active', async () => {
    const onlyAdmin = await createPerson(lonely, 'admin');
    const formerAdmin = await createPerson(lonely, 'admin');
    expect((await adminCall(lonely, onlyAdmin, 'POST', `/staff/${formerAdmin.id}/deactivate`)).statusCode).toBe(200);

    await expectRefusedAsLastAdmin(lonely, onlyAdmin, [
      ['PATCH', `/staff/${onlyAdmin.id}`, { role: 'concierge' }],
      ['PATCH', `/staff/${onlyAdmin.id}`, { role: 'employee' }],
      ['POST', `/staff/${onlyAdmin.id}/deactivate`],
    ]);
    const [row] = await lonely.db.select().from(users).where(eq(users.id, onlyAdmin.id));
    expect(row).toMatchObject({ role: 'admin', deactivatedAt: null });
    expect((await adminCall(lonely, onlyAdmin, 'GET', '/staff')).statusCode).toBe(200);

    // Two admins demoting each other at the same moment: one of them stays.
    expect((await adminCall(lonely, onlyAdmin, 'POST', `/staff/${formerAdmin.id}/reactivate`)).statusCode).toBe(200);
    const answers = await Promise.all([
      adminCall(lonely, onlyAdmin, 'PATCH', `/staff/${formerAdmin.id}`, { role: 'concierge' }),
      adminCall(lonely, formerAdmin, 'PATCH', `/staff/${onlyAdmin.id}`, { role: 'concierge' }),
    ]);
    // The other is refused: 409, or 403 when the first change had already made its caller a concierge.
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(1);
    const admins = await lonely.db.select().from(users).where(eq(users.role, 'admin'));
    expect(admins).toHaveLength(1);
  });

});

describe('the last admin who can sign in (issue 33 point 5)', () => {
  const fresh = suiteContext({ AUTH_RATE_LIMIT: '1000' });

  it('a pending admin invitation does not count: the only admin who can sign in stays one until it is accepted', async () => {
    const admin = await createPerson(fresh, 'admin');
    const inviteeEmail = uniqueEmail('invited-admin');
    const invited = await accountOf(
      await adminCall(fresh, admin, 'POST', '/staff', { first_name: 'Ina', last_name: 'Vited', role: 'admin', email: inviteeEmail }),
      201,
    );

    await expectRefusedAsLastAdmin(fresh, admin, [
      ['PATCH', `/staff/${admin.id}`, { role: 'employee' }],
      ['POST', `/staff/${admin.id}/deactivate`],
    ]);
    // The invitation itself may be changed or withdrawn: it administers nothing.
    expect((await adminCall(fresh, admin, 'PATCH', `/staff/${invited.id}`, { role: 'concierge' })).statusCode).toBe(200);
    expect((await adminCall(fresh, admin, 'PATCH', `/staff/${invited.id}`, { role: 'admin' })).statusCode).toBe(200);

    // Once the invitee has chosen a password they count, and the first admin may step down.
    const [mail] = await outboxTo(fresh, inviteeEmail);
    expect((await choosePassword(fresh, mail.links[0])).statusCode).toBe(200);
    expect((await adminCall(fresh, admin, 'PATCH', `/staff/${admin.id}`, { role: 'concierge' })).statusCode).toBe(200);
  });
});
