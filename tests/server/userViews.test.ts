import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import type { App } from '../../server/app.ts';
import { companies, requests, userCompanies, users } from '../../server/db/schema.ts';
import { createUserViews } from '../../server/domain/realtime/userViews.ts';
import type { User } from '../../src/contract/account.ts';
import type { Request } from '../../src/contract/requests.ts';
import { suiteContext, testEngine } from './harness.ts';
import { expectSeenByAnotherProcess, handHub } from './realtime.helpers.ts';
import { type Person, createPerson, createRequest, employeeMessage, get, post } from './requests.helpers.ts';

/**
 * The employee's everyday reads (users/current, the request lists, the survey's next question) come from a
 * per-process cache (server/domain/realtime/userViews.ts). Whatever caching does, a change is seen at the next
 * read: the caller's own at once, anyone else's (another user, another process, a statement) as soon as the database
 * has announced it.
 */
const context = suiteContext();

// PGlite hands a trigger's notice over as the statement commits; PostgreSQL delivers it a moment later.
const soon = { timeout: 2_000, interval: 5 };

async function currentUser(person: Person): Promise<User> {
  const response = await get(context, person, '/api/v1/users/current');
  expect(response.statusCode, response.body).toBe(200);
  return response.json().user;
}

async function openRequests(person: Person): Promise<Request[]> {
  const response = await get(context, person, '/api/v1/requests/open');
  expect(response.statusCode, response.body).toBe(200);
  return response.json().requests;
}

/** Reads twice, so that the second read is served from the cache if it can be. */
async function cached<Value>(read: () => Promise<Value>): Promise<Value> {
  await read();
  return read();
}

async function employeeWithRequest() {
  const employee = await createPerson(context, 'employee', { companyName: 'Initech' });
  const requestId = await createRequest(context, employee, { name: 'Book the car service' });
  return { employee, requestId };
}

describe('the caller sees their own writes at the next read', () => {
  it('a message they post is in their open list, and their request count follows a new request', async () => {
    const { employee, requestId } = await employeeWithRequest();
    expect((await cached(() => openRequests(employee)))[0].messages).toEqual([]);
    expect((await cached(() => currentUser(employee))).request_count).toBe(1);
    const posted = await post(context, employee, `/api/v1/requests/${requestId}/messages`, employeeMessage('Saturday works best'));
    expect(posted.statusCode, posted.body).toBe(201);
    const [request] = await openRequests(employee);
    expect(request.messages.map((message) => message.body_html)).toEqual(['<p>Saturday works best</p>']);
  });
});

describe('changes made by others reach the cache through the database', () => {
  it('a concierge’s reply at the next read, and a request closed by a statement as soon as it is announced', async () => {
    const { employee, requestId } = await employeeWithRequest();
    const concierge = await createPerson(context, 'concierge');
    await cached(() => openRequests(employee));
    const replied = await post(context, concierge, `/api/v1/console/requests/${requestId}/messages`, { body_markdown: 'On it' });
    expect(replied.statusCode, replied.body).toBe(201);
    // A staff member's write answers once this process has heard it: the employee's next read has it.
    expect((await openRequests(employee))[0].messages).toHaveLength(1);
    await context.db.update(requests).set({ status: 'closed' }).where(eq(requests.id, requestId));
    await vi.waitFor(async () => expect(await openRequests(employee)).toEqual([]), soon);
  });

  it('the account and its company changed by statements (an operator, the admin command)', async () => {
    const { employee } = await employeeWithRequest();
    expect((await cached(() => currentUser(employee))).full_name).toBe(`${employee.firstName} ${employee.lastName}`);
    await context.db.update(users).set({ firstName: 'Renamed' }).where(eq(users.id, employee.id));
    await vi.waitFor(async () => expect((await currentUser(employee)).full_name).toBe(`Renamed ${employee.lastName}`), soon);

    const [membership] = await context.db.select().from(userCompanies).where(eq(userCompanies.userId, employee.id));
    await context.db.update(users).set({ emailConfirmedAt: new Date() }).where(eq(users.id, employee.id));
    await vi.waitFor(async () => expect((await currentUser(employee)).companies.map((company) => company.name)).toEqual(['Initech']), soon);
    await context.db.update(companies).set({ name: 'Initrode' }).where(eq(companies.id, membership.companyId));
    await vi.waitFor(async () => expect((await currentUser(employee)).companies.map((company) => company.name)).toEqual(['Initrode']), soon);
  });
});

describe.runIf(testEngine === 'postgres')('two server processes on one database', () => {
  it('a message posted through one is in the list the other serves, as soon as the database has told it', async () => {
    const { employee, requestId } = await employeeWithRequest();
    const readOther = async (other: App): Promise<Request[]> =>
      (await other.inject({ method: 'GET', url: '/api/v1/requests/open', headers: employee.headers })).json().requests;
    await expectSeenByAnotherProcess(context, {
      cached: async (other) => expect((await cached(() => readOther(other)))[0].messages).toEqual([]),
      change: () => post(context, employee, `/api/v1/requests/${requestId}/messages`, employeeMessage('Any news?')),
      seen: async (other) => expect((await readOther(other))[0].messages).toHaveLength(1),
    });
  });
});

describe('the cache itself', () => {
  /** A read of one user's view that counts its loads. */
  function counted(views: ReturnType<typeof createUserViews>, userId: number) {
    let loads = 0;
    return {
      read: () => views.read(userId, 'current', async () => ({ userId, load: ++loads })),
      loads: () => loads,
    };
  }

  it('reads once, and again only after a notice about that user, everyone, or their credentials', async () => {
    const { hub, notify } = handHub();
    const views = createUserViews(hub);
    const first = counted(views, 1);
    const second = counted(views, 2);
    await cached(first.read);
    await cached(second.read);
    expect([first.loads(), second.loads()]).toEqual([1, 1]);

    notify({ type: 'views.changed', userId: 2 });
    await first.read();
    await second.read();
    expect([first.loads(), second.loads()]).toEqual([1, 2]);

    notify({ type: 'credentials.changed', userId: 1 });
    notify({ type: 'catalogue.changed' });
    await first.read();
    expect(first.loads()).toBe(2);

    notify({ type: 'views.changed', userId: null });
    await first.read();
    await second.read();
    expect([first.loads(), second.loads()]).toEqual([3, 3]);
    views.close();
  });

  it('does not keep a read a notice overtook, keeps nothing while notices cannot be heard, and stays bounded', async () => {
    const { hub, notify, setLive } = handHub();
    const views = createUserViews(hub, { maxEntries: 2 });
    const user = counted(views, 1);
    const reading = user.read();
    notify({ type: 'views.changed', userId: 1 });
    await reading;
    await user.read();
    expect(user.loads()).toBe(2);

    for (const userId of [2, 3, 4]) await counted(views, userId).read();
    await user.read();
    expect(user.loads()).toBe(3);

    setLive(false);
    await cached(user.read);
    expect(user.loads()).toBe(5);
    views.close();
  });
});
