import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { scimTokens, scimUsers } from '../../server/db/scim.schema.ts';
import { requests, sessions, userCompanies, users } from '../../server/db/schema.ts';
import { COMPANY_DEACTIVATED_ERROR } from '../../server/domain/accounts/users.ts';
import { SCIM_FILTER_ERROR, SCIM_USERNAME_TAKEN_ERROR, scimDomainError } from '../../server/domain/scim/scimUsers.ts';
import { SCIM_UNAUTHORIZED_ERROR } from '../../server/routes/scim.routes.ts';
import { user as userSchema } from '../../src/contract/account.ts';
import { ACCESS_TURNED_OFF_ERROR } from '../../src/contract/common.constants.ts';
import {
  SCIM_SCHEMAS,
  SCIM_TOKEN_EXISTS_ERROR,
  SCIM_TOKEN_REVOKED_ERROR,
  type ScimUser,
  scimError,
  scimTokenResponse,
  scimTokensResponse,
  scimUser,
  scimUserList,
} from '../../src/contract/scim.ts';
import { adminCall, auditLog, expectAdminsOnly } from './admin.helpers.ts';
import { suiteContext } from './harness.ts';
import { currentUserRequest, errorOf, resetPasswordByLink, signInRequest, signedIn, uniqueEmail } from './helpers.ts';
import { createPerson, createRequest } from './requests.helpers.ts';
import { companyWithScimToken, scimCall } from './scim.helpers.ts';

const context = suiteContext({ AUTH_RATE_LIMIT: '1000' });

/** The body Okta sends to create a user (its SCIM 2.0 app, "Push new users"). */
function oktaUser(email: string, externalId: string) {
  return {
    schemas: [SCIM_SCHEMAS.user],
    userName: email,
    name: { givenName: 'Olive', familyName: 'Okta' },
    emails: [{ primary: true, value: email, type: 'work' }],
    displayName: 'Olive Okta',
    locale: 'en-US',
    externalId,
    groups: [],
    password: 'xK4!not-kept-by-us',
    active: true,
  };
}

/** The body Entra ID's provisioning service sends to create a user, with the enterprise extension. */
function entraUser(email: string, externalId: string) {
  return {
    schemas: [SCIM_SCHEMAS.user, SCIM_SCHEMAS.enterpriseUser],
    externalId,
    userName: email,
    active: true,
    addresses: [{ primary: false, type: 'work', country: 'US' }],
    displayName: 'Ed Entra',
    emails: [{ primary: true, type: 'work', value: email }],
    meta: { resourceType: 'User' },
    name: { formatted: 'Ed Entra', familyName: 'Entra', givenName: 'Ed' },
    title: 'Analyst',
    [SCIM_SCHEMAS.enterpriseUser]: { department: 'Finance', manager: { value: 'abc' } },
  };
}

const patchOf = (...Operations: object[]) => ({ schemas: [SCIM_SCHEMAS.patchOp], Operations });

function expectScimError(response: { statusCode: number; headers: Record<string, unknown>; json: () => unknown }, status: number, scimType?: string) {
  expect(response.statusCode).toBe(status);
  expect(String(response.headers['content-type'])).toMatch(/^application\/scim\+json/);
  const body = scimError.parse(response.json());
  expect(body).toMatchObject({ schemas: [SCIM_SCHEMAS.error], status: String(status) });
  expect(body.scimType).toBe(scimType);
  return body;
}

async function created(token: string, body: object): Promise<ScimUser> {
  const response = await scimCall(context, token, 'POST', '/Users', body);
  expect(response.statusCode, response.body).toBe(201);
  expect(String(response.headers['content-type'])).toMatch(/^application\/scim\+json/);
  const user = scimUser.parse(response.json());
  expect(response.headers.etag).toBe(user.meta.version);
  expect(response.headers.location).toBe(user.meta.location);
  return user;
}

async function userIdOf(email: string) {
  const [row] = await context.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return row.id;
}

/** An employee of the company, signed in, as one who signed up before the directory was connected. */
async function signedInMember(companyId: number, domain: string) {
  const email = uniqueEmail('member', domain);
  await context.db.insert(users).values({ email, passwordHash: 'unused', firstName: 'Mia', lastName: 'Member' });
  const userId = await userIdOf(email);
  await context.db.insert(userCompanies).values({ userId, companyId });
  await resetPasswordByLinkFor(email);
  return { email, userId, authorization: await signedIn(context, email) };
}

