import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { employerAdmins } from '../../server/db/employer.schema.ts';
import { analyticsEvents, companies, requests, userCompanies, users } from '../../server/db/schema.ts';
import { requestRatings } from '../../server/db/service.schema.ts';
import { surveyCategories } from '../../server/db/surveys.schema.ts';
import { sendDueMonthlySummaries } from '../../server/domain/employer/monthlySummary.ts';
import { EMPLOYER_INVITATION_SUBJECT } from '../../server/domain/admin/staff.ts';
import { EMPLOYER_ADMIN_AREA_ERROR, EMPLOYER_ADMIN_ONLY_ERROR } from '../../server/plugins/authenticate.ts';
import type { OpenApiDocument } from '../../server/openapi/document.ts';
import { OPENAPI_PATH } from '../../server/plugins/openApi.ts';
import { adminAccountResponse } from '../../src/contract/admin.ts';
import { AUTHORIZATION_HEADER } from '../../src/contract/common.ts';
import { type EmployerReport, employerReportResponse, hoursEstimatesResponse, reportSettingsResponse } from '../../src/contract/employer.ts';
import { adminCall, auditLog } from './admin.helpers.ts';
import { suiteContext } from './harness.ts';
import { PASSWORD, currentUserRequest, errorOf, latestLink, outboxTo, signedIn, tokenOf, uniqueEmail } from './helpers.ts';
import { type Person, createPerson, get } from './requests.helpers.ts';

/**
 * The employer's value report (issue 29 part 3) on a known data set: an employer admin invited through the staff
 * invitation, their company's figures (shown, folded, suppressed), their isolation from every other route and
 * company, our admins' settings, and the monthly summary sent once.
 */

const context = suiteContext({ AUTH_RATE_LIMIT: '1000' });

let sequence = 0;
const JANUARY = new Date('2026-01-02T09:00:00Z');
const at = (iso: string, hours = 0) => new Date(Date.parse(iso) + hours * 3_600_000);

async function company(name: string) {
  sequence += 1;
  const [row] = await context.db.insert(companies).values({ slug: `employer-${sequence}-${Date.now().toString(36)}`, name }).returning();
  return row;
}

async function category(name: string) {
  sequence += 1;
  const [row] = await context.db
    .insert(surveyCategories)
    .values({ slug: `employer-category-${sequence}`, name, imageUrl: '/seed/x.svg' })
    .returning();
  return row;
}

/** `count` employees of the company, with accounts since January. */
async function employeesOf(companyId: number, count: number) {
  const people = [];
  for (let index = 0; index < count; index += 1) {
    const [user] = await context.db
      .insert(users)
      .values({ email: uniqueEmail('staffer'), passwordHash: 'x', firstName: `Secretname${index}`, lastName: 'Person', createdAt: JANUARY })
      .returning();
    await context.db.insert(userCompanies).values({ userId: user.id, companyId });
    people.push(user);
  }
  return people;
}

async function fileRequests(owners: ReadonlyArray<{ id: number }>, categoryId: number, issuedAt: Date, completedAfterHours: number | null) {
  for (const owner of owners) {
    await context.db.insert(requests).values({
      userId: owner.id,
      name: 'Private request text',
      details: 'Nobody but the concierge reads this',
      surveyCategoryId: categoryId,
      issuedAt,
      status: completedAfterHours === null ? 'open' : 'closed',
      closedAt: completedAfterHours === null ? null : at(issuedAt.toISOString(), completedAfterHours),
    });
  }
}

async function employerAdminOf(companyId: number): Promise<Person> {
  const person = await createPerson(context, 'employee');
  await context.db.update(users).set({ role: 'employer_admin' }).where(eq(users.id, person.id));
  await context.db.insert(employerAdmins).values({ userId: person.id, companyId });
  return person;
}

