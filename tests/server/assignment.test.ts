import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assignmentSettings } from '../../server/db/assignment.schema.ts';
import { requestSurveys, surveyCategories, surveyQuestions, userRequestSurveys } from '../../server/db/surveys.schema.ts';
import { requestEvents } from '../../server/db/threads.schema.ts';
import { AUTOMATIC_ASSIGNMENT_ACTOR, assignWaitingRequests, nextInTurn } from '../../server/domain/requests/assignment.ts';
import { OPEN_REQUEST_CAP_ERROR, availabilityResponse, claimedFirstMessage, staffCapResponse, staffCapsResponse } from '../../src/contract/assignment.ts';
import { consoleRequestResponse } from '../../src/contract/console.ts';
import { adminCall, auditLog, expectAdminsOnly } from './admin.helpers.ts';
import { assigneeOf, everyoneAwayAndQueueEmpty, secondServerOn, setAvailable } from './assignment.helpers.ts';
import { suiteContext } from './harness.ts';
import { errorOf } from './helpers.ts';
import { type Person, createPerson, createRequest, get, post } from './requests.helpers.ts';

const context = suiteContext();
const APP_URL = () => context.config.APP_URL;
const consoleUrl = (path: string) => `/api/v1/console${path}`;

async function fileRequests(owner: Person, count: number, name = 'Waiting') {
  const ids: number[] = [];
  for (let index = 0; index < count; index += 1) ids.push(await createRequest(context, owner, { name: `${name} ${index + 1}` }));
  return ids;
}

async function setDefaultCap(admin: Person, cap: number) {
  const response = await adminCall(context, admin, 'PUT', '/assignment', { default_open_request_cap: cap });
  expect(response.statusCode, response.body).toBe(200);
}

/** A survey-made request submitted through the API, as an employee files one: its id. */
async function submitThroughTheApi(employee: Person) {
  const [category] = await context.db
    .insert(surveyCategories)
    .values({ slug: `assignment-${Date.now()}-${Math.random()}`, name: 'Errands', imageUrl: '/seed/categories/wildcard.svg' })
    .returning();
  const [template] = await context.db
    .insert(requestSurveys)
    .values({ slug: `errand-${Date.now()}-${Math.random()}`, name: 'Pick up the dry cleaning', categoryId: category.id, position: 0 })
    .returning();
  await context.db.insert(surveyQuestions).values({ requestSurveyId: template.id, position: 0, label: 'Anything else?', type: 'TextInput', optional: true });
  const [session] = await context.db.insert(userRequestSurveys).values({ userId: employee.id, requestSurveyId: template.id }).returning();
  const response = await post(context, employee, `/api/v1/user_request_surveys/${session.id}/submit`);
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { request: { id: number; status: string } }).request;
}

describe('the round-robin turn', () => {
  it('goes to the first with room after the last one assigned, wrapping around', () => {
    const team = [
      { id: 3, available: true, openRequests: 0, cap: 2 },
      { id: 5, available: false, openRequests: 0, cap: 2 },
      { id: 8, available: true, openRequests: 2, cap: 2 },
      { id: 9, available: true, openRequests: 1, cap: 2 },
    ];
    expect(nextInTurn(team, null)?.id).toBe(3);
    expect(nextInTurn(team, 3)?.id).toBe(9);
    expect(nextInTurn(team, 9)?.id).toBe(3);
    expect(nextInTurn(team, 4)?.id).toBe(9);
    expect(nextInTurn(team.map((member) => ({ ...member, available: false })), 3)).toBeUndefined();
  });
});

