import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { openDatabase } from '../../server/db/client.ts';
import { requestServiceLevels } from '../../server/db/service.schema.ts';
import { requestSlaClocks } from '../../server/db/sla.schema.ts';
import { manualClock } from '../../server/domain/ports/clock.ts';
import { sweepServiceAlerts } from '../../server/domain/sla/serviceAlerts.ts';
import { startServiceClock } from '../../server/domain/sla/serviceClock.ts';
import { companies, userCompanies } from '../../server/db/schema.ts';
import { consoleRequestResponse, consoleRequestsResponse } from '../../src/contract/console.ts';
import { requestResponse } from '../../src/contract/requests.ts';
import { HOLIDAYS_MAX, SLA_ERRORS, type ServicePolicyCreate, servicePolicyResponse } from '../../src/contract/servicePolicies.ts';
import { type TestContext, createTestContext, testEngine } from './harness.ts';
import { adminCall, auditLog, expectAdminsOnly } from './admin.helpers.ts';
import { outboxTo } from './helpers.ts';
import { type Person, createPerson, createRequest, employeeMessage, get, post } from './requests.helpers.ts';

/** Tuesday 1 December 2026, 09:00 in Paris (08:00 UTC): the morning the tests start. */
const TUESDAY_9_PARIS = new Date('2026-12-01T08:00:00Z');
const HOUR = 60 * 60 * 1000;
const nineToSix = { opens: '09:00', closes: '18:00' };
const weekdays = [nineToSix, nineToSix, nineToSix, nineToSix, nineToSix, null, null];

const defaultPolicy: ServicePolicyCreate = {
  company_id: null,
  first_response_minutes: 240,
  resolution_minutes: 3 * 540,
  time_zone: 'Europe/Paris',
  week: weekdays as ServicePolicyCreate['week'],
  holidays: ['2026-12-25'],
};

const clock = manualClock(TUESDAY_9_PARIS);
let context: TestContext;
let admin: Person;
let concierge: Person;
let employee: Person;

beforeAll(async () => {
  context = await createTestContext({}, { clock });
  admin = await createPerson(context, 'admin');
  concierge = await createPerson(context, 'concierge');
  employee = await createPerson(context, 'employee');
  const created = await adminCall(context, admin, 'POST', '/service_policies', defaultPolicy);
  expect(created.statusCode, created.body).toBe(201);
});
afterAll(async () => {
  await context.close();
});

const consoleUrl = (path: string) => `/api/v1/console${path}`;

/** A request filed now by the clock, as submitting its survey files it. */
async function fileRequest(owner: Person, name = 'Find a dog walker'): Promise<number> {
  const requestId = await createRequest(context, owner, { name, issuedAt: clock.now() });
  await context.db.transaction((tx) => startServiceClock(tx, { requestId, ownerUserId: owner.id, now: clock.now() }));
  return requestId;
}

async function consoleView(requestId: number, staff: Person = concierge) {
  const response = await get(context, staff, consoleUrl(`/requests/${requestId}`));
  expect(response.statusCode, response.body).toBe(200);
  return consoleRequestResponse.parse(response.json()).request;
}

async function levelOf(requestId: number) {
  const [level] = await context.db.select().from(requestServiceLevels).where(eq(requestServiceLevels.requestId, requestId));
  return level;
}

function reply(requestId: number, text = 'On it!') {
  return post(context, concierge, consoleUrl(`/requests/${requestId}/messages`), { body_markdown: text });
}

function setStatus(requestId: number, status: string) {
  return post(context, concierge, consoleUrl(`/requests/${requestId}/status`), { status });
}

function setWaiting(requestId: number, waiting: boolean, staff: Person | null = concierge) {
  return post(context, staff, consoleUrl(`/requests/${requestId}/waiting`), { waiting });
}

