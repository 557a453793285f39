import { asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { type BusinessCalendar, addBusinessMinutes, businessMinutesBetween, targetInWords, workingDayMinutes } from '../../../src/contract/businessHours.ts';
import type { RequestStatus } from '../../../src/contract/requests.ts';
import type { ConsoleServiceLevel, ServicePromise, ServiceTarget } from '../../../src/contract/sla.ts';
import type { Executor } from '../../db/client.ts';
import { userCompanies } from '../../db/schema.ts';
import { requestServiceLevels } from '../../db/service.schema.ts';
import { type PromisedCalendar, requestSlaClocks, servicePolicies } from '../../db/sla.schema.ts';

/**
 * Each request's turnaround clock (issue 28). The promise is made when the request is filed, from the policy of the
 * employee's company (the tightest of their companies'; else the default policy; else DEFAULT_POLICY) and kept with
 * the request: a later change of policy applies to new requests only. The first-response target is met by the first
 * concierge message; the resolution target by completion. While the request waits on the employee the clock stands
 * still: their next message (or the concierge) resumes it, and the due times move on by the business time paused.
 * Reopening starts a new resolution clock. Every function here runs in the caller's transaction, the request locked.
 */

export type ClockRow = typeof requestSlaClocks.$inferSelect;
export type LevelRow = typeof requestServiceLevels.$inferSelect;

/** At 80% of a target's business time used, a request is at risk. */
export const AT_RISK_SHARE = 0.8;

/** The promise when no policy is stored: Monday to Friday 9 to 18, a first answer in 4 working hours, done in 3 days. */
export const DEFAULT_POLICY = {
  firstResponseMinutes: 4 * 60,
  resolutionMinutes: 3 * 9 * 60,
  calendar: {
    timeZone: 'Europe/Paris',
    week: [
      { opens: '09:00', closes: '18:00' },
      { opens: '09:00', closes: '18:00' },
      { opens: '09:00', closes: '18:00' },
      { opens: '09:00', closes: '18:00' },
      { opens: '09:00', closes: '18:00' },
      null,
      null,
    ],
    holidays: [],
  } satisfies PromisedCalendar,
};

/** The policy a request of this employee is promised under. */
async function policyFor(tx: Executor, ownerUserId: number) {
  const ownCompanies = tx.select({ companyId: userCompanies.companyId }).from(userCompanies).where(eq(userCompanies.userId, ownerUserId));
  const [companyPolicy] = await tx
    .select()
    .from(servicePolicies)
    .where(inArray(servicePolicies.companyId, ownCompanies))
    .orderBy(asc(servicePolicies.firstResponseMinutes), asc(servicePolicies.resolutionMinutes), asc(servicePolicies.id))
    .limit(1);
  const [policy] = companyPolicy ? [companyPolicy] : await tx.select().from(servicePolicies).where(isNull(servicePolicies.companyId));
  if (!policy) return { policyId: null, ...DEFAULT_POLICY };
  return {
    policyId: policy.id,
    firstResponseMinutes: policy.firstResponseMinutes,
    resolutionMinutes: policy.resolutionMinutes,
    calendar: { timeZone: policy.timeZone, week: policy.week, holidays: policy.holidays },
  };
}

const calendarOf = (clock: Pick<ClockRow, 'calendar'>): BusinessCalendar => clock.calendar;

/** When a target of `minutes` started at `start` falls due, and when it turns at risk. */
function deadlines(start: Date, minutes: number, calendar: BusinessCalendar) {
  return {
    dueAt: addBusinessMinutes(start, minutes, calendar),
    atRiskAt: addBusinessMinutes(start, minutes * AT_RISK_SHARE, calendar),
  };
}

/** Whether each target's clock still runs: the first response until the first reply, both until completion. */
function running(level: Pick<LevelRow, 'firstRespondedAt' | 'resolutionMet'>) {
  const resolution = level.resolutionMet === null;
  return { firstResponse: resolution && level.firstRespondedAt === null, resolution };
}

/** The sweeper's next look at this request: its earliest alert not yet sent, or null (paused, settled, all sent). */
export function nextAlertAt(clock: ClockRow, level: Pick<LevelRow, 'firstRespondedAt' | 'resolutionMet'>): Date | null {
  if (clock.pausedAt !== null) return null;
  const { firstResponse, resolution } = running(level);
  const pending: Date[] = [];
  if (firstResponse && clock.firstResponseAtRiskAlertedAt === null) pending.push(clock.firstResponseAtRiskAt);
  if (firstResponse && clock.firstResponseBreachAlertedAt === null) pending.push(clock.firstResponseDueAt);
  if (resolution && clock.resolutionAtRiskAlertedAt === null) pending.push(clock.resolutionAtRiskAt);
  if (resolution && clock.resolutionBreachAlertedAt === null) pending.push(clock.resolutionDueAt);
  return pending.length === 0 ? null : new Date(Math.min(...pending.map((date) => date.getTime())));
}

/** The due times the promise shows: a target's while it runs and the clock is not paused, else null. */
function visibleDueTimes(clock: ClockRow, level: Pick<LevelRow, 'firstRespondedAt' | 'resolutionMet'>) {
  const { firstResponse, resolution } = running(level);
  const paused = clock.pausedAt !== null;
  return {
    firstResponseDueAt: firstResponse && !paused ? clock.firstResponseDueAt : null,
    resolutionDueAt: resolution && !paused ? clock.resolutionDueAt : null,
  };
}

async function loadClock(tx: Executor, requestId: number) {
  const [row] = await tx
    .select({ clock: requestSlaClocks, level: requestServiceLevels })
    .from(requestSlaClocks)
    .innerJoin(requestServiceLevels, eq(requestServiceLevels.requestId, requestSlaClocks.requestId))
    .where(eq(requestSlaClocks.requestId, requestId));
  return row ?? null;
}

/** Writes the clock and the promise together, the promise's due times and the sweeper's index derived from the clock. */
async function saveClock(tx: Executor, clock: ClockRow, level: LevelRow, now: Date) {
  await tx
    .update(requestSlaClocks)
    .set({ ...clock, nextAlertAt: nextAlertAt(clock, level), updatedAt: now })
    .where(eq(requestSlaClocks.requestId, clock.requestId));
  await tx
    .update(requestServiceLevels)
    .set({ ...level, ...visibleDueTimes(clock, level), updatedAt: now })
    .where(eq(requestServiceLevels.requestId, level.requestId));
}

/** The promise of a newly filed request, in the filing's transaction. */
export async function startServiceClock(tx: Executor, { requestId, ownerUserId, now }: { requestId: number; ownerUserId: number; now: Date }) {
  const policy = await policyFor(tx, ownerUserId);
  const firstResponse = deadlines(now, policy.firstResponseMinutes, policy.calendar);
  const resolution = deadlines(now, policy.resolutionMinutes, policy.calendar);
  const clock = {
    requestId,
    policyId: policy.policyId,
    calendar: policy.calendar,
    firstResponseMinutes: policy.firstResponseMinutes,
    resolutionMinutes: policy.resolutionMinutes,
    firstResponseDueAt: firstResponse.dueAt,
    firstResponseAtRiskAt: firstResponse.atRiskAt,
    resolutionStartedAt: now,
    resolutionDueAt: resolution.dueAt,
    resolutionAtRiskAt: resolution.atRiskAt,
  };
  await tx.insert(requestSlaClocks).values({ ...clock, nextAlertAt: firstResponse.atRiskAt, updatedAt: now });
  await tx.insert(requestServiceLevels).values({
    requestId,
    firstResponseDueAt: firstResponse.dueAt,
    resolutionDueAt: resolution.dueAt,
    updatedAt: now,
  });
}

/** Business minutes a target took, settled at `at`: its length, less what was left or plus what it ran over. */
function businessMinutesTaken(minutes: number, dueAt: Date, at: Date, calendar: BusinessCalendar): number {
  const taken = at <= dueAt ? minutes - businessMinutesBetween(at, dueAt, calendar) : minutes + businessMinutesBetween(dueAt, at, calendar);
  return Math.round(taken);
}

/** The first concierge message to the employee settles the first-response target (later ones change nothing). */
export async function recordFirstResponse(tx: Executor, requestId: number, now: Date) {
  const loaded = await loadClock(tx, requestId);
  if (!loaded || !running(loaded.level).firstResponse) return;
  const { clock, level } = loaded;
  // Written while paused (waiting on the employee): the clock stood still at the pause.
  const at = clock.pausedAt ?? now;
  await saveClock(
    tx,
    clock,
    {
      ...level,
      firstRespondedAt: now,
      firstResponseMet: at <= clock.firstResponseDueAt,
      firstResponseBusinessMinutes: businessMinutesTaken(clock.firstResponseMinutes, clock.firstResponseDueAt, at, calendarOf(clock)),
    },
    now,
  );
}

/** The running clock moved on by the business time paused from `pausedAt` to `now`. */
function resumed(clock: ClockRow, now: Date): ClockRow {
  if (clock.pausedAt === null) return clock;
  const calendar = calendarOf(clock);
  const paused = businessMinutesBetween(clock.pausedAt, now, calendar);
  const later = (instant: Date) => (paused > 0 ? addBusinessMinutes(instant, paused, calendar) : instant);
  return {
    ...clock,
    pausedAt: null,
    firstResponseDueAt: later(clock.firstResponseDueAt),
    firstResponseAtRiskAt: later(clock.firstResponseAtRiskAt),
    resolutionDueAt: later(clock.resolutionDueAt),
    resolutionAtRiskAt: later(clock.resolutionAtRiskAt),
  };
}

/**
 * The concierge marks the request waiting on the employee (the clock stops) or no longer waiting (it resumes). Answers
 * whether anything changed.
 */
export async function setWaitingOnEmployee(tx: Executor, requestId: number, waiting: boolean, now: Date): Promise<boolean> {
  const loaded = await loadClock(tx, requestId);
  if (!loaded || !running(loaded.level).resolution) return false;
  const { clock, level } = loaded;
  if (waiting === (clock.pausedAt !== null)) return false;
  await saveClock(tx, waiting ? { ...clock, pausedAt: now } : resumed(clock, now), level, now);
  return true;
}

/** The employee wrote: a paused clock runs again. */
export async function resumeOnEmployeeMessage(tx: Executor, requestId: number, now: Date): Promise<boolean> {
  return setWaitingOnEmployee(tx, requestId, false, now);
}

/**
 * Completion stops the clock: the resolution target settles. Who is credited, and when, is the completion's own record
 * (service/completion.ts), written after this.
 */
export async function stopResolutionClock(tx: Executor, requestId: number, now: Date) {
  const loaded = await loadClock(tx, requestId);
  if (!loaded || !running(loaded.level).resolution) return;
  const { clock, level } = loaded;
  const at = clock.pausedAt ?? now;
  await saveClock(
    tx,
    { ...clock, pausedAt: null },
    {
      ...level,
      resolutionMet: at <= clock.resolutionDueAt,
      resolutionBusinessMinutes: businessMinutesTaken(clock.resolutionMinutes, clock.resolutionDueAt, at, calendarOf(clock)),
    },
    now,
  );
}

/** Reopening starts a new resolution clock of the same promised length, and alerts about it anew. */
export async function recordReopening(tx: Executor, requestId: number, now: Date) {
  const loaded = await loadClock(tx, requestId);
  if (!loaded || running(loaded.level).resolution) return;
  const { clock, level } = loaded;
  const resolution = deadlines(now, clock.resolutionMinutes, calendarOf(clock));
  await saveClock(
    tx,
    {
      ...clock,
      pausedAt: null,
      resolutionStartedAt: now,
      resolutionDueAt: resolution.dueAt,
      resolutionAtRiskAt: resolution.atRiskAt,
      resolutionAtRiskAlertedAt: null,
      resolutionBreachAlertedAt: null,
    },
    { ...level, resolutionMet: null, resolutionBusinessMinutes: null },
    now,
  );
}

/**
 * What a console list reads of a clock and its promise: no more (a page sorts thousands of rows by due time). Each
 * starts with its never-null key: Drizzle takes a left-joined object whose first field is null for a missing row.
 */
export const consoleClockColumns = {
  requestId: requestSlaClocks.requestId,
  firstResponseDueAt: requestSlaClocks.firstResponseDueAt,
  firstResponseAtRiskAt: requestSlaClocks.firstResponseAtRiskAt,
  resolutionDueAt: requestSlaClocks.resolutionDueAt,
  resolutionAtRiskAt: requestSlaClocks.resolutionAtRiskAt,
  pausedAt: requestSlaClocks.pausedAt,
  firstResponseMinutes: requestSlaClocks.firstResponseMinutes,
  resolutionMinutes: requestSlaClocks.resolutionMinutes,
};
/** The promised calendar's time zone alone (its whole calendar is wide). */
export const promisedTimeZone = sql<string | null>`${requestSlaClocks.calendar}->>'timeZone'`;
export const consoleLevelColumns = {
  requestId: requestServiceLevels.requestId,
  firstRespondedAt: requestServiceLevels.firstRespondedAt,
  firstResponseDueAt: requestServiceLevels.firstResponseDueAt,
  resolutionDueAt: requestServiceLevels.resolutionDueAt,
  firstResponseMet: requestServiceLevels.firstResponseMet,
  resolutionMet: requestServiceLevels.resolutionMet,
};
type ConsoleClock = Pick<ClockRow, keyof typeof consoleClockColumns> & { timeZone: string };
type ConsoleLevel = Pick<LevelRow, keyof typeof consoleLevelColumns>;

/** The target in play and its state, as of `now` (or as of the pause while paused). */
export function serviceLevelOf(clock: ConsoleClock, level: ConsoleLevel, status: RequestStatus, now: Date): ConsoleServiceLevel {
  const { firstResponse } = running(level);
  const target: ServiceTarget = firstResponse && status !== 'closed' ? 'first_response' : 'resolution';
  const dueAt = target === 'first_response' ? clock.firstResponseDueAt : clock.resolutionDueAt;
  const atRiskAt = target === 'first_response' ? clock.firstResponseAtRiskAt : clock.resolutionAtRiskAt;
  const asOf = clock.pausedAt ?? now;
  const settled = level.resolutionMet !== null;
  const state = settled
    ? level.resolutionMet
      ? 'met'
      : 'breached'
    : asOf >= dueAt
      ? 'breached'
      : asOf >= atRiskAt
        ? 'at_risk'
        : 'on_track';
  const iso = (date: Date | null) => (date ? date.toISOString() : null);
  return {
    target,
    state,
    due_at: settled || clock.pausedAt !== null ? null : dueAt.toISOString(),
    waiting_on_employee: clock.pausedAt !== null,
    first_response_minutes: clock.firstResponseMinutes,
    resolution_minutes: clock.resolutionMinutes,
    first_response_due_at: iso(level.firstResponseDueAt),
    resolution_due_at: iso(level.resolutionDueAt),
    first_responded_at: iso(level.firstRespondedAt),
    first_response_met: level.firstResponseMet,
    resolution_met: level.resolutionMet,
    time_zone: clock.timeZone,
  };
}

/** The promise as the employee reads it: targets in working hours or days and when to expect each; no state. */
export function servicePromiseOf(
  clock: Pick<ClockRow, 'calendar' | 'firstResponseMinutes' | 'resolutionMinutes'>,
  level: Pick<LevelRow, 'firstResponseDueAt' | 'resolutionDueAt'>,
): ServicePromise {
  const day = workingDayMinutes(calendarOf(clock as ClockRow));
  return {
    first_response_within: targetInWords(clock.firstResponseMinutes, day),
    first_response_by: level.firstResponseDueAt?.toISOString() ?? null,
    resolution_within: targetInWords(clock.resolutionMinutes, day),
    resolution_by: level.resolutionDueAt?.toISOString() ?? null,
  };
}

/** The promise of an employee's request, or null when it has none or is Completed. */
export async function findServicePromise(db: Executor, requestId: number): Promise<ServicePromise | null> {
  const loaded = await loadClock(db, requestId);
  if (!loaded || loaded.level.resolutionMet !== null) return null;
  return servicePromiseOf(loaded.clock, loaded.level);
}