describe('automatic assignment', () => {
  it('gives new requests round-robin to the available concierges, oldest first, skipping those away', async () => {
    await everyoneAwayAndQueueEmpty(context);
    const admin = await createPerson(context, 'admin');
    await setDefaultCap(admin, 10);
    const employee = await createPerson(context);
    const [first, second, away] = [await createPerson(context, 'concierge'), await createPerson(context, 'concierge'), await createPerson(context, 'concierge')];
    await setAvailable(context.app, first, true);
    await setAvailable(context.app, second, true);
    await setAvailable(context.app, away, false);

    const assignees: (number | null)[] = [];
    for (const requestId of await fileRequests(employee, 4)) {
      await assignWaitingRequests(context.db, APP_URL());
      assignees.push((await assigneeOf(context, requestId)).assigneeUserId);
    }
    // The turn continues from whoever had the last one: both get two, alternately.
    expect(assignees.filter((id) => id === first.id)).toHaveLength(2);
    expect(assignees.filter((id) => id === second.id)).toHaveLength(2);
    expect(assignees[0]).not.toBe(assignees[1]);
    expect(assignees[1]).not.toBe(assignees[2]);
    expect(assignees[2]).toBe(assignees[0]);
    expect(assignees).not.toContain(away.id);
    // The pointer is in the database: the last one assigned.
    const [settings] = await context.db.select().from(assignmentSettings);
    expect(settings.lastAssignedUserId).toBe(assignees[3]);
  });

  it('assigns a request filed through the API at once, In Progress, recorded as automatic', async () => {
    await everyoneAwayAndQueueEmpty(context);
    const admin = await createPerson(context, 'admin');
    await setDefaultCap(admin, 10);
    const concierge = await createPerson(context, 'concierge', { firstName: 'Ada', lastName: 'Available' });
    await setAvailable(context.app, concierge, true);
    const employee = await createPerson(context);

    const submitted = await submitThroughTheApi(employee);
    expect(submitted.status).toBe('in_progress');
    const view = consoleRequestResponse.parse((await get(context, concierge, consoleUrl(`/requests/${submitted.id}`))).json()).request;
    expect(view).toMatchObject({ status: 'in_progress', assignee: { id: concierge.id, full_name: 'Ada Available' } });
    const assigned = view.thread.find((entry) => entry.kind === 'event' && entry.event === 'assigned');
    expect(assigned).toMatchObject({ actor_name: AUTOMATIC_ASSIGNMENT_ACTOR, assignee_name: 'Ada Available' });
  });

  it('lets a request wait In Queue while nobody is available, and assigns it when someone becomes available', async () => {
    await everyoneAwayAndQueueEmpty(context);
    const employee = await createPerson(context);
    const concierge = await createPerson(context, 'concierge');

    const submitted = await submitThroughTheApi(employee);
    expect(submitted.status).toBe('open');
    expect(await assigneeOf(context, submitted.id)).toEqual({ assigneeUserId: null, status: 'open' });

    const { me, team } = await setAvailable(context.app, concierge, true);
    expect(await assigneeOf(context, submitted.id)).toEqual({ assigneeUserId: concierge.id, status: 'in_progress' });
    expect(me).toMatchObject({ id: concierge.id, available: true, open_requests: 1 });
    // The team sees who is available.
    expect(team.find((member) => member.id === concierge.id)?.available).toBe(true);
    const otherView = availabilityResponse.parse((await get(context, await createPerson(context, 'concierge'), consoleUrl('/availability'))).json());
    expect(otherView.team.find((member) => member.id === concierge.id)?.available).toBe(true);
    expect(otherView.me.available).toBe(false);
  });

  it('respects each cap, and assigns the waiting request once a completion or a raised cap makes room', async () => {
    await everyoneAwayAndQueueEmpty(context);
    const admin = await createPerson(context, 'admin');
    await setDefaultCap(admin, 1);
    const employee = await createPerson(context);
    const concierge = await createPerson(context, 'concierge');
    await setAvailable(context.app, concierge, true);

    const [held, waiting, later] = await fileRequests(employee, 3, 'Capped');
    await assignWaitingRequests(context.db, APP_URL());
    expect((await assigneeOf(context, held)).assigneeUserId).toBe(concierge.id);
    expect(await assigneeOf(context, waiting)).toEqual({ assigneeUserId: null, status: 'open' });

    // Completing the one held makes room for the next waiting one (oldest first).
    const completed = await post(context, concierge, consoleUrl(`/requests/${held}/status`), { status: 'closed' });
    expect(completed.statusCode, completed.body).toBe(200);
    expect((await assigneeOf(context, waiting)).assigneeUserId).toBe(concierge.id);
    expect((await assigneeOf(context, later)).assigneeUserId).toBeNull();

    // The admin raises this concierge's own cap: the last one goes to them too.
    const raised = await adminCall(context, admin, 'PATCH', `/assignment/staff/${concierge.id}`, { cap_override: 2 });
    expect(raised.statusCode, raised.body).toBe(200);
    expect(staffCapResponse.parse(raised.json()).staff_member).toMatchObject({ id: concierge.id, cap_override: 2, open_request_cap: 2, open_requests: 2 });
    expect((await assigneeOf(context, later)).assigneeUserId).toBe(concierge.id);

    const { events } = await auditLog(context, admin, { subject_type: 'account', subject_id: concierge.id });
    expect(events[0]).toMatchObject({ action: 'account.cap_change', changes: { open_request_cap: { before: null, after: 2 } } });
    const defaults = await auditLog(context, admin, { action: 'assignment.default_cap_change' });
    expect(defaults.events[0]).toMatchObject({ actor: { id: admin.id }, changes: { default_open_request_cap: { after: 1 } } });
  });
});

