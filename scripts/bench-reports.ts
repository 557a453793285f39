/**
 * `node scripts/bench-reports.ts` (TEST_DATABASE_URL set): the console's Reports over 100,000 completed requests on
 * PostgreSQL (issue 28: each report <= 300 ms). A scratch database gets 50 companies, 5,000 employees, 20
 * concierges, 12 survey categories and 100,000 requests completed over the last year, each with its service level
 * (business minutes, targets met) and 60% of them rated (a tenth of those with a comment). Each report (30, 90 and
 * 365 days; by company, concierge and category; and the CSV) is then asked for through app.inject on the real app
 * (routes, validation, authentication, SQL), after a warm-up, and its server time measured.
 */
import { sql } from 'drizzle-orm';

if (!process.env.TEST_DATABASE_URL) {
  console.error('Set TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test): this benchmark runs on PostgreSQL.');
  process.exit(1);
}
process.env.TEST_DB_ENGINE = 'postgres';

const { createTestContext } = await import('../tests/server/harness.ts');
const { createPerson } = await import('../tests/server/requests.helpers.ts');

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const WARM_UP = 3;
const LIMIT_MS = 300;

function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)];
}

const context = await createTestContext();
try {
  const started = performance.now();
  await context.db.execute(sql`
    insert into companies (slug, name) select 'bench-' || n, 'Company ' || n from generate_series(1, 50) n;
    insert into survey_categories (slug, name, image_url) select 'bench-category-' || n, 'Category ' || n, '/c.png' from generate_series(1, 12) n;
    insert into users (email, password_hash, first_name, last_name, role)
      select 'concierge' || n || '@bench.test', 'x', 'Concierge', 'No ' || n, 'concierge' from generate_series(1, 20) n;
    insert into users (email, password_hash, first_name, last_name)
      select 'employee' || n || '@bench.test', 'x', 'Employee', 'No ' || n from generate_series(1, 5000) n;
    insert into user_companies (user_id, company_id)
      select u.id, c.id from users u
      join companies c on c.slug = 'bench-' || (1 + u.id % 50)
      where u.email like 'employee%@bench.test';
  `);
  await context.db.execute(sql`
    with employees as (select array_agg(id) as ids from users where email like 'employee%@bench.test'),
      categories as (select array_agg(id) as ids from survey_categories where slug like 'bench-category-%')
    insert into requests (user_id, name, status, survey_category_id, closed_at, issued_at)
    select employees.ids[1 + (n * 7919) % array_length(employees.ids, 1)], 'Bench request ' || n, 'closed',
      categories.ids[1 + n % array_length(categories.ids, 1)],
      now() - (n % 365) * interval '1 day' - (n % 1440) * interval '1 minute',
      now() - (n % 365) * interval '1 day' - interval '3 days'
    from generate_series(1, ${REQUESTS}) n, employees, categories;
  `);
  await context.db.execute(sql`
    with concierges as (select array_agg(id) as ids from users where role = 'concierge' and email like 'concierge%@bench.test')
    insert into request_service_levels (request_id, completed_at, completed_by_user_id, employee_user_id, survey_category_id,
      first_response_business_minutes, resolution_business_minutes, first_response_met, resolution_met)
    select r.id, r.closed_at, concierges.ids[1 + r.id % array_length(concierges.ids, 1)], r.user_id, r.survey_category_id,
      5 + (r.id * 37) % 400, 60 + (r.id * 91) % 3000, (r.id * 37) % 400 < 240, (r.id * 91) % 3000 < 1620
    from requests r, concierges where r.name like 'Bench request %';
    insert into request_ratings (request_id, completed_at, user_id, concierge_user_id, score, comment)
    select l.request_id, l.completed_at, r.user_id, l.completed_by_user_id, 1 + (l.request_id * 13) % 5,
      case when l.request_id % 10 = 0 then 'Comment on request ' || l.request_id end
    from request_service_levels l join requests r on r.id = l.request_id
    where l.request_id % 5 < 3;
    update request_service_levels l set rating_score = rating.score
    from request_ratings rating where rating.request_id = l.request_id and rating.completed_at = l.completed_at;
  `);
  // As autovacuum leaves tables whose rows have settled: statistics, and the visibility map index-only scans rely on.
  for (const table of ['requests', 'request_service_levels', 'request_ratings']) await context.db.execute(sql.raw(`vacuum analyze ${table}`));
  console.log(`bench-reports: ${REQUESTS.toLocaleString('en-US')} completed requests written in ${Math.round(performance.now() - started)} ms`);

  if (process.env.BENCH_EXPLAIN) {
    const { aggregateStatement, prepareAggregate, rangeOf } = await import('../server/domain/service/reports.ts');
    const range = rangeOf({ from: new Date(Date.now() - 364 * 86_400_000).toISOString().slice(0, 10), to: new Date().toISOString().slice(0, 10) });
    const plan = await context.db.transaction(async (tx) => {
      await prepareAggregate(tx);
      return tx.execute(sql`explain (analyze, buffers) ${aggregateStatement(range, 'company')}`);
    });
    console.log((plan as unknown as { rows: Array<Record<string, string>> }).rows.map((row) => Object.values(row)[0]).join('\n'));
  }

  const staff = await createPerson(context, 'concierge');
  const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
  const cases = [30, 90, 365].flatMap((days) =>
    (['company', 'concierge', 'category'] as const).map((group) => ({ url: '/api/v1/console/reports', days, group })),
  );
  cases.push({ url: '/api/v1/console/reports.csv', days: 365, group: 'company' });

  let worst = 0;
  for (const { url, days, group } of cases) {
    const query = { from: day(days - 1), to: day(0), group };
    const samples: number[] = [];
    let body = '';
    for (let run = 0; run < WARM_UP + RUNS; run += 1) {
      const before = performance.now();
      const response = await context.app.inject({ method: 'GET', url, query, headers: staff.headers });
      const elapsed = performance.now() - before;
      if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
      if (run >= WARM_UP) samples.push(elapsed);
      body = response.body;
    }
    const sorted = samples.sort((a, b) => a - b);
    const volume = url.endsWith('.csv') ? body.trimEnd().split('\r\n').at(-1)!.split(',')[2] : String(JSON.parse(body).total.volume);
    const p95 = percentile(sorted, 0.95);
    worst = Math.max(worst, p95);
    console.log(
      `${url.endsWith('.csv') ? 'csv   ' : 'report'} ${String(days).padStart(3)} days by ${group.padEnd(9)} volume ${volume.padStart(6)}: ` +
        `median ${percentile(sorted, 0.5).toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms`,
    );
  }
  console.log(`bench-reports: worst p95 ${worst.toFixed(1)} ms (limit ${LIMIT_MS} ms): ${worst <= LIMIT_MS ? 'ok' : 'TOO SLOW'}`);
  if (worst > LIMIT_MS) process.exitCode = 1;
} finally {
  await context.close();
}