async function resetPasswordByLinkFor(email: string) {
  const forgot = await context.app.inject({ method: 'POST', url: '/api/v1/users/password', payload: { user: { email } } });
  expect(forgot.statusCode, forgot.body).toBeLessThan(300);
  await resetPasswordByLink(context, email, 'correct horse battery');
}

describe('SCIM tokens in the admin area', () => {
  it('are for admins only', async () => {
    const employee = await createPerson(context);
    const concierge = await createPerson(context, 'concierge');
    await expectAdminsOnly(context, { employee, concierge }, [
      ['GET', '/scim_tokens'],
      ['POST', '/scim_tokens', { company_id: 1 }],
      ['POST', '/scim_tokens/1/rotate'],
      ['POST', '/scim_tokens/1/revoke'],
    ]);
  });

  it('shows a token once, lists its prefix and use, rotates and revokes it, and audits each step', async () => {
    const admin = await createPerson(context, 'admin');
    const { company, token } = await companyWithScimToken(context, admin);
    expect(token.token!.startsWith(token.prefix)).toBe(true);
    expect(token).toMatchObject({ company_id: company.id, company_name: company.name, last_used_at: null, revoked_at: null });

    const second = await adminCall(context, admin, 'POST', '/scim_tokens', { company_id: company.id });
    expect(second.statusCode).toBe(409);
    expect(errorOf(second)).toBe(SCIM_TOKEN_EXISTS_ERROR);
    expect((await adminCall(context, admin, 'POST', '/scim_tokens', { company_id: 2_000_000_000 })).statusCode).toBe(404);
    expect((await adminCall(context, admin, 'POST', '/scim_tokens', {})).statusCode).toBe(422);

    expect((await scimCall(context, token.token!, 'GET', '/Users')).statusCode).toBe(200);
    const listed = scimTokensResponse.parse((await adminCall(context, admin, 'GET', '/scim_tokens')).json()).scim_tokens;
    const mine = listed.find((entry) => entry.id === token.id)!;
    expect(mine).not.toHaveProperty('token');
    expect(mine.last_used_at).toEqual(expect.any(String));
    const [stored] = await context.db.select().from(scimTokens).where(eq(scimTokens.id, token.id));
    expect(stored.tokenDigest).not.toContain(token.token!);

    const rotated = scimTokenResponse.parse((await adminCall(context, admin, 'POST', `/scim_tokens/${token.id}/rotate`)).json()).scim_token;
    expect(rotated.token).toEqual(expect.any(String));
    expect(rotated.token).not.toBe(token.token);
    expect(rotated.rotated_at).toEqual(expect.any(String));
    expectScimError(await scimCall(context, token.token!, 'GET', '/Users'), 401);
    expect((await scimCall(context, rotated.token!, 'GET', '/Users')).statusCode).toBe(200);

    const revoked = scimTokenResponse.parse((await adminCall(context, admin, 'POST', `/scim_tokens/${token.id}/revoke`)).json()).scim_token;
    expect(revoked.revoked_at).toEqual(expect.any(String));
    expect(revoked).not.toHaveProperty('token');
    expectScimError(await scimCall(context, rotated.token!, 'GET', '/Users'), 401);
    const rotateRevoked = await adminCall(context, admin, 'POST', `/scim_tokens/${token.id}/rotate`);
    expect(rotateRevoked.statusCode).toBe(409);
    expect(errorOf(rotateRevoked)).toBe(SCIM_TOKEN_REVOKED_ERROR);
    // Revoked, the company may have a new one.
    expect((await adminCall(context, admin, 'POST', '/scim_tokens', { company_id: company.id })).statusCode).toBe(201);

    const { events } = await auditLog(context, admin, { subject_type: 'scim_token', subject_id: token.id });
    expect(events.map((event) => event.action)).toEqual(['scim_token.revoke', 'scim_token.rotate', 'scim_token.create']);
    expect(JSON.stringify(events)).not.toContain(rotated.token);
  });
});

