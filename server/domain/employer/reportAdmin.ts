import { asc, eq, sql } from 'drizzle-orm';
import type { HoursEstimate, ReportSettings, UpdateHoursEstimateRequest, UpdateReportSettingsRequest } from '../../../src/contract/employer.ts';
import type { Database, Executor } from '../../db/client.ts';
import { employerReportSettings, hoursSavedEstimates } from '../../db/employer.schema.ts';
import { companies } from '../../db/schema.ts';
import { surveyCategories } from '../../db/surveys.schema.ts';
import { changedFields, recordAudit } from '../admin/audit.ts';
import { notFound } from '../shared/userFacingError.ts';
import { effectiveThreshold } from './suppression.ts';

/*
 * What our admins keep for the employers' reports (issue 29 part 3): each survey category's estimate of the time a
 * completed request saves, and each company's privacy threshold and contracted headcount. Every change is audited in
 * its own transaction.
 */

export const CATEGORY_NOT_FOUND_ERROR = 'Category not found';
export const COMPANY_NOT_FOUND_ERROR = 'Company not found';

function selectEstimates(db: Executor) {
  return db
    .select({ id: surveyCategories.id, name: surveyCategories.name, minutes: hoursSavedEstimates.minutesPerRequest })
    .from(surveyCategories)
    .leftJoin(hoursSavedEstimates, eq(hoursSavedEstimates.surveyCategoryId, surveyCategories.id));
}

const asEstimate = (row: { id: number; name: string; minutes: number | null }): HoursEstimate => ({
  id: row.id,
  category_name: row.name,
  minutes_per_request: row.minutes,
});

/** Every survey category with its estimate (null: none yet, counted as no time saved). */
export async function listHoursEstimates(db: Executor): Promise<HoursEstimate[]> {
  return (await selectEstimates(db).orderBy(asc(surveyCategories.name), asc(surveyCategories.id))).map(asEstimate);
}

async function findEstimate(db: Executor, categoryId: number): Promise<HoursEstimate> {
  const [row] = await selectEstimates(db).where(eq(surveyCategories.id, categoryId));
  if (!row) throw notFound(CATEGORY_NOT_FOUND_ERROR);
  return asEstimate(row);
}

export async function updateHoursEstimate(
  db: Database,
  actorUserId: number,
  categoryId: number,
  input: UpdateHoursEstimateRequest,
): Promise<HoursEstimate> {
  return db.transaction(async (tx) => {
    const before = await findEstimate(tx, categoryId);
    await tx
      .insert(hoursSavedEstimates)
      .values({ surveyCategoryId: categoryId, minutesPerRequest: input.minutes_per_request })
      .onConflictDoUpdate({ target: hoursSavedEstimates.surveyCategoryId, set: { minutesPerRequest: input.minutes_per_request, updatedAt: sql`now()` } });
    const changes = changedFields({ minutes_per_request: before.minutes_per_request }, { minutes_per_request: input.minutes_per_request });
    if (Object.keys(changes).length > 0) {
      await recordAudit(tx, { actorUserId, action: 'hours_estimate.update', subjectType: 'survey_category', subjectId: categoryId, changes });
    }
    return findEstimate(tx, categoryId);
  });
}

function selectSettings(db: Executor) {
  return db
    .select({
      id: companies.id,
      name: companies.name,
      threshold: employerReportSettings.suppressionThreshold,
      eligible: employerReportSettings.eligibleEmployees,
    })
    .from(companies)
    .leftJoin(employerReportSettings, eq(employerReportSettings.companyId, companies.id));
}

const asSettings = (row: { id: number; name: string; threshold: number | null; eligible: number | null }): ReportSettings => ({
  id: row.id,
  company_name: row.name,
  suppression_threshold: effectiveThreshold(row.threshold),
  eligible_employees: row.eligible,
});

/** Every company's report settings, the defaults where none were set. */
export async function listReportSettings(db: Executor): Promise<ReportSettings[]> {
  return (await selectSettings(db).orderBy(asc(companies.name), asc(companies.id))).map(asSettings);
}

async function findReportSettings(db: Executor, companyId: number): Promise<ReportSettings> {
  const [row] = await selectSettings(db).where(eq(companies.id, companyId));
  if (!row) throw notFound(COMPANY_NOT_FOUND_ERROR);
  return asSettings(row);
}

export async function updateReportSettings(
  db: Database,
  actorUserId: number,
  companyId: number,
  input: UpdateReportSettingsRequest,
): Promise<ReportSettings> {
  return db.transaction(async (tx) => {
    const before = await findReportSettings(tx, companyId);
    const values = { suppressionThreshold: input.suppression_threshold, eligibleEmployees: input.eligible_employees };
    await tx
      .insert(employerReportSettings)
      .values({ companyId, ...values })
      .onConflictDoUpdate({ target: employerReportSettings.companyId, set: { ...values, updatedAt: sql`now()` } });
    const { suppression_threshold, eligible_employees } = before;
    const changes = changedFields({ suppression_threshold, eligible_employees }, input);
    if (Object.keys(changes).length > 0) {
      await recordAudit(tx, { actorUserId, action: 'report_settings.update', subjectType: 'company', subjectId: companyId, changes });
    }
    return findReportSettings(tx, companyId);
  });
}
