/**
 * `npm run bench:post` (issue 31 point 3): the employee's message post against what PostgreSQL alone can do of it.
 * On a fresh PostgreSQL database of 100,000 requests (bench-api's seeding):
 *
 * 1. The statements one post runs are read off the wire: the server is started behind a recorder (a TCP proxy that
 *    parses what the server sends PostgreSQL: Parse, Bind, Query), makes POST_SAMPLES posts one after the other,
 *    and the statements found in every post's window are the post's. Each parameter is matched to what the post
 *    was made of (author, request, key, text, time, notice); a value nothing explains stops the benchmark.
 * 2. PostgreSQL alone: those statements, prepared, in that order, from `--clients` plain `pg` connections back to
 *    back (the server's pool has as many), each post with its own author, request and key: posts/s, p50, p99.
 * 3. The HTTP post through the production server: autocannon over `--clients` connections at full speed, then evenly
 *    paced at `--rate` posts/s; many employees' sessions, a fresh Idempotency-Key each.
 *
 * Each run also says the CPU time a post took in the server process and in PostgreSQL's backends (from /proc).
 * Under load, the server coalesces the NOTIFYs of concurrent posts (realtime.ts): the database-only loop sends one
 * per post, as a post made alone does.
 *
 *   TEST_DATABASE_URL=postgres://... node scripts/bench-post.ts [--no-build] [--duration 15] [--clients 10]
 *                                                               [--rate 500] [--profile DIR]
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { type Socket, connect, createServer } from 'node:net';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { AUTHORIZATION_HEADER, IDEMPOTENCY_KEY_HEADER } from '../src/contract/common.ts';
import { idempotentPost } from '../server/domain/requests/messages.ts';
import { plainTextToHtml } from '../server/domain/requests/sanitize.ts';
import { LIVE_UPDATES_CHANNEL, payloadsOf } from '../server/domain/realtime/realtime.ts';
import {
  BENCH_TOTAL_REQUESTS,
  type BenchCall,
  type Measured,
  type SeededCaller,
  createBenchDatabase,
  percentileOf,
  root,
  runAutocannon,
  runPaced,
  seedBenchRequests,
  startBenchServer,
  stopProcess,
} from './benchSupport.ts';

const { values: options } = parseArgs({
  options: {
    'no-build': { type: 'boolean', default: false },
    duration: { type: 'string', default: '15' },
    clients: { type: 'string', default: '10' },
    rate: { type: 'string', default: '500' },
    profile: { type: 'string' },
  },
});

const DURATION_S = Number(options.duration);
const WARM_UP_S = 3;
const CLIENTS = Number(options.clients);
const PACED_RATE = Number(options.rate);
/** Posts recorded one by one to find the statements of a post. */
const POST_SAMPLES = 20;
const BODY = 'Could you also check the weekend slots?';
const TARGET_SHARE = 0.6;
const TARGET_P99_MS = 50;

/** A seeded employee posting in their requests in turn. */
interface Poster extends SeededCaller {
  headers: Record<string, string>;
  posted: number;
}

/** What one post is made of: every parameter of its statements is one of these. */
interface PostAsk {
  authorUserId: number;
  requestId: number;
  idempotencyKey: string;
  now: string;
}

function nextAsk(poster: Poster): PostAsk {
  const requestId = poster.requestIds[poster.posted++ % poster.requestIds.length];
  return { authorUserId: poster.userId, requestId, idempotencyKey: randomUUID(), now: new Date().toISOString() };
}

type Parameter = 'authorUserId' | 'requestId' | 'idempotencyKey' | 'idempotencyFingerprint' | 'bodyHtml' | 'now' | 'notices' | 'liveUpdatesChannel';