async function employeeInCompany(companyName: string, policy?: Partial<ServicePolicyCreate>) {
  const person = await createPerson(context, 'employee', { companyName });
  const [membership] = await context.db.select().from(userCompanies).where(eq(userCompanies.userId, person.id));
  if (policy) {
    const created = await adminCall(context, admin, 'POST', '/service_policies', { ...defaultPolicy, ...policy, company_id: membership.companyId });
    expect(created.statusCode, created.body).toBe(201);
    return { person, companyId: membership.companyId, policyId: servicePolicyResponse.parse(created.json()).policy.id };
  }
  return { person, companyId: membership.companyId, policyId: null };
}

describe('turnaround targets', () => {
  it('promises due times from the company policy when filed, in business hours of its calendar', async () => {
    clock.set(TUESDAY_9_PARIS);
    const { person } = await employeeInCompany('Tight Corp', { first_response_minutes: 60, resolution_minutes: 540 });
    const tight = await consoleView(await fileRequest(person));
    expect(tight.service_level).toMatchObject({
      target: 'first_response',
      state: 'on_track',
      first_response_due_at: '2026-12-01T09:00:00.000Z',
      resolution_due_at: '2026-12-01T17:00:00.000Z',
      waiting_on_employee: false,
    });

    // Without a policy of their own: the default. Filed on Friday evening, the clock starts on Monday morning.
    clock.set(new Date('2026-12-04T19:00:00Z'));
    const usual = await consoleView(await fileRequest(employee));
    expect(usual.service_level?.first_response_due_at).toBe('2026-12-07T12:00:00.000Z');
    expect(usual.service_level?.resolution_due_at).toBe('2026-12-09T17:00:00.000Z');
  });

  it('keeps running requests on what they were promised when a target changes', async () => {
    clock.set(TUESDAY_9_PARIS);
    const { person, policyId } = await employeeInCompany('Changing Corp', { first_response_minutes: 120 });
    const before = await fileRequest(person);
    const changed = await adminCall(context, admin, 'PATCH', `/service_policies/${policyId}`, { ...defaultPolicy, first_response_minutes: 30, company_id: undefined });
    expect(changed.statusCode, changed.body).toBe(200);
    const after = await fileRequest(person);
    expect((await consoleView(before)).service_level?.first_response_due_at).toBe('2026-12-01T10:00:00.000Z');
    expect((await consoleView(after)).service_level?.first_response_due_at).toBe('2026-12-01T08:30:00.000Z');
    const { events } = await auditLog(context, admin, { subject_type: 'service_policy', subject_id: policyId ?? 0 });
    expect(events.map((event) => event.action)).toEqual(['service_policy.update', 'service_policy.create']);
    expect(events[0].changes).toEqual({ first_response_minutes: { before: 120, after: 30 } });
  });

  it('settles the first response with the first concierge message, and turns at risk then breached as time passes', async () => {
    clock.set(TUESDAY_9_PARIS);
    const requestId = await fileRequest(employee);
    clock.advance(3 * HOUR + 12 * 60 * 1000); // 80% of four hours
    expect((await consoleView(requestId)).service_level?.state).toBe('at_risk');
    clock.advance(HOUR);
    expect((await consoleView(requestId)).service_level).toMatchObject({ state: 'breached', target: 'first_response' });
    expect((await reply(requestId)).statusCode).toBe(201);
    const level = await levelOf(requestId);
    expect(level).toMatchObject({ firstResponseMet: false, firstResponseBusinessMinutes: 252, firstResponseDueAt: null });
    expect((await consoleView(requestId)).service_level).toMatchObject({ target: 'resolution', state: 'on_track', first_response_met: false });
  });

  it('pauses while waiting on the employee, and their next message pushes the due times by the business time paused', async () => {
    clock.set(TUESDAY_9_PARIS);
    const requestId = await fileRequest(employee);
    expect((await reply(requestId)).statusCode).toBe(201);
    const { resolutionDueAt } = await levelOf(requestId);
    clock.advance(HOUR);
    const paused = await setWaiting(requestId, true);
    expect(paused.statusCode, paused.body).toBe(200);
    expect(consoleRequestResponse.parse(paused.json()).request.service_level).toMatchObject({ waiting_on_employee: true, due_at: null });
    expect((await levelOf(requestId)).resolutionDueAt).toBeNull();

    // Paused from 10:00 until Wednesday 11:00 Paris: 8 business hours on Tuesday, 2 on Wednesday. The resolution, due
    // Thursday 18:00, moves 10 business hours on: all of Friday, and Monday 09:00-10:00.
    clock.set(new Date('2026-12-02T10:00:00Z'));
    const written = await post(context, employee, `/api/v1/requests/${requestId}/messages`, employeeMessage('Here is the address'));
    expect(written.statusCode, written.body).toBe(201);
    const resumed = await levelOf(requestId);
    expect(resumed.resolutionDueAt?.toISOString()).toBe('2026-12-07T09:00:00.000Z');
    expect(resolutionDueAt?.toISOString()).toBe('2026-12-03T17:00:00.000Z');
    expect((await consoleView(requestId)).service_level?.waiting_on_employee).toBe(false);
  });

  it('stops at completion, crediting the concierge, and a reopening starts a new resolution clock', async () => {
    clock.set(TUESDAY_9_PARIS);
    const requestId = await fileRequest(employee);
    expect((await setStatus(requestId, 'in_progress')).statusCode).toBe(200);
    clock.advance(2 * HOUR);
    expect((await setStatus(requestId, 'closed')).statusCode).toBe(200);
    expect(await levelOf(requestId)).toMatchObject({
      resolutionMet: true,
      resolutionBusinessMinutes: 120,
      completedByUserId: concierge.id,
      completedAt: clock.now(),
      resolutionDueAt: null,
    });
    expect((await consoleView(requestId)).service_level?.state).toBe('met');

    clock.set(new Date('2026-12-07T08:00:00Z')); // Monday 09:00
    expect((await post(context, employee, `/api/v1/requests/${requestId}/messages`, employeeMessage('It broke again'))).statusCode).toBe(201);
    const reopened = await levelOf(requestId);
    expect(reopened).toMatchObject({ resolutionMet: null, resolutionBusinessMinutes: null });
    expect(reopened.resolutionDueAt?.toISOString()).toBe('2026-12-09T17:00:00.000Z');
    const [clockRow] = await context.db.select().from(requestSlaClocks).where(eq(requestSlaClocks.requestId, requestId));
    expect(clockRow.resolutionStartedAt).toEqual(clock.now());
  });

  it('sorts the open queues by due time, soonest first', async () => {
    clock.set(TUESDAY_9_PARIS);
    const { person } = await employeeInCompany('Urgent Corp', { first_response_minutes: 15 });
    const relaxed = await fileRequest(employee, 'Relaxed');
    const urgent = await fileRequest(person, 'Urgent');
    const response = await context.app.inject({ method: 'GET', url: consoleUrl('/requests'), query: { queue: 'in_queue', limit: '200' }, headers: concierge.headers });
    const ids = consoleRequestsResponse.parse(response.json()).requests.map((request) => request.id);
    expect(ids.indexOf(urgent)).toBeLessThan(ids.indexOf(relaxed));
    expect(ids[0]).not.toBe(relaxed);
  });

  it('shows the employee the promise in plain words, and never the internal state', async () => {
    clock.set(TUESDAY_9_PARIS);
    const requestId = await fileRequest(employee);
    clock.advance(5 * HOUR); // breached inside
    const response = await get(context, employee, `/api/v1/requests/${requestId}`);
    expect(response.statusCode).toBe(200);
    const { request } = requestResponse.parse(response.json());
    expect(request.service_promise).toEqual({
      first_response_within: '4 working hours',
      first_response_by: '2026-12-01T12:00:00.000Z',
      resolution_within: '3 working days',
      resolution_by: '2026-12-03T17:00:00.000Z',
    });
    for (const internal of ['breached', 'at_risk', 'on_track', 'state', '_met', 'waiting']) expect(response.body).not.toContain(internal);
    const lists = await get(context, employee, '/api/v1/requests/open');
    for (const internal of ['breached', 'at_risk', 'on_track', 'service_level']) expect(lists.body).not.toContain(internal);
  });

  it('lets only staff mark a request waiting, and not once Completed', async () => {
    const requestId = await fileRequest(employee);
    expect((await setWaiting(requestId, true, null)).statusCode).toBe(401);
    expect((await setWaiting(requestId, true, employee)).statusCode).toBe(403);
    const otherEmployee = await createPerson(context, 'employee');
    expect((await setWaiting(requestId, true, otherEmployee)).statusCode).toBe(403);
    expect((await setWaiting(9_999_999, true)).statusCode).toBe(404);
    expect((await post(context, concierge, consoleUrl(`/requests/${requestId}/waiting`), { waiting: 'yes' })).statusCode).toBe(422);
    expect((await setStatus(requestId, 'in_progress')).statusCode).toBe(200);
    expect((await setStatus(requestId, 'closed')).statusCode).toBe(200);
    expect((await setWaiting(requestId, true)).statusCode).toBe(409);
  });
});

