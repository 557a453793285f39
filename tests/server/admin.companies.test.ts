import { count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditEvents, companies, sessions, userCompanies, users } from '../../server/db/schema.ts';
import {
  CONCURRENT_CLASH_ERROR,
  LOGO_UPLOAD_ERROR,
  closedCompanyError,
  domainTakenError,
  slugTakenError,
} from '../../server/domain/admin/companies.ts';
import { COMPANY_DEACTIVATED_ERROR } from '../../server/domain/accounts/users.ts';
import { user as userSchema } from '../../src/contract/account.ts';
import {
  type AdminCompany,
  COMPANY_SLUG_ERROR,
  type CreateCompanyRequest,
  EMAIL_DOMAIN_ERROR,
  adminCompaniesResponse,
  adminCompanyResponse,
} from '../../src/contract/admin.ts';
import { adminCall, auditLog, expectAdminsOnly } from './admin.helpers.ts';
import { suiteContext } from './harness.ts';
import {
  companyDomain,
  currentUserRequest,
  errorOf,
  registerUser,
  signInRequest,
  signUpRequest,
  signedIn,
  uniqueEmail,
} from './helpers.ts';
import { PDF, type Person, createPerson, uploadFile } from './requests.helpers.ts';

const context = suiteContext({ AUTH_RATE_LIMIT: '1000' });

let slugCounter = 0;
/** A slug no other test uses; its company admits companyDomain(slug). */
function freshSlug(prefix = 'co'): string {
  slugCounter += 1;
  return `${prefix}-${slugCounter}-${Date.now().toString(36)}`;
}

async function createAsAdmin(admin: Person, company: Partial<CreateCompanyRequest> = {}): Promise<AdminCompany> {
  const slug = company.slug ?? freshSlug();
  const response = await adminCall(context, admin, 'POST', '/companies', {
    name: `Company ${slug}`,
    slug,
    email_domains: [companyDomain(slug)],
    ...company,
  });
  expect(response.statusCode, response.body).toBe(201);
  return adminCompanyResponse.parse(response.json()).company;
}

async function patchAsAdmin(admin: Person, companyId: number, changes: object): Promise<AdminCompany> {
  const response = await adminCall(context, admin, 'PATCH', `/companies/${companyId}`, changes);
  expect(response.statusCode, response.body).toBe(200);
  return adminCompanyResponse.parse(response.json()).company;
}

async function currentUserOf(authorization: string) {
  const response = await currentUserRequest(context, authorization);
  expect(response.statusCode, response.body).toBe(200);
  return userSchema.parse((response.json() as { user: unknown }).user);
}

async function auditRowCount() {
  const [{ rows }] = await context.db.select({ rows: count() }).from(auditEvents);
  return rows;
}

async function companyRowCount() {
  const [{ rows }] = await context.db.select({ rows: count() }).from(companies);
  return rows;
}

describe('who may manage companies', () => {
  it('refuses every company route to a visitor (401), an employee and a concierge (403), and serves an admin', async () => {
    const admin = await createPerson(context, 'admin');
    const outsiders = { employee: await createPerson(context, 'employee'), concierge: await createPerson(context, 'concierge') };
    const company = await createAsAdmin(admin);
    const auditRowsBefore = await auditRowCount();
    await expectAdminsOnly(context, outsiders, [
      ['GET', '/companies'],
      ['GET', `/companies/${company.id}`],
      ['POST', '/companies', { name: 'Sneaky', slug: freshSlug('sneaky') }],
      ['PATCH', `/companies/${company.id}`, { name: 'Renamed by an outsider' }],
      ['POST', `/companies/${company.id}/deactivate`],
      ['POST', `/companies/${company.id}/reactivate`],
      ['GET', '/audit'],
      // A malformed call tells an outsider nothing but "not for you".
      ['POST', '/companies', { slug: 'Not A Slug' }],
    ]);
    expect((await adminCall(context, admin, 'GET', `/companies/${company.id}`)).json()).toEqual({ company });
    expect(await auditRowCount()).toBe(auditRowsBefore);

    for (const [method, path] of [['GET', '/companies'], ['GET', `/companies/${company.id}`], ['GET', '/audit']] as const) {
      expect((await adminCall(context, admin, method, path)).statusCode, path).toBe(200);
    }
  });

  it('answers 404 for a company that does not exist', async () => {
    const admin = await createPerson(context, 'admin');
    for (const [method, path, payload] of [
      ['GET', '/companies/999999'],
      ['PATCH', '/companies/999999', { name: 'Nobody' }],
      ['POST', '/companies/999999/deactivate'],
    ] as const) {
      const response = await adminCall(context, admin, method, path, payload);
      expect(response.statusCode, path).toBe(404);
      expect(errorOf(response)).toBe('Company not found');
    }
  });
});