/** A parameter's meaning, and its value for a post (`messageId`: the id the post's insert answered). */
const PARAMETERS: Record<Parameter, (ask: PostAsk, messageId: number) => string> = {
  authorUserId: (ask: PostAsk) => String(ask.authorUserId),
  requestId: (ask: PostAsk) => String(ask.requestId),
  idempotencyKey: (ask: PostAsk) => ask.idempotencyKey,
  idempotencyFingerprint: (ask: PostAsk) => idempotentPost(ask.idempotencyKey, { requestId: ask.requestId, body: BODY, attachmentKeys: [] })!.fingerprint,
  bodyHtml: () => plainTextToHtml(BODY),
  now: (ask: PostAsk) => ask.now,
  notices: (ask: PostAsk, messageId: number) =>
    payloadsOf([{ type: 'message.created', requestId: ask.requestId, ownerUserId: ask.authorUserId, messageId }])[0],
  liveUpdatesChannel: () => LIVE_UPDATES_CHANNEL,
};

/** What the server sent PostgreSQL to run a statement: its text and its parameters (text format, as `pg` sends). */
interface Executed {
  text: string;
  values: Array<string | null>;
}

/**
 * A TCP proxy in front of PostgreSQL that records each statement a client runs (frontend messages Query, and Bind
 * with the text its Parse named). Only the client's side is parsed; the server's answers pass through untouched.
 */
