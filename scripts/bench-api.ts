/**
 * `npm run bench:api` (and the second half of `npm run bench`): API throughput of the production server against a
 * bare Fastify hello on the same machine, driven by autocannon over HTTP. Per engine (PGlite always, PostgreSQL when
 * TEST_DATABASE_URL is set): a fresh database with 100,000 requests (5 of each caller's), the built server started
 * with `NODE_ENV=production` and `LOG_LEVEL=warn`, then each call for a few seconds of warm-up and the measured run.
 *
 *   node scripts/bench-api.ts [--no-build] [--duration 15] [--engine pglite|postgres] [--calls open,current]
 *                             [--profile DIR]   (the server's CPU profile, for Chrome DevTools or speedscope)
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { AUTHORIZATION_HEADER } from '../src/contract/common.ts';
import { openDatabase } from '../server/db/client.ts';
import { seedDemoAccounts } from '../server/db/seed/demoAccounts.ts';
import { seedOfferingCatalogue } from '../server/db/seed/offeringCatalogue.ts';
import { seedSurveyCatalogue } from '../server/db/seed/surveyCatalogue.ts';
import { createSession } from '../server/domain/accounts/sessions.ts';
import { createScratchDatabase } from '../tests/server/scratchDatabase.ts';

const { values: options } = parseArgs({
  options: {
    'no-build': { type: 'boolean', default: false },
    duration: { type: 'string', default: '15' },
    engine: { type: 'string' },
    calls: { type: 'string' },
    profile: { type: 'string' },
  },
});

const DURATION_S = Number(options.duration);
const WARM_UP_S = 3;
const CONNECTIONS = 50;
const OFFERED_RATE = 1000;
const TOTAL_REQUESTS = 100_000;
/** Employees the calls rotate over, each with REQUESTS_PER_CALLER requests: every call reads a realistic account. */
const CALLERS = 200;
const REQUESTS_PER_CALLER = 5;
const MESSAGES_PER_REQUEST = 3;
/** "Anything else": a survey every caller has begun, for next_screen_item. */
const SURVEY_TEMPLATE_ID = 1001;
const root = new URL('..', import.meta.url);

type Engine = 'pglite' | 'postgres';

interface Caller {
  headers: Record<string, string>;
  requestIds: number[];
  surveySessionId: number;
}

interface Measured {
  call: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  /** Non-2xx answers and socket errors: any makes the figure worthless. */
  failures: number;
}

interface Call {
  key: string;
  label: string;
  method: 'GET' | 'POST';
  path: (caller: Caller) => string;
  body?: () => string;
  /** Answers other than 2xx that count as served (the framework's own cost is read off a 404). */
  expectedStatus?: number;
}

const CALLS: Call[] = [
  {
    key: 'unknown',
    label: 'GET unknown API path (404, no database)',
    method: 'GET',
    path: () => '/api/v1/no-such-call',
    expectedStatus: 404,
  },
  { key: 'open', label: 'GET requests/open', method: 'GET', path: () => '/api/v1/requests/open' },
  { key: 'current', label: 'GET users/current', method: 'GET', path: () => '/api/v1/users/current' },
  {
    key: 'offerings',
    label: 'GET offerings?types=benefit,product',
    method: 'GET',
    path: () => '/api/v1/offerings?types=benefit,product',
  },
  {
    key: 'next',
    label: 'GET next_screen_item',
    method: 'GET',
    path: (caller) => `/api/v1/user_request_surveys/${caller.surveySessionId}/next_screen_item`,
  },
  {
    key: 'post',
    label: 'POST requests/:id/messages',
    method: 'POST',
    path: (caller) => `/api/v1/requests/${caller.requestIds[0]}/messages`,
    body: () => JSON.stringify({ message: { body: 'Could you also check the weekend slots?', source: 'user', attachment_keys: [] } }),
  },
];

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Starts a process and resolves once a line of its output matches `ready`. */
function startProcess(args: string[], env: NodeJS.ProcessEnv, ready: RegExp): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (ready.test(output)) {
        child.stdout?.off('data', onData);
        resolve(child);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => process.stderr.write(chunk));
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited (${code}) before it was ready:\n${output}`)));
  });
}

async function stopProcess(child: ChildProcess) {
  if (child.exitCode !== null) return;
  child.removeAllListeners('exit');
  await new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });
}

const BARE_FASTIFY = `
  import Fastify from 'fastify';
  const app = Fastify();
  app.get('/', async () => ({ hello: 'world' }));
  await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
  console.log('listening');
