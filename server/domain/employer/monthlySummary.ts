import { and, eq, isNull, sql } from 'drizzle-orm';
import { reportLines } from '../../../src/contract/employerReport.rules.ts';
import type { Database, Executor } from '../../db/client.ts';
import { employerAdmins, employerSummaryMails } from '../../db/employer.schema.ts';
import { users } from '../../db/schema.ts';
import { appLink, emailAccount } from '../shared/outbox.ts';
import { buildReport, monthKey } from './report.ts';

/**
 * The monthly summary e-mail to employer admins (issue 29 part 3): once a month, for the month just ended, the same
 * aggregates as the report's screen and a link to it. Each round runs under a transaction-scoped advisory lock (one
 * process works at a time; another skips its round), and each summary is claimed by inserting its (admin, month)
 * row in the transaction that writes it to the outbox: whatever process or round comes first sends it, nobody twice.
 */

export const SUMMARY_LOCK_KEY = 29_003;
export const SUMMARY_SUBJECT_PREFIX = 'Your Life Concierge report for';

/** 'YYYY-MM' of the calendar month (UTC) before `now`'s. */
export function previousMonth(now: Date): string {
  return monthKey(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)));
}

async function tookLock(tx: Executor): Promise<boolean> {
  const result = (await tx.execute(sql`select pg_try_advisory_xact_lock(${SUMMARY_LOCK_KEY}) as locked`)) as unknown as {
    rows: Array<{ locked: boolean }>;
  };
  return result.rows[0]?.locked === true;
}

/** Sends the summaries of the month before `now` that are due; returns how many went to the outbox. */
export async function sendDueMonthlySummaries(db: Database, { appUrl, now = new Date() }: { appUrl: string; now?: Date }): Promise<number> {
  const month = previousMonth(now);
  return db.transaction(async (tx) => {
    if (!(await tookLock(tx))) return 0;
    const due = await tx
      .select({ userId: users.id, email: users.email, firstName: users.firstName, emailConfirmedAt: users.emailConfirmedAt, companyId: employerAdmins.companyId })
      .from(employerAdmins)
      .innerJoin(users, eq(users.id, employerAdmins.userId))
      .leftJoin(employerSummaryMails, and(eq(employerSummaryMails.userId, users.id), eq(employerSummaryMails.month, month)))
      .where(and(eq(users.role, 'employer_admin'), isNull(users.deactivatedAt), eq(users.awaitingPassword, false), isNull(employerSummaryMails.userId)));
    let sent = 0;
    for (const admin of due) {
      const claimed = await tx.insert(employerSummaryMails).values({ userId: admin.userId, month, sentAt: now }).onConflictDoNothing().returning();
      if (claimed.length === 0) continue;
      const report = await buildReport(tx, admin.companyId, 'month', month);
      const link = appLink(appUrl, `/employer/report?period=month&start=${month}`);
      await emailAccount(tx, admin, `${SUMMARY_SUBJECT_PREFIX} ${report.period.label}`, [
        `Here is how ${report.company.name}'s employees used Life Concierge in ${report.period.label}.`,
        `Figures that would describe fewer than ${report.threshold} employees are not shown.`,
        '',
        ...reportLines(report).map((line) => `${line.section} - ${line.label}: ${line.value}`),
        '',
        `The full report, with charts and CSV export: ${link}`,
      ]);
      sent += 1;
    }
    return sent;
  });
}
