/**
 * `node scripts/bench-scale.ts` (issue 31 point 2): the production server on a database filled by `npm run seed:scale`
 * (named by DATABASE_URL or TEST_DATABASE_URL; never dropped, the bench only signs in and begins surveys), and
 * every employee read of the SPEC at 1,000 req/s (p99 target 25 ms) and the console's queues and search at
 * 200 req/s (p99 target 50 ms), each driven by autocannon at that rate and then evenly paced (see runPaced), over
 * signed-in sessions of many employees (the heavy ones and the owners of long threads included) and concierges.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/scale node scripts/bench-scale.ts [--no-build] [--duration 10]
 *                                                            [--calls current,open,...] [--explain]
 *
 * `--explain` sends no load: it prints EXPLAIN (ANALYZE, BUFFERS) of every read those routes send to PostgreSQL, for
 * the known employee (heavy, with the 2,000-message thread) and a concierge (see explainCalls).
 */
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { openDatabase } from '../server/db/client.ts';
import { seedOfferingCatalogue } from '../server/db/seed/offeringCatalogue.ts';
import { seedSurveyCatalogue } from '../server/db/seed/surveyCatalogue.ts';
import { AUTHORIZATION_HEADER } from '../src/contract/common.ts';
import { THREAD_PAGE_SIZE } from '../src/contract/requests.ts';
import { KNOWN_EMPLOYEE_EMAIL, SCALE, SCALE_PASSWORD, scaleConciergeEmail, scaleEmployeeEmail } from './scaleData.ts';
import { type BenchCall, type Measured, root, runAutocannon, runPaced, startBenchServer, stopProcess } from './benchSupport.ts';

const { values: options } = parseArgs({
  options: {
    'no-build': { type: 'boolean', default: false },
    duration: { type: 'string', default: '10' },
    calls: { type: 'string' },
    explain: { type: 'boolean', default: false },
  },
});

const databaseUrl = process.env.DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (!databaseUrl) {
  console.error('bench-scale reads the database of `npm run seed:scale`: name it with DATABASE_URL or TEST_DATABASE_URL.');
  process.exit(2);
}

const DURATION_S = Number(options.duration);
const WARM_UP_S = 3;
const CONNECTIONS = 50;
const EMPLOYEE_RATE = 1000;
const EMPLOYEE_P99_MS = 25;
const CONSOLE_RATE = 200;
const CONSOLE_P99_MS = 50;
/** Employees signed in besides the heavy ones, spread over the whole population. */
const SPREAD_EMPLOYEES = 300;
/** Owners of 200-message threads signed in, for the older-messages call. */
const LONG_THREAD_OWNERS = 50;
/** "Anything else": a survey every caller begins, for next_screen_item (as bench-api). */
const SURVEY_TEMPLATE_ID = 1001;
const SIGN_IN_CONCURRENCY = 4;

interface Caller {
  headers: Record<string, string>;
  /** Their newest request (or their long thread), the one the request page reads. */
  requestId: number;
  /** The oldest message of the thread's newest page: the cursor of its first older page; null for a short thread. */
  olderCursor: number | null;
  surveySessionId: number;
}

interface Call extends BenchCall<Caller> {
  key: string;
  audience: 'employee' | 'console';
  /** Only the callers that have something for it (a long thread for the older page). */
  for?: (caller: Caller) => boolean;
}

/** Words the seeded messages and requests are made of (seed-scale.ts): searches that find something. */
const SEARCHES = ['car', 'passport', 'dentist', 'boiler', 'visa', 'mortgage', 'flight tickets', 'Employee 1234'];