describe('SCIM authentication and isolation', () => {
  it('refuses a call without a valid token with a SCIM 401', async () => {
    for (const token of [null, 'lcscim_not-a-token', '']) {
      const body = expectScimError(await scimCall(context, token, 'GET', '/Users'), 401);
      expect(body.detail).toBe(SCIM_UNAUTHORIZED_ERROR);
    }
    // A session token of the app is no SCIM token, whoever holds it.
    for (const role of ['employee', 'concierge', 'admin'] as const) {
      const person = await createPerson(context, role);
      expectScimError(await scimCall(context, person.headers.authorization.replace('Bearer ', ''), 'GET', '/Users'), 401);
    }
  });

  it('reaches its own company only: another company’s member is a 404 to every call and never listed', async () => {
    const admin = await createPerson(context, 'admin');
    const first = await companyWithScimToken(context, admin, 'first');
    const second = await companyWithScimToken(context, admin, 'second');
    const theirs = await created(second.token.token!, oktaUser(uniqueEmail('theirs', second.domain), 'okta-theirs'));

    for (const [method, body] of [['GET'], ['PUT', oktaUser(theirs.userName, 'x')], ['PATCH', patchOf({ op: 'replace', value: { active: false } })], ['DELETE']] as const) {
      expectScimError(await scimCall(context, first.token.token!, method, `/Users/${theirs.id}`, body), 404);
    }
    const filtered = scimUserList.parse((await scimCall(context, first.token.token!, 'GET', `/Users?filter=${encodeURIComponent(`userName eq "${theirs.userName}"`)}`)).json());
    expect(filtered.totalResults).toBe(0);
    // Nor can one company's directory create an address at another's domain.
    const body = expectScimError(await scimCall(context, first.token.token!, 'POST', '/Users', oktaUser(uniqueEmail('grab', second.domain), 'grab')), 400, 'invalidValue');
    expect(body.detail).toBe(scimDomainError([first.domain]));
    // The member is untouched and still active for their own company.
    expect(scimUser.parse((await scimCall(context, second.token.token!, 'GET', `/Users/${theirs.id}`)).json()).active).toBe(true);
  });
});

describe('discovery', () => {
  it('answers ServiceProviderConfig, ResourceTypes and Schemas', async () => {
    const admin = await createPerson(context, 'admin');
    const { token } = await companyWithScimToken(context, admin);
    const config = await scimCall(context, token.token!, 'GET', '/ServiceProviderConfig');
    expect(config.statusCode).toBe(200);
    expect(String(config.headers['content-type'])).toMatch(/^application\/scim\+json/);
    expect(config.json()).toMatchObject({ schemas: [SCIM_SCHEMAS.serviceProviderConfig], patch: { supported: true }, filter: { supported: true }, bulk: { supported: false } });
    expect((await scimCall(context, token.token!, 'GET', '/ResourceTypes')).json()).toMatchObject({ totalResults: 1, Resources: [{ id: 'User', endpoint: '/Users' }] });
    expect((await scimCall(context, token.token!, 'GET', '/Schemas')).json()).toMatchObject({ Resources: [{ id: SCIM_SCHEMAS.user }] });
    expectScimError(await scimCall(context, token.token!, 'GET', '/Groups'), 404);
  });
});

