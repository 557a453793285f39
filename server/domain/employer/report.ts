import { and, eq, gte, inArray, isNotNull, lt, or, sql } from 'drizzle-orm';
import {
  type EmployerReport,
  PERIOD_MONTHS,
  type PublishedFigure,
  type ReportPeriod,
} from '../../../src/contract/employer.ts';
import type { Executor } from '../../db/client.ts';
import { employerAdmins, employerReportSettings, hoursSavedEstimates } from '../../db/employer.schema.ts';
import { analyticsEvents, companies, requests, userCompanies, users } from '../../db/schema.ts';
import { requestRatings } from '../../db/service.schema.ts';
import { surveyCategories } from '../../db/surveys.schema.ts';
import { messages } from '../../db/threads.schema.ts';
import { notFound } from '../shared/userFacingError.ts';
import {
  type Group,
  effectiveThreshold,
  foldBreakdown,
  publishActivity,
  publishBanded,
  publishPeople,
  publishSplit,
  sumShown,
} from './suppression.ts';

/**
 * The employer's value report (issue 29 part 3): aggregates of one company's employees over a calendar month,
 * quarter or year (UTC). Every month is first released on its own (releaseMonth: the same cells whatever report
 * asks), and a longer period's counts are sums of its months' released cells (suppression.ts says why). Nothing here
 * reads a request's text, a message's body, a name or a rating's comment: only ids, categories, times and scores.
 */

export const NO_EMPLOYER_COMPANY_ERROR = 'Your account is not linked to a company report.';
export const OTHER_CATEGORY = 'Other';
const UNCATEGORISED = 'Uncategorised';
const HOUR_MS = 60 * 60 * 1000;

/** One month's raw facts, as the database has them: people are user ids. */
export interface MonthFacts {
  month: string;
  /** Requests filed in the month: category name, owner, and whether they are completed (with their turnaround). */
  requests: Array<{ category: string; userId: number; completed: boolean; turnaroundHours: number | null; minutesSaved: number }>;
  ratings: Array<{ userId: number; score: number }>;
  benefitViews: Array<{ userId: number }>;
  helpRequests: Array<{ userId: number }>;
  activeUserIds: number[];
}

/** What a month publishes, decided from its facts alone. */
export interface MonthRelease {
  month: string;
  activeEmployees: PublishedFigure;
  requestsByCategory: ReturnType<typeof foldBreakdown>;
  /**
   * Completed of filed, and the minutes they saved: only when every category's completed and its open requests are
   * each empty or the work of enough people. With the categories' counts beside them, the completed count would
   * otherwise give away a small part (all of Home completed, so Travel's one completion is the total less Home's);
   * and the estimates weigh categories differently, so the minutes could be solved for each category's completions.
   */
  completion: { completed: number; requests: number } | null;
  minutesSaved: number | null;
  satisfaction: { satisfied: number; ratings: number } | null;
  benefitViews: PublishedFigure;
  helpRequests: PublishedFigure;
}

function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(keyOf(item), [...(groups.get(keyOf(item)) ?? []), item]);
  return groups;
}

const peopleOf = (rows: ReadonlyArray<{ userId: number }>) => rows.map((row) => row.userId);
const groupOf = (key: string, rows: ReadonlyArray<{ userId: number }>): Group => ({ key, count: rows.length, people: peopleOf(rows) });

