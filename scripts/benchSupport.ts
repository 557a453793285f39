/**
 * What the on-demand benchmarks (`scripts/bench-*.ts`) share: free ports, the server and helper processes they start,
 * the fresh database each measures on (and the 100,000 requests of bench-api and bench-post), and how calls are
 * driven at full speed (autocannon) and evenly paced.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../server/db/client.ts';
import { seedDemoAccounts } from '../server/db/seed/demoAccounts.ts';
import { seedOfferingCatalogue } from '../server/db/seed/offeringCatalogue.ts';
import { seedSurveyCatalogue } from '../server/db/seed/surveyCatalogue.ts';
import { createSession } from '../server/domain/accounts/sessions.ts';
import { createScratchDatabase } from '../tests/server/scratchDatabase.ts';

export type Engine = 'pglite' | 'postgres';

export const root = new URL('..', import.meta.url);

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * Starts a Node process and resolves once a line of its output matches `ready`. With `raiseOpenFiles`, its
 * open-files limit is first raised to the hard limit (a shell's `ulimit`: Node cannot raise its own).
 */
export function startProcess(args: string[], env: NodeJS.ProcessEnv, ready: RegExp, { raiseOpenFiles = false } = {}): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = raiseOpenFiles
      ? spawn('/bin/sh', ['-c', 'ulimit -n "$(ulimit -Hn)" && exec "$0" "$@"', process.execPath, ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
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

export async function stopProcess(child: ChildProcess) {
  if (child.exitCode !== null) return;
  child.removeAllListeners('exit');
  await new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });
}

