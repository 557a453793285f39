/**
 * `npm run bench:streams`: what open live-update streams (/api/v1/events) cost the production server. On a fresh
 * database (PostgreSQL with TEST_DATABASE_URL, else PGlite), employees hold MAX_STREAMS_PER_USER streams each,
 * opened by client processes of STREAMS_PER_CLIENT streams (a process's open-files limit bounds each side). Reports
 * the server's resident memory (after a garbage collection) at 0 streams and at each step, and, at the latency step, how long a concierge reply
 * takes to reach its employee's stream while replies are posted at a steady rate across the open streams.
 *
 *   node scripts/bench-streams.ts [--steps 1000,10000,20000] [--latency-at 10000 (0: memory only)] [--rate 100]
 *                                 [--seconds 20] [--engine pglite|postgres]
 */
import { type ChildProcess, execFileSync, fork } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { Agent, get as httpGet, request as httpRequest } from 'node:http';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { AUTHORIZATION_HEADER } from '../src/contract/common.ts';
import { openDatabase } from '../server/db/client.ts';
import { seedDemoAccounts } from '../server/db/seed/demoAccounts.ts';
import { sessions } from '../server/db/schema.ts';
import { eventStreamTickets } from '../server/db/threads.schema.ts';
import { digest, newToken } from '../server/domain/shared/tokens.ts';
import { MAX_STREAMS_PER_USER } from '../server/routes/events.routes.ts';
import { type Engine, createBenchDatabase, freePort, root, rowsOf, startBenchServer, stopProcess } from './benchSupport.ts';

const { values: options } = parseArgs({
  options: {
    steps: { type: 'string', default: '1000,10000,20000' },
    'latency-at': { type: 'string', default: '10000' },
    rate: { type: 'string', default: '100' },
    seconds: { type: 'string', default: '20' },
    engine: { type: 'string' },
    /** Internal: this process is one of the stream clients, driven over IPC. */
    client: { type: 'boolean', default: false },
  },
});

const STREAMS_PER_CLIENT = 5_000;
/** Streams each client opens at once: enough to open thousands in seconds, few enough not to measure a stampede. */
const OPENING_CONCURRENCY = 50;
/** Quiet time before memory is read (then the server collects its garbage): the figure is what the streams hold. */
const SETTLE_MS = 5_000;
const PROBE = /probe-(\d+)-/;

type ToClient = { type: 'open'; url: string; tickets: string[] } | { type: 'close' };
type FromClient = { type: 'opened'; opened: number; refused: Record<string, number> } | { type: 'probe'; id: number; at: number };

/** Wall-clock milliseconds with sub-millisecond precision, comparable between the processes of this machine. */
const now = () => performance.timeOrigin + performance.now();

if (options.client) runClient();
else await runBench();

/** A client process: opens the streams it is sent and reports each probe reply as it arrives. */
function runClient() {
  const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
  const open: Array<{ destroy(): void }> = [];
  const send = (message: FromClient) => process.send?.(message);
  process.on('message', async (message: ToClient) => {
    if (message.type === 'close') {
      for (const request of open) request.destroy();
      process.exit(0);
    }
    const refused: Record<string, number> = {};
    let opened = 0;
    const queue = [...message.tickets];
    const openOne = (ticket: string) =>
      new Promise<void>((resolve) => {
        const request = httpGet(`${message.url}/api/v1/events?ticket=${encodeURIComponent(ticket)}`, { agent }, (response) => {
          if (response.statusCode !== 200) {
            refused[response.statusCode ?? 0] = (refused[response.statusCode ?? 0] ?? 0) + 1;
            response.resume();
            resolve();
            return;
          }
          opened += 1;
          open.push(request);
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => {
            const probe = PROBE.exec(chunk);
            if (probe) send({ type: 'probe', id: Number(probe[1]), at: now() });
            // The first chunk is the ": connected" line: the stream is open.
            resolve();
          });
        });
        request.on('error', (error) => {
          refused[error.message] = (refused[error.message] ?? 0) + 1;
          resolve();
        });
      });
    await Promise.all(
      Array.from({ length: OPENING_CONCURRENCY }, async () => {
        for (let ticket = queue.shift(); ticket; ticket = queue.shift()) await openOne(ticket);
      }),
    );
    send({ type: 'opened', opened, refused });
  });
}

