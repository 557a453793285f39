import { useSelector } from '@xstate/react';
import { Suspense, lazy } from 'react';
import { Link } from 'react-router';
import type { Actor } from 'xstate';
import { REPORT_GROUPINGS, type ReportComment, type ReportGrouping, type ReportRow } from '../../../contract/reports.ts';
import { useFlow, useSession } from '../../../machines/appSystem.tsx';
import { REPORTS_TEXT, reportsMachine } from '../../../machines/reports.machine.ts';
import { Button } from '../../../widgets/Button.tsx';
import { Message, RetryMessage } from '../../../widgets/Message.tsx';
import { ChoiceField } from '../../../widgets/RadioGroup.tsx';
import { Skeleton } from '../../../widgets/Skeleton.tsx';
import { Cell, Column, Row, Table, TableBody, TableHeader } from '../../../widgets/Table.tsx';
import { TextInput } from '../../../widgets/TextInput.tsx';
import { Logo } from '../../../widgets/Logo.tsx';
import { formatMinutes, formatShare } from './reportFormat.ts';
import '../console.css';
import '../../admin/admin.css';
import './reports.css';

// chart.js is loaded with the charts, on this screen only.
const ReportCharts = lazy(() => import('./ReportCharts.tsx'));

type ReportsActor = Actor<typeof reportsMachine>;

const GROUP_OPTIONS = (Object.keys(REPORT_GROUPINGS) as ReportGrouping[]).map((value) => ({ value, label: REPORT_GROUPINGS[value] }));

const RATED_AT = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });

function Filters({ reports }: { reports: ReportsActor }) {
  const draft = useSelector(reports, (snapshot) => snapshot.context.draftRange);
  const group = useSelector(reports, (snapshot) => snapshot.context.query.group);
  const rangeError = useSelector(reports, (snapshot) => snapshot.context.rangeError);
  return (
    <div className="lc-reports__filters">
      <fieldset className="lc-reports__range">
        <legend>Completed between</legend>
        <TextInput label="From" type="date" isRequired value={draft.from}
          onChange={(from) => reports.send({ type: 'SET_RANGE', from, to: draft.to })} />
        <TextInput label="To" type="date" isRequired value={draft.to} errorMessage={rangeError ?? undefined}
          onChange={(to) => reports.send({ type: 'SET_RANGE', from: draft.from, to })} />
      </fieldset>
      <ChoiceField label="Group by" orientation="horizontal" options={GROUP_OPTIONS} value={group}
        onChange={(picked) => reports.send({ type: 'SET_GROUP', group: picked })} />
    </div>
  );
}

