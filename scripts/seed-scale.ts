/**
 * `npm run seed:scale` (issue 31 point 2, "a year of data"): fills the PostgreSQL database named by DATABASE_URL (or
 * TEST_DATABASE_URL) with 50 companies, 200,000 employees, 1,000,000 requests over a year and 10,000,000 messages,
 * for `scripts/bench-scale.ts`. The schema is the app's own: its migrator runs first.
 *
 * Deterministic: every row follows from its ordinal through fixed arithmetic (no random(), no now()); the helpers are plain expressions so that the planner inlines them, so two runs on
 * empty databases write the same data. Idempotent: each phase (staff, employees, requests, messages) is one
 * transaction, skipped when its rows are there, so a second run finds it done and an interrupted one starts the
 * unfinished phase again. The rows are made by the server (`INSERT ... SELECT generate_series`) in batches, each
 * printed; the large tables' secondary indexes are dropped inside the phase's transaction and built again from their
 * own definitions before it commits (one build is far cheaper than ten million insertions into a GIN index).
 *
 * Skew: 100 heavy employees have 50 requests each, the other requests fall on employees by a hash (some have none,
 * some a dozen); threads have 0 to 19 messages, 1,000 threads have 200, and one of the known employee's requests has
 * 2,000. Every account signs in with SCALE_PASSWORD (default 'scale-password'): one argon2 hash, reused.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/scale npm run seed:scale
 */
import pg from 'pg';
import { openDatabase } from '../server/db/client.ts';
import { hashPassword } from '../server/domain/accounts/passwords.ts';
import { KNOWN_EMPLOYEE_EMAIL, SCALE, SCALE_PASSWORD, scaleConciergeEmail, scaleEmployeeEmail } from './scaleData.ts';

const EMPLOYEE_BATCH = 50_000;
const REQUEST_BATCH = 100_000;
const MESSAGE_REQUEST_BATCH = 50_000;

/**
 * Session-local SQL helpers (pg_temp: they vanish with the connection, the schema stays the migrations'). `mix` is a
 * multiplicative hash (modulo the prime 2^31 - 1, in bigint without overflow) of an ordinal and a salt, in [0, 1): the same inputs give the same value on any server.
 */
const HELPERS = `
  CREATE OR REPLACE FUNCTION pg_temp.mix(n bigint, salt int) RETURNS double precision LANGUAGE sql IMMUTABLE AS
    $$ SELECT ((((n * 40503 + salt * 104729 + 12345) % 2147483647) * 48271 % 2147483647) # ((((n * 40503 + salt * 104729 + 12345) % 2147483647) * 48271 % 2147483647) >> 13)) * 69621 % 2147483647 / 2147483647.0 $$;
  CREATE OR REPLACE FUNCTION pg_temp.request_uuid(j bigint) RETURNS uuid LANGUAGE sql IMMUTABLE AS
    $$ SELECT md5('scale-request-' || j)::uuid $$;
  CREATE OR REPLACE FUNCTION pg_temp.employee_email(n bigint) RETURNS text LANGUAGE sql IMMUTABLE AS
    $$ SELECT 'employee' || n || '@scale' || lpad((((n - 1) % ${SCALE.companies}) + 1)::text, 2, '0') || '.test' $$;
`;

/** Words the messages are made of, so that searches find some threads and not others. */
const WORDS = [
  'car', 'service', 'booking', 'insurance', 'renewal', 'passport', 'flight', 'hotel', 'weekend', 'dentist', 'vet',
  'school', 'nursery', 'mortgage', 'broker', 'plumber', 'quote', 'invoice', 'delivery', 'moving', 'storage', 'gym',
  'membership', 'tickets', 'concert', 'dinner', 'reservation', 'birthday', 'present', 'tax', 'return', 'pension',
  'doctor', 'appointment', 'prescription', 'holiday', 'visa', 'train', 'parking', 'permit', 'registration', 'tyres',
  'cleaner', 'babysitter', 'repair', 'boiler', 'window', 'garden', 'lawyer', 'thanks',
];

const databaseUrl = process.env.DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (!databaseUrl) {
  console.error('seed:scale writes a whole database: name it with DATABASE_URL or TEST_DATABASE_URL (PostgreSQL).');
  process.exit(2);
}

const startedAt = performance.now();
const elapsed = () => `${((performance.now() - startedAt) / 1000).toFixed(1)} s`;
const log = (line: string) => console.log(`[${elapsed().padStart(8)}] ${line}`);