const CALLS: Call[] = [
  { key: 'current', label: 'GET users/current', method: 'GET', audience: 'employee', path: () => '/api/v1/users/current' },
  { key: 'open', label: 'GET requests/open', method: 'GET', audience: 'employee', path: () => '/api/v1/requests/open' },
  { key: 'in_progress', label: 'GET requests/in_progress', method: 'GET', audience: 'employee', path: () => '/api/v1/requests/in_progress' },
  { key: 'completed', label: 'GET requests/completed', method: 'GET', audience: 'employee', path: () => '/api/v1/requests/completed' },
  { key: 'request', label: 'GET requests/:id (with its thread)', method: 'GET', audience: 'employee', path: (caller) => `/api/v1/requests/${caller.requestId}` },
  {
    key: 'older',
    label: 'GET requests/:id/messages?before= (long threads)',
    method: 'GET',
    audience: 'employee',
    path: (caller) => `/api/v1/requests/${caller.requestId}/messages?before=${caller.olderCursor}`,
    for: (caller) => caller.olderCursor !== null,
  },
  { key: 'offerings', label: 'GET offerings?types=benefit,product', method: 'GET', audience: 'employee', path: () => '/api/v1/offerings?types=benefit,product' },
  {
    key: 'next',
    label: 'GET next_screen_item',
    method: 'GET',
    audience: 'employee',
    path: (caller) => `/api/v1/user_request_surveys/${caller.surveySessionId}/next_screen_item`,
  },
  { key: 'queue', label: 'GET console/requests?queue=in_queue', method: 'GET', audience: 'console', path: () => '/api/v1/console/requests?queue=in_queue' },
  {
    key: 'queue_mine',
    label: 'GET console/requests?queue=in_progress_mine',
    method: 'GET',
    audience: 'console',
    path: () => '/api/v1/console/requests?queue=in_progress_mine',
  },
  { key: 'queue_progress', label: 'GET console/requests?queue=in_progress', method: 'GET', audience: 'console', path: () => '/api/v1/console/requests?queue=in_progress' },
  { key: 'queue_completed', label: 'GET console/requests?queue=completed', method: 'GET', audience: 'console', path: () => '/api/v1/console/requests?queue=completed' },
  {
    key: 'search',
    label: 'GET console/requests?queue=completed&q=',
    method: 'GET',
    audience: 'console',
    path: (_, n) => `/api/v1/console/requests?queue=completed&q=${encodeURIComponent(SEARCHES[n % SEARCHES.length])}`,
  },
];

/** The external id seed-scale gives request j (md5('scale-request-' || j)::uuid). */
function seededRequestUuid(ordinal: number): string {
  const hex = createHash('md5').update(`scale-request-${ordinal}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Who calls: the heavy employees, employees spread over the population, and the owners of long threads. */
async function chooseEmployees() {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
  const spread = Array.from({ length: SPREAD_EMPLOYEES }, (_, index) => SCALE.heavyEmployees + 1 + Math.floor((index * (SCALE.employees - SCALE.heavyEmployees)) / SPREAD_EMPLOYEES));
  const emails = [...Array.from({ length: SCALE.heavyEmployees }, (_, index) => scaleEmployeeEmail(index + 1)), ...spread.map(scaleEmployeeEmail)];
  const newest = await client.query<{ email: string; request_id: number }>(
    `SELECT users.email, newest.id AS request_id FROM users
     CROSS JOIN LATERAL (SELECT id FROM requests WHERE requests.user_id = users.id ORDER BY issued_at DESC, id DESC LIMIT 1) AS newest
     WHERE users.email = ANY($1)`,
    [emails],
  );
  const longThreads = [1, ...Array.from({ length: LONG_THREAD_OWNERS - 1 }, (_, index) => (index + 1) * 1000)].map(seededRequestUuid);
  const owners = await client.query<{ email: string; request_id: number; older_cursor: number | null }>(
    `SELECT users.email, requests.id AS request_id,
            (SELECT id FROM messages WHERE request_id = requests.id ORDER BY created_at DESC, id DESC OFFSET ${THREAD_PAGE_SIZE - 1} LIMIT 1) AS older_cursor
     FROM requests JOIN users ON users.id = requests.user_id WHERE requests.external_id = ANY($1::uuid[])`,
    [longThreads],
  );
  // An employee who owns a long thread reads it (the known employee their 2,000 messages), the others their newest.
  const byEmail = new Map(newest.rows.map((row) => [row.email, { requestId: row.request_id, olderCursor: null as number | null }]));
  for (const row of owners.rows) byEmail.set(row.email, { requestId: row.request_id, olderCursor: row.older_cursor });
  if (!byEmail.has(KNOWN_EMPLOYEE_EMAIL)) throw new Error(`${KNOWN_EMPLOYEE_EMAIL} has no request: run npm run seed:scale first`);
  return byEmail;
  } finally {
    await client.end();
  }
}

async function signIn(url: string, email: string): Promise<Record<string, string>> {
  const response = await fetch(`${url}/api/v1/users/sign_in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user: { email, password: SCALE_PASSWORD } }),
  });
  const authorization = response.headers.get(AUTHORIZATION_HEADER);
  if (response.status !== 200 || !authorization) throw new Error(`Signing in ${email}: ${response.status} ${await response.text()}`);
  return { [AUTHORIZATION_HEADER]: authorization };
}