describe('claims', () => {
  it('lets exactly one of two concierges claiming at once win; the other is told who came first', async () => {
    await everyoneAwayAndQueueEmpty(context);
    const employee = await createPerson(context);
    const casey = await createPerson(context, 'concierge', { firstName: 'Casey', lastName: 'Concierge' });
    const robin = await createPerson(context, 'concierge', { firstName: 'Robin', lastName: 'Second' });
    for (let round = 0; round < 5; round += 1) {
      const requestId = await createRequest(context, employee);
      const answers = await Promise.all([casey, robin].map((person) => post(context, person, consoleUrl(`/requests/${requestId}/claim`))));
      const statuses = answers.map((answer) => answer.statusCode).sort();
      expect(statuses).toEqual([200, 409]);
      const winner = answers[0].statusCode === 200 ? casey : robin;
      const loser = winner === casey ? answers[1] : answers[0];
      expect(errorOf(loser)).toBe(claimedFirstMessage(`${winner.firstName} ${winner.lastName}`));
      expect((await assigneeOf(context, requestId)).assigneeUserId).toBe(winner.id);
      const assignments = await context.db
        .select()
        .from(requestEvents)
        .where(and(eq(requestEvents.requestId, requestId), eq(requestEvents.kind, 'assigned')));
      expect(assignments).toHaveLength(1);
    }
  });

  it('still lets a concierge reassign a claimed request on purpose, and claiming one’s own changes nothing', async () => {
    const employee = await createPerson(context);
    const [casey, robin] = [await createPerson(context, 'concierge'), await createPerson(context, 'concierge')];
    const requestId = await createRequest(context, employee);
    expect((await post(context, casey, consoleUrl(`/requests/${requestId}/claim`))).statusCode).toBe(200);
    expect((await post(context, casey, consoleUrl(`/requests/${requestId}/claim`))).statusCode).toBe(200);
    const reassigned = await post(context, casey, consoleUrl(`/requests/${requestId}/assign`), { assignee_id: robin.id });
    expect(reassigned.statusCode).toBe(200);
    expect((await assigneeOf(context, requestId)).assigneeUserId).toBe(robin.id);
  });
});

