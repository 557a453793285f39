import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestContext, testEngine } from './harness.ts';
import { companies, userCompanies, users } from '../../server/db/schema.ts';
import { employerAdmins } from '../../server/db/employer.schema.ts';
import { createSession } from '../../server/domain/accounts/sessions.ts';
import { AUTHORIZATION_HEADER } from '../../src/contract/common.ts';
import { type JsonSchema, type OpenApiDocument, mediaTypeOf, openApiPath } from '../../server/openapi/document.ts';
import { API_DOCS_PATH, OPENAPI_PATH, PUBLIC_API_PREFIX } from '../../server/plugins/openApi.ts';
import { type Person, type Role, createPerson, createRequest } from './requests.helpers.ts';
import { companyWithScimToken, scimCall } from './scim.helpers.ts';

/**
 * Property: no input, from anyone, gets a 5xx. Every operation of the OpenAPI document (/api/openapi.json, generated
 * from the routes' own schemas: one source for both) is sent inputs shaped by its parameters and body (so they get
 * past the first checks and reach the domain code), with hostile leaves: NUL and unpaired surrogates, huge and odd
 * numbers, wrong types, extra keys and deep nesting. The few /api routes the document leaves out (the dev outbox, the
 * disk store's signed addresses) are found through onRoute and sent the same hostile inputs, unshaped.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20261125);
/** Runs per route: 102 documented and 3 other routes x 300 = 31,500 inputs per engine. */
const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS ?? 300);

interface FuzzRoute {
  method: string;
  /** In the document's form: /api/v1/requests/{id}. */
  path: string;
  /** The query's parameters as one object schema, and the body's schema (JSON Schema of the document). */
  query: JsonSchema | null;
  body: JsonSchema | null;
}

const undocumentedRoutes: Array<Pick<FuzzRoute, 'method' | 'path'>> = [];
let routes: FuzzRoute[] = [];
let components: Record<string, JsonSchema> = {};
const statuses = new Map<number, number>();
let context: TestContext;
let identities: Array<Person | null>;
let roles: Map<Person, Role>;
let unconfirmed: Person;
/** Path values that name real records (a SCIM User's id), so that some inputs reach the code past the lookup. */
const knownPathValues: string[] = [];

/** The calls that send something to staff, which an unconfirmed address may never make (issue 33 point 3). */
const SENDS_TO_STAFF = new Set([
  'POST /api/v1/request_surveys/{id}/user_request_surveys',
  'POST /api/v1/user_request_surveys/{id}/submit',
  'POST /api/v1/requests/{id}/messages',
]);

/** The document's operations, each with its query parameters gathered into one object schema. */
function documentedRoutes(document: OpenApiDocument): FuzzRoute[] {
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, operation]) => {
      const parameters = (operation.parameters ?? []) as Array<{ name: string; in: string; schema: JsonSchema }>;
      const queryParameters = parameters.filter((parameter) => parameter.in === 'query');
      const requestBody = operation.requestBody as { content: Record<string, { schema: JsonSchema }> } | undefined;
      return {
        method: method.toUpperCase(),
        path,
        query: queryParameters.length > 0
          ? { type: 'object', properties: Object.fromEntries(queryParameters.map((parameter) => [parameter.name, parameter.schema])) }
          : null,
        body: requestBody?.content[mediaTypeOf(path)]?.schema ?? null,
      };
    }),
  );
}

beforeAll(async () => {
  context = await createTestContext(
    { AUTH_RATE_LIMIT: '1000000' },
    {
      onRoute: (route) => {
        // The document and its reference page read no input.
        if (!route.url.startsWith('/api/') || route.url.startsWith(PUBLIC_API_PREFIX) || route.url === OPENAPI_PATH || route.url.startsWith(API_DOCS_PATH)) return;
        for (const method of [route.method].flat()) {
          if (method !== 'HEAD') undocumentedRoutes.push({ method, path: openApiPath(route.url) });
        }
      },
    },
  );
  const document = (await context.app.inject({ method: 'GET', url: OPENAPI_PATH })).json<OpenApiDocument>();
  routes = documentedRoutes(document);
  components = document.components.schemas;
  const employee = await createPerson(context, 'employee', { companyName: 'Fuzz Inc' });
  const admin = await createPerson(context, 'admin');
  // An account whose address was never confirmed: it may read, and nothing it sends may reach staff (issue 33).
  unconfirmed = await createPerson(context, 'employee', { companyName: 'Fuzz Unconfirmed Inc' });
  await context.db.update(users).set({ emailConfirmedAt: null }).where(eq(users.id, unconfirmed.id));
  await createRequest(context, employee);
  await createRequest(context, unconfirmed);
  // A company's directory: its SCIM token is an identity of its own, and one member gives the SCIM paths a real id.
  const directory = await companyWithScimToken(context, admin, 'fuzz-directory');
  const member = await scimCall(context, directory.token.token!, 'POST', '/Users', { userName: `member@${directory.domain}` });
  knownPathValues.push((member.json() as { id: string }).id);
  const scimDirectory = { ...employee, id: 0, headers: { [AUTHORIZATION_HEADER]: `Bearer ${directory.token.token!}` } };
  // An employer admin of the employee's company (issue 29 part 3): every route but its report refuses it.
  const employerAdmin = await createPerson(context, 'employer_admin');
  const [{ companyId }] = await context.db.select({ companyId: userCompanies.companyId }).from(userCompanies).where(eq(userCompanies.userId, employee.id));
  await context.db.insert(employerAdmins).values({ userId: employerAdmin.id, companyId });
  identities = [null, employee, admin, unconfirmed, scimDirectory, employerAdmin];
  roles = new Map([[employee, 'employee'], [admin, 'admin'], [unconfirmed, 'employee'], [employerAdmin, 'employer_admin']]);
}, 120_000);

