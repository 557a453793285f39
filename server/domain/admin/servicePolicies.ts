import { asc, eq, sql } from 'drizzle-orm';
import { SLA_ERRORS, type ServicePolicy, type ServicePolicyCreate, type ServicePolicyUpdate } from '../../../src/contract/servicePolicies.ts';
import type { Database, Executor } from '../../db/client.ts';
import { companies } from '../../db/schema.ts';
import { servicePolicies } from '../../db/sla.schema.ts';
import { type AuditedFields, changedFields, recordAudit } from './audit.ts';
import { conflict, invalidField, notFound, transactionRefusingClashes } from '../shared/userFacingError.ts';

/**
 * The turnaround targets admins set (issue 28): a default policy and one per company. A change applies to requests
 * filed from then on; running requests keep the promise they were made (serviceClock.ts). Every write is audited in
 * its own transaction.
 */

type PolicyRow = typeof servicePolicies.$inferSelect;

function toWire(row: PolicyRow, company: { id: number; name: string } | null): ServicePolicy {
  return {
    id: row.id,
    company,
    first_response_minutes: row.firstResponseMinutes,
    resolution_minutes: row.resolutionMinutes,
    time_zone: row.timeZone,
    week: [...row.week],
    holidays: row.holidays,
    updated_at: row.updatedAt.toISOString(),
  };
}

/** What the audit log shows of a policy. */
function audited(row: PolicyRow): AuditedFields {
  return {
    company_id: row.companyId,
    first_response_minutes: row.firstResponseMinutes,
    resolution_minutes: row.resolutionMinutes,
    time_zone: row.timeZone,
    week: row.week,
    holidays: row.holidays,
  };
}

function columnsOf(input: ServicePolicyUpdate) {
  return {
    firstResponseMinutes: input.first_response_minutes,
    resolutionMinutes: input.resolution_minutes,
    timeZone: input.time_zone,
    week: input.week,
    holidays: [...input.holidays].sort(),
  };
}

function selectPolicies(db: Executor) {
  return db
    .select({ policy: servicePolicies, company: { id: companies.id, name: companies.name } })
    .from(servicePolicies)
    .leftJoin(companies, eq(companies.id, servicePolicies.companyId));
}

/** The default policy first, then each company's by name. */
export async function listServicePolicies(db: Executor): Promise<ServicePolicy[]> {
  const rows = await selectPolicies(db).orderBy(sql`${servicePolicies.companyId} IS NOT NULL`, asc(companies.name), asc(servicePolicies.id));
  return rows.map((row) => toWire(row.policy, row.company));
}

async function findPolicy(db: Executor, id: number): Promise<ServicePolicy> {
  const [row] = await selectPolicies(db).where(eq(servicePolicies.id, id));
  if (!row) throw notFound(SLA_ERRORS.notFound);
  return toWire(row.policy, row.company);
}

const clashOf = (companyId: number | null) =>
  companyId === null ? conflict(SLA_ERRORS.defaultTaken, 'company_id') : conflict(SLA_ERRORS.companyTaken, 'company_id');

export async function createServicePolicy(db: Database, actorUserId: number, input: ServicePolicyCreate): Promise<ServicePolicy> {
  const companyId = input.company_id;
  const id = await transactionRefusingClashes(db, clashOf(companyId).message, async (tx) => {
    if (companyId !== null) {
      const [company] = await tx.select({ id: companies.id }).from(companies).where(eq(companies.id, companyId));
      if (!company) throw invalidField('company_id', SLA_ERRORS.companyNotFound);
    }
    const [existing] = await tx
      .select({ id: servicePolicies.id })
      .from(servicePolicies)
      .where(companyId === null ? sql`${servicePolicies.companyId} IS NULL` : eq(servicePolicies.companyId, companyId));
    if (existing) throw clashOf(companyId);
    const [row] = await tx.insert(servicePolicies).values({ companyId, ...columnsOf(input) }).returning();
    await recordAudit(tx, { actorUserId, action: 'service_policy.create', subjectType: 'service_policy', subjectId: row.id, changes: changedFields(null, audited(row)) });
    return row.id;
  });
  return findPolicy(db, id);
}

export async function updateServicePolicy(db: Database, actorUserId: number, id: number, input: ServicePolicyUpdate): Promise<ServicePolicy> {
  await db.transaction(async (tx) => {
    const [before] = await tx.select().from(servicePolicies).where(eq(servicePolicies.id, id)).for('update');
    if (!before) throw notFound(SLA_ERRORS.notFound);
    const [after] = await tx
      .update(servicePolicies)
      .set({ ...columnsOf(input), updatedAt: new Date() })
      .where(eq(servicePolicies.id, id))
      .returning();
    const changes = changedFields(audited(before), audited(after));
    if (Object.keys(changes).length > 0) {
      await recordAudit(tx, { actorUserId, action: 'service_policy.update', subjectType: 'service_policy', subjectId: id, changes });
    }
  });
  return findPolicy(db, id);
}
