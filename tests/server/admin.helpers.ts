import { expect } from 'vitest';
import { type AuditEvent, type AuditQuery, auditResponse } from '../../src/contract/admin.ts';
import type { TestContext } from './harness.ts';
import type { Person } from './requests.helpers.ts';

/** Calls and checks shared by the admin-area suites. */

export const adminUrl = (path: string) => `/api/v1/admin${path}`;

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT';

/** A call to the admin area as `person` (null: a visitor). */
export function adminCall(context: TestContext, person: Pick<Person, 'headers'> | null, method: Method, path: string, payload?: object) {
  return context.app.inject({ method, url: adminUrl(path), headers: person?.headers ?? {}, ...(payload ? { payload } : {}) });
}

/** The audit log as an admin reads it, newest first. */
export async function auditLog(context: TestContext, admin: Person, query: AuditQuery = {}): Promise<{ events: AuditEvent[]; next_cursor: number | null }> {
  const response = await context.app.inject({
    method: 'GET',
    url: adminUrl('/audit'),
    query: Object.fromEntries(Object.entries(query).map(([key, value]) => [key, String(value)])),
    headers: admin.headers,
  });
  expect(response.statusCode, response.body).toBe(200);
  return auditResponse.parse(response.json());
}

/** Every route refuses a visitor (401), an employee and a concierge (403), and what they sent changes nothing. */
export async function expectAdminsOnly(
  context: TestContext,
  outsiders: { employee: Person; concierge: Person },
  routes: ReadonlyArray<readonly [method: Method, path: string, payload?: object]>,
) {
  for (const [method, path, payload] of routes) {
    expect((await adminCall(context, null, method, path, payload)).statusCode, `${method} ${path} as a visitor`).toBe(401);
    for (const [role, person] of Object.entries(outsiders)) {
      const response = await adminCall(context, person, method, path, payload);
      expect(response.statusCode, `${method} ${path} as ${role}`).toBe(403);
      expect(response.json()).toEqual({ error: 'This area is for administrators only.' });
    }
  }
}
