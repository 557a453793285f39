import { eq, inArray } from 'drizzle-orm';
import { expect } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { type DatabaseHandle, openDatabase } from '../../server/db/client.ts';
import { staffAssignment } from '../../server/db/assignment.schema.ts';
import { requests } from '../../server/db/schema.ts';
import { availabilityResponse } from '../../src/contract/assignment.ts';
import type { TestContext } from './harness.ts';
import type { Person } from './requests.helpers.ts';

/** Calls and set-ups of the assignment suites. */

/**
 * A second server process on the context's database: its own app and, on PostgreSQL, its own connection pool (on
 * PGlite, which one process owns, the same handle).
 */
export async function secondServerOn(context: TestContext) {
  const database: DatabaseHandle = context.database.url ? await openDatabase({ url: context.database.url }) : context.database;
  const app = await buildApp({ config: context.config, database });
  await app.ready();
  return {
    app,
    db: database.db,
    async close() {
      await app.close();
      if (database !== context.database) await database.close();
    },
  };
}

export async function setAvailable(app: TestContext['app'], person: Person, available: boolean) {
  const response = await app.inject({ method: 'PUT', url: '/api/v1/console/availability', headers: person.headers, payload: { available } });
  expect(response.statusCode, response.body).toBe(200);
  return availabilityResponse.parse(response.json());
}

/** A clean slate for a test in a shared suite: nobody available, nothing waiting. */
export async function everyoneAwayAndQueueEmpty(context: TestContext) {
  await context.db.update(staffAssignment).set({ available: false });
  await context.db.update(requests).set({ status: 'closed', closedAt: new Date() }).where(inArray(requests.status, ['open', 'in_progress']));
}

export async function assigneeOf(context: TestContext, requestId: number) {
  const [row] = await context.db.select({ assigneeUserId: requests.assigneeUserId, status: requests.status }).from(requests).where(eq(requests.id, requestId));
  return row;
}