/** One month's cells as every report releases them. */
export function releaseMonth(facts: MonthFacts, threshold: number): MonthRelease {
  const byCategory = [...groupBy(facts.requests, (request) => request.category)]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([category, rows]) => groupOf(category, rows));
  const completed = facts.requests.filter((request) => request.completed);
  const open = facts.requests.filter((request) => !request.completed);
  const isEmptyOrEnough = (rows: ReadonlyArray<{ userId: number }>) => rows.length === 0 || new Set(peopleOf(rows)).size >= threshold;
  const everyPartIsSafe = [...groupBy(facts.requests, (request) => request.category).values()].every(
    (rows) => isEmptyOrEnough(rows.filter((request) => request.completed)) && isEmptyOrEnough(rows.filter((request) => !request.completed)),
  );
  const completion = everyPartIsSafe ? publishSplit(groupOf('completed', completed), groupOf('open', open), threshold) : null;
  const satisfaction = publishSplit(
    groupOf('satisfied', facts.ratings.filter((rating) => rating.score >= 4)),
    groupOf('unsatisfied', facts.ratings.filter((rating) => rating.score < 4)),
    threshold,
  );
  return {
    month: facts.month,
    activeEmployees: publishPeople(new Set(facts.activeUserIds).size, threshold),
    requestsByCategory: foldBreakdown(byCategory, threshold),
    completion: completion && { completed: completion.yes, requests: completion.total },
    minutesSaved: completion ? completed.reduce((sum, request) => sum + request.minutesSaved, 0) : null,
    satisfaction: satisfaction && { satisfied: satisfaction.yes, ratings: satisfaction.total },
    benefitViews: publishActivity(groupOf('views', facts.benefitViews), threshold),
    helpRequests: publishActivity(groupOf('help', facts.helpRequests), threshold),
  };
}

/** Sums of shown figures; suppressed when no month showed one (a sum of nothing is not a zero). */
function summedFigure(figures: readonly PublishedFigure[], threshold: number): PublishedFigure {
  return figures.some((figure) => figure.status === 'shown')
    ? { status: 'shown', value: sumShown(figures) }
    : { status: 'suppressed', fewer_than: threshold };
}

/** The median of the values, or null for none. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

const round1 = (value: number) => Math.round(value * 10) / 10;

/** A period's counts from its months' releases only; its median from the completions of months that released them. */
export function combineReleases(months: readonly MonthRelease[], facts: readonly MonthFacts[], threshold: number) {
  const categories = new Map<string, number>();
  let other: number | null = null;
  for (const month of months) {
    for (const cell of month.requestsByCategory.shown) categories.set(cell.key, (categories.get(cell.key) ?? 0) + cell.count);
    if (month.requestsByCategory.other) other = (other ?? 0) + month.requestsByCategory.other.count;
  }
  const completions = months.flatMap((month) => (month.completion ? [month.completion] : []));
  const savedMinutes = months.flatMap((month) => (month.minutesSaved === null ? [] : [month.minutesSaved]));
  const ratings = months.flatMap((month) => (month.satisfaction ? [month.satisfaction] : []));
  const completed = completions.reduce((sum, month) => sum + month.completed, 0);
  const filed = completions.reduce((sum, month) => sum + month.requests, 0);
  const satisfied = ratings.reduce((sum, month) => sum + month.satisfied, 0);
  const rated = ratings.reduce((sum, month) => sum + month.ratings, 0);
  // The turnaround of completions in months whose completion is released, and only when enough people had them.
  const releasedMonths = new Set(months.filter((month) => month.completion).map((month) => month.month));
  const turnarounds = facts
    .filter((month) => releasedMonths.has(month.month))
    .flatMap((month) => month.requests.filter((request) => request.completed));
  const turnaroundPeople = new Set(turnarounds.map((request) => request.userId)).size;
  const medianHours = turnaroundPeople >= threshold ? median(turnarounds.flatMap((request) => (request.turnaroundHours === null ? [] : [request.turnaroundHours]))) : null;
  const categoryCells = [...categories].map(([name, count]) => ({ name, requests: count })).sort((a, b) => b.requests - a.requests || a.name.localeCompare(b.name));
  return {
    monthly_active_employees: months.map((month) => ({ month: month.month, employees: month.activeEmployees })),
    requests_by_category: {
      categories: categoryCells,
      other,
      total: categoryCells.reduce((sum, cell) => sum + cell.requests, 0) + (other ?? 0),
      withheld_months: months.filter((month) => month.requestsByCategory.withheld).map((month) => month.month),
    },
    completion: filed > 0 ? { completed, requests: filed, rate: round1((completed / filed) * 100) } : null,
    median_turnaround_hours: medianHours === null ? null : round1(medianHours),
    satisfaction: rated > 0 ? { satisfied, ratings: rated, share: round1((satisfied / rated) * 100) } : null,
    estimated_hours_saved: savedMinutes.length > 0 ? round1(savedMinutes.reduce((sum, minutes) => sum + minutes, 0) / 60) : null,
    benefit_views: summedFigure(months.map((month) => month.benefitViews), threshold),
    help_requests: summedFigure(months.map((month) => month.helpRequests), threshold),
  };
}