log('applying the migrations');
const migrated = await openDatabase({ url: databaseUrl });
await migrated.close();

const client = new pg.Client({ connectionString: databaseUrl });
await client.connect();
await client.query(`SET synchronous_commit = off; SET maintenance_work_mem = '1GB'; SET work_mem = '256MB'; ${HELPERS}`);

const one = async <Row>(text: string, values: unknown[] = []) => (await client.query(text, values)).rows[0] as Row;

/** A phase in one transaction, skipped when `done` says its rows are there. */
async function phase(name: string, done: string, load: () => Promise<void>, { deferIndexesOf = [] as string[] } = {}) {
  if ((await one<{ done: boolean }>(`SELECT (${done}) AS done`)).done) {
    log(`${name}: already there`);
    return;
  }
  log(`${name}: loading`);
  await client.query('BEGIN');
  try {
    const deferred: Array<{ indexname: string; indexdef: string }> = [];
    for (const table of deferIndexesOf) {
      // Indexes that no constraint owns (the primary key and unique constraints stay, the loads need none of the rest).
      const { rows } = await client.query<{ indexname: string; indexdef: string }>(
        `SELECT indexname, indexdef FROM pg_indexes i
         WHERE schemaname = 'public' AND tablename = $1
           AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
        [table],
      );
      for (const index of rows) await client.query(`DROP INDEX "${index.indexname}"`);
      deferred.push(...rows);
    }
    await load();
    for (const index of deferred) {
      log(`${name}: building ${index.indexname}`);
      await client.query(index.indexdef);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  }
  log(`${name}: done`);
}

async function inBatches(name: string, total: number, size: number, insertBatch: (from: number, to: number) => Promise<number>) {
  let rows = 0;
  for (let from = 1; from <= total; from += size) {
    const to = Math.min(total, from + size - 1);
    rows += await insertBatch(from, to);
    log(`${name}: ${to.toLocaleString('en')} of ${total.toLocaleString('en')} (${rows.toLocaleString('en')} rows)`);
  }
}

const passwordHash = await hashPassword(SCALE_PASSWORD);

await phase('companies and concierges', `EXISTS (SELECT 1 FROM users WHERE email = '${scaleConciergeEmail(SCALE.concierges)}')`, async () => {
  await client.query(
    `INSERT INTO companies (slug, name, mfa_policy, created_at)
     SELECT 'scale-' || lpad(c::text, 2, '0'), 'Scale Company ' || lpad(c::text, 2, '0'), 'off', $1::timestamptz - interval '400 days'
     FROM generate_series(1, ${SCALE.companies}) AS c`,
    [SCALE.anchor],
  );
  await client.query(
    `INSERT INTO company_email_domains (domain, company_id)
     SELECT 'scale' || substr(slug, 7) || '.test', id FROM companies WHERE slug LIKE 'scale-__'`,
  );
  await client.query(`INSERT INTO companies (slug, name, internal_staff) VALUES ('scale-staff', 'Scale Concierge Team', true)`);
  await client.query(
    `WITH added AS (
       INSERT INTO users (email, password_hash, first_name, last_name, role, terms_accepted_at, onboarded_at, created_at)
       SELECT 'concierge' || n || '@scale-staff.test', $1, 'Concierge', 'No. ' || n, 'concierge', $2::timestamptz - interval '400 days',
              $2::timestamptz - interval '400 days', $2::timestamptz - interval '400 days'
       FROM generate_series(1, ${SCALE.concierges}) AS n
       RETURNING id)
     INSERT INTO user_companies (user_id, company_id) SELECT added.id, companies.id FROM added, companies WHERE companies.slug = 'scale-staff'`,
    [passwordHash, SCALE.anchor],
  );
});

await phase('employees', `EXISTS (SELECT 1 FROM users WHERE email = '${scaleEmployeeEmail(SCALE.employees)}')`, async () => {
  await inBatches('employees', SCALE.employees, EMPLOYEE_BATCH, async (from, to) => {
    const { rowCount } = await client.query(
      `WITH added AS (
         INSERT INTO users (email, password_hash, first_name, last_name, terms_accepted_at, onboarded_at, created_at)
         SELECT pg_temp.employee_email(n), $1, (ARRAY['Alex','Sam','Jordan','Taylor','Morgan','Casey','Robin','Jamie'])[1 + n % 8],
                'Employee ' || n, joined_at, joined_at, joined_at
         FROM generate_series($3::int, $4::int) AS n,
              LATERAL (SELECT $2::timestamptz - interval '400 days' + pg_temp.mix(n, 1) * interval '30 days' AS joined_at) AS joined
         RETURNING id, email)
       INSERT INTO user_companies (user_id, company_id)
       SELECT added.id, companies.id FROM added
       JOIN companies ON companies.slug = 'scale-' || substring(added.email FROM '@scale(\\d\\d)\\.test$')`,
      [passwordHash, SCALE.anchor, from, to],
    );
    return rowCount ?? 0;
  });
}, { deferIndexesOf: ['users'] });

/*
 * Request j (1..1,000,000) is issued (1 - j/N) of a year before the anchor, so ids ascend with issued_at. The first
 * heavyEmployees x requestsPerHeavyEmployee requests are the heavy employees' (ordinal 1 + (j-1) % 100, spread over
 * the year by a hash); the rest fall on an employee by a hash. Older than two weeks, a request is closed (a few stay
 * in progress); newer ones are open, in progress or closed by a hash. In progress and closed ones have a concierge.
 */
const heavyRequests = SCALE.heavyEmployees * SCALE.requestsPerHeavyEmployee;
await phase('requests', `EXISTS (SELECT 1 FROM requests WHERE external_id = pg_temp.request_uuid(${SCALE.requests}))`, async () => {
  const concierges = (await client.query<{ id: number }>(`SELECT id FROM users WHERE email LIKE 'concierge%@scale-staff.test' ORDER BY id`)).rows.map((row) => row.id);
  await inBatches('requests', SCALE.requests, REQUEST_BATCH, async (from, to) => {
    const { rowCount } = await client.query(
      `INSERT INTO requests (external_id, user_id, name, status, details, assignee_user_id, issued_at, updated_at, closed_at, created_at)
       SELECT pg_temp.request_uuid(j), users.id, shape.name, shape.status::request_status, shape.details,
              CASE WHEN shape.status = 'open' THEN NULL ELSE ($3::int[])[1 + floor(pg_temp.mix(j, 3) * ${SCALE.concierges})::int] END,
              shape.issued_at, shape.issued_at + interval '2 days',
              CASE WHEN shape.status = 'closed' THEN shape.issued_at + interval '3 days' END, shape.issued_at
       FROM generate_series($1::int, $2::int) AS j
       CROSS JOIN LATERAL (SELECT
         CASE WHEN j <= ${heavyRequests} THEN 1 + (j - 1) % ${SCALE.heavyEmployees}
              ELSE 1 + floor(pg_temp.mix(j, 2) * ${SCALE.employees})::int END AS owner,
         $4::timestamptz - (CASE WHEN j <= ${heavyRequests} THEN pg_temp.mix(j, 4) ELSE 1 - j::double precision / ${SCALE.requests} END)
           * interval '365 days' AS issued_at) AS placed
       CROSS JOIN LATERAL (SELECT
         placed.issued_at,
         CASE WHEN placed.issued_at < $4::timestamptz - interval '14 days'
              THEN CASE WHEN pg_temp.mix(j, 5) < 0.01 THEN 'in_progress' ELSE 'closed' END
              ELSE (ARRAY['open', 'in_progress', 'closed'])[1 + floor(pg_temp.mix(j, 5) * 3)::int] END AS status,
         initcap(($5::text[])[1 + floor(pg_temp.mix(j, 6) * ${WORDS.length})::int]) || ' ' || ($5::text[])[1 + floor(pg_temp.mix(j, 7) * ${WORDS.length})::int] AS name,
         CASE WHEN pg_temp.mix(j, 8) < 0.7 THEN 'Please help with the ' || ($5::text[])[1 + floor(pg_temp.mix(j, 9) * ${WORDS.length})::int]
           || ' and the ' || ($5::text[])[1 + floor(pg_temp.mix(j, 10) * ${WORDS.length})::int] || '.' END AS details) AS shape
       JOIN users ON users.email = pg_temp.employee_email(placed.owner)
       ORDER BY j`,
      [from, to, concierges, SCALE.anchor, WORDS],
    );
    return rowCount ?? 0;
  });
}, { deferIndexesOf: ['requests'] });

/*
 * Messages of request j: 2,000 for j = 1 (the known employee's, a heavy one), 200 for j a multiple of 1,000, and for
 * the n others F(i'+1) - F(i') with F(x) = floor(R x^2 / n^2), i' = 7919 i mod n a permutation of their ordinal i:
 * 0 to 19 messages each and exactly R together, so the table holds exactly SCALE.messages. Message k of a thread is
 * written 17 minutes after the one before; they alternate between the employee and a concierge.
 */
const longMessages = SCALE.longestThreadMessages + SCALE.longThreads * SCALE.longThreadMessages;
const shortThreads = SCALE.requests - SCALE.longThreads - 1;
const shortMessages = SCALE.messages - longMessages;
await phase('messages', `EXISTS (SELECT 1 FROM messages JOIN requests ON requests.id = messages.request_id WHERE requests.external_id = pg_temp.request_uuid(1))`, async () => {
  const concierges = (await client.query<{ id: number }>(`SELECT id FROM users WHERE email LIKE 'concierge%@scale-staff.test' ORDER BY id`)).rows.map((row) => row.id);
  await inBatches('messages (requests)', SCALE.requests, MESSAGE_REQUEST_BATCH, async (from, to) => {
    const { rowCount } = await client.query(
      `INSERT INTO messages (request_id, author_user_id, source, source_name, body_html, created_at)
       SELECT requests.id,
              CASE WHEN k % 2 = 1 THEN requests.user_id ELSE ($3::int[])[1 + floor(pg_temp.mix(j, 11) * ${SCALE.concierges})::int] END,
              (CASE WHEN k % 2 = 1 THEN 'user' ELSE 'life_concierge' END)::message_source,
              CASE WHEN k % 2 = 1 THEN 'Employee' ELSE 'Concierge' END,
              '<p>' || initcap(($4::text[])[1 + floor(pg_temp.mix(j::bigint * 4096 + k, 12) * ${WORDS.length})::int]) || ' ' ||
                ($4::text[])[1 + floor(pg_temp.mix(j::bigint * 4096 + k, 13) * ${WORDS.length})::int] || ' for the ' ||
                ($4::text[])[1 + floor(pg_temp.mix(j::bigint * 4096 + k, 14) * ${WORDS.length})::int] || ', as discussed: message ' || k || '.</p>',
              requests.issued_at + k * interval '17 minutes'
       FROM generate_series($1::int, $2::int) AS j
       JOIN requests ON requests.external_id = pg_temp.request_uuid(j)
       CROSS JOIN LATERAL (SELECT CASE
         WHEN j = 1 THEN ${SCALE.longestThreadMessages}
         WHEN j % 1000 = 0 THEN ${SCALE.longThreadMessages}
         ELSE (SELECT floor(${shortMessages}::numeric * (p + 1) * (p + 1) / ${shortThreads}::numeric / ${shortThreads})
                    - floor(${shortMessages}::numeric * p * p / ${shortThreads}::numeric / ${shortThreads})
               FROM (SELECT ((j - 2 - (j - 1) / 1000) * 7919::bigint) % ${shortThreads} AS p) AS permuted)
         END::int AS count) AS thread
       CROSS JOIN LATERAL generate_series(1, thread.count) AS k
       ORDER BY j, k`,
      [from, to, concierges, WORDS],
    );
    return rowCount ?? 0;
  });
}, { deferIndexesOf: ['messages'] });

log('ANALYZE');
await client.query('ANALYZE');

const totals = await one<{ employees: number; requests: number; messages: number; size: string }>(
  `SELECT (SELECT count(*) FROM users WHERE email LIKE 'employee%@scale__.test')::int AS employees,
          (SELECT count(*) FROM requests)::int AS requests, (SELECT count(*) FROM messages)::int AS messages,
          pg_size_pretty(pg_database_size(current_database())) AS size`,
);
const longest = await one<{ request_id: number; messages: number }>(
  `SELECT requests.id AS request_id, (SELECT count(*) FROM messages WHERE request_id = requests.id)::int AS messages
   FROM requests WHERE external_id = pg_temp.request_uuid(1)`,
);
await client.end();
log(`done: ${totals.employees.toLocaleString('en')} employees, ${totals.requests.toLocaleString('en')} requests, ${totals.messages.toLocaleString('en')} messages; database ${totals.size}`);
log(`known employee: ${KNOWN_EMPLOYEE_EMAIL} (password '${SCALE_PASSWORD}'), request ${longest.request_id} has ${longest.messages.toLocaleString('en')} messages`);