`;

async function run(url: string, call: Call, callers: Caller[], extra: Partial<autocannon.Options> = {}, seconds = DURATION_S) {
  let next = 0;
  let unexpected = 0;
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [
      {
        method: call.method,
        setupRequest: (request) => {
          const caller = callers[next++ % callers.length];
          return {
            ...request,
            path: call.path(caller),
            headers: { ...caller.headers, ...(call.body ? { 'content-type': 'application/json' } : {}) },
            body: call.body?.(),
          };
        },
        onResponse: (status) => {
          if (call.expectedStatus !== undefined && status !== call.expectedStatus) unexpected += 1;
        },
      },
    ],
    ...extra,
  });
  return {
    call: call.label,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: (call.expectedStatus === undefined ? result.non2xx : unexpected) + result.errors + result.timeouts,
  } satisfies Measured;
}

/**
 * OFFERED_RATE requests a second the way users send them: one every 1/OFFERED_RATE s whatever the answers before it,
 * over at most CONNECTIONS keep-alive connections, each latency counted from when its request was due (so a stall
 * counts in full). autocannon's overallRate is not that: each connection sends its share of a second back to back
 * as the second begins, and the latencies are back-filled as if a request were due every millisecond, so its p99
 * there is mostly its own bursts. Both are printed.
 */
async function paced(url: string, call: Call, callers: Caller[], seconds = DURATION_S): Promise<Measured> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const total = OFFERED_RATE * seconds;
  const latencies: number[] = [];
  let failures = 0;
  await new Promise<void>((resolve) => {
    const startedAt = performance.now();
    let sent = 0;
    let answered = 0;
    const done = (dueAt: number, ok: boolean) => {
      latencies.push(performance.now() - dueAt);
      if (!ok) failures += 1;
      if (++answered === total) resolve();
    };
    const sendDue = () => {
      const due = Math.min(total, Math.floor(((performance.now() - startedAt) * OFFERED_RATE) / 1000) + 1);
      for (; sent < due; sent += 1) {
        const dueAt = startedAt + (sent * 1000) / OFFERED_RATE;
        const caller = callers[sent % callers.length];
        const body = call.body?.();
        const headers = { ...caller.headers, ...(body ? { 'content-type': 'application/json' } : {}) };
        const outgoing = httpRequest(`${url}${call.path(caller)}`, { method: call.method, agent, headers }, (response) => {
          response.resume();
          const status = response.statusCode ?? 0;
          response.on('end', () => done(dueAt, call.expectedStatus === undefined ? status >= 200 && status < 300 : status === call.expectedStatus));
        });
        outgoing.on('error', () => done(dueAt, false));
        outgoing.end(body);
      }
      if (sent < total) setTimeout(sendDue, 1);
    };
    sendDue();
  });
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const percentile = (share: number) => Math.round(10 * latencies[Math.ceil(share * latencies.length) - 1]) / 10;
  return {
    call: `${call.label} at ${OFFERED_RATE} req/s, evenly paced`,
    requestsPerSecond: total / seconds,
    p50: percentile(0.5),
    p99: percentile(0.99),
    failures,
  };
}

/** At the offered rate: autocannon's bursts, then evenly paced (after a warm-up of its own). */
async function measureAtRate(url: string, call: Call, callers: Caller[]): Promise<Measured[]> {
  const bursts = await measure(url, call, callers, { overallRate: OFFERED_RATE });
  console.log(`  ${call.label} at ${OFFERED_RATE} req/s, evenly paced...`);
  await paced(url, call, callers, WARM_UP_S);
  return [{ ...bursts, call: `${call.label} at ${OFFERED_RATE} req/s (autocannon)` }, await paced(url, call, callers)];
}

/** Warm-up (JIT, caches, pool connections) that is not counted, then the measured run. */
async function measure(url: string, call: Call, callers: Caller[], extra: Partial<autocannon.Options> = {}) {
  console.log(`  ${call.label}${extra.overallRate ? ` at ${extra.overallRate} req/s` : ''}...`);
  await run(url, call, callers, {}, WARM_UP_S);
  return run(url, call, callers, extra);
}

/**
 * Bare Fastify at full speed, and at the offered rate both ways (see `paced`): the floor the server's figures at the
 * same rate are read against.
 */
async function measureBareFastify(): Promise<{ bare: Measured; bareAtRate: Measured[] }> {
  const port = await freePort();
  const child = await startProcess(['--input-type=module', '-e', BARE_FASTIFY], { ...process.env, PORT: String(port) }, /listening/);
  try {
    const hello: Call = { key: 'bare', label: 'bare Fastify GET /', method: 'GET', path: () => '/' };
    const url = `http://127.0.0.1:${port}`;
    const nobody = [{ headers: {}, requestIds: [], surveySessionId: 0 }];
    const bare = await measure(url, hello, nobody);
    return { bare, bareAtRate: await measureAtRate(url, hello, nobody) };
  } finally {
    await stopProcess(child);
  }
}