describe('creating and editing a company', () => {
  it('creates a company with its settings, lists it with its employee count, and audits who made it', async () => {
    const admin = await createPerson(context, 'admin');
    const slug = freshSlug('umbrella');
    const response = await adminCall(context, admin, 'POST', '/companies', {
      name: '  Umbrella Corp  ',
      slug,
      mfa_policy: 'required',
      email_domains: [' Umbrella.TEST ', 'mail.umbrella.test'],
      internal_staff: false,
    });
    expect(response.statusCode, response.body).toBe(201);
    const company = adminCompanyResponse.parse(response.json()).company;
    expect(company).toMatchObject({
      name: 'Umbrella Corp',
      slug,
      mfa_policy: 'required',
      email_domains: ['mail.umbrella.test', 'umbrella.test'],
      internal_staff: false,
      active: true,
      deactivated_at: null,
      image_url: null,
      logo_upload_key: null,
      employee_count: 0,
    });

    // Sign-ups at its domain join it; the list counts them.
    await registerUser(context, { email: uniqueEmail('staffer', 'umbrella.test'), company_slug: slug });
    const listed = adminCompaniesResponse.parse((await adminCall(context, admin, 'GET', '/companies')).json()).companies;
    expect(listed.find((row) => row.id === company.id)).toMatchObject({ slug, employee_count: 1 });

    const { events } = await auditLog(context, admin, { subject_type: 'company', subject_id: company.id });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      action: 'company.create',
      actor: { id: admin.id, email: admin.email },
      subject_type: 'company',
      subject_id: company.id,
      changes: {
        name: { before: null, after: 'Umbrella Corp' },
        slug: { before: null, after: slug },
        mfa_policy: { before: null, after: 'required' },
        email_domains: { before: null, after: ['mail.umbrella.test', 'umbrella.test'] },
        internal_staff: { before: null, after: false },
        logo_upload_key: { before: null, after: null },
      },
    });
    expect(Date.now() - new Date(events[0].at).getTime()).toBeLessThan(60_000);
  });

  it('changes only the fields given, audits only what changed, and audits nothing for a change to nothing', async () => {
    const admin = await createPerson(context, 'admin');
    const company = await createAsAdmin(admin, { mfa_policy: 'off' });
    const newDomain = companyDomain(freshSlug('extra'));
    const updated = await patchAsAdmin(admin, company.id, {
      name: 'Renamed Inc',
      mfa_policy: 'optional',
      email_domains: [...company.email_domains, newDomain],
    });
    expect(updated).toMatchObject({ name: 'Renamed Inc', slug: company.slug, mfa_policy: 'optional' });
    expect(updated.email_domains).toEqual([...company.email_domains, newDomain].sort());

    await patchAsAdmin(admin, company.id, { name: 'Renamed Inc', slug: company.slug });
    await patchAsAdmin(admin, company.id, {});
    const { events } = await auditLog(context, admin, { subject_type: 'company', subject_id: company.id });
    expect(events.map((event) => event.action)).toEqual(['company.update', 'company.create']);
    expect(events[0].changes).toEqual({
      name: { before: company.name, after: 'Renamed Inc' },
      mfa_policy: { before: 'off', after: 'optional' },
      email_domains: { before: company.email_domains, after: updated.email_domains },
    });
  });

  it('shows the company as it is set here in the app’s “Brought to you by” and staff flag', async () => {
    const admin = await createPerson(context, 'admin');
    const company = await createAsAdmin(admin, { name: 'Before Rename' });
    const authorization = await signedIn(context, await registerUser(context, { company_slug: company.slug }));
    expect(await currentUserOf(authorization)).toMatchObject({ companies: [{ id: company.id, name: 'Before Rename' }], internal_user: false });

    await patchAsAdmin(admin, company.id, { name: 'After Rename', internal_staff: true });
    expect(await currentUserOf(authorization)).toMatchObject({ companies: [{ id: company.id, name: 'After Rename' }], internal_user: true });
  });
});

