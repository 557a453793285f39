import { type SQL, sql } from 'drizzle-orm';
import {
  REPORT_COMMENTS_LIMIT,
  REPORT_CSV_COLUMNS,
  REPORT_GROUPINGS,
  REPORT_MAX_DAYS,
  REPORT_RANGE_ERROR,
  type Report,
  type ReportComment,
  type ReportGrouping,
  type ReportQuery,
  type ReportRow,
} from '../../../src/contract/reports.ts';
import type { Database, Executor } from '../../db/client.ts';
import { companies, requests, userCompanies, users } from '../../db/schema.ts';
import { requestRatings, requestServiceLevels } from '../../db/service.schema.ts';
import { surveyCategories } from '../../db/surveys.schema.ts';
import { invalidField } from '../shared/userFacingError.ts';

/**
 * The console's Reports (issue 28 part 4). The requests counted are those completed (and not reopened since) whose
 * last completion falls in the range; each completion's rating is the one given for it. Every figure is computed by
 * the database in one aggregate per query (percentile_cont for the medians and 90th percentiles), so that a report
 * over 100,000 requests costs a scan of the range's service levels, not their transfer.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

const rsl = requestServiceLevels;
const rating = requestRatings;

/**
 * The group each completion counts in: its key (a column of `base`, or of the join that adds it) and how the key is
 * named. An employee in two companies counts in both; the total counts each completion once.
 */
const DIMENSIONS: Record<ReportGrouping, { key: SQL; join: SQL; label: SQL; none: string }> = {
  company: {
    key: sql`${userCompanies.companyId}`,
    join: sql`left join ${userCompanies} on ${userCompanies.userId} = base.user_id`,
    label: sql`(select ${companies.name} from ${companies} where ${companies.id} = grouped.key)`,
    none: 'No company',
  },
  concierge: {
    key: sql`base.concierge_id`,
    join: sql``,
    label: sql`(select trim(${users.firstName} || ' ' || ${users.lastName}) from ${users} where ${users.id} = grouped.key)`,
    none: 'Nobody credited',
  },
  category: {
    key: sql`base.category_id`,
    join: sql``,
    label: sql`(select ${surveyCategories.name} from ${surveyCategories} where ${surveyCategories.id} = grouped.key)`,
    none: 'No category',
  },
};

interface AggregateRow {
  is_total: boolean;
  key: number | null;
  label: string | null;
  volume: number;
  rated: number;
  satisfied: number;
  s1: number;
  s2: number;
  s3: number;
  s4: number;
  s5: number;
  /** The median and the 90th percentile, from one sort each (null without values). */
  fr_percentiles: Array<number | null> | null;
  res_percentiles: Array<number | null> | null;
  fr_settled: number;
  fr_met: number;
  res_settled: number;
  res_met: number;
}

/** The range's half-open bounds, [from 00:00 UTC, the day after `to` 00:00 UTC); 422 naming `to` for a bad range. */
export function rangeOf(query: Pick<ReportQuery, 'from' | 'to'>): { start: Date; end: Date } {
  const start = new Date(`${query.from}T00:00:00Z`);
  const end = new Date(new Date(`${query.to}T00:00:00Z`).getTime() + DAY_MS);
  const days = (end.getTime() - start.getTime()) / DAY_MS;
  if (!(days >= 1 && days <= REPORT_MAX_DAYS)) throw invalidField('to', REPORT_RANGE_ERROR);
  return { start, end };
}

/** The figures an aggregate computes over `keyed` rows. */
const FIGURES = sql`
  count(*)::int as volume,
  count(score)::int as rated,
  (count(*) filter (where score >= 4))::int as satisfied,
  (count(*) filter (where score = 1))::int as s1,
  (count(*) filter (where score = 2))::int as s2,
  (count(*) filter (where score = 3))::int as s3,
  (count(*) filter (where score = 4))::int as s4,
  (count(*) filter (where score = 5))::int as s5,
  percentile_cont(array[0.5, 0.9]) within group (order by fr) as fr_percentiles,
  percentile_cont(array[0.5, 0.9]) within group (order by res) as res_percentiles,
  count(fr_met)::int as fr_settled,
  (count(*) filter (where fr_met))::int as fr_met,
  count(res_met)::int as res_settled,
  (count(*) filter (where res_met))::int as res_met`;

/**
 * One statement for the groups and the total: the range's completions (`base`, from the service levels' report index
 * alone: a completion carries its employee, category, credit and score) aggregated by group and as a whole. `base` is
 * not materialized: each aggregate reads the index itself, so the planner knows its rows' statistics (a hash join to
 * the companies) and can run the two aggregates in parallel workers.
 */
export function aggregateStatement(range: { start: Date; end: Date }, group: ReportGrouping): SQL {
  const dimension = DIMENSIONS[group];
  return sql`
    with base as not materialized (
      select ${rsl.employeeUserId} as user_id, ${rsl.surveyCategoryId} as category_id, ${rsl.completedByUserId} as concierge_id,
        ${rsl.firstResponseBusinessMinutes} as fr, ${rsl.resolutionBusinessMinutes} as res,
        ${rsl.firstResponseMet} as fr_met, ${rsl.resolutionMet} as res_met, ${rsl.ratingScore} as score
      from ${rsl}
      where ${rsl.completedAt} >= ${range.start.toISOString()} and ${rsl.completedAt} < ${range.end.toISOString()}
    ), grouped as (
      select false as is_total, ${dimension.key} as key, ${FIGURES} from base ${dimension.join} group by 2
      union all
      select true, null, ${FIGURES} from base
    )
    select grouped.*, case when grouped.is_total then null else ${dimension.label} end as label from grouped
  `;
}