function Summary({ total }: { total: ReportRow }) {
  const tiles: Array<[string, string]> = [
    ['Satisfaction (4 and 5)', formatShare(total.satisfaction)],
    ['Response rate', formatShare(total.response_rate)],
    ['Completed', String(total.volume)],
    ['Median first response', formatMinutes(total.first_response_median_minutes)],
    ['Median resolution', formatMinutes(total.resolution_median_minutes)],
    ['Resolution targets met', formatShare(total.resolution_met)],
  ];
  return (
    <dl className="lc-reports__summary">
      {tiles.map(([label, value]) => (
        <div key={label} className="lc-reports__tile">
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function FiguresTable({ rows, total, groupLabel }: { rows: ReportRow[]; total: ReportRow; groupLabel: string }) {
  const lines = [...rows.map((row, index) => ({ id: `row-${index}`, row })), { id: 'total', row: total }];
  return (
    <div className="lc-reports__table-scroll">
      <Table aria-label={`Figures by ${groupLabel.toLowerCase()}`} className="lc-admin-table lc-reports__table">
        <TableHeader>
          <Column isRowHeader>{groupLabel}</Column>
          <Column>Completed</Column>
          <Column>Rated</Column>
          <Column>Response rate</Column>
          <Column>Satisfaction</Column>
          <Column>1 / 2 / 3 / 4 / 5</Column>
          <Column>First response (median / p90)</Column>
          <Column>Resolution (median / p90)</Column>
          <Column>First response met</Column>
          <Column>Resolution met</Column>
        </TableHeader>
        <TableBody items={lines}>
          {({ id, row }) => (
            <Row id={id} className={id === 'total' ? 'lc-reports__total' : undefined}>
              <Cell>{id === 'total' ? 'All' : row.label}</Cell>
              <Cell>{row.volume}</Cell>
              <Cell>{row.rated}</Cell>
              <Cell>{formatShare(row.response_rate)}</Cell>
              <Cell>{formatShare(row.satisfaction)}</Cell>
              <Cell>{row.distribution.join(' / ')}</Cell>
              <Cell>{`${formatMinutes(row.first_response_median_minutes)} / ${formatMinutes(row.first_response_p90_minutes)}`}</Cell>
              <Cell>{`${formatMinutes(row.resolution_median_minutes)} / ${formatMinutes(row.resolution_p90_minutes)}`}</Cell>
              <Cell>{formatShare(row.first_response_met)}</Cell>
              <Cell>{formatShare(row.resolution_met)}</Cell>
            </Row>
          )}
        </TableBody>
      </Table>
    </div>
  );
}

function Comments({ comments }: { comments: ReportComment[] }) {
  return (
    <section className="lc-reports__comments" aria-labelledby="report-comments">
      <h2 id="report-comments">Comments</h2>
      {comments.length === 0 ? (
        <p className="lc-admin-empty">No comments in this range.</p>
      ) : (
        <ul>
          {comments.map((comment) => (
            <li key={`${comment.request_id} ${comment.rated_at}`} className="lc-reports__comment">
              <p className="lc-reports__comment-meta">
                <strong>{comment.score} of 5</strong> · <Link to={`/console/requests/${comment.request_id}`}>{comment.request_name}</Link>
                {' · '}{comment.employee_name}{comment.concierge_name ? ` · completed by ${comment.concierge_name}` : ''}
                {' · '}<time dateTime={comment.rated_at}>{RATED_AT.format(new Date(comment.rated_at))}</time>
              </p>
              <blockquote>{comment.comment}</blockquote>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The Reports screen's content, driven by its flow. */
export function ReportsScreen({ reports }: { reports: ReportsActor }) {
  const report = useSelector(reports, (snapshot) => snapshot.context.report);
  const loading = useSelector(reports, (snapshot) => snapshot.matches('loading'));
  const failed = useSelector(reports, (snapshot) => snapshot.matches('failed'));
  const exporting = useSelector(reports, (snapshot) => snapshot.matches({ loaded: 'exporting' }));
  const exported = useSelector(reports, (snapshot) => snapshot.matches({ loaded: 'exported' }));
  const exportFailed = useSelector(reports, (snapshot) => snapshot.matches({ loaded: 'exportFailed' }));
  const groupLabel = report ? REPORT_GROUPINGS[report.group] : '';
  return (
    <div className="lc-reports" aria-busy={loading}>
      <div className="lc-admin-bar">
        <h1>Reports</h1>
        <Button variant="secondary" isDisabled={!report || loading} isLoading={exporting} onPress={() => reports.send({ type: 'EXPORT' })}>
          Export CSV
        </Button>
      </div>
      <Filters reports={reports} />
      <p role="status" className="lc-reports__status">{exported ? REPORTS_TEXT.exported : ''}</p>
      {exportFailed && <Message severity="error">{REPORTS_TEXT.exportFailed}</Message>}
      {failed && <RetryMessage onRetry={() => reports.send({ type: 'RETRY' })}>{REPORTS_TEXT.loadFailed}</RetryMessage>}
      {loading && !report && <Skeleton lines={6} blockHeight={240} />}
      {report && (
        <div className={loading ? 'lc-reports__report lc-reports__report--stale' : 'lc-reports__report'}>
          {report.total.volume === 0 ? (
            <p className="lc-admin-empty">No requests were completed in this range.</p>
          ) : (
            <>
              <Summary total={report.total} />
              <Suspense fallback={<Skeleton lines={1} blockHeight={240} />}>
                <ReportCharts rows={report.rows} groupLabel={groupLabel} />
              </Suspense>
              <FiguresTable rows={report.rows} total={report.total} groupLabel={groupLabel} />
            </>
          )}
          <Comments comments={report.comments} />
        </div>
      )}
    </div>
  );
}

/** /console/reports (issue 28): staff only (the console's guard), in the console's frame. */
export default function ReportsPage() {
  const name = useSession((snapshot) => snapshot.context.user?.full_name);
  const role = useSession((snapshot) => snapshot.context.user?.role);
  const reports = useFlow(reportsMachine, { id: 'reports' });
  return (
    <div className="lc-console lc-admin">
      <a className="lc-console__skip" href="#reports-main">Skip to the content</a>
      <header className="lc-console__header">
        <Logo to="/console" />
        <span className="lc-console__title">Reports</span>
        <nav className="lc-console__nav" aria-label="Console">
          <span className="lc-console__me">{name}</span>
          <Link to="/console">Concierge console</Link>
          {role === 'admin' && <Link to="/console/admin/companies">Administration</Link>}
          <Link to="/dashboard">Employee app</Link>
        </nav>
      </header>
      <main id="reports-main" className="lc-admin__main" tabIndex={-1}>
        <ReportsScreen reports={reports} />
      </main>
    </div>
  );
}