describe('bad input', () => {
  it('refuses a malformed slug, domain, policy or name with a 422 naming each field, and saves nothing', async () => {
    const admin = await createPerson(context, 'admin');
    const companiesBefore = await companyRowCount();
    const auditRowsBefore = await auditRowCount();
    const cases: Array<[payload: object, fields: Record<string, string>]> = [
      [{ name: 'X', slug: 'Has Capitals' }, { slug: COMPANY_SLUG_ERROR }],
      [{ name: 'X', slug: '-leading-hyphen' }, { slug: COMPANY_SLUG_ERROR }],
      [{ name: 'X', slug: 'double--hyphen' }, { slug: COMPANY_SLUG_ERROR }],
      [{ name: 'X', slug: 'under_score' }, { slug: COMPANY_SLUG_ERROR }],
      [{ name: 'X', slug: freshSlug(), email_domains: ['@acme.test'] }, { 'email_domains.0': EMAIL_DOMAIN_ERROR }],
      [{ name: 'X', slug: freshSlug(), email_domains: ['ok.test', 'localhost'] }, { 'email_domains.1': EMAIL_DOMAIN_ERROR }],
      [{ name: 'X', slug: freshSlug(), email_domains: ['acme..test'] }, { 'email_domains.0': EMAIL_DOMAIN_ERROR }],
      [{ name: 'X', slug: freshSlug(), email_domains: ['a.test', 'A.test'] }, { email_domains: 'List each domain once' }],
      [{ name: '   ', slug: freshSlug() }, { name: 'Please enter the company name' }],
    ];
    for (const [payload, fields] of cases) {
      const response = await adminCall(context, admin, 'POST', '/companies', payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(422);
      expect(response.json().fields, JSON.stringify(payload)).toEqual(fields);
    }
    const badPolicy = await adminCall(context, admin, 'POST', '/companies', { name: 'X', slug: freshSlug(), mfa_policy: 'always' });
    expect(badPolicy.statusCode).toBe(422);
    expect(Object.keys(badPolicy.json().fields)).toEqual(['mfa_policy']);
    expect(await companyRowCount()).toBe(companiesBefore);
    expect(await auditRowCount()).toBe(auditRowsBefore);
  });

  it('refuses a slug or a domain of another company with a 409 naming the field and the company, and saves nothing', async () => {
    const admin = await createPerson(context, 'admin');
    const first = await createAsAdmin(admin, { name: 'First Owner' });
    const second = await createAsAdmin(admin, { name: 'Second Owner' });
    const companiesBefore = await companyRowCount();
    const auditRowsBefore = await auditRowCount();

    const slugClash = await adminCall(context, admin, 'POST', '/companies', { name: 'Copycat', slug: first.slug });
    expect(slugClash.statusCode).toBe(409);
    expect(slugClash.json()).toEqual({
      error: slugTakenError(first.slug, 'First Owner'),
      fields: { slug: slugTakenError(first.slug, 'First Owner') },
    });

    const taken = first.email_domains[0];
    const domainClash = await adminCall(context, admin, 'POST', '/companies', {
      name: 'Copycat',
      slug: freshSlug(),
      email_domains: ['free.test', taken.toUpperCase()],
    });
    expect(domainClash.statusCode).toBe(409);
    expect(domainClash.json()).toEqual({
      error: domainTakenError(taken, 'First Owner'),
      fields: { 'email_domains.1': domainTakenError(taken, 'First Owner') },
    });
    expect(await companyRowCount()).toBe(companiesBefore);

    // An edit that clashes is refused whole: the name given with it is not saved either.
    const editClash = await adminCall(context, admin, 'PATCH', `/companies/${second.id}`, {
      name: 'Half Saved?',
      email_domains: [taken],
    });
    expect(editClash.statusCode).toBe(409);
    expect(editClash.json().fields).toEqual({ 'email_domains.0': domainTakenError(taken, 'First Owner') });
    const slugEdit = await adminCall(context, admin, 'PATCH', `/companies/${second.id}`, { name: 'Half Saved?', slug: first.slug });
    expect(slugEdit.statusCode).toBe(409);
    expect((await adminCall(context, admin, 'GET', `/companies/${second.id}`)).json()).toEqual({ company: second });
    expect(await auditRowCount()).toBe(auditRowsBefore);

    // A company keeps its own slug and domains when they are sent back unchanged.
    await patchAsAdmin(admin, second.id, { slug: second.slug, email_domains: second.email_domains });
  });

  it('answers two companies taking one slug at the same moment with one 201 and one 409', async () => {
    const admin = await createPerson(context, 'admin');
    const slug = freshSlug('race');
    const answers = await Promise.all(
      [1, 2].map(() => adminCall(context, admin, 'POST', '/companies', { name: 'Racer', slug })),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409]);
    const refused = answers.find((answer) => answer.statusCode === 409)!;
    expect([slugTakenError(slug, 'Racer'), CONCURRENT_CLASH_ERROR]).toContain(errorOf(refused));
    expect(await context.db.select().from(companies).where(eq(companies.slug, slug))).toHaveLength(1);
  });
});