/** 'YYYY-MM' of the months of a period starting at `start` (itself 'YYYY-MM'). */
export function monthsOf(period: ReportPeriod, start: string): string[] {
  const [year, month] = start.split('-').map(Number);
  return Array.from({ length: PERIOD_MONTHS[period] }, (_, index) => monthKey(new Date(Date.UTC(year, month - 1 + index, 1))));
}

export function monthKey(date: Date): string {
  return date.toISOString().slice(0, 7);
}

export function monthStart(month: string): Date {
  const [year, monthNumber] = month.split('-').map(Number);
  return new Date(Date.UTC(year, monthNumber - 1, 1));
}

function nextMonthStart(month: string): Date {
  const start = monthStart(month);
  return new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
}

const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

export function periodLabel(period: ReportPeriod, start: string): string {
  const [year, month] = start.split('-').map(Number);
  if (period === 'year') return String(year);
  if (period === 'quarter') return `Q${Math.floor((month - 1) / 3) + 1} ${year}`;
  return `${MONTH_NAMES[month - 1]} ${year}`;
}

/** The employees of the company: confirmed accounts with the employee role and a membership. */
function membersOf(db: Executor, companyId: number) {
  return db
    .select({ id: userCompanies.userId })
    .from(userCompanies)
    .innerJoin(users, eq(users.id, userCompanies.userId))
    .where(and(eq(userCompanies.companyId, companyId), eq(users.role, 'employee'), isNotNull(users.emailConfirmedAt)));
}

/** The facts of each month of [from, until), read from the database. */
export async function readMonthFacts(db: Executor, companyId: number, months: readonly string[]): Promise<MonthFacts[]> {
  const from = monthStart(months[0]);
  const until = nextMonthStart(months[months.length - 1]);
  const members = membersOf(db, companyId);
  const estimates = new Map(
    (await db.select().from(hoursSavedEstimates)).map((row) => [row.surveyCategoryId, row.minutesPerRequest]),
  );
  const requestRows = await db
    .select({
      userId: requests.userId,
      categoryId: requests.surveyCategoryId,
      category: surveyCategories.name,
      status: requests.status,
      issuedAt: requests.issuedAt,
      closedAt: requests.closedAt,
    })
    .from(requests)
    .leftJoin(surveyCategories, eq(surveyCategories.id, requests.surveyCategoryId))
    .where(and(inArray(requests.userId, members), gte(requests.issuedAt, from), lt(requests.issuedAt, until)));
  const ratingRows = await db
    .select({ userId: requestRatings.userId, score: requestRatings.score, at: requestRatings.createdAt })
    .from(requestRatings)
    .where(and(inArray(requestRatings.userId, members), gte(requestRatings.createdAt, from), lt(requestRatings.createdAt, until)));
  const eventRows = await db
    .select({
      userId: users.id,
      name: analyticsEvents.name,
      elementType: sql<string | null>`${analyticsEvents.properties}->>'element_type'`,
      at: analyticsEvents.createdAt,
    })
    .from(analyticsEvents)
    .innerJoin(users, eq(users.externalId, analyticsEvents.userExternalId))
    .where(and(inArray(users.id, members), gte(analyticsEvents.createdAt, from), lt(analyticsEvents.createdAt, until)));
  const messageRows = await db
    .select({ userId: messages.authorUserId, at: messages.createdAt })
    .from(messages)
    .where(and(inArray(messages.authorUserId, members), gte(messages.createdAt, from), lt(messages.createdAt, until)));

  return months.map((month) => {
    const inMonth = <T extends { at: Date }>(rows: readonly T[]) => rows.filter((row) => monthKey(row.at) === month);
    const monthRequests = requestRows.filter((row) => monthKey(row.issuedAt) === month);
    const monthEvents = inMonth(eventRows);
    return {
      month,
      requests: monthRequests.map((row) => {
        const completed = row.status === 'closed' && row.closedAt !== null;
        return {
          category: row.category ?? UNCATEGORISED,
          userId: row.userId,
          completed,
          turnaroundHours: completed ? (row.closedAt!.getTime() - row.issuedAt.getTime()) / HOUR_MS : null,
          minutesSaved: completed && row.categoryId !== null ? (estimates.get(row.categoryId) ?? 0) : 0,
        };
      }),
      ratings: inMonth(ratingRows).map(({ userId, score }) => ({ userId, score })),
      benefitViews: monthEvents.filter((row) => row.name === 'ui_interaction' && row.elementType === 'offering_card'),
      helpRequests: monthEvents.filter((row) => row.name === 'cta_click'),
      activeUserIds: [
        ...monthEvents.map((row) => row.userId),
        ...monthRequests.map((row) => row.userId),
        ...inMonth(messageRows).flatMap((row) => (row.userId === null ? [] : [row.userId])),
      ],
    };
  });
}