describe('Okta', () => {
  it('looks up, creates, reads, replaces and deactivates a user the way Okta sends it', async () => {
    const admin = await createPerson(context, 'admin');
    const { token, domain, company } = await companyWithScimToken(context, admin, 'okta');
    const email = uniqueEmail('Olive.Okta', domain).replace('olive', 'Olive');

    // Okta asks first whether the user exists.
    const lookup = await scimCall(context, token.token!, 'GET', `/Users?filter=${encodeURIComponent(`userName eq "${email}"`)}&startIndex=1&count=100`);
    expect(lookup.statusCode).toBe(200);
    expect(scimUserList.parse(lookup.json())).toMatchObject({ totalResults: 0, startIndex: 1, itemsPerPage: 0, Resources: [] });

    const user = await created(token.token!, oktaUser(email, '00u1abcd'));
    expect(user).toMatchObject({ userName: email, externalId: '00u1abcd', active: true, name: { givenName: 'Olive', familyName: 'Okta' }, emails: [{ value: email.toLowerCase(), primary: true }] });
    const [account] = await context.db.select().from(users).where(eq(users.email, email.toLowerCase()));
    expect(account).toMatchObject({ firstName: 'Olive', lastName: 'Okta', role: 'employee', awaitingPassword: true });
    expect(account.passwordHash).not.toContain('xK4');

    // userName is not case-exact; the same user again is a uniqueness conflict.
    const found = scimUserList.parse((await scimCall(context, token.token!, 'GET', `/Users?filter=${encodeURIComponent(`userName eq "${email.toUpperCase()}"`)}`)).json());
    expect(found.Resources.map((entry) => entry.id)).toEqual([user.id]);
    expect(expectScimError(await scimCall(context, token.token!, 'POST', '/Users', oktaUser(email, 'other')), 409, 'uniqueness').detail).toBe(SCIM_USERNAME_TAKEN_ERROR);

    const put = await scimCall(context, token.token!, 'PUT', `/Users/${user.id}`, { ...oktaUser(email, '00u1abcd'), name: { givenName: 'Olivia', familyName: 'Okta' } });
    expect(put.statusCode, put.body).toBe(200);
    const replaced = scimUser.parse(put.json());
    expect(replaced.name.givenName).toBe('Olivia');
    expect(replaced.meta.version).not.toBe(user.meta.version);

    const deactivated = await scimCall(context, token.token!, 'PATCH', `/Users/${user.id}`, patchOf({ op: 'replace', value: { active: false } }));
    expect(deactivated.statusCode, deactivated.body).toBe(200);
    expect(scimUser.parse(deactivated.json()).active).toBe(false);
    const [membership] = await context.db.select().from(userCompanies).where(and(eq(userCompanies.userId, account.id), eq(userCompanies.companyId, company.id)));
    expect(membership.suspendedAt).not.toBeNull();

    const reactivated = await scimCall(context, token.token!, 'PATCH', `/Users/${user.id}`, patchOf({ op: 'replace', value: { active: true } }));
    expect(scimUser.parse(reactivated.json()).active).toBe(true);
  });
});

describe('Entra ID', () => {
  it('creates, filters by externalId, patches with Entra’s shapes and deletes', async () => {
    const admin = await createPerson(context, 'admin');
    const { token, domain } = await companyWithScimToken(context, admin, 'entra');
    const email = uniqueEmail('ed', domain);
    // Entra's validator asks for a user that does not exist first.
    expect(scimUserList.parse((await scimCall(context, token.token!, 'GET', `/Users?filter=${encodeURIComponent('userName eq "nobody@nowhere.test"')}`)).json()).totalResults).toBe(0);

    const user = await created(token.token!, entraUser(email, 'e-0a21f0f2'));
    expect(user).toMatchObject({ externalId: 'e-0a21f0f2', displayName: 'Ed Entra', active: true });
    const byExternalId = scimUserList.parse((await scimCall(context, token.token!, 'GET', `/Users?filter=${encodeURIComponent('externalId eq "e-0a21f0f2"')}`)).json());
    expect(byExternalId.Resources.map((entry) => entry.id)).toEqual([user.id]);

    const patched = await scimCall(
      context,
      token.token!,
      'PATCH',
      `/Users/${user.id}`,
      patchOf(
        { op: 'Replace', path: 'name.givenName', value: 'Edward' },
        { op: 'Add', path: 'displayName', value: 'Edward Entra' },
        { op: 'Add', path: `${SCIM_SCHEMAS.enterpriseUser}:department`, value: 'Audit' },
        { op: 'Replace', path: 'emails[type eq "work"].value', value: email },
      ),
    );
    expect(patched.statusCode, patched.body).toBe(200);
    expect(scimUser.parse(patched.json()).name.givenName).toBe('Edward');

    const off = await scimCall(context, token.token!, 'PATCH', `/Users/${user.id}`, patchOf({ op: 'Replace', path: 'active', value: 'False' }));
    expect(off.statusCode, off.body).toBe(200);
    expect(scimUser.parse(off.json()).active).toBe(false);
    const on = await scimCall(context, token.token!, 'PATCH', `/Users/${user.id}`, patchOf({ op: 'Replace', path: 'active', value: 'True' }));
    expect(scimUser.parse(on.json()).active).toBe(true);
    expectScimError(await scimCall(context, token.token!, 'PATCH', `/Users/${user.id}`, patchOf({ op: 'Replace', path: 'active', value: 'maybe' })), 400, 'invalidValue');

    const deleted = await scimCall(context, token.token!, 'DELETE', `/Users/${user.id}`);
    expect(deleted.statusCode, deleted.body).toBe(204);
    expectScimError(await scimCall(context, token.token!, 'GET', `/Users/${user.id}`), 404);
    expectScimError(await scimCall(context, token.token!, 'DELETE', `/Users/${user.id}`), 404);
    // The account stays, turned off; creating it again brings the member back.
    const userId = await userIdOf(email);
    const [row] = await context.db.select().from(scimUsers).where(eq(scimUsers.userId, userId));
    expect(row.deletedAt).not.toBeNull();
    const again = await created(token.token!, entraUser(email, 'e-0a21f0f2'));
    expect(again).toMatchObject({ id: user.id, active: true });
  });
});