describe('logos', () => {
  it('takes an image the admin uploaded, shows it at a public address, and refuses anything else', async () => {
    const admin = await createPerson(context, 'admin');
    const company = await createAsAdmin(admin);
    const key = await uploadFile(context, admin, { filename: 'logo.png' });
    const updated = await patchAsAdmin(admin, company.id, { logo_upload_key: key });
    expect(updated).toMatchObject({ logo_upload_key: key, image_url: `/api/v1/company_logos/${key}` });

    // The address works without a session (an <img> sends none) and leads to the stored image.
    const logo = await context.app.inject({ method: 'GET', url: updated.image_url! });
    expect(logo.statusCode).toBe(302);
    const file = await context.app.inject({ method: 'GET', url: String(logo.headers.location) });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    // An upload that is no company's logo is not served there.
    const other = await uploadFile(context, admin, { filename: 'other.png' });
    expect((await context.app.inject({ method: 'GET', url: `/api/v1/company_logos/${other}` })).statusCode).toBe(404);

    const someoneElse = await createPerson(context, 'admin');
    const refusedKeys = [
      await uploadFile(context, admin, { filename: 'logo.pdf', bytes: PDF }),
      await uploadFile(context, someoneElse, { filename: 'theirs.png' }),
      await uploadFile(context, admin, { filename: 'never-sent.png', store: false }),
      'no-such-key',
    ];
    for (const refusedKey of refusedKeys) {
      const response = await adminCall(context, admin, 'PATCH', `/companies/${company.id}`, { name: 'Not saved', logo_upload_key: refusedKey });
      expect(response.statusCode, refusedKey).toBe(422);
      expect(response.json()).toEqual({ error: LOGO_UPLOAD_ERROR, fields: { logo_upload_key: LOGO_UPLOAD_ERROR } });
    }
    expect((await adminCall(context, admin, 'GET', `/companies/${company.id}`)).json()).toEqual({ company: updated });

    const removed = await patchAsAdmin(admin, company.id, { logo_upload_key: null });
    expect(removed).toMatchObject({ logo_upload_key: null, image_url: null });
    expect((await context.app.inject({ method: 'GET', url: updated.image_url! })).statusCode).toBe(404);
  });
});