interface Employee {
  userId: number;
  requestId: number;
  tickets: string[];
}

/**
 * Employees of Acme with a session, MAX_STREAMS_PER_USER stream tickets and a request each, and a concierge's
 * session to reply with. Tickets are written straight to the database with a long life: the bench opens thousands,
 * slower than the minute a ticket normally lasts.
 */
async function seed(open: { url?: string; dataDir?: string }, employeeCount: number) {
  const database = await openDatabase(open);
  const { db } = database;
  try {
    await seedDemoAccounts(db, { nodeEnv: 'development', password: newToken() });
    const userRows = rowsOf<{ id: number }>(
      await db.execute(sql`
        WITH added AS (
          INSERT INTO users (email, password_hash, first_name, last_name, terms_accepted_at, onboarded_at)
          SELECT 'streamer' || n || '@acme.test', 'not-a-password-hash', 'Employee', 'No. ' || n, now(), now()
          FROM generate_series(1, ${employeeCount}) AS n
          RETURNING id
        ), joined AS (
          INSERT INTO user_companies (user_id, company_id)
          SELECT added.id, companies.id FROM added, companies WHERE companies.slug = 'acme'
        )
        SELECT id FROM added ORDER BY id`),
    );
    const requestRows = rowsOf<{ id: number; user_id: number }>(
      await db.execute(sql`
        INSERT INTO requests (user_id, name, status, details, issued_at)
        SELECT id, 'Service the car', 'in_progress', 'Please book the car in for its service.', now()
        FROM users WHERE email LIKE 'streamer%@acme.test'
        RETURNING id, user_id`),
    );
    const requestOf = new Map(requestRows.map((row) => [row.user_id, row.id]));
    const expiresAt = new Date(Date.now() + 24 * 3_600_000);
    const employees: Employee[] = [];
    for (let start = 0; start < userRows.length; start += 1_000) {
      const batch = userRows.slice(start, start + 1_000);
      const sessionRows = await db
        .insert(sessions)
        .values(batch.map(({ id }) => ({ userId: id, tokenDigest: digest(newToken()), expiresAt })))
        .returning({ id: sessions.id, userId: sessions.userId });
      const tickets = sessionRows.flatMap((session) =>
        Array.from({ length: MAX_STREAMS_PER_USER }, () => ({ sessionId: session.id, userId: session.userId, ticket: newToken() })),
      );
      await db.insert(eventStreamTickets).values(tickets.map(({ sessionId, ticket }) => ({ tokenDigest: digest(ticket), sessionId, expiresAt })));
      for (const session of sessionRows) {
        employees.push({
          userId: session.userId,
          requestId: requestOf.get(session.userId)!,
          tickets: tickets.filter((ticket) => ticket.userId === session.userId).map(({ ticket }) => ticket),
        });
      }
    }
    const [concierge] = rowsOf<{ id: number }>(await db.execute(sql`SELECT id FROM users WHERE email = 'concierge@demo.test'`));
    const conciergeToken = newToken();
    await db.insert(sessions).values({ userId: concierge.id, tokenDigest: digest(conciergeToken), expiresAt });
    await db.execute(sql`ANALYZE`);
    return { employees, conciergeToken };
  } finally {
    await database.close();
  }
}

/** The server's resident memory (VmRSS), in KB. */
function residentKb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)![1]);
}

/**
 * Has the server collect its garbage, through its inspector, so that its memory is read as what it holds (the
 * streams) rather than what opening them left behind for a later collection.
 */
