import { expect } from 'vitest';
import { type ScimToken, scimTokenResponse } from '../../src/contract/scim.ts';
import { adminCall } from './admin.helpers.ts';
import type { TestContext } from './harness.ts';
import { createCompany } from './helpers.ts';
import type { Person } from './requests.helpers.ts';

let companyCounter = 0;

/** A company admitting `<slug>.test`, with a SCIM token an admin made for it through the admin area. */
export async function companyWithScimToken(context: TestContext, admin: Person, prefix = 'dir') {
  companyCounter += 1;
  const company = await createCompany(context, { slug: `${prefix}-${companyCounter}-${Date.now().toString(36)}` });
  const made = await adminCall(context, admin, 'POST', '/scim_tokens', { company_id: company.id });
  expect(made.statusCode, made.body).toBe(201);
  const token = scimTokenResponse.parse(made.json()).scim_token as ScimToken & { token: string };
  expect(token.token).toEqual(expect.any(String));
  return { company, token, domain: `${company.slug}.test` };
}

export type ScimMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A call to /scim/v2 as a directory makes it: the bearer token, application/scim+json bodies. */
export function scimCall(context: TestContext, token: string | null, method: ScimMethod, path: string, body?: unknown) {
  return context.app.inject({
    method,
    url: `/scim/v2${path}`,
    headers: {
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
      ...(body === undefined ? {} : { 'content-type': 'application/scim+json' }),
      accept: 'application/scim+json',
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
}