async function startStatementRecorder(target: URL) {
  const executed: Executed[] = [];
  const sockets = new Set<Socket>();
  const SSL_REQUEST = 80877103;
  const GSS_REQUEST = 80877104;
  const recorder = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
      socket.on('close', () => sockets.delete(socket));
    }
    client.pipe(upstream);
    upstream.pipe(client);
    const prepared = new Map<string, string>();
    let pending = Buffer.alloc(0);
    let started = false;
    const cString = (body: Buffer, at: number) => {
      const end = body.indexOf(0, at);
      return { value: body.toString('utf8', at, end), next: end + 1 };
    };
    const onMessage = (type: string, body: Buffer) => {
      if (type === 'Q') executed.push({ text: cString(body, 0).value, values: [] });
      if (type === 'P') {
        const name = cString(body, 0);
        prepared.set(name.value, cString(body, name.next).value);
      }
      if (type === 'B') {
        const statement = cString(body, cString(body, 0).next);
        let at = statement.next;
        at += 2 + 2 * body.readInt16BE(at);
        const count = body.readInt16BE(at);
        at += 2;
        const values: Array<string | null> = [];
        for (let index = 0; index < count; index += 1) {
          const length = body.readInt32BE(at);
          at += 4;
          values.push(length < 0 ? null : body.toString('utf8', at, at + length));
          at += Math.max(length, 0);
        }
        executed.push({ text: prepared.get(statement.value) ?? '(unknown statement)', values });
      }
    };
    client.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        if (!started) {
          // The startup message (or an SSL/GSS request before it) has no type byte.
          if (pending.length < 8 || pending.length < pending.readInt32BE(0)) return;
          const code = pending.readInt32BE(4);
          pending = pending.subarray(pending.readInt32BE(0));
          started = code !== SSL_REQUEST && code !== GSS_REQUEST;
          continue;
        }
        if (pending.length < 5 || pending.length < 1 + pending.readInt32BE(1)) return;
        const length = pending.readInt32BE(1);
        onMessage(String.fromCharCode(pending[0]), pending.subarray(5, 1 + length));
        pending = pending.subarray(1 + length);
      }
    });
  });
  await new Promise<void>((resolve) => recorder.listen(0, '127.0.0.1', resolve));
  const address = recorder.address();
  const url = new URL(target);
  url.host = `127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    url: url.toString(),
    executed,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => recorder.close(resolve));
    },
  };
}

/** A statement of the post as the database-only loop replays it: its text and the meaning of each parameter. */
interface PostStatement {
  text: string;
  parameters: Parameter[];
}

/** The meaning of a recorded parameter value of the post `ask`; a value nothing explains is an error. */
function parameterOf(value: string | null, ask: PostAsk, text: string): Parameter {
  const matching = (Object.keys(PARAMETERS) as Parameter[]).filter((parameter) => {
    if (parameter === 'now') return value !== null && /^\d{4}-\d\d-\d\dT/.test(value) && Math.abs(Date.parse(value) - Date.parse(ask.now)) < 60_000;
    if (parameter === 'notices') return value !== null && value.startsWith('[{"type":"message.created"');
    return PARAMETERS[parameter](ask, 0) === value;
  });
  if (matching.length !== 1) throw new Error(`Cannot tell what the parameter ${JSON.stringify(value)} of\n${text}\nis (${matching.join(', ') || 'nothing matches'})`);
  return matching[0];
}

function postRequest(url: string, poster: Poster, ask: PostAsk) {
  return fetch(`${url}/api/v1/requests/${ask.requestId}/messages`, {
    method: 'POST',
    headers: { ...poster.headers, [IDEMPOTENCY_KEY_HEADER]: ask.idempotencyKey, 'content-type': 'application/json' },
    body: JSON.stringify({ message: { body: BODY, source: 'user', attachment_keys: [] } }),
  });
}

/**
 * The statements of one post, read off the wire: those the server ran in the window of every one of POST_SAMPLES
 * posts made one after the other (a background job's statement falls in some windows, not all: it is printed apart).
 */
async function recordPostStatements(databaseEnv: NodeJS.ProcessEnv, posters: Poster[]): Promise<PostStatement[]> {
  const recorder = await startStatementRecorder(new URL(databaseEnv.DATABASE_URL!));
  const { child: server, url } = await startBenchServer({ ...databaseEnv, DATABASE_URL: recorder.url });
  try {
    // A first post of each sampled poster prepares the statements on the pool's connections (the recorder keeps
    // their texts) and caches the poster's session, as it is in the measured runs (for a minute at a time).
    const sampled = posters.slice(0, POST_SAMPLES);
    for (const poster of sampled) await (await postRequest(url, poster, nextAsk(poster))).text();
    const windows: Array<{ ask: PostAsk; executed: Executed[] }> = [];
    for (const poster of sampled) {
      const ask = nextAsk(poster);
      const from = recorder.executed.length;
      const response = await postRequest(url, poster, ask);
      if (response.status !== 201) throw new Error(`A recorded post answered ${response.status}: ${await response.text()}`);
      await response.text();
      windows.push({ ask, executed: recorder.executed.slice(from) });
    }
    const inEvery = windows[0].executed.filter(({ text }) => windows.every((window) => window.executed.some((other) => other.text === text)));
    const elsewhere = new Set(windows.flatMap((window) => window.executed.map(({ text }) => text)).filter((text) => !inEvery.some((kept) => kept.text === text)));
    for (const text of elsewhere) console.log(`  not in every post (a background job), left out:\n    ${text.replace(/\s+/g, ' ')}`);
    return inEvery.map(({ text, values }) => ({ text, parameters: values.map((value) => parameterOf(value, windows[0].ask, text)) }));
  } finally {
    await stopProcess(server);
    await recorder.close();
  }
}

/** Runs `post` from `clients` concurrent workers, back to back for `seconds`: posts/s and latencies. */
async function backToBack(clients: number, seconds: number, post: (worker: number) => Promise<void>): Promise<Omit<Measured, 'call'>> {
  const latencies: number[] = [];
  let failures = 0;
  const endAt = performance.now() + seconds * 1000;
  const startedAt = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async (_, worker) => {
      while (performance.now() < endAt) {
        const postedAt = performance.now();
        try {
          await post(worker);
        } catch (error) {
          failures += 1;
          if (failures === 1) console.error(error);
        }
        latencies.push(performance.now() - postedAt);
      }
    }),
  );
  const elapsedS = (performance.now() - startedAt) / 1000;
  latencies.sort((a, b) => a - b);
  return { requestsPerSecond: latencies.length / elapsedS, p50: percentileOf(latencies, 0.5), p99: percentileOf(latencies, 0.99), failures };
}

/** PostgreSQL alone running the post's statements, prepared, from CLIENTS plain connections. */
async function measureDatabaseOnly(databaseUrl: string, statements: PostStatement[], posters: Poster[]): Promise<Costed> {
  const connections = await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      return client;
    }),
  );
  let next = 0;
  const post = async (worker: number) => {
    const poster = posters[next++ % posters.length];
    const ask = nextAsk(poster);
    let messageId = 0;
    for (const [index, { text, parameters }] of statements.entries()) {
      const values = parameters.map((parameter) => PARAMETERS[parameter](ask, messageId));
      const { rows } = await connections[worker].query<{ written?: [number, ...unknown[]] }>({ name: `post_${index}`, text, values });
      if (/INSERT INTO messages/i.test(text)) {
        // The write answers the message it wrote as `written`, beside the request it read.
        const written = rows.length === 1 ? rows[0].written : undefined;
        if (!written) throw new Error(`The insert wrote no message: ${JSON.stringify(rows).slice(0, 200)}`);
        messageId = written[0];
      }
    }
  };
  try {
    await backToBack(CLIENTS, WARM_UP_S, post);
    const database = await backendPids(databaseUrl);
    // Awaited here: the connections close in `finally`.
    return await costed(DURATION_S, { database }, async () => ({ call: `PostgreSQL alone, ${CLIENTS} pg clients`, ...(await backToBack(CLIENTS, DURATION_S, post)) }));
  } finally {
    await Promise.all(connections.map((client) => client.end()));
  }
}

/** CPU time (user and system, in ms) a process has used so far, from /proc; 0 for one that has exited. */
function cpuMsOf(pid: number): number {
  try {
    // After the command's name: the state is the first field, utime and stime the 12th and 13th, in 1/100 s.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/** The PostgreSQL backends serving the database of `databaseUrl`, other than the one asking. */
async function backendPids(databaseUrl: string): Promise<number[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
    return rows.map((row) => row.pid);
  } finally {
    await client.end();
  }
}

/** A run, and the CPU its server process (if any) and PostgreSQL's backends spent on each post. */
interface Costed extends Measured {
  serverCpuMsPerPost: number | null;
  databaseCpuMsPerPost: number;
}

/**
 * On a machine shared with other work, posts/s say how much CPU the processes were given as much as what a post
 * costs: the CPU time each post took, in the server and in PostgreSQL, says the latter.
 */
async function costed(seconds: number, pids: { server?: number; database: number[] }, run: () => Promise<Measured>): Promise<Costed> {
  const spent = (pidsOf: readonly number[]) => pidsOf.reduce((total, pid) => total + cpuMsOf(pid), 0);
  const before = { server: pids.server ? cpuMsOf(pids.server) : 0, database: spent(pids.database) };
  const measured = await run();
  const posts = measured.requestsPerSecond * seconds;
  return {
    ...measured,
    serverCpuMsPerPost: pids.server ? (cpuMsOf(pids.server) - before.server) / posts : null,
    databaseCpuMsPerPost: (spent(pids.database) - before.database) / posts,
  };
}

function printTable(results: readonly Costed[], databaseOnly: Measured) {
  const row = (call: string, rate: string, share: string, p50: string, p99: string, failures: string, cpu: string) =>
    `| ${call.padEnd(62)} | ${rate.padStart(7)} | ${share.padStart(6)} | ${p50.padStart(9)} | ${p99.padStart(9)} | ${failures.padStart(8)} | ${cpu.padStart(20)} |`;
  console.log(`\nPostgreSQL, ${BENCH_TOTAL_REQUESTS.toLocaleString('en')} requests: the employee's message post\n`);
  console.log(row('run', 'posts/s', 'of DB', 'p50', 'p99', 'failures', 'CPU ms/post: server + PostgreSQL'));
  console.log(`|${'-'.repeat(64)}|${'-'.repeat(9)}|${'-'.repeat(8)}|${'-'.repeat(11)}|${'-'.repeat(11)}|${'-'.repeat(10)}|${'-'.repeat(22)}|`);
  for (const result of results) {
    const share = `${((100 * result.requestsPerSecond) / databaseOnly.requestsPerSecond).toFixed(1)}%`;
    const cpu = `${result.serverCpuMsPerPost === null ? '-' : result.serverCpuMsPerPost.toFixed(2)} + ${result.databaseCpuMsPerPost.toFixed(2)}`;
    console.log(row(result.call, result.requestsPerSecond.toFixed(0), share, `${result.p50} ms`, `${result.p99} ms`, String(result.failures), cpu));
  }
}