async function reportOf(person: Person, period: string, start: string): Promise<EmployerReport> {
  const response = await get(context, person, `/api/v1/employer/report?period=${period}&start=${start}`);
  expect(response.statusCode, response.body).toBe(200);
  expect(response.body).not.toMatch(/Secretname|Private request text|Nobody but|Loved it/);
  return employerReportResponse.parse(response.json()).report;
}

describe('the employer report on a known data set', () => {
  let acmeAdmin: Person;
  let otherAdmin: Person;
  let admin: Person;
  let home: { id: number };

  it('is built from month releases: shown, folded into Other, withheld, and summed over longer periods', async () => {
    const acme = await company('Acme Report Co');
    const beta = await company('Beta Report Co');
    admin = await createPerson(context, 'admin');
    acmeAdmin = await employerAdminOf(acme.id);
    otherAdmin = await employerAdminOf(beta.id);
    home = await category('Home and errands');
    const pets = await category('Pets');
    const travel = await category('Travel');
    const staff = await employeesOf(acme.id, 12);
    // Beta's one employee files many requests: Acme's report never counts them.
    const [betaEmployee] = await employeesOf(beta.id, 1);
    await fileRequests(Array.from({ length: 20 }, () => betaEmployee), home.id, at('2026-04-10T10:00:00Z'), 1);

    // March: Home by 12 people, Pets by 11, Travel by 3 (open). Travel is too small; Other with Travel alone too,
    // so Pets joins it. Travel's open requests are the work of 3 people: completion is withheld.
    await fileRequests(staff, home.id, at('2026-03-05T10:00:00Z'), 10);
    await fileRequests(staff.slice(0, 11), pets.id, at('2026-03-06T10:00:00Z'), 20);
    await fileRequests(staff.slice(0, 3), travel.id, at('2026-03-07T10:00:00Z'), null);
    // April: Home by all 12, completed in 10 h; ten 5-star ratings; 11 people view benefits twice; 3 ask for help.
    await fileRequests(staff, home.id, at('2026-04-05T10:00:00Z'), 10);
    const requestIds = (await context.db.select({ id: requests.id, userId: requests.userId, issuedAt: requests.issuedAt }).from(requests))
      .filter((row) => row.issuedAt.toISOString().startsWith('2026-04-05'));
    for (const row of requestIds.slice(0, 10)) {
      await context.db.insert(requestRatings).values({
        requestId: row.id, userId: row.userId, completedAt: at('2026-04-05T20:00:00Z'), score: 5, comment: 'Loved it', createdAt: at('2026-04-06T10:00:00Z'),
      });
    }
    for (const person of staff.slice(0, 11)) {
      for (const offering of [1, 2]) {
        await context.db.insert(analyticsEvents).values({
          name: 'ui_interaction', userExternalId: person.externalId, createdAt: at('2026-04-08T10:00:00Z'),
          properties: { element_type: 'offering_card', element_id: 'offering_benefit_card', offering_id: offering },
        });
      }
    }
    for (const person of staff.slice(0, 3)) {
      await context.db.insert(analyticsEvents).values({ name: 'cta_click', userExternalId: person.externalId, createdAt: at('2026-04-09T10:00:00Z'), properties: {} });
    }
    const estimate = await adminCall(context, admin, 'PUT', `/employer/hours_estimates/${home.id}`, { minutes_per_request: 90 });
    expect(estimate.statusCode, estimate.body).toBe(200);

    const march = await reportOf(acmeAdmin, 'month', '2026-03');
    expect(march.company.name).toBe('Acme Report Co');
    expect(march.period).toEqual({ kind: 'month', start: '2026-03', months: ['2026-03'], label: 'March 2026' });
    expect(march.threshold).toBe(10);
    expect(march.requests_by_category).toEqual({ categories: [{ name: 'Home and errands', requests: 12 }], other: 14, total: 26, withheld_months: [] });
    expect(march.completion).toBeNull();
    expect(march.estimated_hours_saved).toBeNull();
    expect(march.monthly_active_employees).toEqual([{ month: '2026-03', employees: { status: 'shown', value: 12 } }]);
    expect(march.signed_up_employees).toEqual({ status: 'range', from: 10, to: 19 });
    expect(march.benefit_views).toEqual({ status: 'suppressed', fewer_than: 10 });

    const april = await reportOf(acmeAdmin, 'month', '2026-04');
    expect(april.requests_by_category).toEqual({ categories: [{ name: 'Home and errands', requests: 12 }], other: null, total: 12, withheld_months: [] });
    expect(april.completion).toEqual({ completed: 12, requests: 12, rate: 100 });
    expect(april.median_turnaround_hours).toBe(10);
    expect(april.estimated_hours_saved).toBe(18);
    expect(april.satisfaction).toEqual({ satisfied: 10, ratings: 10, share: 100 });
    expect(april.benefit_views).toEqual({ status: 'shown', value: 22 });
    expect(april.help_requests).toEqual({ status: 'suppressed', fewer_than: 10 });

    const year = await reportOf(acmeAdmin, 'year', '2026-01');
    expect(year.period.months).toHaveLength(12);
    expect(year.requests_by_category).toEqual({ categories: [{ name: 'Home and errands', requests: 24 }], other: 14, total: 38, withheld_months: [] });
    // Only April's completion was released: the year's is April's.
    expect(year.completion).toEqual({ completed: 12, requests: 12, rate: 100 });
    expect(year.monthly_active_employees.find((month) => month.month === '2026-05')?.employees).toEqual({ status: 'suppressed', fewer_than: 10 });
    const quarter = await reportOf(acmeAdmin, 'quarter', '2026-01');
    expect(quarter.period.label).toBe('Q1 2026');
    expect(quarter.requests_by_category.total).toBe(26);
  });

  it('uses the admin’s threshold (never below 5) and headcount, and audits the change', async () => {
    const acmeId = (await reportOf(acmeAdmin, 'month', '2026-03')).company.id;
    const tooLow = await adminCall(context, admin, 'PUT', `/employer/report_settings/${acmeId}`, { suppression_threshold: 4, eligible_employees: 50 });
    expect(tooLow.statusCode).toBe(422);
    expect(tooLow.json().fields).toHaveProperty('suppression_threshold');
    const changed = await adminCall(context, admin, 'PUT', `/employer/report_settings/${acmeId}`, { suppression_threshold: 12, eligible_employees: 50 });
    expect(reportSettingsResponse.parse(changed.json()).settings).toEqual({ id: acmeId, company_name: 'Acme Report Co', suppression_threshold: 12, eligible_employees: 50 });

    const march = await reportOf(acmeAdmin, 'month', '2026-03');
    expect(march.threshold).toBe(12);
    expect(march.eligible_employees).toBe(50);
    // Pets (11 people) and Travel (3) fold; Other would name 11 people, fewer than 12: Home joins it, and the
    // breakdown of 12 people is all Other.
    expect(march.requests_by_category).toEqual({ categories: [], other: 26, total: 26, withheld_months: [] });
    expect(march.monthly_active_employees[0].employees).toEqual({ status: 'shown', value: 12 });
    const april = await reportOf(acmeAdmin, 'month', '2026-04');
    expect(april.satisfaction).toBeNull();
    expect(april.benefit_views).toEqual({ status: 'suppressed', fewer_than: 12 });

    const [entry] = (await auditLog(context, admin, { action: 'report_settings.update' })).events;
    expect(entry.changes).toEqual({
      suppression_threshold: { before: 10, after: 12 },
      eligible_employees: { before: null, after: 50 },
    });
    const estimates = hoursEstimatesResponse.parse((await adminCall(context, admin, 'GET', '/employer/hours_estimates')).json()).estimates;
    expect(estimates.find((row) => row.id === home.id)?.minutes_per_request).toBe(90);
    expect((await auditLog(context, admin, { action: 'hours_estimate.update' })).events[0].subject_id).toBe(home.id);
    await adminCall(context, admin, 'PUT', `/employer/report_settings/${acmeId}`, { suppression_threshold: 10, eligible_employees: 50 });
  });

  it('shows each employer admin their own company only, and refuses everyone else', async () => {
    const beta = await reportOf(otherAdmin, 'month', '2026-04');
    expect(beta.company.name).toBe('Beta Report Co');
    // One employee with 20 requests: every figure is about fewer than 10 people.
    expect(beta.requests_by_category).toEqual({ categories: [], other: null, total: 0, withheld_months: ['2026-04'] });
    expect(beta.monthly_active_employees[0].employees).toEqual({ status: 'suppressed', fewer_than: 10 });
    expect(beta.signed_up_employees).toEqual({ status: 'suppressed', fewer_than: 10 });

    const url = '/api/v1/employer/report?period=month&start=2026-04';
    expect((await get(context, null, url)).statusCode).toBe(401);
    for (const role of ['employee', 'concierge', 'admin'] as const) {
      const response = await get(context, await createPerson(context, role, { companyName: 'Acme Report Co' }), url);
      expect(response.statusCode, role).toBe(403);
      expect(errorOf(response)).toBe(EMPLOYER_ADMIN_ONLY_ERROR);
    }
    // An employer admin whose company link is gone sees nothing, not another company's report.
    const orphan = await employerAdminOf((await company('Gone Co')).id);
    await context.db.delete(employerAdmins).where(eq(employerAdmins.userId, orphan.id));
    expect((await get(context, orphan, url)).statusCode).toBe(404);
  });

  it('names the field of a period that does not start a calendar month, quarter or year', async () => {
    for (const query of ['period=quarter&start=2026-02', 'period=year&start=2026-04', 'period=week&start=2026-01', 'period=month&start=2026-13', 'period=month']) {
      const response = await get(context, acmeAdmin, `/api/v1/employer/report?${query}`);
      expect(response.statusCode, query).toBe(422);
      expect(Object.keys(response.json().fields ?? {}).some((field) => field === 'start' || field === 'period'), query).toBe(true);
    }
  });

  it('refuses the employer admin every other signed-in route with 403 (the authorization matrix)', async () => {
    const document = (await context.app.inject({ method: 'GET', url: OPENAPI_PATH })).json<OpenApiDocument>();
    const open = new Set(['GET /api/v1/employer/report', 'GET /api/v1/users/current', 'DELETE /api/v1/users/sign_out']);
    let refused = 0;
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const name = `${method.toUpperCase()} ${path}`;
        // The document gives 403 to every route behind a session (openapi/document.ts): routes anyone may call (sign-in,
        // public images, a rating link, whose token is its permission) are not the role's to be refused.
        const behindSession = ((operation.security ?? []) as Array<Record<string, unknown>>).some((scheme) => 'session' in scheme);
        if (!operation.responses['403'] || !behindSession || open.has(name)) continue;
        // The live stream opens with a ticket, not a session: the ticket's own route is refused below like the rest.
        if (name === 'GET /api/v1/events') {
          expect((await get(context, acmeAdmin, path)).statusCode).toBe(422);
          continue;
        }
        const response = await context.app.inject({
          method: method.toUpperCase() as 'GET',
          url: path.replace(/\{\w+\}/g, '1'),
          headers: acmeAdmin.headers,
          ...(method === 'get' || method === 'delete' ? {} : { payload: {} }),
        });
        expect(response.statusCode, name).toBe(403);
        expect(errorOf(response), name).toBe(EMPLOYER_ADMIN_AREA_ERROR);
        refused += 1;
      }
    }
    expect(refused).toBeGreaterThan(60);
    expect((await get(context, acmeAdmin, '/api/v1/users/current')).json().user.role).toBe('employer_admin');
  });
});

