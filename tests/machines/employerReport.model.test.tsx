import { render, screen, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EmployerReport } from '../../src/contract/employer.ts';
import { REPORT_LOAD_ERROR, employerReportMachine } from '../../src/machines/employerReport.machine.ts';
import EmployerReportPage from '../../src/views/employer/EmployerReport.tsx';
import { inApp, startTestApp } from './appSystem.support.tsx';
import { networkError } from './httpFailures.support.ts';
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

type Machine = typeof employerReportMachine;

const networkDown = networkError();

/** Issue 29 part 3: the employer admin's report, its period choice, its failure and retry, and its CSV export. */

const OCTOBER: EmployerReport = {
  company: { id: 3, name: 'Acme Corp' },
  period: { kind: 'month', start: '2026-10', months: ['2026-10'], label: 'October 2026' },
  threshold: 10,
  eligible_employees: 120,
  signed_up_employees: { status: 'range', from: 40, to: 49 },
  monthly_active_employees: [{ month: '2026-10', employees: { status: 'shown', value: 31 } }],
  requests_by_category: { categories: [{ name: 'Home', requests: 25 }], other: 14, total: 39, withheld_months: [] },
  completion: { completed: 30, requests: 39, rate: 76.9 },
  median_turnaround_hours: 20.5,
  satisfaction: null,
  estimated_hours_saved: 45,
  benefit_views: { status: 'shown', value: 88 },
  help_requests: { status: 'suppressed', fewer_than: 10 },
};
const FOURTH_QUARTER: EmployerReport = {
  ...OCTOBER,
  period: { kind: 'quarter', start: '2026-10', months: ['2026-10', '2026-11', '2026-12'], label: 'Q4 2026' },
  monthly_active_employees: [
    ...OCTOBER.monthly_active_employees,
    { month: '2026-11', employees: { status: 'suppressed', fewer_than: 10 } },
    { month: '2026-12', employees: { status: 'suppressed', fewer_than: 10 } },
  ],
};

const { paths, titled } = flowModel(employerReportMachine, {
  input: { period: 'month', start: '2026-10' },
  events: [
    doneEvent('fetchReport', OCTOBER, 'October loads'),
    doneEvent('fetchReport', FOURTH_QUARTER, 'the quarter loads'),
    errorEvent('fetchReport', networkDown, 'the report fails'),
    { label: 'try again', event: { type: 'RETRY' } },
    { label: 'choose the quarter', event: { type: 'CHOOSE_PERIOD', period: 'quarter', start: '2026-10' } },
    { label: 'export', event: { type: 'EXPORT' } },
  ],
  offer: ({ context }, { label }) => {
    switch (label) {
      case 'October loads':
        return context.period === 'month';
      case 'the quarter loads':
        return context.period === 'quarter';
      case 'choose the quarter':
        return context.period === 'month';
      case 'export':
        return context.exported === null;
      default:
        return true;
    }
  },
});

let user: UserEvent;
let sent: SentCall[];
let savedFiles: Array<{ name: string; text: Promise<string> }>;

const exportButton = () => screen.getByRole('button', { name: 'Export CSV' });
const periodButton = () => screen.getByRole('button', { name: /Period/ });

const states: StateAssertions<Machine> = {
  loading: ({ context }) => {
    expect(screen.getByRole('main')).toHaveAttribute('aria-busy', 'true');
    expect(sent.at(-1)).toMatchObject({ method: 'GET', path: 'employer/report', query: { period: context.period, start: context.start } });
    expect(exportButton()).toBeDisabled();
  },
  failed: () => {
    expect(screen.getByRole('alert')).toHaveTextContent(REPORT_LOAD_ERROR);
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
    expect(screen.queryByRole('grid', { name: 'All figures' })).not.toBeInTheDocument();
  },
  loaded: ({ context }) => {
    const report = context.report!;
    expect(screen.getByRole('main')).toHaveAttribute('aria-busy', 'false');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Acme Corp: value report');
    expect(screen.getByRole('heading', { level: 2 })).toHaveTextContent(report.period.label);
    expect(periodButton()).toHaveTextContent(context.period === 'month' ? 'Month' : 'Quarter');
    const tiles = screen.getByRole('list', { name: 'Key figures' });
    expect(tiles).toHaveTextContent('Signed up40–49of 120 eligible');
    expect(tiles).toHaveTextContent('Completion rate76.9%');
    // What too few people stand behind is said so, never shown.
    expect(tiles).toHaveTextContent('Satisfaction (4–5 stars)not shown (fewer than 10 employees)');
    expect(tiles).toHaveTextContent('Help requestsfewer than 10');
    const table = screen.getByRole('grid', { name: 'All figures' });
    expect(within(table).getAllByRole('row')).toHaveLength(1 + 11 + report.monthly_active_employees.length);
    expect(table).toHaveTextContent('Other14');
    expect(screen.getByRole('img', { name: /^Requests by category/ })).toBeInTheDocument();
    expect(exportButton()).toBeEnabled();
    expect(screen.getByRole('status')).toHaveTextContent(context.exported ? `Saved ${context.exported}.` : '');
    if (context.exported) expect(savedFiles.at(-1)?.name).toBe(context.exported);
  },
};

const events: EventExecutors<Machine> = {
  ...settlementExecutors(employerReportMachine, pendingCalls),
  RETRY: () => user.click(screen.getByRole('button', { name: 'Try again' })),
  CHOOSE_PERIOD: async () => {
    await user.click(periodButton());
    await user.click(screen.getByRole('option', { name: 'Quarter' }));
  },
  EXPORT: () => user.click(exportButton()),
};

describe('the employer report screen', () => {
  beforeEach(() => {
    user = userEvent.setup();
    savedFiles = [];
    // The browser's file saving: the CSV's blob and the link clicked to save it.
    const blobs = new Map<string, Blob>();
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      const url = `blob:report-${blobs.size}`;
      blobs.set(url, blob as Blob);
      return url;
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      savedFiles.push({ name: this.download, text: blobs.get(this.href)!.text() });
    });
    ({ sent } = fakeNetwork([{ method: 'GET', path: /^employer\/report$/, id: 'fetchReport', answer: (report: EmployerReport) => ({ report }) }]));
    const router = createMemoryRouter([{ path: '/employer/report', element: <EmployerReportPage /> }], {
      initialEntries: ['/employer/report?period=month&start=2026-10'],
    });
    render(inApp(startTestApp(), <RouterProvider router={router} />));
  });

  afterEach(() => {
    pendingCalls.clear();
    vi.restoreAllMocks();
  });

  it.each(titled)('$title', async ({ path }) => {
    await runPath(path, () => inspectedActors.snapshotOf(employerReportMachine), states, events);
  });

  it('exports the figures as CSV, as the table words them', async () => {
    await runPath(
      titled.find(({ title }) => /October loads → export$/.test(title))!.path,
      () => inspectedActors.snapshotOf(employerReportMachine),
      states,
      events,
    );
    expect(savedFiles).toHaveLength(1);
    expect(savedFiles[0].name).toBe('Acme-Corp-October-2026-report.csv');
    const csv = await savedFiles[0].text;
    expect(csv.split('\r\n').slice(0, 5)).toEqual([
      'Company,Acme Corp,',
      'Period,October 2026,',
      'Privacy threshold,10 employees,',
      'Section,Figure,Value',
      'Employees,Eligible employees,120',
    ]);
    expect(csv).toContain('Benefits,Help requests,fewer than 10\r\n');
  });

  it('asserts and reaches every state, executes every event and takes every transition', () => {
    expectFullCoverage(employerReportMachine, paths, states, events);
  });
});
