/**
 * The console's queue sorted by due time (issue 28) under load: 10,000 open requests on PostgreSQL, each promised its
 * turnaround when filed (the real clock, startServiceClock), the production server, and a concierge's
 * GET /api/v1/console/requests?queue=in_queue (a page of 50, soonest due first) offered at 200 req/s, evenly paced,
 * by autocannon from this process to the server's own process. The target: p99 <= 50 ms.
 *
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node scripts/bench-console-queue.ts [--duration 20]
 *                                                                 [--rate 200] [--engine postgres|pglite]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { AUTHORIZATION_HEADER } from '../src/contract/common.ts';
import { type Database, openDatabase } from '../server/db/client.ts';
import { listConsoleRequests } from '../server/domain/requests/console.ts';
import { seedDemoAccounts } from '../server/db/seed/demoAccounts.ts';
import { seedServicePolicies } from '../server/db/seed/servicePolicies.ts';
import { createSession } from '../server/domain/accounts/sessions.ts';
import { startServiceClock } from '../server/domain/sla/serviceClock.ts';
import { type Engine, createBenchDatabase, rowsOf, startBenchServer, stopProcess } from './benchSupport.ts';

const { values: options } = parseArgs({
  options: {
    duration: { type: 'string', default: '20' },
    rate: { type: 'string', default: '200' },
    engine: { type: 'string', default: 'postgres' },
  },
});

const OPEN_REQUESTS = 10_000;
const EMPLOYEES = 500;
const DURATION_S = Number(options.duration);
const RATE = Number(options.rate);
const WARM_UP_S = 3;
const P99_TARGET_MS = 50;
const QUEUE_PATH = '/api/v1/console/requests?queue=in_queue&limit=50';

/**
 * The demo companies and their targets, EMPLOYEES employees of Acme and Globex (two policies), OPEN_REQUESTS open
 * requests filed over the past weeks each with the promise it was made then, and a concierge with a session.
 */
async function seed(open: { url?: string; dataDir?: string }): Promise<string> {
  const database = await openDatabase(open);
  const { db } = database;
  try {
    await seedDemoAccounts(db, { nodeEnv: 'development', password: crypto.randomUUID() });
    await seedServicePolicies(db, { nodeEnv: 'development' });
    await db.execute(sql`
      WITH added AS (
        INSERT INTO users (email, password_hash, first_name, last_name, terms_accepted_at, onboarded_at)
        SELECT 'bench' || n || '@acme.test', 'not-a-password-hash', 'Employee', 'No. ' || n, now(), now()
        FROM generate_series(1, ${EMPLOYEES}) AS n
        RETURNING id
      )
      INSERT INTO user_companies (user_id, company_id)
      SELECT added.id, companies.id FROM added, companies WHERE companies.slug = CASE WHEN added.id % 5 = 0 THEN 'globex' ELSE 'acme' END`);
    const filed = rowsOf<{ id: number; userId: number; issuedAt: string }>(
      await db.execute(sql`
        INSERT INTO requests (user_id, name, status, details, issued_at)
        SELECT users.id, 'Request ' || n, 'open', 'Details of a request, a sentence or two long.',
               now() - (n * 3) * interval '1 minute'
        FROM generate_series(1, ${OPEN_REQUESTS}) AS n
        JOIN users ON users.email = 'bench' || (1 + n % ${EMPLOYEES}) || '@acme.test'
        RETURNING id, user_id AS "userId", issued_at AS "issuedAt"`),
    );
    for (let start = 0; start < filed.length; start += 500) {
      await db.transaction(async (tx) => {
        for (const request of filed.slice(start, start + 500)) {
          await startServiceClock(tx, { requestId: request.id, ownerUserId: request.userId, now: new Date(request.issuedAt) });
        }
      });
    }
    const [concierge] = rowsOf<{ id: number }>(
      await db.execute(sql`
        INSERT INTO users (email, password_hash, first_name, last_name, role, terms_accepted_at)
        VALUES ('bench-concierge@life-concierge.test', 'not-a-password-hash', 'Casey', 'Concierge', 'concierge', now()) RETURNING id`),
    );
    await db.execute(sql`ANALYZE`);
    await timeQueries(db, concierge.id);
    return (await createSession(db, concierge.id)).token;
  } finally {
    await database.close();
  }
}

