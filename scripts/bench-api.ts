/**
 * `npm run bench:api` (and the second half of `npm run bench`): API throughput of the production server against a
 * bare Fastify hello on the same machine, driven by autocannon over HTTP. Per engine (PGlite always, PostgreSQL when
 * TEST_DATABASE_URL is set): a fresh database with 100,000 requests (5 of each caller's), the built server started
 * with `NODE_ENV=production` and `LOG_LEVEL=warn`, then each call for a few seconds of warm-up and the measured run.
 *
 *   node scripts/bench-api.ts [--no-build] [--duration 15] [--engine pglite|postgres] [--calls open,current]
 *                             [--profile DIR]   (the server's CPU profile, for Chrome DevTools or speedscope)
 */
import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import type autocannon from 'autocannon';
import { AUTHORIZATION_HEADER } from '../src/contract/common.ts';
import {
  BENCH_TOTAL_REQUESTS,
  type BenchCall,
  type Engine,
  type Measured,
  createBenchDatabase,
  freePort,
  root,
  runAutocannon,
  runPaced,
  seedBenchRequests,
  startBenchServer,
  startProcess,
  stopProcess,
} from './benchSupport.ts';

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
/** "Anything else": a survey every caller has begun, for next_screen_item. */
const SURVEY_TEMPLATE_ID = 1001;

interface Caller {
  headers: Record<string, string>;
  requestIds: number[];
  surveySessionId: number;
}

interface Call extends BenchCall<Caller> {
  key: string;
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

const BARE_FASTIFY = `
  import Fastify from 'fastify';
  const app = Fastify();
  app.get('/', async () => ({ hello: 'world' }));
  await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
  console.log('listening');
`;

/**
 * At the offered rate: autocannon's bursts, then evenly paced (after a warm-up of its own). Both are printed: see
 * runPaced for why autocannon's p99 at a fixed rate is mostly its own bursts.
 */
async function measureAtRate(url: string, call: Call, callers: Caller[]): Promise<Measured[]> {
  const bursts = await measure(url, call, callers, { overallRate: OFFERED_RATE });
  console.log(`  ${call.label} at ${OFFERED_RATE} req/s, evenly paced...`);
  const pacing = { rate: OFFERED_RATE, connections: CONNECTIONS };
  await runPaced(url, call, callers, { ...pacing, seconds: WARM_UP_S });
  return [{ ...bursts, call: `${call.label} at ${OFFERED_RATE} req/s (autocannon)` }, await runPaced(url, call, callers, { ...pacing, seconds: DURATION_S })];
}

/** Warm-up (JIT, caches, pool connections) that is not counted, then the measured run. */
async function measure(url: string, call: Call, callers: Caller[], extra: Partial<autocannon.Options> = {}) {
  console.log(`  ${call.label}${extra.overallRate ? ` at ${extra.overallRate} req/s` : ''}...`);
  await runAutocannon(url, call, callers, { connections: CONNECTIONS, seconds: WARM_UP_S });
  return runAutocannon(url, call, callers, { connections: CONNECTIONS, seconds: DURATION_S, ...extra });
}

/**
 * Bare Fastify at full speed, and at the offered rate both ways (see runPaced): the floor the server's figures at the
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

async function benchEngine(engine: Engine, calls: Call[]) {
  console.log(`${engine}: seeding ${BENCH_TOTAL_REQUESTS.toLocaleString('en')} requests...`);
  const database = await createBenchDatabase(engine);
  const seeded = await seedBenchRequests(database.open);
  const { child: server, url } = await startBenchServer(database.env, {
    nodeArgs: options.profile ? ['--cpu-prof', `--cpu-prof-dir=${options.profile}`] : [],
  });
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
  printTable(`${engine === 'postgres' ? 'PostgreSQL' : 'PGlite (embedded)'}, ${BENCH_TOTAL_REQUESTS.toLocaleString('en')} requests`, bare, results);
}
if (!process.env.TEST_DATABASE_URL) console.log('\nPostgreSQL: set TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test) to measure it too.');
console.log('');