describe('pagination and errors', () => {
  it('pages with startIndex and count', async () => {
    const admin = await createPerson(context, 'admin');
    const { token, domain } = await companyWithScimToken(context, admin, 'pages');
    const made = [];
    for (let index = 0; index < 5; index += 1) made.push(await created(token.token!, oktaUser(uniqueEmail(`p${index}`, domain), `ext-${index}`)));
    const page = async (query: string) => scimUserList.parse((await scimCall(context, token.token!, 'GET', `/Users?${query}`)).json());
    expect(await page('startIndex=1&count=2')).toMatchObject({ totalResults: 5, startIndex: 1, itemsPerPage: 2 });
    expect((await page('startIndex=1&count=2')).Resources.map((user) => user.id)).toEqual([made[0].id, made[1].id]);
    expect((await page('startIndex=5&count=2')).Resources.map((user) => user.id)).toEqual([made[4].id]);
    expect(await page('startIndex=9&count=2')).toMatchObject({ totalResults: 5, itemsPerPage: 0, Resources: [] });
    expect(await page('count=0')).toMatchObject({ totalResults: 5, itemsPerPage: 0 });
    // Below 1 counts as 1 (RFC 7644 §3.4.2.4).
    expect(await page('startIndex=-3&count=1')).toMatchObject({ startIndex: 1, itemsPerPage: 1 });
  });

  it('answers SCIM error bodies with scimType', async () => {
    const admin = await createPerson(context, 'admin');
    const { token, domain } = await companyWithScimToken(context, admin, 'errors');
    const filter = expectScimError(await scimCall(context, token.token!, 'GET', `/Users?filter=${encodeURIComponent('name.familyName co "x"')}`), 400, 'invalidFilter');
    expect(filter.detail).toBe(SCIM_FILTER_ERROR);
    expectScimError(await scimCall(context, token.token!, 'POST', '/Users', { schemas: [SCIM_SCHEMAS.user] }), 400, 'invalidValue');
    expectScimError(await scimCall(context, token.token!, 'POST', '/Users', { userName: 'not an address' }), 400, 'invalidValue');
    const malformed = await context.app.inject({
      method: 'POST',
      url: '/scim/v2/Users',
      headers: { authorization: `Bearer ${token.token!}`, 'content-type': 'application/scim+json' },
      payload: '{"userName":',
    });
    expectScimError(malformed, 400, 'invalidSyntax');
    expectScimError(await scimCall(context, token.token!, 'GET', '/Users/not-a-uuid'), 404);
    expectScimError(await scimCall(context, token.token!, 'GET', '/Users/00000000-0000-4000-8000-000000000000'), 404);
    const user = await created(token.token!, oktaUser(uniqueEmail('err', domain), 'err-1'));
    const other = await created(token.token!, oktaUser(uniqueEmail('err', domain), 'err-2'));
    expectScimError(await scimCall(context, token.token!, 'PATCH', `/Users/${user.id}`, patchOf({ op: 'remove' })), 400, 'noTarget');
    expectScimError(await scimCall(context, token.token!, 'PATCH', `/Users/${user.id}`, { Operations: [] }), 400, 'invalidValue');
    expectScimError(await scimCall(context, token.token!, 'PUT', `/Users/${user.id}`, oktaUser(other.userName, 'err-1')), 409, 'uniqueness');
    expectScimError(await scimCall(context, token.token!, 'PUT', `/Users/${user.id}`, oktaUser(user.userName, 'err-2')), 409, 'uniqueness');
    // A staff address is no directory's to manage.
    const concierge = await createPerson(context, 'concierge');
    const staffAtDomain = `${concierge.email.split('@')[0]}@${domain}`;
    await context.db.update(users).set({ email: staffAtDomain }).where(eq(users.id, concierge.id));
    expectScimError(await scimCall(context, token.token!, 'POST', '/Users', oktaUser(staffAtDomain, 'staff')), 409, 'uniqueness');
  });
});