/** The queue's queries alone, one after the other in this process: what the database takes, without HTTP or load. */
async function timeQueries(db: Database, conciergeId: number) {
  const filter = { queue: 'in_queue' as const, limit: 50, offset: 0 };
  const timings: number[] = [];
  for (let round = 0; round < 60; round += 1) {
    const started = performance.now();
    await listConsoleRequests(db, conciergeId, filter);
    if (round >= 10) timings.push(performance.now() - started);
  }
  timings.sort((a, b) => a - b);
  const at = (share: number) => timings[Math.ceil(share * timings.length) - 1].toFixed(1);
  console.log(`listConsoleRequests(in_queue, 50 of ${OPEN_REQUESTS}) in-process, 50 runs: p50 ${at(0.5)} ms, p99 ${at(0.99)} ms`);
}

interface Offered {
  /** Each answered request's time, sorted. */
  latencies: number[];
  failures: number;
  seconds: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/**
 * RATE requests a second for `seconds`, evenly paced, whatever the answers take: RATE autocannon clients of one
 * connection each, each sending one request a second, started 1000 / RATE ms apart. (One client at RATE/s would not
 * do: autocannon's rate limit sends a second's allowance back to back at the start of each second, in bursts.) The
 * latencies are each response's own time, from its request sent to its last byte.
 */
async function offer(url: string, token: string, seconds: number): Promise<Offered> {
  const latencies: number[] = [];
  let failures = 0;
  const clients: Array<PromiseLike<autocannon.Result>> = [];
  const started = performance.now();
  for (let index = 0; index < RATE; index += 1) {
    const options = {
      url: `${url}${QUEUE_PATH}`,
      headers: { [AUTHORIZATION_HEADER]: `Bearer ${token}` },
      connections: 1,
      connectionRate: 1,
      amount: seconds,
    };
    clients.push(
      new Promise((resolve, reject) => {
        const client = autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
        client.on('response', (_client, statusCode, _bytes, responseTime) => {
          if (statusCode === 200) latencies.push(responseTime);
          else failures += 1;
        });
      }),
    );
    await sleep(started + ((index + 1) * 1000) / RATE - performance.now());
  }
  for (const result of await Promise.all(clients)) failures += result.errors + result.timeouts;
  return { latencies: latencies.sort((a, b) => a - b), failures, seconds: (performance.now() - started) / 1000 };
}

async function main() {
  const engine = options.engine as Engine;
  if (engine === 'postgres' && !process.env.TEST_DATABASE_URL) throw new Error('Set TEST_DATABASE_URL to a PostgreSQL server');
  console.log(`${engine}: seeding ${OPEN_REQUESTS.toLocaleString('en')} open requests with their promises...`);
  const database = await createBenchDatabase(engine);
  const token = await seed(database.open);
  // The API alone: no built app is needed to answer it.
  const noBuild = mkdtempSync(join(tmpdir(), 'lc-bench-static-'));
  const { child, url } = await startBenchServer({ ...database.env, STATIC_DIR: noBuild });
  try {
    const check = await fetch(`${url}${QUEUE_PATH}`, { headers: { [AUTHORIZATION_HEADER]: `Bearer ${token}` } });
    const answer = (await check.json()) as { requests: Array<{ service_level: { due_at: string | null } | null }>; total: number };
    const dues = answer.requests.map((request) => request.service_level?.due_at ?? '');
    const sorted = dues.every((due, index) => due !== '' && (index === 0 || due >= dues[index - 1]));
    if (check.status !== 200 || answer.total !== OPEN_REQUESTS || !sorted) {
      throw new Error(`The queue is not the ${OPEN_REQUESTS} open requests by due time: ${check.status} ${answer.total}`);
    }
    await offer(url, token, WARM_UP_S);
    const { latencies, failures, seconds } = await offer(url, token, DURATION_S);
    const at = (share: number) => latencies[Math.max(0, Math.ceil(share * latencies.length) - 1)].toFixed(1);
    console.log(`\n| call | offered | answered req/s | p50 | p90 | p99 | max | failures |`);
    console.log(`|---|---|---|---|---|---|---|---|`);
    console.log(
      `| GET ${QUEUE_PATH} (${engine}, ${OPEN_REQUESTS} open) | ${RATE} req/s | ${(latencies.length / seconds).toFixed(0)} | ` +
        `${at(0.5)} ms | ${at(0.9)} ms | ${at(0.99)} ms | ${at(1)} ms | ${failures} |`,
    );
    const kept = Number(at(0.99)) <= P99_TARGET_MS && failures === 0;
    console.log(kept ? `\np99 within ${P99_TARGET_MS} ms.` : `\np99 over ${P99_TARGET_MS} ms, or failures: target missed.`);
    process.exitCode = kept ? 0 : 1;
  } finally {
    await stopProcess(child);
    await database.drop();
    rmSync(noBuild, { recursive: true, force: true });
  }
}

await main();
