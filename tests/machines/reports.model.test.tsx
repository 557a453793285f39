import { fireEvent, render, screen, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryRouter } from 'react-router';
import type { Report, ReportRow } from '../../src/contract/reports.ts';
import { REPORTS_TEXT, defaultReportQuery, reportsMachine } from '../../src/machines/reports.machine.ts';
import { useFlow } from '../../src/machines/appSystem.tsx';
import { ReportsScreen } from '../../src/views/console/reports/ReportsView.tsx';
import { inApp, startTestApp } from './appSystem.support.tsx';
import { serverRefusal } from './httpFailures.support.ts';
import {
  type EventExecutors,
  type StateAssertions,
  doneEvent,
  errorEvent,
  expectFullCoverage,
  flowModel,
  inspectedActors,
  pendingCalls,
  runPath,
  settlementExecutors,
} from './modelPaths.support.ts';
import { type SentCall, fakeNetwork } from './network.support.ts';

type Machine = typeof reportsMachine;

/** Issue 28 part 4: the console's Reports screen, its range, grouping, loading, failure and CSV export. */

const DAY_MS = 24 * 60 * 60 * 1000;
const FIRST = defaultReportQuery();
const LAST_WEEK = new Date(Date.parse(`${FIRST.to}T00:00:00Z`) - 6 * DAY_MS).toISOString().slice(0, 10);

const row = (label: string, key: number | null, figures: Partial<ReportRow> = {}): ReportRow => ({
  key,
  label,
  volume: 4,
  rated: 3,
  response_rate: 0.75,
  satisfaction: 2 / 3,
  distribution: [0, 1, 0, 1, 1],
  first_response_median_minutes: 75,
  first_response_p90_minutes: 111,
  resolution_median_minutes: 600,
  resolution_p90_minutes: 1080,
  first_response_met: 0.5,
  resolution_met: 2 / 3,
  ...figures,
});
const REPORT: Report = {
  ...FIRST,
  rows: [row('Alpha Ltd', 1, { volume: 3, rated: 3 }), row('Beta plc', 2, { volume: 1, rated: 0, satisfaction: null, response_rate: 0 })],
  total: row('All', null),
  comments: [
    { request_id: 12, request_name: 'Book a table', employee_name: 'Erin Employee', concierge_name: 'Cara Credited', score: 2, comment: 'Took a week', rated_at: '2026-11-20T10:00:00.000Z' },
  ],
};
const EMPTY: Report = { ...FIRST, rows: [], total: row('All', null, { volume: 0, rated: 0, response_rate: null, satisfaction: null, distribution: [0, 0, 0, 0, 0] }), comments: [] };
const UNAVAILABLE = serverRefusal(503, 'Service Unavailable');
const CSV = 'group,label\r\nCompany,Alpha Ltd\r\n';

const { paths, titled } = flowModel(reportsMachine, {
  events: [
    doneEvent('loadReport', REPORT, 'report'),
    doneEvent('loadReport', EMPTY, 'empty report'),
    errorEvent('loadReport', UNAVAILABLE, 'not loaded'),
    { label: 'try again', event: { type: 'RETRY' } },
    { label: 'last week', event: { type: 'SET_RANGE', from: LAST_WEEK, to: FIRST.to } },
    { label: 'end before start', event: { type: 'SET_RANGE', from: FIRST.from, to: '2000-01-01' } },
    { label: 'by concierge', event: { type: 'SET_GROUP', group: 'concierge' } },
    { label: 'export', event: { type: 'EXPORT' } },
    doneEvent('exportReport', undefined, 'exported'),
    errorEvent('exportReport', UNAVAILABLE, 'export failed'),
  ],
  // A new query is asked for once a report is shown (asked for while loading, it works alike: the load starts over).
  offer: (snapshot, { event }) =>
    (!['SET_RANGE', 'SET_GROUP'].includes(event.type) || snapshot.matches({ loaded: 'idle' })) &&
    (event.type !== 'SET_RANGE' || (snapshot.context.rangeError === null && snapshot.context.query.from === FIRST.from)) &&
    (event.type !== 'SET_GROUP' || snapshot.context.query.group === 'company'),
});

let user: UserEvent;
let sent: SentCall[];
const saved: Blob[] = [];

function Screen() {
  return <ReportsScreen reports={useFlow(reportsMachine, { id: 'reports' })} />;
}

const exportButton = () => screen.getByRole('button', { name: 'Export CSV' });

