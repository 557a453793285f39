import { expect } from 'vitest';
import { companies, requests, userCompanies, users } from '../../server/db/schema.ts';
import { createSession } from '../../server/domain/accounts/sessions.ts';
import { AUTHORIZATION_HEADER } from '../../src/contract/common.ts';
import type { TestContext } from './harness.ts';
import { uniqueEmail } from './helpers.ts';

/** People, requests and files for the request, console and live-update tests, made as directly as possible. */

export type Role = 'employee' | 'concierge' | 'admin' | 'employer_admin';

export interface Person {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  headers: Record<string, string>;
}

let personCounter = 0;

/** A user with a live session; staff belong to no company, employees to `company` when given. */
export async function createPerson(
  context: TestContext,
  role: Role = 'employee',
  profile: { firstName?: string; lastName?: string; companyName?: string } = {},
): Promise<Person> {
  personCounter += 1;
  const firstName = profile.firstName ?? (role === 'employee' ? 'Erin' : 'Casey');
  const lastName = profile.lastName ?? `${role === 'employee' ? 'Employee' : 'Concierge'}${personCounter}`;
  const email = uniqueEmail(role);
  const [user] = await context.db
    .insert(users)
    .values({ email, passwordHash: 'not used: these users sign in by session', firstName, lastName, role })
    .returning({ id: users.id });
  if (profile.companyName) {
    const [company] = await context.db
      .insert(companies)
      .values({ slug: `company-${personCounter}-${Date.now().toString(36)}`, name: profile.companyName })
      .returning({ id: companies.id });
    await context.db.insert(userCompanies).values({ userId: user.id, companyId: company.id });
  }
  const { token } = await createSession(context.db, user.id);
  return { id: user.id, email, firstName, lastName, headers: { [AUTHORIZATION_HEADER]: `Bearer ${token}` } };
}

/** A request of `owner`, as a submitted survey would leave it (open unless told). */
export async function createRequest(
  context: TestContext,
  owner: Person,
  values: Partial<Pick<typeof requests.$inferInsert, 'name' | 'status' | 'details' | 'issuedAt' | 'assigneeUserId' | 'userRequestSurveyId'>> = {},
): Promise<number> {
  const [row] = await context.db
    .insert(requests)
    .values({ userId: owner.id, name: 'Find a dog walker', ...values })
    .returning({ id: requests.id });
  return row.id;
}

export function get(context: TestContext, person: Person | null, url: string) {
  return context.app.inject({ method: 'GET', url, headers: person?.headers ?? {} });
}

export function post(context: TestContext, person: Pick<Person, 'headers'> | null, url: string, payload?: object) {
  return context.app.inject({ method: 'POST', url, headers: person?.headers ?? {}, ...(payload ? { payload } : {}) });
}

export const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('0000000d49484452000000010000000108060000001f15c489', 'hex'),
  Buffer.from('a tiny picture, byte for byte'),
]);
export const PDF = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

/** Presigns (optionally for a request) and, unless `store` is false, PUTs the bytes; returns the key. */
export async function uploadFile(
  context: TestContext,
  person: Pick<Person, 'headers'>,
  { filename = 'photo.png', bytes = PNG, requestId, store = true }: { filename?: string; bytes?: Buffer; requestId?: number; store?: boolean } = {},
): Promise<string> {
  const presign = await post(context, person, '/api/v1/uploads/presigned_url', {
    upload: { filename },
    ...(requestId === undefined ? {} : { request_id: requestId }),
  });
  expect(presign.statusCode, presign.body).toBe(200);
  const { presigned_url: url, key } = presign.json<{ presigned_url: string; key: string }>();
  if (store) {
    const put = await context.app.inject({ method: 'PUT', url, payload: bytes });
    expect(put.statusCode, put.body).toBe(204);
  }
  return key;
}

export function expiringUrl(context: TestContext, person: Person, key: string) {
  return context.app.inject({ method: 'GET', url: '/api/v1/uploads/expiring_url', query: { key }, headers: person.headers });
}

/** The employee's message payload of SPEC §7. */
export function employeeMessage(body: string, attachmentKeys?: string[]) {
  return {
    message: { body, source: 'user', source_name: 'Whatever the client says', ...(attachmentKeys ? { attachment_keys: attachmentKeys } : {}) },
  };
}