/** A fresh database of the engine: its server variables, and how to drop it afterwards. */
export async function createBenchDatabase(engine: Engine) {
  if (engine === 'pglite') {
    const dataDir = mkdtempSync(join(tmpdir(), 'lc-bench-'));
    return { env: { DATA_DIR: dataDir }, open: { dataDir }, drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  // BENCH_DATABASE_PREFIX: a name of one's own on a PostgreSQL server shared with others.
  const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL!, process.env.BENCH_DATABASE_PREFIX ?? 'lc_bench');
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

/** node-postgres answers { rows }, PGlite too; the drizzle type says an array. */
export function rowsOf<Row>(result: unknown): Row[] {
  return (result as { rows: Row[] }).rows;
}


/** The production server on a bench database, on a free loopback port; stop it with stopProcess. */
export async function startBenchServer(
  databaseEnv: NodeJS.ProcessEnv,
  { nodeArgs = [], raiseOpenFiles = false }: { nodeArgs?: string[]; raiseOpenFiles?: boolean } = {},
) {
  const port = await freePort();
  const child = await startProcess(
    [...nodeArgs, 'server/main.ts'],
    {
      ...process.env,
      ...databaseEnv,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      SIGNING_SECRET: randomBytes(32).toString('hex'),
      SSO_SECRET_KEY: randomBytes(32).toString('hex'),
      SENTRY_DSN: '',
      VITE_SENTRY_DSN: '',
    },
    /is running at/,
    { raiseOpenFiles },
  );
  return { child, url: `http://127.0.0.1:${port}` };
}

export const BENCH_TOTAL_REQUESTS = 100_000;
/** Employees the calls rotate over, each with BENCH_REQUESTS_PER_CALLER requests: every call reads a realistic account. */
export const BENCH_CALLERS = 200;
const BENCH_REQUESTS_PER_CALLER = 5;
const BENCH_MESSAGES_PER_REQUEST = 3;

/** A seeded employee who makes the measured calls: their session token and their requests. */
export interface SeededCaller {
  userId: number;
  token: string;
  requestIds: number[];
}

/**
 * The demo catalogue and companies, other employees' requests up to BENCH_TOTAL_REQUESTS, and BENCH_CALLERS employees of Acme
 * (MFA off) with their requests, threads and a session each. Written in the bench process before the server starts
 * (PGlite opens its directory in one process at a time).
 */
export async function seedBenchRequests(open: { url?: string; dataDir?: string }) {
  const database = await openDatabase(open);
  const { db } = database;
  try {
    await seedDemoAccounts(db, { nodeEnv: 'development', password: randomBytes(12).toString('hex') });
    await seedOfferingCatalogue(db, { nodeEnv: 'development' });
    await seedSurveyCatalogue(db);
    const otherEmployees = (BENCH_TOTAL_REQUESTS - BENCH_CALLERS * BENCH_REQUESTS_PER_CALLER) / 100;
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
    await addEmployees('caller', BENCH_CALLERS);
    const callerRows = await db.execute<{ id: number }>(sql`SELECT id FROM users WHERE email LIKE 'caller%@acme.test' ORDER BY id`);
    const callers: SeededCaller[] = [];
    for (const { id: userId } of rowsOf<{ id: number }>(callerRows)) {
      const inserted = await db.execute<{ id: number }>(sql`
        INSERT INTO requests (user_id, name, status, details, issued_at)
        SELECT ${userId}, 'My request ' || n, 'open', 'Please book the car in for its service.', now() - n * interval '1 day'
        FROM generate_series(1, ${BENCH_REQUESTS_PER_CALLER}) AS n RETURNING id`);
      const requestIds = rowsOf<{ id: number }>(inserted).map((row) => row.id);
      await db.execute(sql`
        INSERT INTO messages (request_id, author_user_id, source, source_name, body_html)
        SELECT request_id, ${userId}, 'user', 'Employee', '<p>A message of the thread, as people write them.</p>'
        FROM unnest(${sql.raw(`ARRAY[${requestIds.join(',')}]`)}::int[]) AS request_id, generate_series(1, ${BENCH_MESSAGES_PER_REQUEST})`);
      const { token } = await createSession(db, userId);
      callers.push({ userId, token, requestIds });
    }
    const [{ count }] = rowsOf<{ count: number }>(await db.execute<{ count: number }>(sql`SELECT count(*)::int AS count FROM requests`));
    if (count !== BENCH_TOTAL_REQUESTS) throw new Error(`Seeded ${count} requests, meant ${BENCH_TOTAL_REQUESTS}`);
    await db.execute(sql`ANALYZE`);
    return callers;
  } finally {
    await database.close();
  }
}

/** One HTTP call a benchmark repeats, rotating over its callers. */
export interface BenchCall<Caller extends { headers: Record<string, string> }> {
  label: string;
  method: 'GET' | 'POST';
  /** The n-th request's path (n from 0), for a call that rotates over more than its callers (searches, say). */
  path: (caller: Caller, n: number) => string;
  /** Headers of this call beside the caller's own (a fresh Idempotency-Key, say). */
  headers?: (caller: Caller) => Record<string, string>;
  body?: (caller: Caller) => string;
  /** Answers other than 2xx that count as served (the framework's own cost is read off a 404). */
  expectedStatus?: number;
}

export interface Measured {
  call: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  /** Non-2xx answers and socket errors: any makes the figure worthless. */
  failures: number;
}

function outgoingOf<Caller extends { headers: Record<string, string> }>(call: BenchCall<Caller>, callers: readonly Caller[], n: number) {
  const caller = callers[n % callers.length];
  const body = call.body?.(caller);
  const headers = { ...caller.headers, ...call.headers?.(caller), ...(body === undefined ? {} : { 'content-type': 'application/json' }) };
  return { path: call.path(caller, n), headers, body };
}

/** `connections` keep-alive connections sending the call back to back (or at autocannon's `overallRate`). */
export async function runAutocannon<Caller extends { headers: Record<string, string> }>(
  url: string,
  call: BenchCall<Caller>,
  callers: readonly Caller[],
  { connections, seconds, ...extra }: { connections: number; seconds: number } & Partial<autocannon.Options>,
): Promise<Measured> {
  let next = 0;
  let unexpected = 0;
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    requests: [
      {
        method: call.method,
        setupRequest: (request) => ({ ...request, ...outgoingOf(call, callers, next++) }),
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
  };
}

/** The value at `share` (0.99: the p99) of ascending latencies, to a tenth of a millisecond. */
export function percentileOf(ascending: readonly number[], share: number): number {
  return Math.round(10 * ascending[Math.max(0, Math.ceil(share * ascending.length) - 1)]) / 10;
}

/**
 * `rate` requests a second the way users send them: one every 1/rate s whatever the answers before it, over at most
 * `connections` keep-alive connections, each latency counted from when its request was due (so a stall counts in
 * full). autocannon's overallRate is not that: each connection sends its share of a second back to back as the
 * second begins, and the latencies are back-filled as if a request were due every millisecond, so its p99 there is
 * mostly its own bursts.
 */
export async function runPaced<Caller extends { headers: Record<string, string> }>(
  url: string,
  call: BenchCall<Caller>,
  callers: readonly Caller[],
  { rate, connections, seconds }: { rate: number; connections: number; seconds: number },
): Promise<Measured> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const total = rate * seconds;
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
      const due = Math.min(total, Math.floor(((performance.now() - startedAt) * rate) / 1000) + 1);
      for (; sent < due; sent += 1) {
        const dueAt = startedAt + (sent * 1000) / rate;
        const { path, headers, body } = outgoingOf(call, callers, sent);
        const outgoing = httpRequest(`${url}${path}`, { method: call.method, agent, headers }, (response) => {
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
  return {
    call: `${call.label} at ${rate} req/s, evenly paced`,
    requestsPerSecond: total / seconds,
    p50: percentileOf(latencies, 0.5),
    p99: percentileOf(latencies, 0.99),
    failures,
  };
}