describe('inviting an employer admin', () => {
  it('goes through the staff invitation with a company; the invitee signs in to their report', async () => {
    const admin = await createPerson(context, 'admin');
    const acme = await company('Invited Report Co');
    const email = uniqueEmail('employer');
    const missing = await adminCall(context, admin, 'POST', '/staff', { email, first_name: 'Erin', last_name: 'Employer', role: 'employer_admin' });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().fields).toHaveProperty('company_id');
    const unknown = await adminCall(context, admin, 'POST', '/staff', { email, first_name: 'Erin', last_name: 'Employer', role: 'employer_admin', company_id: 999_999 });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().fields).toHaveProperty('company_id');

    const invited = await adminCall(context, admin, 'POST', '/staff', { email, first_name: 'Erin', last_name: 'Employer', role: 'employer_admin', company_id: acme.id });
    expect(invited.statusCode, invited.body).toBe(201);
    const account = adminAccountResponse.parse(invited.json()).account;
    expect(account).toMatchObject({ role: 'employer_admin', employer_company_name: 'Invited Report Co', invited: true });
    const [mail] = await outboxTo(context, email);
    expect(mail.subject).toBe(EMPLOYER_INVITATION_SUBJECT);
    expect(mail.text).toContain("Invited Report Co's Life Concierge report");
    const [entry] = (await auditLog(context, admin, { action: 'staff.invite', subject_id: account.id })).events;
    expect(entry.changes.company_id).toEqual({ before: null, after: acme.id });

    const chosen = await context.app.inject({
      method: 'PUT',
      url: '/api/v1/users/password',
      payload: { reset_password_token: tokenOf(await latestLink(context, email)), password: PASSWORD, password_confirmation: PASSWORD },
    });
    expect(chosen.statusCode, chosen.body).toBe(200);
    const authorization = await signedIn(context, email);
    expect((await currentUserRequest(context, authorization)).json().user.role).toBe('employer_admin');
    const report = await context.app.inject({ method: 'GET', url: '/api/v1/employer/report?period=month&start=2026-04', headers: { [AUTHORIZATION_HEADER]: authorization } });
    expect(employerReportResponse.parse(report.json()).report.company.name).toBe('Invited Report Co');
    // The role comes with a company, by invitation: an employee is never made one by a role change.
    const employee = await createPerson(context, 'employee');
    const promoted = await adminCall(context, admin, 'PATCH', `/staff/${employee.id}`, { role: 'employer_admin' });
    expect(promoted.statusCode).toBe(422);
  });
});