async function inParallel<Item, Result>(items: Item[], each: (item: Item) => Promise<Result>): Promise<Result[]> {
  const results: Result[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: SIGN_IN_CONCURRENCY }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await each(items[index]);
      }
    }),
  );
  return results;
}

async function signInEmployees(url: string, chosen: Map<string, { requestId: number; olderCursor: number | null }>): Promise<Caller[]> {
  return inParallel([...chosen], async ([email, { requestId, olderCursor }]) => {
    const headers = await signIn(url, email);
    const begun = await fetch(`${url}/api/v1/request_surveys/${SURVEY_TEMPLATE_ID}/user_request_surveys`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ for_alpha: true }),
    });
    if (begun.status !== 201) throw new Error(`Beginning a survey for ${email}: ${begun.status} ${await begun.text()}`);
    const { user_request_survey: survey } = (await begun.json()) as { user_request_survey: { id: number } };
    return { headers, requestId, olderCursor, surveySessionId: survey.id };
  });
}

async function measure(url: string, call: Call, callers: Caller[]): Promise<Measured[]> {
  const rate = call.audience === 'employee' ? EMPLOYEE_RATE : CONSOLE_RATE;
  const eligible = call.for ? callers.filter(call.for) : callers;
  const pacing = { rate, connections: CONNECTIONS };
  console.log(`  ${call.label} at ${rate} req/s...`);
  await runPaced(url, call, eligible, { ...pacing, seconds: WARM_UP_S });
  const bursts = await runAutocannon(url, call, eligible, { connections: CONNECTIONS, seconds: DURATION_S, overallRate: rate });
  const paced = await runPaced(url, call, eligible, { ...pacing, seconds: DURATION_S });
  // As it is measured: a run stopped part way still tells what it measured.
  for (const result of [bursts, paced]) console.log(`    p50 ${result.p50} ms, p99 ${result.p99} ms, ${result.requestsPerSecond.toFixed(0)} req/s, ${result.failures} failures`);
  return [{ ...bursts, call: `${call.label} at ${rate} req/s (autocannon)` }, paced];
}

/**
 * Each call once through the app in this process (the same routes, domain and SQL as the server), with every
 * read-only statement it sends to PostgreSQL first run under EXPLAIN (ANALYZE, BUFFERS) with the same parameters and
 * its plan printed. Writes (a session's last use, say) are not explained: EXPLAIN ANALYZE would make them twice.
 */