/** Every person gets back their role, an active account and company, and a fresh session. */
async function restorePeople() {
  await context.db.update(companies).set({ deactivatedAt: null });
  for (const [person, role] of roles) {
    await context.db.update(users).set({ role, deactivatedAt: null }).where(eq(users.id, person.id));
    const { token } = await createSession(context.db, person.id);
    person.headers = { [AUTHORIZATION_HEADER]: `Bearer ${token}` };
  }
}

afterAll(async () => {
  const summary = [...statuses.entries()].sort(([a], [b]) => a - b);
  const inputs = summary.reduce((total, [, count]) => total + count, 0);
  const serverErrors = summary.filter(([status]) => status >= 500).reduce((total, [, count]) => total + count, 0);
  console.info(
    `fuzz ${testEngine}: ${inputs} inputs, statuses {${summary.map(([status, count]) => `${status}: ${count}`).join(', ')}}, 5xx: ${serverErrors}`,
  );
  await context?.close();
});

const hostileText = fc.oneof(
  fc.constantFrom('', ' ', '\u0000', 'a\u0000b', '\ud800', 'x\udfffy', '\ud83d\ude00', '%00', "'; DROP TABLE users; --", '<script>alert(1)</script>', '../../etc/passwd', '1', '-1', '2147483648', '1e309', 'NaN', 'null', 'true', '{}', '[]'),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(5_000, 70_000, 300_000).map((length) => 'x'.repeat(length)),
);
const hostileNumber = fc.oneof(
  fc.constantFrom(0, -1, 1, 2_147_483_647, 2_147_483_648, Number.MAX_SAFE_INTEGER + 2, 1e308, -1e308, 0.5, -0.0),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
/**
 * JSON nested `depth` levels deep. It stays text until it is sent: no recursive walk (fast-check's printing of a failing
 * input, JSON.stringify) has to go that deep on the test's side.
 */
class DeeplyNested {
  readonly depth: number;
  constructor(depth: number) {
    this.depth = depth;
  }
  toJsonText(): string {
    return `${'{"data":['.repeat(this.depth / 2)}"bottom"${']}'.repeat(this.depth / 2)}`;
  }
  [fc.toStringMethod]() {
    return `<JSON nested ${this.depth} levels>`;
  }
}
const deeplyNested = fc.constantFrom(34, 200, 5_000, 100_000).map((depth) => new DeeplyNested(depth));

/** JSON.stringify, with deeply nested parts written as text. */
function toJsonText(value: unknown): string {
  if (value instanceof DeeplyNested) return value.toJsonText();
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    return `{${Object.entries(value).map(([key, child]) => `${JSON.stringify(key)}:${toJsonText(child)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileText,
  hostileNumber,
  fc.boolean(),
  fc.constant(null),
  fc.jsonValue({ maxDepth: 3 }),
  deeplyNested,
);

/** Mostly the shape the schema asks for, with hostile leaves; sometimes anything at all. */
function inputFor(schema: JsonSchema | null | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 8) return anyValue;
  if (typeof schema.$ref === 'string') return inputFor(components[schema.$ref.replace('#/components/schemas/', '')], depth + 1);
  const inner = (child: unknown) => inputFor(child as JsonSchema, depth + 1);
  const options = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  const types = [schema.type].flat().filter((type): type is string => typeof type === 'string');
  let shaped: fc.Arbitrary<unknown>;
  if (options) {
    shaped = fc.oneof(...options.map(inner));
  } else if ('const' in schema) {
    shaped = fc.constant(schema.const);
  } else if (Array.isArray(schema.enum)) {
    shaped = fc.constantFrom(...(schema.enum as unknown[]));
  } else if (types.length > 1) {
    shaped = fc.oneof(...types.map((type) => inner({ ...schema, type })));
  } else {
    switch (types[0]) {
      case 'object': {
        const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
        const fields = Object.fromEntries(Object.entries(properties).map(([key, child]) => [key, inner(child)]));
        const values = schema.additionalProperties && typeof schema.additionalProperties === 'object' ? inner(schema.additionalProperties) : anyValue;
        shaped = fc
          .tuple(fc.record(fields, { requiredKeys: [] }), fc.dictionary(hostileText, values, { maxKeys: Object.keys(properties).length > 0 ? 2 : 3 }))
          .map(([known, extra]) => ({ ...extra, ...known }));
        break;
      }
      case 'array':
        shaped = fc.array(inner(schema.items), { maxLength: 4 });
        break;
      case 'string':
        shaped = hostileText;
        break;
      case 'number':
      case 'integer':
        shaped = hostileNumber;
        break;
      case 'boolean':
        shaped = fc.boolean();
        break;
      case 'null':
        shaped = fc.constant(null);
        break;
      default:
        shaped = anyValue;
    }
  }
  return fc.oneof({ arbitrary: shaped, weight: 5 }, { arbitrary: anyValue, weight: 1 });
}

/** Path and query values travel as text: each leaf becomes a string, hostile bytes percent-encoded as a client would. */
function asText(value: unknown): string {
  const text = typeof value === 'string' ? value : toJsonText(value);
  return text.length > 2_000 ? text.slice(0, 2_000) : text;
}
function encodeText(text: string): string {
  // encodeURIComponent refuses unpaired surrogates; send their UTF-8-style bytes as a sloppy client would.
  return [...text].map((char) => (/\p{Surrogate}/u.test(char) ? '%ED%A0%80' : encodeURIComponent(char))).join('');
}

function requestFor(route: Pick<FuzzRoute, 'path'> & Partial<FuzzRoute>) {
  const paramNames = [...route.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
  const params = fc.tuple(
    ...paramNames.map(() =>
      fc.oneof(
        fc.constantFrom('1', '2', '0', '-1', '2147483648', '99999999999999999999', '1.5', 'abc', ...knownPathValues),
        // Longer path parameters are refused by the router (414) before any of the app's code runs.
        hostileText.map((text) => asText(text).slice(0, 30)),
      ),
    ),
  );
  const query = route.query ? inputFor(route.query) : fc.constant(undefined);
  const body = route.body ? inputFor(route.body) : fc.option(anyValue, { nil: undefined, freq: 4 });
  const rawBody = fc.constantFrom('{', '{"user":', 'not json', '\u0000', '{"a":"\\ud800"}', '[1,2', '"');
  return fc.record({
    identity: fc.nat({ max: 4 }),
    params,
    query,
    body: fc.oneof({ arbitrary: body.map((value) => ({ json: value })), weight: 9 }, { arbitrary: rawBody.map((raw) => ({ raw })), weight: 1 }),
  });
}

describe(`fuzz of every JSON route (${testEngine})`, () => {
  // ~37,000 inputs: about 5 minutes alone, over 10 when the e2e lane shares the two cores (npm test runs both at once).
  it('answers every input with a status below 500', { timeout: 1_200_000 }, async () => {
    expect(routes.length).toBeGreaterThan(70);
    expect(undocumentedRoutes.length).toBeGreaterThan(0);
    for (const route of [...routes, ...undocumentedRoutes]) {
      await fc.assert(
        fc.asyncProperty(requestFor(route), async ({ identity, params, query, body }) => {
          let pathIndex = 0;
          const path = route.path.replace(/\{(\w+)\}/g, () => encodeText(params[pathIndex++] ?? ''));
          const queryText =
            query && typeof query === 'object' && !Array.isArray(query)
              ? Object.entries(query).map(([key, value]) => `${encodeText(key)}=${encodeText(asText(value))}`).join('&')
              : '';
          const person = identities[identity];
          const hasBody = route.method !== 'GET' && route.method !== 'DELETE';
          const response = await context.app.inject({
            method: route.method as 'GET',
            url: queryText ? `${path}?${queryText}` : path,
            headers: { ...(person?.headers ?? {}), ...(hasBody ? { 'content-type': mediaTypeOf(route.path) } : {}) },
            ...(hasBody && 'raw' in body ? { payload: body.raw } : {}),
            ...(hasBody && 'json' in body && body.json !== undefined ? { payload: toJsonText(body.json) } : {}),
          });
          statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
          // A sign-out ends the session the next inputs would use: they get a fresh one.
          if (person && route.path.endsWith('/sign_out') && response.statusCode === 200) {
            const { token } = await createSession(context.db, person.id);
            person.headers = { [AUTHORIZATION_HEADER]: `Bearer ${token}` };
          }
          // The admin area may demote or deactivate the fuzz's own people or company: they are put back as they were.
          if (route.path.startsWith('/api/v1/admin/') && route.method !== 'GET' && response.statusCode < 300) await restorePeople();
          if (person === unconfirmed && SENDS_TO_STAFF.has(`${route.method} ${route.path}`) && response.statusCode < 300) {
            throw new Error(`${route.method} ${route.path} let an unconfirmed address send to staff: ${response.statusCode}`);
          }
          if (response.statusCode >= 500) {
            throw new Error(`${route.method} ${route.path} answered ${response.statusCode}: ${response.body.slice(0, 300)}`);
          }
        }),
        { numRuns: RUNS_PER_ROUTE, seed: SEED, endOnFailure: true },
      );
    }
  });
});