async function collectGarbage(inspectorPort: number) {
  const [target] = (await (await fetch(`http://127.0.0.1:${inspectorPort}/json/list`)).json()) as Array<{ webSocketDebuggerUrl: string }>;
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.onopen = resolve;
    socket.onerror = reject;
  });
  await new Promise((resolve) => {
    socket.onmessage = resolve;
    socket.send(JSON.stringify({ id: 1, method: 'HeapProfiler.collectGarbage' }));
  });
  socket.close();
}

async function runBench() {
  const steps = options.steps.split(',').map(Number).sort((a, b) => a - b);
  const latencyAt = Number(options['latency-at']);
  const rate = Number(options.rate);
  const seconds = Number(options.seconds);
  const engine: Engine = options.engine === 'pglite' || !process.env.TEST_DATABASE_URL ? 'pglite' : 'postgres';
  const total = steps.at(-1)!;
  const employeeCount = Math.ceil(total / MAX_STREAMS_PER_USER);

  // The production server serves the built app: build it once if this checkout has none.
  if (!existsSync(new URL('dist/index.html', root))) execFileSync(process.execPath, ['scripts/build.ts'], { cwd: root, stdio: 'inherit' });
  console.log(`Live streams on ${engine}: seeding ${employeeCount.toLocaleString('en')} employees...`);
  const database = await createBenchDatabase(engine);
  const { employees, conciergeToken } = await seed(database.open, employeeCount);
  const inspectorPort = await freePort();
  const { child: server, url } = await startBenchServer(database.env, {
    nodeArgs: [`--inspect=127.0.0.1:${inspectorPort}`],
    raiseOpenFiles: true,
  });
  const settledKb = async () => {
    await sleep(SETTLE_MS);
    await collectGarbage(inspectorPort);
    await sleep(1_000);
    return residentKb(server.pid!);
  };
  const clients: ChildProcess[] = [];
  const probesReceived = new Map<number, number>();
  try {
    // Warm the server's paths once before its baseline is read.
    await fetch(`${url}/api/v1/no-such-call`);
    const rows: Array<{ streams: number; open: number; rssKb: number; refused: Record<string, number> }> = [
      { streams: 0, open: 0, rssKb: await settledKb(), refused: {} },
    ];
    const tickets = employees.flatMap((employee) => employee.tickets);
    let openedSoFar = 0;
    /** Streams the server accepted (past its capacity it answers 503). */
    let open = 0;
    let latency: { sent: number; p50: number; p99: number; max: number; lost: number } | null = null;
    for (const step of [...new Set([...steps, latencyAt])].filter((count) => count > 0).sort((a, b) => a - b)) {
      const refused: Record<string, number> = {};
      while (openedSoFar < step) {
        const clientIndex = Math.floor(openedSoFar / STREAMS_PER_CLIENT);
        const upTo = Math.min(step, (clientIndex + 1) * STREAMS_PER_CLIENT);
        clients[clientIndex] ??= startClient(probesReceived);
        const answer = await askClient(clients[clientIndex], { type: 'open', url, tickets: tickets.slice(openedSoFar, upTo) });
        for (const [reason, count] of Object.entries(answer.refused)) refused[reason] = (refused[reason] ?? 0) + count;
        openedSoFar = upTo;
        open += answer.opened;
      }
      const rssKb = await settledKb();
      if (steps.includes(step)) rows.push({ streams: step, open, rssKb, refused });
      console.log(`  ${step.toLocaleString('en')} streams asked for: ${JSON.stringify(refused)} refused, server RSS ${rssKb} KB`);
      if (step === latencyAt) latency = await measureReplyLatency(url, conciergeToken, employees.slice(0, step / MAX_STREAMS_PER_USER), rate, seconds, probesReceived);
    }

    console.log(`\nServer resident memory by open streams (${engine}, one process)\n`);
    console.log('| streams asked for | open | RSS | per open stream over 0 | refused |');
    console.log('|------------------:|-----:|----:|-----------------------:|---------|');
    for (const row of rows) {
      const perStream = row.open === 0 ? '' : `${((row.rssKb - rows[0].rssKb) / row.open).toFixed(1)} KB`;
      const refusedText = Object.entries(row.refused).map(([reason, count]) => `${count} × ${reason}`).join(', ');
      console.log(`| ${row.streams.toLocaleString('en')} | ${row.open.toLocaleString('en')} | ${(row.rssKb / 1024).toFixed(1)} MB | ${perStream} | ${refusedText} |`);
    }
    if (latency) {
      console.log(
        `\nConcierge reply -> its employee's stream, ${latencyAt.toLocaleString('en')} streams open, ${rate} replies/s for ${seconds} s:` +
          ` ${latency.sent} sent, p50 ${latency.p50} ms, p99 ${latency.p99} ms, max ${latency.max} ms, ${latency.lost} never arrived`,
      );
    }
  } finally {
    for (const client of clients) client.send({ type: 'close' } satisfies ToClient);
    await stopProcess(server);
    await database.drop();
  }
}

