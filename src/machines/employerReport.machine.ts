import { assertEvent, assign, fromPromise, setup } from 'xstate';
import { type EmployerReport, PERIOD_MONTHS, REPORT_PERIODS, type ReportPeriod, startsPeriod } from '../contract/employer.ts';
import { saveReportCsv, fetchEmployerReport } from '../services/employer.ts';
import { serverMessage } from '../services/http.ts';

export const REPORT_LOAD_ERROR = "We couldn't load your report. Please try again.";

/** How many periods of each kind the choice offers, newest first. */
const OFFERED: Record<ReportPeriod, number> = { month: 12, quarter: 8, year: 3 };

/** 'YYYY-MM' of a month given as a year and a zero-based month (which may overflow either way). */
function monthOf(year: number, monthIndex: number): string {
  return new Date(Date.UTC(year, monthIndex, 1)).toISOString().slice(0, 7);
}

/** The first month of the `period` that holds the month `month` ('YYYY-MM'). */
export function alignedStart(period: ReportPeriod, month: string): string {
  const [year, monthNumber] = month.split('-').map(Number);
  const span = PERIOD_MONTHS[period];
  return monthOf(year, Math.floor((monthNumber - 1) / span) * span);
}

/** The periods of a kind the screen offers, newest first: the one holding `today`, and those before it. */
export function periodStarts(period: ReportPeriod, today: Date): string[] {
  const current = alignedStart(period, today.toISOString().slice(0, 7));
  const [year, monthNumber] = current.split('-').map(Number);
  return Array.from({ length: OFFERED[period] }, (_, index) => monthOf(year, monthNumber - 1 - index * PERIOD_MONTHS[period]));
}

/** The report a screen opens on: the one its address names, else the last complete month. */
export function openingPeriod(asked: { period?: string | null; start?: string | null }, today: Date): { period: ReportPeriod; start: string } {
  const period = REPORT_PERIODS.find((kind) => kind === asked.period);
  if (period && asked.start && startsPeriod(period, asked.start)) return { period, start: asked.start };
  return { period: 'month', start: monthOf(today.getUTCFullYear(), today.getUTCMonth() - 1) };
}

export interface EmployerReportContext {
  period: ReportPeriod;
  start: string;
  report: EmployerReport | null;
  error: string | null;
  /** The file the last export saved, announced to screen readers. */
  exported: string | null;
}

export type EmployerReportEvent =
  | { type: 'CHOOSE_PERIOD'; period: ReportPeriod; start: string }
  | { type: 'RETRY' }
  | { type: 'EXPORT' };

/**
 * The employer's report screen (issue 29 part 3): it loads the chosen calendar period's report; a failure offers a
 * retry; another period may be chosen at any time (the report on screen stays until the new one arrives); a loaded
 * report exports as CSV.
 */
export const employerReportMachine = setup({
  types: {
    context: {} as EmployerReportContext,
    events: {} as EmployerReportEvent,
    input: {} as { period: ReportPeriod; start: string },
  },
  actors: {
    fetchReport: fromPromise<EmployerReport, { period: ReportPeriod; start: string }>(({ input }) => fetchEmployerReport(input)),
  },
  actions: {
    choosePeriod: assign(({ event }) => {
      assertEvent(event, 'CHOOSE_PERIOD');
      return { period: event.period, start: event.start, exported: null };
    }),
    exportCsv: assign(({ context }) => ({ exported: context.report ? saveReportCsv(context.report) : null })),
  },
}).createMachine({
  id: 'employerReport',
  context: ({ input }) => ({ period: input.period, start: input.start, report: null, error: null, exported: null }),
  initial: 'loading',
  on: {
    CHOOSE_PERIOD: { target: '.loading', actions: 'choosePeriod' },
  },
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'fetchReport',
        src: 'fetchReport',
        input: ({ context }) => ({ period: context.period, start: context.start }),
        onDone: { target: 'loaded', actions: assign({ report: ({ event }) => event.output, error: null }) },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => serverMessage(event.error, REPORT_LOAD_ERROR) }) },
      },
    },
    failed: {
      on: { RETRY: 'loading' },
    },
    loaded: {
      on: { EXPORT: { actions: 'exportCsv' } },
    },
  },
});