describe('deactivating a company', () => {
  it('ends its employees’ sessions at once, refuses their sign-in and new sign-ups, keeps the row; reactivating undoes it', async () => {
    const admin = await createPerson(context, 'admin');
    const company = await createAsAdmin(admin, { name: 'Closing Down' });
    const email = await registerUser(context, { company_slug: company.slug });
    const authorization = await signedIn(context, email);
    // Served from the session cache from now on.
    await currentUserOf(authorization);
    await currentUserOf(authorization);

    const deactivated = await adminCall(context, admin, 'POST', `/companies/${company.id}/deactivate`);
    expect(deactivated.statusCode, deactivated.body).toBe(200);
    expect(adminCompanyResponse.parse(deactivated.json()).company).toMatchObject({
      id: company.id,
      active: false,
      deactivated_at: expect.any(String),
      employee_count: 1,
      email_domains: company.email_domains,
    });

    expect((await currentUserRequest(context, authorization)).statusCode).toBe(401);
    const [user] = await context.db.select({ id: users.id }).from(users).where(eq(users.email, email));
    const live = await context.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(live.every((session) => session.revokedAt !== null)).toBe(true);
    const signIn = await signInRequest(context, email);
    expect(signIn.statusCode).toBe(401);
    expect(errorOf(signIn)).toBe(COMPANY_DEACTIVATED_ERROR);
    const signUp = await signUpRequest(context, { email: uniqueEmail('late', companyDomain(company.slug)), company_slug: company.slug });
    expect(signUp.statusCode).toBe(422);
    expect(errorOf(signUp)).toBe(closedCompanyError('Closing Down'));

    // Asking again changes nothing and is not audited twice.
    expect((await adminCall(context, admin, 'POST', `/companies/${company.id}/deactivate`)).statusCode).toBe(200);

    const reactivated = await adminCall(context, admin, 'POST', `/companies/${company.id}/reactivate`);
    expect(adminCompanyResponse.parse(reactivated.json()).company).toMatchObject({ active: true, deactivated_at: null });
    const again = await signedIn(context, email);
    expect(await currentUserOf(again)).toMatchObject({ companies: [{ id: company.id, name: 'Closing Down' }] });
    expect((await signUpRequest(context, { email: uniqueEmail('back', companyDomain(company.slug)), company_slug: company.slug })).statusCode).toBe(201);

    const { events } = await auditLog(context, admin, { subject_type: 'company', subject_id: company.id });
    expect(events.map((event) => [event.action, event.changes])).toEqual([
      ['company.reactivate', { active: { before: false, after: true } }],
      ['company.deactivate', { active: { before: true, after: false } }],
      ['company.create', expect.any(Object)],
    ]);
    expect(events[1].actor).toMatchObject({ id: admin.id });
  });

  it('keeps an employee of another active company signed in, without the deactivated company as a sponsor', async () => {
    const admin = await createPerson(context, 'admin');
    const closing = await createAsAdmin(admin, { name: 'Closing Co' });
    const staying = await createAsAdmin(admin, { name: 'Staying Co' });
    const email = await registerUser(context, { company_slug: closing.slug });
    const [user] = await context.db.select({ id: users.id }).from(users).where(eq(users.email, email));
    await context.db.insert(userCompanies).values({ userId: user.id, companyId: staying.id });
    const authorization = await signedIn(context, email);
    expect((await currentUserOf(authorization)).companies.map((company) => company.name)).toEqual(['Closing Co', 'Staying Co']);

    expect((await adminCall(context, admin, 'POST', `/companies/${closing.id}/deactivate`)).statusCode).toBe(200);
    expect((await currentUserOf(authorization)).companies.map((company) => company.name)).toEqual(['Staying Co']);
    expect((await signInRequest(context, email)).statusCode).toBe(200);
  });

  it('leaves staff of a deactivated company signed in', async () => {
    const admin = await createPerson(context, 'admin');
    const staffCompany = await createAsAdmin(admin, { internal_staff: true, email_domains: [] });
    const concierge = await createPerson(context, 'concierge');
    await context.db.insert(userCompanies).values({ userId: concierge.id, companyId: staffCompany.id });
    expect((await adminCall(context, admin, 'POST', `/companies/${staffCompany.id}/deactivate`)).statusCode).toBe(200);
    expect((await context.app.inject({ method: 'GET', url: '/api/v1/console/requests', headers: concierge.headers })).statusCode).toBe(200);
  });
});

