import { assertEvent, assign, fromPromise, setup } from 'xstate';
import { REPORT_MAX_DAYS, REPORT_RANGE_ERROR, type Report, type ReportGrouping, type ReportQuery } from '../contract/reports.ts';
import { fetchReport, fetchReportCsv, saveTextFile } from '../services/reports.ts';

/**
 * The console's Reports screen (issue 28 part 4): a date range and a grouping (company, concierge, survey category)
 * make a query; each new query loads the report (figures, charts, comments) again, and the loaded report can be
 * exported as CSV. A range that is not one (its end before its start, longer than REPORT_MAX_DAYS) is refused in
 * place and the shown report stays.
 */

export const REPORTS_TEXT = {
  loadFailed: 'We could not load the report. Please try again.',
  exportFailed: 'We could not export the report. Please try again.',
  exported: 'The CSV file is in your downloads.',
  rangeError: REPORT_RANGE_ERROR,
} as const;

const DAY_MS = 24 * 60 * 60 * 1000;
const isoDay = (time: number) => new Date(time).toISOString().slice(0, 10);

/** The last 30 days up to today (UTC), the screen's first range. */
export function defaultReportQuery(now = new Date()): ReportQuery {
  return { from: isoDay(now.getTime() - 29 * DAY_MS), to: isoDay(now.getTime()), group: 'company' };
}

function isValidRange(from: string, to: string): boolean {
  const start = Date.parse(`${from}T00:00:00Z`);
  const end = Date.parse(`${to}T00:00:00Z`);
  if (Number.isNaN(start) || Number.isNaN(end)) return false;
  const days = (end - start) / DAY_MS + 1;
  return days >= 1 && days <= REPORT_MAX_DAYS;
}

export interface ReportsContext {
  query: ReportQuery;
  report: Report | null;
  /** The range typed last, shown while it is refused. */
  draftRange: { from: string; to: string };
  rangeError: string | null;
}

export type ReportsEvent =
  | { type: 'SET_RANGE'; from: string; to: string }
  | { type: 'SET_GROUP'; group: ReportGrouping }
  | { type: 'EXPORT' }
  | { type: 'RETRY' };

export const reportsMachine = setup({
  types: {
    context: {} as ReportsContext,
    events: {} as ReportsEvent,
  },
  actors: {
    loadReport: fromPromise<Report, ReportQuery>(({ input }) => fetchReport(input)),
    exportReport: fromPromise<void, ReportQuery>(async ({ input }) => saveTextFile(await fetchReportCsv(input))),
  },
  guards: {
    isValidRange: ({ event }) => event.type === 'SET_RANGE' && isValidRange(event.from, event.to),
    isNewGroup: ({ context, event }) => event.type === 'SET_GROUP' && event.group !== context.query.group,
  },
  actions: {
    setRange: assign(({ context, event }) => {
      assertEvent(event, 'SET_RANGE');
      return { query: { ...context.query, from: event.from, to: event.to }, draftRange: { from: event.from, to: event.to }, rangeError: null };
    }),
    refuseRange: assign(({ event }) => {
      assertEvent(event, 'SET_RANGE');
      return { draftRange: { from: event.from, to: event.to }, rangeError: REPORTS_TEXT.rangeError };
    }),
    setGroup: assign(({ context, event }) => {
      assertEvent(event, 'SET_GROUP');
      return { query: { ...context.query, group: event.group } };
    }),
    storeReport: assign((_, report: Report) => ({ report })),
  },
}).createMachine({
  id: 'reports',
  context: () => {
    const query = defaultReportQuery();
    return { query, report: null, draftRange: { from: query.from, to: query.to }, rangeError: null };
  },
  initial: 'loading',
  on: {
    // A new query starts the load over, even while one is loading: the answer shown is always the latest query's.
    SET_RANGE: [{ guard: 'isValidRange', target: '.loading', reenter: true, actions: 'setRange' }, { actions: 'refuseRange' }],
    SET_GROUP: { guard: 'isNewGroup', target: '.loading', reenter: true, actions: 'setGroup' },
  },
  states: {
    loading: {
      tags: 'busy',
      invoke: {
        id: 'loadReport',
        src: 'loadReport',
        input: ({ context }) => context.query,
        onDone: { target: 'loaded', actions: { type: 'storeReport', params: ({ event }) => event.output } },
        onError: 'failed',
      },
    },
    failed: {
      on: { RETRY: 'loading' },
    },
    loaded: {
      initial: 'idle',
      states: {
        idle: {},
        exporting: {
          tags: 'busy',
          invoke: {
            id: 'exportReport',
            src: 'exportReport',
            input: ({ context }) => context.query,
            onDone: 'exported',
            onError: 'exportFailed',
          },
        },
        exported: {},
        exportFailed: {},
      },
      on: { EXPORT: '.exporting' },
    },
  },
});