describe('service policies', () => {
  it('are for admins only', async () => {
    await expectAdminsOnly(context, { employee, concierge }, [
      ['GET', '/service_policies'],
      ['POST', '/service_policies', defaultPolicy],
      ['PATCH', '/service_policies/1', defaultPolicy],
    ]);
  });

  it('refuse a calendar that closes before it opens, naming the field', async () => {
    const week = [...weekdays];
    week[2] = { opens: '18:00', closes: '09:00' };
    const response = await adminCall(context, admin, 'PATCH', '/service_policies/1', { ...defaultPolicy, company_id: undefined, week });
    expect(response.statusCode).toBe(422);
    expect(response.json().fields).toEqual({ 'week.2.closes': SLA_ERRORS.closesBeforeOpens });
  });

  it('refuse 10,000 holidays, an unknown time zone, a date that does not exist and a week never open', async () => {
    const start = Date.UTC(2000, 0, 1);
    const holidays = Array.from({ length: 10_000 }, (_, day) => new Date(start + day * 24 * HOUR).toISOString().slice(0, 10));
    const many = await adminCall(context, admin, 'PATCH', '/service_policies/1', { ...defaultPolicy, company_id: undefined, holidays });
    expect(many.statusCode).toBe(422);
    expect(many.json().fields).toEqual({ holidays: SLA_ERRORS.holidaysMax });
    expect(HOLIDAYS_MAX).toBe(366);

    const bad = await adminCall(context, admin, 'PATCH', '/service_policies/1', {
      ...defaultPolicy,
      company_id: undefined,
      time_zone: 'Mars/Olympus',
      holidays: ['2026-02-30'],
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().fields).toMatchObject({ time_zone: SLA_ERRORS.timeZone, 'holidays.0': SLA_ERRORS.holiday });

    const never = await adminCall(context, admin, 'PATCH', '/service_policies/1', { ...defaultPolicy, week: [null, null, null, null, null, null, null] });
    expect(never.statusCode).toBe(422);
    expect(never.json().fields).toEqual({ week: SLA_ERRORS.neverOpen });
  });

  it('have one default and one per company: a second is a 409 on company_id; an unknown company a 422', async () => {
    const again = await adminCall(context, admin, 'POST', '/service_policies', defaultPolicy);
    expect(again.statusCode).toBe(409);
    expect(again.json().fields).toEqual({ company_id: SLA_ERRORS.defaultTaken });
    const unknown = await adminCall(context, admin, 'POST', '/service_policies', { ...defaultPolicy, company_id: 9_999_999 });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().fields).toEqual({ company_id: SLA_ERRORS.companyNotFound });
    const [company] = await context.db.insert(companies).values({ slug: `policy-${Date.now()}`, name: 'Policy Corp' }).returning();
    expect((await adminCall(context, admin, 'POST', '/service_policies', { ...defaultPolicy, company_id: company.id })).statusCode).toBe(201);
    const twice = await adminCall(context, admin, 'POST', '/service_policies', { ...defaultPolicy, company_id: company.id });
    expect(twice.statusCode).toBe(409);
    const list = await adminCall(context, admin, 'GET', '/service_policies');
    expect(list.json().policies[0].company).toBeNull();
  });
});

