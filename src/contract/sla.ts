import * as z from 'zod/mini';

/**
 * Turnaround targets (issue 28, beyond SPEC): the promise each request carries, and how the console and the employee
 * see it. The admins' service policies are in servicePolicies.ts (their checks need the time-zone library, which the
 * employee's pages do not load).
 */

/**
 * A request's turnaround as the console shows it. The target in play is the first response until a concierge has
 * written to the employee, then the resolution. `state`: on_track; at_risk once 80% of the target's business time is
 * used; breached past its due time; met once done in time (a completed request: its resolution; breached if late).
 * While waiting on the employee the clock is paused: `due_at` is null and the state is as it was when paused.
 */
export const serviceLevelState = z.enum(['on_track', 'at_risk', 'breached', 'met']);
export type ServiceLevelState = z.infer<typeof serviceLevelState>;
export const serviceTarget = z.enum(['first_response', 'resolution']);
export type ServiceTarget = z.infer<typeof serviceTarget>;

export const consoleServiceLevel = z.object({
  target: serviceTarget,
  state: serviceLevelState,
  /** When the target in play falls due; null while paused or once settled. */
  due_at: z.nullable(z.string()),
  waiting_on_employee: z.boolean(),
  first_response_minutes: z.number().check(z.int()),
  resolution_minutes: z.number().check(z.int()),
  first_response_due_at: z.nullable(z.string()),
  resolution_due_at: z.nullable(z.string()),
  first_responded_at: z.nullable(z.string()),
  first_response_met: z.nullable(z.boolean()),
  resolution_met: z.nullable(z.boolean()),
  time_zone: z.string(),
});
export type ConsoleServiceLevel = z.infer<typeof consoleServiceLevel>;

/** POST /api/v1/console/requests/{id}/waiting: the concierge marks the request waiting on the employee, or not. */
export const waitingRequest = z.object({ waiting: z.boolean() });
export type WaitingRequest = z.infer<typeof waitingRequest>;
export const WAITING_ONLY_WHILE_OPEN = 'Only a request that is not Completed can wait on the employee.';

/**
 * The promise an employee reads on their request page, in plain words: never the internal state. `*_by` is when to
 * expect it (null once given, or while the team waits on the employee's answer).
 */
export const servicePromise = z.object({
  first_response_within: z.string(),
  first_response_by: z.nullable(z.string()),
  resolution_within: z.string(),
  resolution_by: z.nullable(z.string()),
});
export type ServicePromise = z.infer<typeof servicePromise>;

/** A live alert to staff (event `sla.alert`): a request at risk of missing, or past, a target. */
export const slaAlertEvent = z.object({
  type: z.literal('sla.alert'),
  request_id: z.number().check(z.int()),
  request_name: z.string(),
  target: serviceTarget,
  kind: z.enum(['at_risk', 'breached']),
  due_at: z.string(),
  /** The concierge it is for; null: unassigned, for every concierge online. */
  assignee_id: z.nullable(z.number().check(z.int())),
});
export type SlaAlertEvent = z.infer<typeof slaAlertEvent>;

export const TARGET_LABELS: Record<ServiceTarget, string> = { first_response: 'First response', resolution: 'Resolution' };
export const STATE_LABELS: Record<ServiceLevelState, string> = {
  on_track: 'On track',
  at_risk: 'At risk',
  breached: 'Breached',
  met: 'Met',
};

/** "due in 2 h", "breached 35 min ago": the time left or over, rounded to what a glance needs. */
export function dueInWords(dueAt: Date, now: Date): string {
  const minutes = Math.round((dueAt.getTime() - now.getTime()) / 60_000);
  const span = (total: number) => {
    if (total < 60) return `${total} min`;
    if (total < 48 * 60) return `${Math.round(total / 60)} h`;
    return `${Math.round(total / (24 * 60))} d`;
  };
  return minutes >= 0 ? `due in ${span(minutes)}` : `breached ${span(-minutes)} ago`;
}

/** A promise's time as the employee reads it: "Tue 11:00", in their own time zone. */
export function promiseTime(iso: string, locale = 'en-GB', timeZone?: string): string {
  return new Intl.DateTimeFormat(locale, { weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone }).format(new Date(iso));
}

/**
 * The promise in plain words: "We usually reply within 4 working hours; expect a first answer by Tue 11:00." Once
 * answered, the resolution: "We usually complete requests within 3 working days; expect it done by Thu 18:00." Null
 * when there is nothing to expect (completed, or the team waits on the employee's answer).
 */
export function promiseInWords(promise: ServicePromise, formatTime: (iso: string) => string = (iso) => promiseTime(iso)): string | null {
  if (promise.first_response_by) {
    return `We usually reply within ${promise.first_response_within}; expect a first answer by ${formatTime(promise.first_response_by)}.`;
  }
  if (promise.resolution_by) {
    return `We usually complete requests within ${promise.resolution_within}; expect it done by ${formatTime(promise.resolution_by)}.`;
  }
  return null;
}

/** An alert in words: 'Breached: first response of "Find a dog walker"'. */
export function alertInWords(alert: Pick<SlaAlertEvent, 'kind' | 'target' | 'request_name'>): string {
  return `${alert.kind === 'breached' ? 'Breached' : 'At risk'}: ${TARGET_LABELS[alert.target].toLowerCase()} of "${alert.request_name}"`;
}