/** Employees with an account at `moment`: made before it and not deactivated by then. */
async function signedUpAt(db: Executor, companyId: number, moment: Date): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(userCompanies)
    .innerJoin(users, eq(users.id, userCompanies.userId))
    .where(
      and(
        eq(userCompanies.companyId, companyId),
        eq(users.role, 'employee'),
        isNotNull(users.emailConfirmedAt),
        lt(users.createdAt, moment),
        or(sql`${users.deactivatedAt} is null`, gte(users.deactivatedAt, moment)),
      ),
    );
  return row.count;
}

export interface CompanyReportSettings {
  companyId: number;
  companyName: string;
  threshold: number;
  eligibleEmployees: number | null;
}

export async function reportSettingsOf(db: Executor, companyId: number): Promise<CompanyReportSettings> {
  const [row] = await db
    .select({ name: companies.name, threshold: employerReportSettings.suppressionThreshold, eligible: employerReportSettings.eligibleEmployees })
    .from(companies)
    .leftJoin(employerReportSettings, eq(employerReportSettings.companyId, companies.id))
    .where(eq(companies.id, companyId));
  if (!row) throw notFound(NO_EMPLOYER_COMPANY_ERROR);
  return { companyId, companyName: row.name, threshold: effectiveThreshold(row.threshold), eligibleEmployees: row.eligible ?? null };
}

/** The company an employer admin reports on. */
export async function employerCompanyOf(db: Executor, userId: number): Promise<number> {
  const [row] = await db.select({ companyId: employerAdmins.companyId }).from(employerAdmins).where(eq(employerAdmins.userId, userId));
  if (!row) throw notFound(NO_EMPLOYER_COMPANY_ERROR);
  return row.companyId;
}

/** The report of one company for one calendar period. */
export async function buildReport(db: Executor, companyId: number, period: ReportPeriod, start: string): Promise<EmployerReport> {
  const settings = await reportSettingsOf(db, companyId);
  const months = monthsOf(period, start);
  const facts = await readMonthFacts(db, companyId, months);
  const releases = facts.map((month) => releaseMonth(month, settings.threshold));
  const periodEnd = nextMonthStart(months[months.length - 1]);
  return {
    company: { id: companyId, name: settings.companyName },
    period: { kind: period, start, months, label: periodLabel(period, start) },
    threshold: settings.threshold,
    eligible_employees: settings.eligibleEmployees,
    signed_up_employees: publishBanded(await signedUpAt(db, companyId, periodEnd), settings.threshold),
    ...combineReleases(releases, facts, settings.threshold),
  };
}