const states: StateAssertions<Machine> = {
  loading: ({ context }) => {
    expect(sent.at(-1)).toEqual({ method: 'GET', path: 'console/reports', body: undefined, query: { ...context.query } });
    expect(exportButton()).toBeDisabled();
    if (!context.report) expect(screen.queryByRole('table')).not.toBeInTheDocument();
  },
  failed: () => {
    expect(screen.getByRole('alert')).toHaveTextContent(REPORTS_TEXT.loadFailed);
    expect(screen.getByRole('button', { name: 'Try again' })).toBeEnabled();
  },
  loaded: ({ context }) => {
    const report = context.report!;
    if (report.total.volume === 0) {
      expect(screen.getByText('No requests were completed in this range.')).toBeInTheDocument();
      expect(screen.getByText('No comments in this range.')).toBeInTheDocument();
    } else {
      const table = screen.getByRole('grid', { name: /^Figures by/ });
      expect(within(table).getAllByRole('row')).toHaveLength(report.rows.length + 2);
      for (const text of ['Alpha Ltd', 'Beta plc', 'All', '0 / 1 / 0 / 1 / 1', '1 h 15 min / 1 h 51 min', '10 h / 18 h']) {
        expect(table).toHaveTextContent(text);
      }
      expect(screen.getByText('Satisfaction (4 and 5)').nextElementSibling).toHaveTextContent('67%');
      expect(screen.getByText('Took a week')).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Book a table' })).toHaveAttribute('href', '/console/requests/12');
    }
    if (context.rangeError) expect(screen.getByText(REPORTS_TEXT.rangeError)).toBeInTheDocument();
    else expect(screen.queryByText(REPORTS_TEXT.rangeError)).not.toBeInTheDocument();
  },
  'loaded.idle': () => {
    expect(exportButton()).toBeEnabled();
    expect(screen.getByRole('status')).toHaveTextContent('');
  },
  'loaded.exporting': ({ context }) => {
    expect(exportButton()).toHaveAttribute('aria-busy', 'true');
    expect(sent.at(-1)).toEqual({ method: 'GET', path: 'console/reports.csv', body: undefined, query: { ...context.query } });
  },
  'loaded.exported': async () => {
    expect(screen.getByRole('status')).toHaveTextContent(REPORTS_TEXT.exported);
    expect(await saved.at(-1)!.text()).toBe(CSV);
  },
  'loaded.exportFailed': () => expect(screen.getByRole('alert')).toHaveTextContent(REPORTS_TEXT.exportFailed),
};

const events: EventExecutors<Machine> = {
  ...settlementExecutors(reportsMachine, pendingCalls),
  RETRY: () => user.click(screen.getByRole('button', { name: 'Try again' })),
  SET_RANGE: ({ event }) => {
    // One field changes at a time: the one the event differs in from what the screen shows now.
    const field = event.from !== inspectedActors.snapshotOf(reportsMachine).context.draftRange.from ? 'From' : 'To';
    fireEvent.change(screen.getByLabelText(new RegExp(`^${field}`)), { target: { value: field === 'From' ? event.from : event.to } });
  },
  SET_GROUP: () => user.click(screen.getByRole('radio', { name: 'Concierge' })),
  EXPORT: () => user.click(exportButton()),
};

describe('console Reports', () => {
  beforeAll(() => {
    // jsdom draws nothing: the charts are left out, as in a browser without a 2D canvas; the tables carry the figures.
    HTMLCanvasElement.prototype.getContext = (() => null) as typeof HTMLCanvasElement.prototype.getContext;
    URL.createObjectURL = vi.fn((blob: Blob) => {
      saved.push(blob);
      return 'blob:report';
    });
    URL.revokeObjectURL = vi.fn();
    HTMLAnchorElement.prototype.click = vi.fn();
  });

  beforeEach(() => {
    user = userEvent.setup();
    const csv = () => new Response(CSV, { headers: { 'content-type': 'text/csv; charset=utf-8' } });
    ({ sent } = fakeNetwork([
      { method: 'GET', path: /^console\/reports$/, id: 'loadReport', answer: (report: Report) => report },
      { method: 'GET', path: /^console\/reports\.csv$/, id: 'exportReport', answer: csv },
    ]));
    render(inApp(startTestApp(), <MemoryRouter><Screen /></MemoryRouter>));
  });

  afterEach(() => pendingCalls.clear());

  it.each(titled)('$title', async ({ path }) => {
    await runPath(path, () => inspectedActors.snapshotOf(reportsMachine), states, events);
  });

  it('asserts and reaches every state, executes every event and takes every transition', () => {
    expectFullCoverage(reportsMachine, paths, states, events);
  });
});
