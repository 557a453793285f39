import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { suiteContext } from './harness.ts';
import { COMMITTED_DOCUMENT, documentText } from '../../server/openapi/generate.ts';
import { type OpenApiDocument, buildOpenApiDocument } from '../../server/openapi/document.ts';
import { ResponseMismatchError, createResponseCheck } from '../../server/openapi/responseCheck.ts';
import { errorBody, idParams } from '../../src/contract/common.ts';
import { requestResponse } from '../../src/contract/requests.ts';
import { createPerson } from './requests.helpers.ts';

const context = suiteContext();

async function servedDocument(): Promise<OpenApiDocument> {
  const response = await context.app.inject({ method: 'GET', url: '/api/openapi.json' });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  return response.json<OpenApiDocument>();
}

describe('the OpenAPI document (issue 30)', () => {
  it('is committed as docs/openapi.json exactly as the routes generate it', async () => {
    const fresh = documentText(await servedDocument());
    const committed = readFileSync(COMMITTED_DOCUMENT, 'utf8');
    // A changed route or contract without a new document: the message says what to do.
    expect(committed === fresh, 'docs/openapi.json is out of date: run `npm run openapi` and commit the file').toBe(true);
  });

  it('describes every public route, and neither the dev outbox nor the signed file addresses', async () => {
    const document = await servedDocument();
    expect(document.openapi).toMatch(/^3\.1\./);
    const paths = Object.keys(document.paths);
    expect(paths.every((path) => path.startsWith('/api/v1/') || path.startsWith('/scim/v2/'))).toBe(true);
    expect(paths).toContain('/api/v1/requests/{id}/messages');
    expect(Object.values(document.paths).flatMap(Object.keys).length).toBeGreaterThan(70);
  });

  it('says who may call each route, what refusals it answers and where an Idempotency-Key counts', async () => {
    const { paths, components } = await servedDocument();
    const postMessage = paths['/api/v1/requests/{id}/messages'].post;
    expect(postMessage.security).toEqual([{ session: [], mfaToken: [] }, { session: [] }]);
    // 403: an employer admin is refused every signed-in route but its report (issue 29 part 3).
    expect(Object.keys(postMessage.responses)).toEqual(['201', '400', '401', '403', '404', '413', '415', '422']);
    expect(paths['/api/v1/users/current'].get.responses).not.toHaveProperty('403');
    expect(paths['/api/v1/employer/report'].get.responses).toHaveProperty('403');
    expect(postMessage.parameters).toContainEqual(expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false }));
    expect(paths['/api/v1/console/staff'].get.responses).toHaveProperty('403');
    expect(paths['/api/v1/users/sign_in'].post.security).toEqual([]);
    expect(paths['/api/v1/users/sign_in'].post['x-ratelimit']).toEqual({ max: 20, window: '1 minute' });
    expect(paths['/api/v1/users/sign_in'].post.responses['429'].headers).toHaveProperty('retry-after');
    expect(paths['/api/v1/mfa/verify'].post.security).toEqual([{ session: [] }]);
    expect(components.securitySchemes).toMatchObject({ session: { type: 'http', scheme: 'bearer' }, mfaToken: { in: 'header', name: 'mfa-token' } });
    // The directories' SCIM endpoint (issue 29): its own token, media type and error bodies.
    expect(components.securitySchemes).toMatchObject({ scim: { type: 'http', scheme: 'bearer' } });
    expect(paths['/scim/v2/Users/{id}'].patch.security).toEqual([{ scim: [] }]);
    expect(Object.keys(paths['/scim/v2/Users'].post.responses)).toEqual(['201', '400', '401', '409', '413', '415']);
    expect(paths['/scim/v2/Users'].post.responses['409'].content).toHaveProperty(['application/scim+json']);
    // The contract's comments are the descriptions.
    expect(components.schemas.user.properties).toMatchObject({ initials: { description: expect.stringMatching(/^First letters/) } });
  });
});

describe('the reference page', () => {
  it('is served with its renderer from this server, under the same Content-Security-Policy', async () => {
    const page = await context.app.inject({ method: 'GET', url: '/api/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-security-policy']).toMatch(/script-src 'self'[;\s]/);
    const scripts = [...page.body.matchAll(/<script[^>]*src="([^"]+)"/g)].map(([, source]) => source);
    expect(scripts).toHaveLength(1);
    expect(scripts[0]).toMatch(/^\/api\/docs\/scalar-[\d.]+\.js$/);
    const bundle = await context.app.inject({ method: 'GET', url: scripts[0] });
    expect(bundle.statusCode).toBe(200);
    expect(bundle.headers['content-type']).toMatch(/^text\/javascript/);
  });
});

describe('the response check of test runs', () => {
  const route = {
    method: 'GET',
    url: '/api/v1/requests/:id',
    schema: { params: idParams, response: { 200: requestResponse, 404: errorBody } },
    rateLimit: null,
    guards: { session: true, staffOnly: false, adminOnly: false, employerAdminOnly: false, openToEmployerAdmin: false, confirmedEmail: false, skipMfa: false },
    otherSuccess: null,
  };

  it('refuses an answer whose body the document does not allow, and lets a documented one through', async () => {
    const check = createResponseCheck(await buildOpenApiDocument({ routes: [route], version: 'test' }), null);
    const answer = (status: number, body: unknown) => () =>
      check({ method: 'GET', path: '/api/v1/requests/{id}', status, contentType: 'application/json; charset=utf-8', payload: JSON.stringify(body) });
    expect(answer(404, { error: 'Request not found' })).not.toThrow();
    expect(answer(404, { message: 'Request not found' })).toThrow(ResponseMismatchError);
    expect(answer(200, { success: true, request: { id: 'one' } })).toThrow(/GET \/api\/v1\/requests\/\{id\} 200 answered a body/);
  });

  it('is on in the server suites: a real answer passes it', async () => {
    const person = await createPerson(context, 'employee');
    const response = await context.app.inject({ method: 'GET', url: '/api/v1/users/current', headers: person.headers });
    expect(response.statusCode).toBe(200);
  });
});