const shareOf = (part: number, whole: number) => (whole === 0 ? null : part / whole);
const minutesOf = (value: number | string | null) => (value === null ? null : Math.round(Number(value) * 10) / 10);

function toReportRow(row: AggregateRow, label: string): ReportRow {
  const count = (value: number) => Number(value);
  return {
    key: row.key === null ? null : Number(row.key),
    label,
    volume: count(row.volume),
    rated: count(row.rated),
    response_rate: shareOf(count(row.rated), count(row.volume)),
    satisfaction: shareOf(count(row.satisfied), count(row.rated)),
    distribution: [row.s1, row.s2, row.s3, row.s4, row.s5].map(count),
    first_response_median_minutes: minutesOf(row.fr_percentiles?.[0] ?? null),
    first_response_p90_minutes: minutesOf(row.fr_percentiles?.[1] ?? null),
    resolution_median_minutes: minutesOf(row.res_percentiles?.[0] ?? null),
    resolution_p90_minutes: minutesOf(row.res_percentiles?.[1] ?? null),
    first_response_met: shareOf(count(row.fr_met), count(row.fr_settled)),
    resolution_met: shareOf(count(row.res_met), count(row.res_settled)),
  };
}

const EMPTY_TOTAL: AggregateRow = {
  is_total: true, key: null, label: null, volume: 0, rated: 0, satisfied: 0, s1: 0, s2: 0, s3: 0, s4: 0, s5: 0,
  fr_percentiles: null, res_percentiles: null, fr_settled: 0, fr_met: 0, res_settled: 0, res_met: 0,
};

async function rowsOf<Row>(db: Executor, query: SQL): Promise<Row[]> {
  return ((await db.execute(query)) as unknown as { rows: Row[] }).rows;
}

/** The range's comments, latest first, with their request, employee and credited concierge. */
async function commentsOf(db: Executor, range: { start: Date; end: Date }): Promise<ReportComment[]> {
  const employee = sql`(select trim(${users.firstName} || ' ' || ${users.lastName}) from ${users} where ${users.id} = ${rating.userId})`;
  const concierge = sql`(select trim(${users.firstName} || ' ' || ${users.lastName}) from ${users} where ${users.id} = ${rating.conciergeUserId})`;
  const rows = await rowsOf<{ request_id: number; request_name: string; employee_name: string; concierge_name: string | null; score: number; comment: string; rated_at: string | Date }>(
    db,
    sql`
      select ${rating.requestId} as request_id, ${requests.name} as request_name, ${employee} as employee_name,
        ${concierge} as concierge_name, ${rating.score} as score, ${rating.comment} as comment, ${rating.updatedAt} as rated_at
      from ${rating} join ${requests} on ${requests.id} = ${rating.requestId}
      where ${rating.completedAt} >= ${range.start.toISOString()} and ${rating.completedAt} < ${range.end.toISOString()}
        and ${rating.comment} is not null
      order by ${rating.updatedAt} desc, ${rating.id} desc
      limit ${REPORT_COMMENTS_LIMIT}
    `,
  );
  return rows.map((row) => ({ ...row, request_id: Number(row.request_id), score: Number(row.score), rated_at: new Date(row.rated_at).toISOString() }));
}

/**
 * Within the aggregate's transaction: the range's rows and the percentiles' sorts are held in memory rather than
 * spilled to temporary files; and no JIT compilation, which a year's estimated cost triggers and which costs more than
 * it saves on 100,000 rows.
 */
export async function prepareAggregate(tx: Executor) {
  await tx.execute(sql`set local work_mem = '32MB'`);
  await tx.execute(sql`set local jit = off`);
}

/** The report of a range by one grouping: its rows (largest volume first), the total and the comments. */
export async function buildReport(db: Database, query: ReportQuery): Promise<Report> {
  const range = rangeOf(query);
  const dimension = DIMENSIONS[query.group];
  const [aggregates, comments] = await Promise.all([
    db.transaction(async (tx) => {
      await prepareAggregate(tx);
      return rowsOf<AggregateRow>(tx, aggregateStatement(range, query.group));
    }),
    commentsOf(db, range),
  ]);
  const total = aggregates.find((row) => row.is_total) ?? EMPTY_TOTAL;
  const rows = aggregates
    .filter((row) => !row.is_total)
    .map((row) => toReportRow(row, row.key === null ? dimension.none : (row.label ?? dimension.none)))
    .sort((a, b) => b.volume - a.volume || a.label.localeCompare(b.label));
  return { from: query.from, to: query.to, group: query.group, rows, total: toReportRow(total, 'All'), comments };
}

/** A CSV field, quoted when it must be, and never read as a formula by a spreadsheet. */
function csvField(value: string | number | null): string {
  if (value === null) return '';
  const text = typeof value === 'number' ? String(value) : /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The report's figures as CSV (REPORT_CSV_COLUMNS), one line per group and a last line for the total. */
export function reportCsv(report: Report): string {
  const groupName = REPORT_GROUPINGS[report.group];
  const line = (group: string, row: ReportRow) =>
    [
      group,
      row.label,
      row.volume,
      row.rated,
      row.response_rate,
      row.satisfaction,
      ...row.distribution,
      row.first_response_median_minutes,
      row.first_response_p90_minutes,
      row.resolution_median_minutes,
      row.resolution_p90_minutes,
      row.first_response_met,
      row.resolution_met,
    ]
      .map(csvField)
      .join(',');
  return [REPORT_CSV_COLUMNS.join(','), ...report.rows.map((row) => line(groupName, row)), line('Total', report.total)].join('\r\n') + '\r\n';
}
