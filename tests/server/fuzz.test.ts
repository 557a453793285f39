import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestContext, testEngine } from './harness.ts';
import { companies, users } from '../../server/db/schema.ts';
import { createSession } from '../../server/domain/accounts/sessions.ts';
import { AUTHORIZATION_HEADER } from '../../src/contract/common.ts';
import { type Person, type Role, createPerson, createRequest } from './requests.helpers.ts';

/**
 * Property: no input, from anyone, gets a 5xx. Every JSON route the app registers is found through onRoute and sent
 * inputs shaped by its own schemas (so they get past the first checks and reach the domain code), with hostile
 * leaves: NUL and unpaired surrogates, huge and odd numbers, wrong types, extra keys and deep nesting.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20261125);
/** Runs per route: 84 routes x 300 = 25,200 inputs per engine, about 25 s on this 2-core machine. */
const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS ?? 300);

interface FuzzRoute {
  method: string;
  url: string;
  schema: RouteOptions['schema'];
}

const routes: FuzzRoute[] = [];
const statuses = new Map<number, number>();
let context: TestContext;
let identities: Array<Person | null>;
let roles: Map<Person, Role>;
let unconfirmed: Person;

/** The calls that send something to staff, which an unconfirmed address may never make (issue 33 point 3). */
const SENDS_TO_STAFF = new Set([
  'POST /api/v1/request_surveys/:id/user_request_surveys',
  'POST /api/v1/user_request_surveys/:id/submit',
  'POST /api/v1/requests/:id/messages',
]);