describe('two server processes on one database', () => {
  let second: Awaited<ReturnType<typeof secondServerOn>>;
  beforeAll(async () => {
    second = await secondServerOn(context);
  });
  afterAll(async () => {
    await second.close();
  });

  it('assign every waiting request once, in turn, within the caps, however their runs interleave', async () => {
    await everyoneAwayAndQueueEmpty(context);
    const admin = await createPerson(context, 'admin');
    await setDefaultCap(admin, 4);
    const employee = await createPerson(context);
    const team = [await createPerson(context, 'concierge'), await createPerson(context, 'concierge'), await createPerson(context, 'concierge')];
    const filed = await fileRequests(employee, 15, 'Busy day');

    // Everyone comes back at once, half through each process, while both processes also run assignment.
    await Promise.all([
      ...team.map((person, index) => setAvailable(index % 2 === 0 ? context.app : second.app, person, true)),
      ...Array.from({ length: 4 }, (_, index) => assignWaitingRequests(index % 2 === 0 ? context.db : second.db, APP_URL())),
    ]);

    const rows = await Promise.all(filed.map((requestId) => assigneeOf(context, requestId)));
    const assigned = rows.filter((row) => row.assigneeUserId !== null);
    // 3 concierges × cap 4: twelve go, the three newest wait.
    expect(assigned).toHaveLength(12);
    for (const person of team) expect(assigned.filter((row) => row.assigneeUserId === person.id)).toHaveLength(4);
    expect(rows.slice(12).every((row) => row.assigneeUserId === null && row.status === 'open')).toBe(true);
    for (const requestId of filed) {
      const assignments = await context.db
        .select()
        .from(requestEvents)
        .where(and(eq(requestEvents.requestId, requestId), eq(requestEvents.kind, 'assigned')));
      expect(assignments.length).toBeLessThanOrEqual(1);
    }
  });

  it('let exactly one of two claims through two processes win', async () => {
    const employee = await createPerson(context);
    const [casey, robin] = [await createPerson(context, 'concierge'), await createPerson(context, 'concierge')];
    const requestId = await createRequest(context, employee);
    const answers = await Promise.all([
      context.app.inject({ method: 'POST', url: consoleUrl(`/requests/${requestId}/claim`), headers: casey.headers }),
      second.app.inject({ method: 'POST', url: consoleUrl(`/requests/${requestId}/claim`), headers: robin.headers }),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
  });
});

describe('who may set availability and caps', () => {
  it('keeps availability to staff and caps to admins, and names the field of bad input', async () => {
    const employee = await createPerson(context);
    const concierge = await createPerson(context, 'concierge');
    const admin = await createPerson(context, 'admin');
    for (const [method, payload] of [['GET', undefined], ['PUT', { available: true }]] as const) {
      const asEmployee = await context.app.inject({ method, url: consoleUrl('/availability'), headers: employee.headers, ...(payload ? { payload } : {}) });
      expect(asEmployee.statusCode).toBe(403);
      expect((await context.app.inject({ method, url: consoleUrl('/availability'), ...(payload ? { payload } : {}) })).statusCode).toBe(401);
    }
    await expectAdminsOnly(context, { employee, concierge }, [
      ['GET', '/assignment'],
      ['PUT', '/assignment', { default_open_request_cap: 3 }],
      ['GET', '/assignment/staff'],
      ['PATCH', `/assignment/staff/${concierge.id}`, { cap_override: 3 }],
    ]);

    const badAvailability = await context.app.inject({ method: 'PUT', url: consoleUrl('/availability'), headers: concierge.headers, payload: { available: 'yes' } });
    expect(badAvailability.statusCode).toBe(422);
    expect(Object.keys(badAvailability.json().fields)).toEqual(['available']);
    const badDefault = await adminCall(context, admin, 'PUT', '/assignment', { default_open_request_cap: 501 });
    expect(badDefault.statusCode).toBe(422);
    expect(badDefault.json().fields).toEqual({ default_open_request_cap: OPEN_REQUEST_CAP_ERROR });
    const badCap = await adminCall(context, admin, 'PATCH', `/assignment/staff/${concierge.id}`, { cap_override: -1 });
    expect(badCap.json().fields).toEqual({ cap_override: OPEN_REQUEST_CAP_ERROR });
    expect((await adminCall(context, admin, 'PATCH', `/assignment/staff/${employee.id}`, { cap_override: 2 })).statusCode).toBe(404);

    const list = staffCapsResponse.parse((await adminCall(context, admin, 'GET', '/assignment/staff')).json()).staff;
    expect(list.map((member) => member.id)).toEqual(expect.arrayContaining([concierge.id, admin.id]));
    expect(list.map((member) => member.id)).not.toContain(employee.id);
  });
});