const uptime = () => `load average ${loadavg().map((load) => load.toFixed(2)).join(', ')}`;

if (!process.env.TEST_DATABASE_URL) throw new Error('bench-post measures PostgreSQL: set TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test)');
if (!options['no-build']) execFileSync(process.execPath, ['scripts/build.ts'], { cwd: root, stdio: 'inherit' });

console.log(`Message post: ${CLIENTS} clients, ${WARM_UP_S} s warm-up then ${DURATION_S} s per run; ${uptime()}`);
console.log(`postgres: seeding ${BENCH_TOTAL_REQUESTS.toLocaleString('en')} requests...`);
const database = await createBenchDatabase('postgres');
try {
  const posters: Poster[] = (await seedBenchRequests(database.open)).map((caller) => ({
    ...caller,
    headers: { [AUTHORIZATION_HEADER]: `Bearer ${caller.token}` },
    posted: 0,
  }));
  console.log('Recording the statements of a post...');
  const statements = await recordPostStatements(database.env, posters);
  console.log(`One post runs ${statements.length} statements; PostgreSQL alone replays them, prepared:`);
  for (const [index, { text, parameters }] of statements.entries()) {
    console.log(`  ${index + 1}. ${text.replace(/\s+/g, ' ').trim()}\n     parameters: ${parameters.join(', ') || 'none'}`);
  }

  console.log('PostgreSQL alone...');
  const databaseOnly = await measureDatabaseOnly(database.open.url!, statements, posters);

  const { child: server, url } = await startBenchServer(database.env, {
    nodeArgs: options.profile ? ['--cpu-prof', `--cpu-prof-dir=${options.profile}`] : [],
  });
  const results: Costed[] = [databaseOnly];
  try {
    const call: BenchCall<Poster> = {
      label: `HTTP POST requests/:id/messages, ${CLIENTS} connections`,
      method: 'POST',
      // Each post in the poster's next request, with a fresh key.
      path: (poster) => `/api/v1/requests/${nextAsk(poster).requestId}/messages`,
      headers: () => ({ [IDEMPOTENCY_KEY_HEADER]: randomUUID() }),
      body: () => JSON.stringify({ message: { body: BODY, source: 'user', attachment_keys: [] } }),
    };
    console.log('HTTP post at full speed...');
    await runAutocannon(url, call, posters, { connections: CLIENTS, seconds: WARM_UP_S });
    // The server's pool and LISTEN connections are all open after the warm-up.
    const pids = { server: server.pid, database: await backendPids(database.open.url!) };
    results.push(await costed(DURATION_S, pids, () => runAutocannon(url, call, posters, { connections: CLIENTS, seconds: DURATION_S })));
    console.log(`HTTP post at ${PACED_RATE} posts/s, evenly paced...`);
    const pacing = { rate: PACED_RATE, connections: 50 };
    await runPaced(url, call, posters, { ...pacing, seconds: WARM_UP_S });
    results.push(await costed(DURATION_S, pids, () => runPaced(url, call, posters, { ...pacing, seconds: DURATION_S })));
  } finally {
    await stopProcess(server);
  }

  printTable(results, databaseOnly);
  const [, fullSpeed, paced] = results;
  const share = fullSpeed.requestsPerSecond / databaseOnly.requestsPerSecond;
  console.log(`\nHTTP / PostgreSQL alone: ${(100 * share).toFixed(1)}% (target >= ${100 * TARGET_SHARE}%): ${share >= TARGET_SHARE ? 'met' : 'NOT met'}`);
  console.log(`p99 at ${PACED_RATE} posts/s: ${paced.p99} ms (target <= ${TARGET_P99_MS} ms): ${paced.p99 <= TARGET_P99_MS ? 'met' : 'NOT met'}`);
  console.log(`${uptime()}\n`);
} finally {
  await database.drop();
}