function startClient(probesReceived: Map<number, number>): ChildProcess {
  const child = fork(new URL(import.meta.url).pathname, ['--client'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  child.on('message', (message: FromClient) => {
    // Each of the employee's streams receives the reply: the first arrival is the one that counts.
    if (message.type === 'probe' && !probesReceived.has(message.id)) probesReceived.set(message.id, message.at);
  });
  return child;
}

function askClient(child: ChildProcess, message: ToClient): Promise<Extract<FromClient, { type: 'opened' }>> {
  return new Promise((resolve) => {
    const onMessage = (answer: FromClient) => {
      if (answer.type !== 'opened') return;
      child.off('message', onMessage);
      resolve(answer);
    }
    child.on('message', onMessage);
    child.send(message);
  });
}

/**
 * A concierge replies at `rate` a second, evenly paced, each reply to another employee's request; each reply's
 * latency runs from when it was sent to when the first of its employee's streams received it.
 */
async function measureReplyLatency(
  url: string,
  conciergeToken: string,
  employees: readonly Employee[],
  rate: number,
  seconds: number,
  probesReceived: Map<number, number>,
) {
  const agent = new Agent({ keepAlive: true, maxSockets: 20 });
  const sentAt = new Map<number, number>();
  const total = rate * seconds;
  const startedAt = now();
  let failures = 0;
  for (let id = 0; id < total; id += 1) {
    const due = startedAt + (id * 1000) / rate;
    if (due > now()) await sleep(due - now());
    const employee = employees[(id * 7919) % employees.length];
    sentAt.set(id, now());
    const request = httpRequest(
      `${url}/api/v1/console/requests/${employee.requestId}/messages`,
      {
        method: 'POST',
        agent,
        headers: { [AUTHORIZATION_HEADER]: `Bearer ${conciergeToken}`, 'content-type': 'application/json' },
      },
      (response) => {
        if (response.statusCode !== 201) failures += 1;
        response.resume();
      },
    );
    request.on('error', () => (failures += 1));
    request.end(JSON.stringify({ body_markdown: `probe-${id}- Your car is booked for Tuesday.`, attachment_keys: [] }));
  }
  await sleep(3_000);
  agent.destroy();
  const latencies = [...sentAt].flatMap(([id, at]) => (probesReceived.has(id) ? [probesReceived.get(id)! - at] : [])).sort((a, b) => a - b);
  const percentile = (share: number) => Math.round(latencies[Math.ceil(share * latencies.length) - 1] ?? NaN);
  if (failures > 0) console.log(`  ${failures} replies were refused`);
  return { sent: total, p50: percentile(0.5), p99: percentile(0.99), max: Math.round(latencies.at(-1) ?? NaN), lost: total - latencies.length };
}

function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