describe('the monthly summary e-mail', () => {
  it('goes once per employer admin and month, even from two processes at once, with the aggregates and a link', async () => {
    const acme = await company('Summary Report Co');
    const person = await employerAdminOf(acme.id);
    const staff = await employeesOf(acme.id, 10);
    const pets = await category('Pets of the summary');
    await fileRequests(staff, pets.id, at('2026-06-03T10:00:00Z'), 4);
    const now = new Date('2026-07-02T08:00:00Z');
    const appUrl = context.config.APP_URL;
    // Two rounds at once (two processes) and one later: one summary.
    await Promise.all([sendDueMonthlySummaries(context.db, { appUrl, now }), sendDueMonthlySummaries(context.db, { appUrl, now })]);
    await sendDueMonthlySummaries(context.db, { appUrl, now: new Date('2026-07-20T08:00:00Z') });
    const mails = (await outboxTo(context, person.email)).filter((mail) => mail.subject?.includes('June 2026'));
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail.subject).toBe('Your Life Concierge report for June 2026');
    expect(mail.text).toContain('Requests by category - Pets of the summary: 10');
    expect(mail.text).toContain('Service - Completion rate: 100% (10 of 10)');
    expect(mail.text).toContain('Benefits - Help requests: fewer than 10');
    expect(mail.links).toEqual([`${appUrl}/employer/report?period=month&start=2026-06`]);
    expect(mail.text).not.toMatch(/Secretname|Private request text/);
    // A new month, a new summary; an invitee who never chose a password gets none.
    await sendDueMonthlySummaries(context.db, { appUrl, now: new Date('2026-08-01T00:10:00Z') });
    expect((await outboxTo(context, person.email)).filter((entry) => entry.subject?.includes('July 2026'))).toHaveLength(1);
  });
});