beforeAll(async () => {
  context = await createTestContext(
    { AUTH_RATE_LIMIT: '1000000' },
    {
      onRoute: (route) => {
        for (const method of [route.method].flat()) {
          if (method !== 'HEAD') routes.push({ method, url: route.url, schema: route.schema });
        }
      },
    },
  );
  const employee = await createPerson(context, 'employee', { companyName: 'Fuzz Inc' });
  const admin = await createPerson(context, 'admin');
  // An account whose address was never confirmed: it may read, and nothing it sends may reach staff (issue 33).
  unconfirmed = await createPerson(context, 'employee', { companyName: 'Fuzz Unconfirmed Inc' });
  await context.db.update(users).set({ emailConfirmedAt: null }).where(eq(users.id, unconfirmed.id));
  await createRequest(context, employee);
  await createRequest(context, unconfirmed);
  identities = [null, employee, admin, unconfirmed];
  roles = new Map([[employee, 'employee'], [admin, 'admin'], [unconfirmed, 'employee']]);
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

/** The parts of zod's internal definition this generator reads. */
interface SchemaDef {
  type: string;
  shape?: Record<string, { _zod: { def: SchemaDef } }>;
  innerType?: { _zod: { def: SchemaDef } };
  in?: { _zod: { def: SchemaDef } };
  element?: { _zod: { def: SchemaDef } };
  options?: Array<{ _zod: { def: SchemaDef } }>;
  valueType?: { _zod: { def: SchemaDef } };
  values?: unknown[];
  entries?: Record<string, unknown>;
}

function defOf(schema: unknown): SchemaDef | null {
  return (schema as { _zod?: { def?: SchemaDef } } | undefined)?._zod?.def ?? null;
}

/** Mostly the shape the schema asks for, with hostile leaves; sometimes anything at all. */
function inputFor(def: SchemaDef | null, depth = 0): fc.Arbitrary<unknown> {
  if (!def || depth > 6) return anyValue;
  const inner = (schema: { _zod: { def: SchemaDef } } | undefined) => inputFor(schema?._zod.def ?? null, depth + 1);
  let shaped: fc.Arbitrary<unknown>;
  switch (def.type) {
    case 'object': {
      const fields = Object.fromEntries(Object.entries(def.shape ?? {}).map(([key, child]) => [key, inner(child)]));
      shaped = fc
        .tuple(fc.record(fields, { requiredKeys: [] }), fc.dictionary(fc.string({ maxLength: 8 }), anyValue, { maxKeys: 2 }))
        .map(([known, extra]) => ({ ...extra, ...known }));
      break;
    }
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
      return inner(def.innerType);
    case 'pipe':
      return inner(def.in);
    case 'array':
      shaped = fc.array(inner(def.element), { maxLength: 4 });
      break;
    case 'record':
      shaped = fc.dictionary(hostileText, inner(def.valueType), { maxKeys: 3 });
      break;
    case 'union':
      shaped = fc.oneof(...(def.options ?? []).map((option) => inner(option)));
      break;
    case 'literal':
      shaped = fc.constantFrom(...(def.values ?? [null]));
      break;
    case 'enum':
      shaped = fc.constantFrom(...Object.values(def.entries ?? { none: null }));
      break;
    case 'string':
      shaped = hostileText;
      break;
    case 'number':
    case 'int':
      shaped = hostileNumber;
      break;
    case 'boolean':
      shaped = fc.boolean();
      break;
    default:
      shaped = anyValue;
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

function requestFor(route: FuzzRoute) {
  const schema = (route.schema ?? {}) as { body?: unknown; querystring?: unknown; params?: unknown };
  const paramNames = [...route.url.matchAll(/:(\w+)/g)].map((match) => match[1]);
  const params = fc.tuple(
    ...paramNames.map(() =>
      fc.oneof(
        fc.constantFrom('1', '2', '0', '-1', '2147483648', '99999999999999999999', '1.5', 'abc'),
        // Longer path parameters are refused by the router (414) before any of the app's code runs.
        hostileText.map((text) => asText(text).slice(0, 30)),
      ),
    ),
  );
  const query = schema.querystring ? inputFor(defOf(schema.querystring)) : fc.constant(undefined);
  const body = schema.body ? inputFor(defOf(schema.body)) : fc.option(anyValue, { nil: undefined, freq: 4 });
  const rawBody = fc.constantFrom('{', '{"user":', 'not json', '\u0000', '{"a":"\\ud800"}', '[1,2', '"');
  return fc.record({
    identity: fc.nat({ max: 3 }),
    params,
    query,
    body: fc.oneof({ arbitrary: body.map((value) => ({ json: value })), weight: 9 }, { arbitrary: rawBody.map((raw) => ({ raw })), weight: 1 }),
  });
}

describe(`fuzz of every JSON route (${testEngine})`, () => {
  it('answers every input with a status below 500', { timeout: 600_000 }, async () => {
    const fuzzed = routes.filter((route) => route.url.startsWith('/api/'));
    expect(fuzzed.length).toBeGreaterThan(40);
    for (const route of fuzzed) {
      await fc.assert(
        fc.asyncProperty(requestFor(route), async ({ identity, params, query, body }) => {
          let pathIndex = 0;
          const path = route.url.replace(/:(\w+)/g, () => encodeText(params[pathIndex++] ?? ''));
          const queryText =
            query && typeof query === 'object' && !Array.isArray(query)
              ? Object.entries(query).map(([key, value]) => `${encodeText(key)}=${encodeText(asText(value))}`).join('&')
              : '';
          const person = identities[identity];
          const hasBody = route.method !== 'GET' && route.method !== 'DELETE';
          const response = await context.app.inject({
            method: route.method as 'GET',
            url: queryText ? `${path}?${queryText}` : path,
            headers: { ...(person?.headers ?? {}), ...(hasBody ? { 'content-type': 'application/json' } : {}) },
            ...(hasBody && 'raw' in body ? { payload: body.raw } : {}),
            ...(hasBody && 'json' in body && body.json !== undefined ? { payload: toJsonText(body.json) } : {}),
          });
          statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
          // A sign-out ends the session the next inputs would use: they get a fresh one.
          if (person && route.url.endsWith('/sign_out') && response.statusCode === 200) {
            const { token } = await createSession(context.db, person.id);
            person.headers = { [AUTHORIZATION_HEADER]: `Bearer ${token}` };
          }
          // The admin area may demote or deactivate the fuzz's own people or company: they are put back as they were.
          if (route.url.startsWith('/api/v1/admin/') && route.method !== 'GET' && response.statusCode < 300) await restorePeople();
          if (person === unconfirmed && SENDS_TO_STAFF.has(`${route.method} ${route.url}`) && response.statusCode < 300) {
            throw new Error(`${route.method} ${route.url} let an unconfirmed address send to staff: ${response.statusCode}`);
          }
          if (response.statusCode >= 500) {
            throw new Error(`${route.method} ${route.url} answered ${response.statusCode}: ${response.body.slice(0, 300)}`);
          }
        }),
        { numRuns: RUNS_PER_ROUTE, seed: SEED, endOnFailure: true },
      );
    }
  });
});