/** A fresh database of the engine: its server variables, and how to drop it afterwards. */
async function createBenchDatabase(engine: Engine) {
  if (engine === 'pglite') {
    const dataDir = mkdtempSync(join(tmpdir(), 'lc-bench-'));
    return { env: { DATA_DIR: dataDir }, open: { dataDir }, drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL!, 'lc_bench');
  const dataDir = mkdtempSync(join(tmpdir(), 'lc-bench-'));
  return {
    env: { DATABASE_URL: scratch.url, DATA_DIR: dataDir },
    open: { url: scratch.url },
    drop: async () => {
      await scratch.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The demo catalogue and companies, other employees' requests up to TOTAL_REQUESTS, and CALLERS employees of Acme
 * (MFA off) with their requests, threads and a session each. Written in the bench process before the server starts
 * (PGlite opens its directory in one process at a time).
 */
async function seed(open: { url?: string; dataDir?: string }) {
  const database = await openDatabase(open);
  const { db } = database;
  try {
    await seedDemoAccounts(db, { nodeEnv: 'development', password: randomBytes(12).toString('hex') });
    await seedOfferingCatalogue(db, { nodeEnv: 'development' });
    await seedSurveyCatalogue(db);
    const otherEmployees = (TOTAL_REQUESTS - CALLERS * REQUESTS_PER_CALLER) / 100;
    const addEmployees = (prefix: string, count: number) =>
      db.execute(sql`
        WITH added AS (
          INSERT INTO users (email, password_hash, first_name, last_name, terms_accepted_at, onboarded_at)
          SELECT ${prefix} || n || '@acme.test', 'not-a-password-hash', 'Employee', 'No. ' || n, now(), now()
          FROM generate_series(1, ${count}) AS n
          RETURNING id
        )
        INSERT INTO user_companies (user_id, company_id)
        SELECT added.id, companies.id FROM added, companies WHERE companies.slug = 'acme'`);
    await addEmployees('other', otherEmployees);
    await db.execute(sql`
      INSERT INTO requests (user_id, name, status, details, issued_at)
      SELECT users.id, 'Request ' || n, (ARRAY['open', 'in_progress', 'closed'])[1 + n % 3]::request_status,
             'Details of a request, a sentence or two long.', now() - n * interval '1 minute'
      FROM users CROSS JOIN generate_series(1, 100) AS n
      WHERE users.email LIKE 'other%@acme.test'`);
    await addEmployees('caller', CALLERS);
    const callerRows = await db.execute<{ id: number }>(sql`SELECT id FROM users WHERE email LIKE 'caller%@acme.test' ORDER BY id`);
    const callers: Array<{ userId: number; token: string; requestIds: number[] }> = [];
    for (const { id: userId } of rowsOf<{ id: number }>(callerRows)) {
      const inserted = await db.execute<{ id: number }>(sql`
        INSERT INTO requests (user_id, name, status, details, issued_at)
        SELECT ${userId}, 'My request ' || n, 'open', 'Please book the car in for its service.', now() - n * interval '1 day'
        FROM generate_series(1, ${REQUESTS_PER_CALLER}) AS n RETURNING id`);
      const requestIds = rowsOf<{ id: number }>(inserted).map((row) => row.id);
      await db.execute(sql`
        INSERT INTO messages (request_id, author_user_id, source, source_name, body_html)
        SELECT request_id, ${userId}, 'user', 'Employee', '<p>A message of the thread, as people write them.</p>'
        FROM unnest(${sql.raw(`ARRAY[${requestIds.join(',')}]`)}::int[]) AS request_id, generate_series(1, ${MESSAGES_PER_REQUEST})`);
      const { token } = await createSession(db, userId);
      callers.push({ userId, token, requestIds });
    }
    const [{ count }] = rowsOf<{ count: number }>(await db.execute<{ count: number }>(sql`SELECT count(*)::int AS count FROM requests`));
    if (count !== TOTAL_REQUESTS) throw new Error(`Seeded ${count} requests, meant ${TOTAL_REQUESTS}`);
    await db.execute(sql`ANALYZE`);
    return callers;
  } finally {
    await database.close();
  }
}

/** node-postgres answers { rows }, PGlite too; the drizzle type says an array. */
function rowsOf<Row>(result: unknown): Row[] {
  return (result as { rows: Row[] }).rows;
}

async function benchEngine(engine: Engine, calls: Call[]) {
  console.log(`${engine}: seeding ${TOTAL_REQUESTS.toLocaleString('en')} requests...`);
  const database = await createBenchDatabase(engine);
  const seeded = await seed(database.open);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = await startProcess(
    [...(options.profile ? ['--cpu-prof', `--cpu-prof-dir=${options.profile}`] : []), 'server/main.ts'],
    {
      ...process.env,
      ...database.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      SIGNING_SECRET: randomBytes(32).toString('hex'),
      SENTRY_DSN: '',
      VITE_SENTRY_DSN: '',
    },
    /is running at/,
  );
  try {
    const callers: Caller[] = [];
    for (const caller of seeded) {
      const headers = { [AUTHORIZATION_HEADER]: `Bearer ${caller.token}` };
      const begun = await fetch(`${url}/api/v1/request_surveys/${SURVEY_TEMPLATE_ID}/user_request_surveys`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ for_alpha: true }),
      });
      if (begun.status !== 201) throw new Error(`Beginning a survey: ${begun.status} ${await begun.text()}`);
      const { user_request_survey: survey } = (await begun.json()) as { user_request_survey: { id: number } };
      callers.push({ headers, requestIds: caller.requestIds, surveySessionId: survey.id });
    }
    const results: Measured[] = [];
    for (const call of calls) {
      results.push(await measure(url, call, callers));
      // The 1,000 req/s row comes right after the full-speed read it offers a fixed rate to.
      if (call.key === 'open') {
        results.push(...(await measureAtRate(url, call, callers)));
      }
    }
    return results;
  } finally {
    await stopProcess(server);
    await database.drop();
  }
}

function printTable(title: string, { bare, bareAtRate }: { bare: Measured; bareAtRate: Measured[] }, results: readonly Measured[]) {
  const row = (call: string, rate: string, ratio: string, p50: string, p99: string, failures: string) =>
    `| ${call.padEnd(56)} | ${rate.padStart(7)} | ${ratio.padStart(8)} | ${p50.padStart(6)} | ${p99.padStart(6)} | ${failures.padStart(8)} |`;
  console.log(`\n${title}\n`);
  console.log(row('call', 'req/s', 'of bare', 'p50', 'p99', 'failures'));
  console.log(`|${'-'.repeat(58)}|${'-'.repeat(9)}|${'-'.repeat(10)}|${'-'.repeat(8)}|${'-'.repeat(8)}|${'-'.repeat(10)}|`);
  for (const result of [bare, ...bareAtRate, ...results]) {
    const ratio = `${((100 * result.requestsPerSecond) / bare.requestsPerSecond).toFixed(1)}%`;
    console.log(row(result.call, result.requestsPerSecond.toFixed(0), ratio, `${result.p50} ms`, `${result.p99} ms`, String(result.failures)));
  }
}

if (!options['no-build']) execFileSync(process.execPath, ['scripts/build.ts'], { cwd: root, stdio: 'inherit' });

const engines: Engine[] = options.engine
  ? [options.engine === 'postgres' ? 'postgres' : 'pglite']
  : process.env.TEST_DATABASE_URL
    ? ['postgres', 'pglite']
    : ['pglite'];
if (engines.includes('postgres') && !process.env.TEST_DATABASE_URL) throw new Error('--engine postgres needs TEST_DATABASE_URL');
const wanted = options.calls?.split(',');
const calls = wanted ? CALLS.filter((call) => wanted.includes(call.key)) : CALLS;

console.log(`API throughput: ${CONNECTIONS} connections, ${WARM_UP_S} s warm-up then ${DURATION_S} s per call, autocannon`);
const bare = await measureBareFastify();
for (const engine of engines) {
  const results = await benchEngine(engine, calls);
  printTable(`${engine === 'postgres' ? 'PostgreSQL' : 'PGlite (embedded)'}, ${TOTAL_REQUESTS.toLocaleString('en')} requests`, bare, results);
}
if (!process.env.TEST_DATABASE_URL) console.log('\nPostgreSQL: set TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test) to measure it too.');
console.log('');