async function explainCalls(calls: Call[]) {
  const plans: string[] = [];
  const originalQuery = pg.Client.prototype.query;
  const query = originalQuery as unknown as (this: pg.Client, config: unknown, values?: unknown, callback?: unknown) => Promise<pg.QueryResult>;
  let explaining = false;
  // pg-pool calls client.query(text, values, callback); drizzle's own clients call it for a promise.
  const patched = function (this: pg.Client, config: unknown, values?: unknown, callback?: unknown) {
    const run = () => query.call(this, config, values, callback);
    const text = typeof config === 'string' ? config : (config as { text: string }).text;
    if (!explaining || !/^\s*(select|with)\b/i.test(text) || /\b(insert|update|delete)\b/i.test(text)) return run();
    const parameters = Array.isArray(values) ? values : (config as { values?: unknown[] }).values;
    const explained = query.call(this, `EXPLAIN (ANALYZE, BUFFERS) ${text}`, parameters).then(({ rows }) => {
      plans.push(`${text}\n${(rows as Array<Record<string, string>>).map((row) => row['QUERY PLAN']).join('\n')}`);
    });
    if (typeof callback === 'function' || typeof values === 'function') {
      void explained.then(run);
      return undefined;
    }
    return explained.then(run);
  };
  pg.Client.prototype.query = patched as unknown as typeof pg.Client.prototype.query;

  const dataDir = mkdtempSync(join(tmpdir(), 'lc-bench-scale-'));
  const config = loadConfig({
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    AUTH_RATE_LIMIT: '100000',
    SIGNING_SECRET: randomBytes(32).toString('hex'),
    SSO_SECRET_KEY: randomBytes(32).toString('hex'),
  });
  const database = await openDatabase({ url: databaseUrl });
  // What the server seeds at start (server/main.ts): the partner offers and the surveys.
  await seedOfferingCatalogue(database.db, { nodeEnv: config.NODE_ENV });
  await seedSurveyCatalogue(database.db);
  const app = await buildApp({ config, database });
  try {
    const signInHeaders = async (email: string) => {
      const signedIn = await app.inject({ method: 'POST', url: '/api/v1/users/sign_in', payload: { user: { email, password: SCALE_PASSWORD } } });
      return { [AUTHORIZATION_HEADER]: String(signedIn.headers[AUTHORIZATION_HEADER]) };
    };
    const chosen = await chooseEmployees();
    const known = chosen.get(KNOWN_EMPLOYEE_EMAIL)!;
    const employeeHeaders = await signInHeaders(KNOWN_EMPLOYEE_EMAIL);
    const begun = await app.inject({
      method: 'POST',
      url: `/api/v1/request_surveys/${SURVEY_TEMPLATE_ID}/user_request_surveys`,
      headers: employeeHeaders,
      payload: { for_alpha: true },
    });
    if (begun.statusCode !== 201) throw new Error(`Beginning a survey: ${begun.statusCode} ${begun.body}`);
    const employee: Caller = { headers: employeeHeaders, ...known, surveySessionId: begun.json<{ user_request_survey: { id: number } }>().user_request_survey.id };
    const concierge: Caller = { headers: await signInHeaders(scaleConciergeEmail(1)), requestId: 0, olderCursor: null, surveySessionId: 0 };
    for (const call of calls) {
      const caller = call.audience === 'employee' ? employee : concierge;
      const path = call.path(caller, 0);
      // Its first call: a second one may be answered from the server's caches (sessions, the employee's views).
      plans.length = 0;
      explaining = true;
      const response = await app.inject({ method: 'GET', url: path, headers: caller.headers });
      explaining = false;
      console.log(`\n=== ${call.label} (${path}): ${response.statusCode}, ${plans.length} read statements ===`);
      for (const plan of plans) console.log(`\n${plan}`);
    }
  } finally {
    pg.Client.prototype.query = originalQuery;
    await app.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function printTable(title: string, results: readonly Measured[], target: number) {
  const row = (call: string, rate: string, p50: string, p99: string, failures: string, verdict: string) =>
    `| ${call.padEnd(72)} | ${rate.padStart(6)} | ${p50.padStart(8)} | ${p99.padStart(8)} | ${failures.padStart(8)} | ${verdict.padEnd(7)} |`;
  console.log(`\n${title} (p99 target ${target} ms)\n`);
  console.log(row('call', 'req/s', 'p50', 'p99', 'failures', 'target'));
  console.log(`|${'-'.repeat(74)}|${'-'.repeat(8)}|${'-'.repeat(10)}|${'-'.repeat(10)}|${'-'.repeat(10)}|${'-'.repeat(9)}|`);
  for (const result of results) {
    const met = result.failures === 0 && result.p99 <= target ? 'met' : 'MISSED';
    console.log(row(result.call, result.requestsPerSecond.toFixed(0), `${result.p50} ms`, `${result.p99} ms`, String(result.failures), met));
  }
}

if (!options['no-build']) execFileSync(process.execPath, ['scripts/build.ts'], { cwd: root, stdio: 'inherit' });

const wanted = options.calls?.split(',');
const calls = wanted ? CALLS.filter((call) => wanted.includes(call.key)) : CALLS;
if (options.explain) {
  await explainCalls(calls);
} else {
  if (!options['no-build']) execFileSync(process.execPath, ['scripts/build.ts'], { cwd: root, stdio: 'inherit' });
  const chosen = await chooseEmployees();
  console.log(`Signing in ${chosen.size} employees and ${SCALE.concierges} concierges...`);
  const { child: server, url } = await startBenchServer({ DATABASE_URL: databaseUrl, AUTH_RATE_LIMIT: '100000' });
  try {
    const employees = await signInEmployees(url, chosen);
    const concierges = await inParallel(
      Array.from({ length: SCALE.concierges }, (_, index) => scaleConciergeEmail(index + 1)),
      async (email): Promise<Caller> => ({ headers: await signIn(url, email), requestId: 0, olderCursor: null, surveySessionId: 0 }),
    );
    const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
    console.log(`Load average before: ${loadAverage()}`);
    const measured: Record<Call['audience'], Measured[]> = { employee: [], console: [] };
    for (const call of calls) measured[call.audience].push(...(await measure(url, call, call.audience === 'employee' ? employees : concierges)));
    printTable(`Employee reads, ${employees.length} employees signed in`, measured.employee, EMPLOYEE_P99_MS);
    printTable(`Console, ${concierges.length} concierges signed in`, measured.console, CONSOLE_P99_MS);
    console.log(`\nLoad average after: ${loadAverage()}`);
  } finally {
    await stopProcess(server);
  }
}
