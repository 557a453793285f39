import { useSelector } from '@xstate/react';
import { useSearchParams } from 'react-router';
import type { EmployerReport, ReportPeriod } from '../../contract/employer.ts';
import { figureText, reportLines, withheldText } from '../../contract/employerReport.rules.ts';
import { useFlow, useSession, useSessionSend } from '../../machines/appSystem.tsx';
import { employerReportMachine, openingPeriod, periodStarts, alignedStart } from '../../machines/employerReport.machine.ts';
import { PRODUCT_NAME } from '../../services/config.ts';
import { BarChart } from '../../widgets/BarChart.tsx';
import { Button } from '../../widgets/Button.tsx';
import { Message } from '../../widgets/Message.tsx';
import { Select } from '../../widgets/Select.tsx';
import { Skeleton } from '../../widgets/Skeleton.tsx';
import { Cell, Column, Row, Table, TableBody, TableHeader } from '../../widgets/Table.tsx';
import './employerReport.css';

const PERIOD_NAMES: Record<ReportPeriod, string> = { month: 'Month', quarter: 'Quarter', year: 'Year' };
const MONTH_SHORT = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function periodName(period: ReportPeriod, start: string): string {
  const [year, month] = start.split('-').map(Number);
  if (period === 'year') return String(year);
  if (period === 'quarter') return `Q${Math.floor((month - 1) / 3) + 1} ${year}`;
  return `${MONTH_SHORT[month - 1]} ${year}`;
}

/**
 * The employer admin's report (issue 29 part 3): one company's figures for a calendar period, charts of monthly
 * activity and requests by category, the figures' table (what screen readers and the CSV read), and CSV export. Its
 * own frame: the employer admin has nothing else in the app.
 */
export default function EmployerReportPage() {
  const [search] = useSearchParams();
  const today = new Date();
  const flow = useFlow(employerReportMachine, {
    id: 'employerReport',
    input: openingPeriod({ period: search.get('period'), start: search.get('start') }, today),
  });
  const { period, start, report, error, exported } = useSelector(flow, (snapshot) => snapshot.context);
  const isLoading = useSelector(flow, (snapshot) => snapshot.matches('loading'));
  const hasFailed = useSelector(flow, (snapshot) => snapshot.matches('failed'));
  const user = useSession((snapshot) => snapshot.context.user);
  const sendToSession = useSessionSend();
  const starts = periodStarts(period, today);

  return (
    <div className="lc-employer">
      <header className="lc-employer__bar">
        <span className="lc-employer__product">{PRODUCT_NAME}</span>
        <span className="lc-employer__who">{user?.full_name}</span>
        <Button variant="secondary" onPress={() => sendToSession({ type: 'SIGN_OUT' })}>
          Sign out
        </Button>
      </header>
      <main id="main" className="lc-employer__main" aria-busy={isLoading}>
        <h1>{report ? `${report.company.name}: value report` : 'Value report'}</h1>
        <p className="lc-employer__intro">
          How your employees use the service, in aggregates only: no figure names a person, and any figure that would
          describe fewer than {report?.threshold ?? 10} employees is shown as “fewer than {report?.threshold ?? 10}”.
        </p>
        <div className="lc-employer__controls">
          <Select label="Period" value={period} isDisabled={false}
            options={(['month', 'quarter', 'year'] as const).map((kind) => ({ id: kind, label: PERIOD_NAMES[kind] }))}
            onChange={(kind) => flow.send({ type: 'CHOOSE_PERIOD', period: kind, start: alignedStart(kind, start) })} />
          <Select label={PERIOD_NAMES[period]} value={starts.includes(start) ? start : null} placeholder={periodName(period, start)}
            options={starts.map((choice) => ({ id: choice, label: periodName(period, choice) }))}
            onChange={(choice) => flow.send({ type: 'CHOOSE_PERIOD', period, start: choice })} />
          <Button variant="secondary" isDisabled={!report || isLoading} onPress={() => flow.send({ type: 'EXPORT' })}>
            Export CSV
          </Button>
        </div>
        <p className="lc-visually-hidden" role="status">{exported ? `Saved ${exported}.` : ''}</p>
        {hasFailed && (
          <Message severity="error" title="The report did not load">
            <p>{error}</p>
            <Button variant="secondary" onPress={() => flow.send({ type: 'RETRY' })}>
              Try again
            </Button>
          </Message>
        )}
        {isLoading && !report && <Skeleton lines={8} />}
        {report && !hasFailed && <ReportBody report={report} />}
      </main>
    </div>
  );
}

