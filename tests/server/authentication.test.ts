import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../server/db/schema.ts';
import { EMAIL_CONFIRMATION_REQUIRED_ERROR } from '../../server/domain/accounts/emailConfirmation.ts';
import { API_DOCS_PATH, OPENAPI_PATH, SCALAR_PATH } from '../../server/plugins/openApi.ts';
import { type TestContext, createTestContext } from './harness.ts';
import { createPerson } from './requests.helpers.ts';

/**
 * Safe by default: every API route needs a session, except the few a signed-out visitor must reach, and a caller
 * without one is refused before the body is read (a 401, never the validation error of what it sent).
 */

/** The routes a caller without a session may use, each for a reason of its own. */
const PUBLIC_ROUTES = new Set([
  // How a session is made: signing in, signing up.
  'POST /api/v1/users/sign_in',
  'POST /api/v1/users/sign_up',
  // The e-mailed links, opened in any browser: password reset (asked for, then used), unlock, confirmation.
  'POST /api/v1/users/password',
  'PUT /api/v1/users/password',
  'GET /api/v1/users/unlock',
  'GET /api/v1/users/confirmation',
  // Page views and errors of signed-out pages too (a valid session is attached when there is one).
  'POST /api/v1/analytics/events',
  'POST /api/v1/analytics/errors',
  // Authorised by what the address carries: the live-updates ticket, the storage signature.
  'GET /api/v1/events',
  'PUT /api/storage/:key',
  'GET /api/storage/:key',
  // Company logos uploaded in the admin area, for the <img> of 'Brought to you by', which sends no session.
  'GET /api/v1/company_logos/:key',
  // Category images uploaded in the admin area, shown by <img> on the offerings and request pages alike.
  'GET /api/v1/catalogue_images/:key',
  // Single sign-on (issue 29, sso.test.ts): discovery and the way to and from the company's identity provider, before
  // any session; the one-time code of the callback is what authorises its exchange for one.
  'POST /api/v1/sso/discover',
  'GET /api/v1/sso/start',
  'GET /api/v1/sso/callback',
  'POST /api/v1/sso/session',
  // A completion e-mail's rating link (issue 28, ratings.test.ts): its signed token is the permission, and reading it
  // writes nothing.
  'GET /api/v1/rating_links/:id',
  'PUT /api/v1/rating_links/:id',
  // The development outbox, which production does not have (accounts.outbox.test.ts).
  'GET /api/dev/outbox',
  // The test runs' turnaround clock, loopback only and absent from production like the outbox (devClock.test.ts).
  'POST /api/dev/clock',
  // The API's own description and its reference page, for integrators before they have an account (issue 30).
  `GET ${OPENAPI_PATH}`,
  `GET ${API_DOCS_PATH}`,
  `GET ${SCALAR_PATH}`,
]);

/** The routes that send something to staff under the caller's address: only a confirmed address may use them. */
const SENDS_TO_STAFF = new Set([
  'POST /api/v1/request_surveys/:id/user_request_surveys',
  'POST /api/v1/user_request_surveys/:id/submit',
  'POST /api/v1/requests/:id/messages',
]);

interface RegisteredRoute {
  method: string;
  url: string;
}

const routes: RegisteredRoute[] = [];
let context: TestContext;

beforeAll(async () => {
  context = await createTestContext(
    {},
    {
      onRoute: (route) => {
        for (const method of [route.method].flat()) {
          // The directories' SCIM endpoint (issue 29) takes a company's SCIM token instead, refused alike without one.
          if (method !== 'HEAD' && (route.url.startsWith('/api/') || route.url.startsWith('/scim/'))) routes.push({ method, url: route.url });
        }
      },
    },
  );
}, 120_000);

afterAll(() => context?.close());

describe('authentication', () => {
  it('refuses every route but the public ones to a caller without a session, whatever it sends', async () => {
    const answers: string[] = [];
    for (const { method, url } of routes) {
      const key = `${method} ${url}`;
      if (PUBLIC_ROUTES.has(key)) continue;
      const answer = await context.app.inject({
        method: method as 'GET',
        url: url.replace(/:\w+/g, 'not-a-valid-parameter'),
        ...(method === 'GET' || method === 'DELETE' ? {} : { payload: { unexpected: ['shape'] } }),
      });
      answers.push(`${key} ${answer.statusCode}`);
    }
    expect(answers.filter((line) => !line.endsWith(' 401'))).toEqual([]);
  });
});

describe('an unconfirmed address (issue 33 point 3)', () => {
  it('is refused exactly the routes that send to staff, before the body is read; a confirmed one reaches their checks', async () => {
    const unconfirmed = await createPerson(context);
    await context.db.update(users).set({ emailConfirmedAt: null }).where(eq(users.id, unconfirmed.id));
    const confirmed = await createPerson(context);
    const refusedTo = async (person: typeof confirmed) => {
      const refused: string[] = [];
      for (const { method, url } of routes) {
        // Reads send nothing; DELETE is sign-out, which would end the session the next calls use.
        if (method === 'GET' || method === 'DELETE') continue;
        const answer = await context.app.inject({
          method: method as 'POST',
          url: url.replace(/:\w+/g, '1'),
          headers: person.headers,
          payload: { unexpected: ['shape'] },
        });
        if (answer.statusCode === 422 && answer.json<{ error: string }>().error === EMAIL_CONFIRMATION_REQUIRED_ERROR) {
          refused.push(`${method} ${url}`);
        }
      }
      return refused.sort();
    };
    expect(await refusedTo(unconfirmed)).toEqual([...SENDS_TO_STAFF].sort());
    expect(await refusedTo(confirmed)).toEqual([]);
  });
});