describe('turnaround alerts', () => {
  it('fire at risk then breached once each, to the assignee by e-mail and as a live notice', async () => {
    clock.set(TUESDAY_9_PARIS);
    const requestId = await fileRequest(employee, 'Alert me');
    expect((await setStatus(requestId, 'in_progress')).statusCode).toBe(200);
    const sweep = () => sweepServiceAlerts(context.database.db, { appUrl: context.config.APP_URL, now: clock.now() });
    expect((await sweep()).filter((notice) => notice.requestId === requestId)).toEqual([]);

    clock.advance(3.5 * HOUR);
    const atRisk = (await sweep()).filter((notice) => notice.requestId === requestId);
    expect(atRisk).toMatchObject([{ type: 'sla.alert', kind: 'at_risk', target: 'first_response', assigneeUserId: concierge.id }]);
    expect((await sweep()).filter((notice) => notice.requestId === requestId)).toEqual([]);

    clock.advance(HOUR);
    const breached = (await sweep()).filter((notice) => notice.requestId === requestId);
    expect(breached).toMatchObject([{ kind: 'breached', target: 'first_response', dueAt: '2026-12-01T12:00:00.000Z' }]);
    expect((await sweep()).filter((notice) => notice.requestId === requestId)).toEqual([]);
    const mail = (await outboxTo(context, concierge.email)).filter((message) => message.subject?.includes('"Alert me"'));
    expect(mail.map((message) => message.subject)).toEqual(['Target missed: first response of "Alert me"', 'At risk: first response of "Alert me"']);
    expect(mail[0].text).toContain(`/console/requests/${requestId}`);
  });

  it('alert every concierge of an unassigned breach, but not of an unassigned request at risk', async () => {
    clock.set(TUESDAY_9_PARIS);
    const requestId = await fileRequest(employee, 'Nobody has it');
    const sweep = () => sweepServiceAlerts(context.database.db, { appUrl: context.config.APP_URL, now: clock.now() });
    clock.advance(3.5 * HOUR);
    expect((await sweep()).filter((notice) => notice.requestId === requestId)).toEqual([]);
    clock.advance(HOUR);
    expect((await sweep()).filter((notice) => notice.requestId === requestId)).toMatchObject([{ kind: 'breached', assigneeUserId: null }]);
  });

  it('fire once with two server processes sweeping one database at the same moment', async () => {
    clock.set(TUESDAY_9_PARIS);
    const ids: number[] = [];
    for (let index = 0; index < 8; index += 1) {
      const requestId = await fileRequest(employee, `Race ${index}`);
      expect((await setStatus(requestId, 'in_progress')).statusCode).toBe(200);
      ids.push(requestId);
    }
    clock.advance(5 * HOUR);
    // A second process: its own connection pool on the same PostgreSQL database (PGlite has one process only).
    const other = testEngine === 'postgres' ? await openDatabase({ url: context.database.url }) : context.database;
    const secondApp = await buildApp({ config: context.config, database: other, clock });
    try {
      const sweeps = await Promise.all(
        [context.database.db, other.db, context.database.db, other.db].map((db) =>
          sweepServiceAlerts(db, { appUrl: context.config.APP_URL, now: clock.now() }),
        ),
      );
      const fired = sweeps.flat().filter((notice) => ids.includes(notice.requestId));
      expect(fired).toHaveLength(ids.length);
      expect(new Set(fired.map((notice) => notice.requestId)).size).toBe(ids.length);
      const mails = (await outboxTo(context, concierge.email)).filter((message) => message.subject?.includes('"Race '));
      expect(mails).toHaveLength(ids.length);
      // A restart sweeps again: the stamps are in the database, so nothing fires twice.
      expect((await sweepServiceAlerts(other.db, { appUrl: context.config.APP_URL, now: clock.now() })).filter((notice) => ids.includes(notice.requestId))).toEqual([]);
    } finally {
      await secondApp.close();
      if (other !== context.database) await other.close();
    }
  });
});