describe('the audit log', () => {
  it('pages newest first with a cursor', async () => {
    const admin = await createPerson(context, 'admin');
    const company = await createAsAdmin(admin);
    for (const name of ['One', 'Two', 'Three']) await patchAsAdmin(admin, company.id, { name });
    const subject = { subject_type: 'company', subject_id: company.id } as const;

    const first = await auditLog(context, admin, { ...subject, limit: 3 });
    expect(first.events.map((event) => event.changes.name?.after)).toEqual(['Three', 'Two', 'One']);
    expect(first.next_cursor).toBe(first.events[2].id);
    const second = await auditLog(context, admin, { ...subject, limit: 3, before: first.next_cursor! });
    expect(second.events.map((event) => event.action)).toEqual(['company.create']);
    expect(second.next_cursor).toBeNull();

    const everything = await auditLog(context, admin, { limit: 2 });
    expect(everything.events[0].id).toBeGreaterThan(everything.events[1].id);
    expect(everything.events[0]).toMatchObject({ subject_id: company.id, changes: { name: { before: 'Two', after: 'Three' } } });
  });

  it('filters by who made the change, its kind and its period (issue 32)', async () => {
    const admin = await createPerson(context, 'admin');
    const otherAdmin = await createPerson(context, 'admin');
    const company = await createAsAdmin(admin);
    await patchAsAdmin(otherAdmin, company.id, { name: 'Renamed' });
    const subject = { subject_type: 'company', subject_id: company.id } as const;

    const byOther = await auditLog(context, admin, { ...subject, actor_id: otherAdmin.id });
    expect(byOther.events.map((event) => [event.action, event.actor?.id])).toEqual([['company.update', otherAdmin.id]]);
    const creations = await auditLog(context, admin, { ...subject, action: 'company.create' });
    expect(creations.events.map((event) => event.actor?.id)).toEqual([admin.id]);

    // Backdate the creation by two days: a period around now finds the edit only, one around then the creation only.
    const [creation] = creations.events;
    await context.db.update(auditEvents).set({ at: new Date(Date.now() - 2 * 86_400_000) }).where(eq(auditEvents.id, creation.id));
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString();
    expect((await auditLog(context, admin, { ...subject, from: day(-1), until: day(1) })).events.map((event) => event.action)).toEqual(['company.update']);
    expect((await auditLog(context, admin, { ...subject, from: day(-3), until: day(-1) })).events.map((event) => event.action)).toEqual(['company.create']);
    expect((await auditLog(context, admin, { ...subject, until: day(-1) })).events.map((event) => event.id)).toEqual([creation.id]);
  });

  it('refuses a bad page size or filter with a 422', async () => {
    const admin = await createPerson(context, 'admin');
    const badQueries: Array<Record<string, string>> = [
      { limit: '0' },
      { limit: '201' },
      { before: '-1' },
      { subject_type: 'planet' },
      { actor_id: 'me' },
      { action: 'company.explode' },
      { from: 'yesterday' },
      { from: '2026-01-02T00:00:00Z', until: '2026-01-01T00:00:00Z' },
    ];
    for (const query of badQueries) {
      const response = await context.app.inject({ method: 'GET', url: '/api/v1/admin/audit', query, headers: admin.headers });
      expect(response.statusCode, JSON.stringify(query)).toBe(422);
    }
  });
});