describe('deactivation through the directory', () => {
  it('ends the sessions at once, tells the employee why, keeps their requests, and reactivation restores access', async () => {
    const admin = await createPerson(context, 'admin');
    const { token, domain, company } = await companyWithScimToken(context, admin, 'offboard');
    const member = await signedInMember(company.id, domain);
    const requestId = await createRequest(context, { id: member.userId, email: member.email, firstName: 'Mia', lastName: 'Member', headers: { authorization: member.authorization } });
    const current = await currentUserRequest(context, member.authorization);
    expect(userSchema.parse(current.json().user).companies.map((entry) => entry.id)).toEqual([company.id]);

    // Okta links the member who signed up before: found by userName, then deactivated.
    const [existing] = scimUserList.parse((await scimCall(context, token.token!, 'GET', `/Users?filter=${encodeURIComponent(`userName eq "${member.email}"`)}`)).json()).Resources;
    expect(existing.active).toBe(true);
    const off = await scimCall(context, token.token!, 'PATCH', `/Users/${existing.id}`, patchOf({ op: 'replace', value: { active: false } }));
    expect(off.statusCode, off.body).toBe(200);

    const refused = await currentUserRequest(context, member.authorization);
    expect(refused.statusCode).toBe(401);
    expect(errorOf(refused)).toBe(ACCESS_TURNED_OFF_ERROR);
    const live = await context.db.select().from(sessions).where(eq(sessions.userId, member.userId));
    expect(live.every((session) => session.revokedAt !== null)).toBe(true);
    const signIn = await signInRequest(context, member.email);
    expect(signIn.statusCode).toBe(401);
    expect(errorOf(signIn)).toBe(ACCESS_TURNED_OFF_ERROR);
    // The request stays, and the concierge team still sees it.
    expect(await context.db.select({ id: requests.id }).from(requests).where(eq(requests.id, requestId))).toHaveLength(1);
    const concierge = await createPerson(context, 'concierge');
    expect((await context.app.inject({ method: 'GET', url: `/api/v1/console/requests/${requestId}`, headers: concierge.headers })).statusCode).toBe(200);

    const on = await scimCall(context, token.token!, 'PATCH', `/Users/${existing.id}`, patchOf({ op: 'Replace', path: 'active', value: 'True' }));
    expect(on.statusCode, on.body).toBe(200);
    const again = await signedIn(context, member.email);
    const restored = await currentUserRequest(context, again);
    expect(userSchema.parse(restored.json().user).companies.map((entry) => entry.id)).toEqual([company.id]);
  });

  it('keeps a member of another company signed in, without the turned-off company’s benefits', async () => {
    const admin = await createPerson(context, 'admin');
    const { token, domain, company } = await companyWithScimToken(context, admin, 'two');
    const other = await companyWithScimToken(context, admin, 'other');
    const member = await signedInMember(company.id, domain);
    await context.db.insert(userCompanies).values({ userId: member.userId, companyId: other.company.id });
    const [resource] = scimUserList.parse((await scimCall(context, token.token!, 'GET', `/Users?filter=${encodeURIComponent(`userName eq "${member.email}"`)}`)).json()).Resources;
    expect((await scimCall(context, token.token!, 'DELETE', `/Users/${resource.id}`)).statusCode).toBe(204);
    const current = await currentUserRequest(context, member.authorization);
    expect(current.statusCode).toBe(200);
    expect(userSchema.parse(current.json().user).companies.map((entry) => entry.id)).toEqual([other.company.id]);
  });

  it('a company deactivated by our admins still says so, not the directory’s words', async () => {
    const admin = await createPerson(context, 'admin');
    const { company, domain } = await companyWithScimToken(context, admin, 'ended');
    const member = await signedInMember(company.id, domain);
    expect((await adminCall(context, admin, 'POST', `/companies/${company.id}/deactivate`)).statusCode).toBe(200);
    expect(errorOf(await signInRequest(context, member.email))).toBe(COMPANY_DEACTIVATED_ERROR);
  });
});
