import { and, asc, eq, isNotNull, lte } from 'drizzle-orm';
import { TARGET_LABELS, type ServiceTarget } from '../../../src/contract/sla.ts';
import type { Database } from '../../db/client.ts';
import { requests, users } from '../../db/schema.ts';
import { requestServiceLevels } from '../../db/service.schema.ts';
import { requestSlaClocks } from '../../db/sla.schema.ts';
import type { Log } from '../../logging.ts';
import type { Clock } from '../ports/clock.ts';
import type { RealtimeNotice } from '../realtime/realtime.ts';
import { appLink, emailAccount } from '../shared/outbox.ts';
import { type RepeatingWorker, startRepeatingWorker } from '../shared/repeatingWorker.ts';
import { type ClockRow, nextAlertAt } from './serviceClock.ts';

/**
 * The at-risk and breach alerts (issue 28). Each clock's `next_alert_at` is a due-time index; a sweep claims the rows
 * whose time has come with FOR UPDATE SKIP LOCKED, stamps each alert sent on the row and queues its e-mail in the
 * outbox, all in one transaction: an alert is sent exactly when its stamp commits, once, whichever of several
 * processes sweeps and across restarts. The in-console alerts are published once the transaction has committed.
 */

const BATCH_SIZE = 50;

export type AlertKind = 'at_risk' | 'breached';
export type SlaAlertNotice = Extract<RealtimeNotice, { type: 'sla.alert' }>;

type AlertedColumn = 'firstResponseAtRiskAlertedAt' | 'firstResponseBreachAlertedAt' | 'resolutionAtRiskAlertedAt' | 'resolutionBreachAlertedAt';

const alertColumns = {
  first_response: { at_risk: 'firstResponseAtRiskAlertedAt', breached: 'firstResponseBreachAlertedAt' },
  resolution: { at_risk: 'resolutionAtRiskAlertedAt', breached: 'resolutionBreachAlertedAt' },
} as const satisfies Record<ServiceTarget, Record<AlertKind, AlertedColumn>>;

const alertTimes = {
  first_response: { at_risk: 'firstResponseAtRiskAt', breached: 'firstResponseDueAt' },
  resolution: { at_risk: 'resolutionAtRiskAt', breached: 'resolutionDueAt' },
} as const satisfies Record<ServiceTarget, Record<AlertKind, keyof ClockRow>>;

/** The alerts now due on a clock: a breach makes its own at-risk alert needless (stamped, not sent). */
function dueAlerts(clock: ClockRow, level: { firstRespondedAt: Date | null; resolutionMet: boolean | null }, now: Date) {
  const running: ServiceTarget[] = [];
  if (level.resolutionMet === null && level.firstRespondedAt === null) running.push('first_response');
  if (level.resolutionMet === null) running.push('resolution');
  const send: { target: ServiceTarget; kind: AlertKind; dueAt: Date }[] = [];
  const stamps: Partial<Record<AlertedColumn, Date>> = {};
  for (const target of running) {
    const breached = clock[alertColumns[target].breached] === null && clock[alertTimes[target].breached] <= now;
    const atRisk = clock[alertColumns[target].at_risk] === null && clock[alertTimes[target].at_risk] <= now;
    if (breached) {
      stamps[alertColumns[target].breached] = now;
      if (atRisk) stamps[alertColumns[target].at_risk] = now;
      send.push({ target, kind: 'breached', dueAt: clock[alertTimes[target].breached] });
    } else if (atRisk) {
      stamps[alertColumns[target].at_risk] = now;
      send.push({ target, kind: 'at_risk', dueAt: clock[alertTimes[target].breached] });
    }
  }
  return { send, stamps };
}

function alertSubject(kind: AlertKind, target: ServiceTarget, requestName: string) {
  const label = TARGET_LABELS[target].toLowerCase();
  return kind === 'breached' ? `Target missed: ${label} of "${requestName}"` : `At risk: ${label} of "${requestName}"`;
}

/**
 * One sweep: every alert now due, sent once. Answers the in-console notices to publish (after the commit, which this
 * function has made by the time it returns).
 */
export async function sweepServiceAlerts(db: Database, { appUrl, now }: { appUrl: string; now: Date }): Promise<SlaAlertNotice[]> {
  return db.transaction(async (tx) => {
    const rows = await tx
      .select({
        clock: requestSlaClocks,
        level: { firstRespondedAt: requestServiceLevels.firstRespondedAt, resolutionMet: requestServiceLevels.resolutionMet },
        request: { id: requests.id, name: requests.name, userId: requests.userId, assigneeUserId: requests.assigneeUserId },
        assignee: { email: users.email, firstName: users.firstName, emailConfirmedAt: users.emailConfirmedAt },
      })
      .from(requestSlaClocks)
      .innerJoin(requestServiceLevels, eq(requestServiceLevels.requestId, requestSlaClocks.requestId))
      .innerJoin(requests, eq(requests.id, requestSlaClocks.requestId))
      .leftJoin(users, eq(users.id, requests.assigneeUserId))
      .where(and(isNotNull(requestSlaClocks.nextAlertAt), lte(requestSlaClocks.nextAlertAt, now)))
      .orderBy(asc(requestSlaClocks.nextAlertAt))
      .limit(BATCH_SIZE)
      .for('update', { of: requestSlaClocks, skipLocked: true });

    const notices: SlaAlertNotice[] = [];
    for (const { clock, level, request, assignee } of rows) {
      const { send, stamps } = dueAlerts(clock, level, now);
      const stamped = { ...clock, ...stamps };
      await tx
        .update(requestSlaClocks)
        .set({ ...stamps, nextAlertAt: nextAlertAt(stamped, level), updatedAt: now })
        .where(eq(requestSlaClocks.requestId, clock.requestId));
      for (const alert of send) {
        // Unassigned, only a breach is everyone's business; at risk, it is still In Queue's first come first served.
        if (request.assigneeUserId === null && alert.kind === 'at_risk') continue;
        notices.push({
          type: 'sla.alert',
          requestId: request.id,
          ownerUserId: request.userId,
          requestName: request.name,
          target: alert.target,
          kind: alert.kind,
          dueAt: alert.dueAt.toISOString(),
          assigneeUserId: request.assigneeUserId,
        });
        if (assignee?.email) {
          await emailAccount(tx, assignee, alertSubject(alert.kind, alert.target, request.name), [
            alert.kind === 'breached'
              ? `The ${TARGET_LABELS[alert.target].toLowerCase()} target of "${request.name}" was due at ${alert.dueAt.toISOString()} and has passed.`
              : `The ${TARGET_LABELS[alert.target].toLowerCase()} target of "${request.name}" is due at ${alert.dueAt.toISOString()}.`,
            '',
            `Open it in the console: ${appLink(appUrl, `/console/requests/${request.id}`)}`,
          ]);
        }
      }
    }
    return notices;
  });
}

/** Sweeps every `intervalMs` until stopped, publishing each sweep's alerts once it has committed. */
export function startServiceAlertWorker(options: {
  db: Database;
  appUrl: string;
  clock: Clock;
  publish: (notices: RealtimeNotice[]) => Promise<unknown>;
  log: Log;
  intervalMs?: number;
}): RepeatingWorker {
  const { db, appUrl, clock, publish, log, intervalMs } = options;
  return startRepeatingWorker({
    name: 'service alert',
    log,
    intervalMs,
    round: async () => publish(await sweepServiceAlerts(db, { appUrl, now: clock.now() })),
  });
}