function ReportBody({ report }: { report: EmployerReport }) {
  const requests = report.requests_by_category;
  const categoryLabels = [...requests.categories.map((cell) => cell.name), ...(requests.other === null ? [] : ['Other'])];
  const categoryValues = [...requests.categories.map((cell) => cell.requests), ...(requests.other === null ? [] : [requests.other])];
  const active = report.monthly_active_employees;
  const withheld = withheldText(report.threshold);
  return (
    <>
      <h2 className="lc-employer__period">{report.period.label}</h2>
      <ul className="lc-employer__tiles" aria-label="Key figures">
        <Tile label="Signed up" value={figureText(report.signed_up_employees)}
          detail={report.eligible_employees === null ? 'Eligible: not set' : `of ${report.eligible_employees} eligible`} />
        <Tile label="Requests" value={String(requests.total)} />
        <Tile label="Completion rate" value={report.completion ? `${report.completion.rate}%` : withheld} />
        <Tile label="Median turnaround" value={report.median_turnaround_hours === null ? withheld : `${report.median_turnaround_hours} h`} />
        <Tile label="Satisfaction (4–5 stars)" value={report.satisfaction ? `${report.satisfaction.share}%` : withheld} />
        <Tile label="Estimated hours saved" value={report.estimated_hours_saved === null ? withheld : String(report.estimated_hours_saved)} />
        <Tile label="Benefit views" value={figureText(report.benefit_views)} />
        <Tile label="Help requests" value={figureText(report.help_requests)} />
      </ul>
      <div className="lc-employer__charts">
        <section aria-labelledby="lc-employer-active">
          <h3 id="lc-employer-active">Monthly active employees</h3>
          <BarChart label={`Monthly active employees, ${report.period.label}; months with fewer than ${report.threshold} show no bar`}
            labels={active.map((month) => month.month)} unit="employees"
            values={active.map((month) => (month.employees.status === 'shown' ? month.employees.value : null))} />
        </section>
        <section aria-labelledby="lc-employer-categories">
          <h3 id="lc-employer-categories">Requests by category</h3>
          {categoryLabels.length === 0 ? (
            <p className="lc-employer__empty">No requests to show for this period.</p>
          ) : (
            <BarChart label={`Requests by category, ${report.period.label}`} labels={categoryLabels} values={categoryValues} unit="requests" />
          )}
        </section>
      </div>
      <h3>All figures</h3>
      <Table aria-label="All figures" className="lc-employer__table">
        <TableHeader>
          <Column>Section</Column>
          <Column isRowHeader>Figure</Column>
          <Column>Value</Column>
        </TableHeader>
        <TableBody items={reportLines(report).map((line, index) => ({ id: index, ...line }))}>
          {(line) => (
            <Row id={line.id}>
              <Cell>{line.section}</Cell>
              <Cell>{line.label}</Cell>
              <Cell>{line.value}</Cell>
            </Row>
          )}
        </TableBody>
      </Table>
    </>
  );
}

function Tile({ label, value, detail }: { label: string; value: string; detail?: string }) {
  return (
    <li className="lc-employer__tile">
      <span className="lc-employer__tile-label">{label}</span>
      {/* A withheld figure is a sentence, not a number: it reads at text size. */}
      <strong className={/^\d/.test(value) ? 'lc-employer__tile-value' : 'lc-employer__tile-value lc-employer__tile-value--words'}>{value}</strong>
      {detail && <span className="lc-employer__tile-detail">{detail}</span>}
    </li>
  );
}
