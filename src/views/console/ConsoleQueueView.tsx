import { useSelector } from '@xstate/react';
import { Link } from 'react-router';
import type { ActorRefFrom } from 'xstate';
import type { ConsoleQueue, ConsoleRequestSummary } from '../../contract/console.ts';
import type { consoleQueueMachine } from '../../machines/consoleQueue.machine.ts';
import { CONSOLE_QUEUES } from '../../machines/consoleQueue.machine.ts';
import { Button } from '../../widgets/Button.tsx';
import { relativeTime } from '../../widgets/format.ts';
import { Message } from '../../widgets/Message.tsx';
import { SearchField } from '../../widgets/SearchField.tsx';
import { Skeleton } from '../../widgets/Skeleton.tsx';
import { Tab, TabGroup, TabList, TabPanel } from '../../widgets/Tabs.tsx';
import { RequestStatusBadge } from '../requests/RequestStatusBadge.tsx';
import { ServiceLevelSummary } from './ServiceLevelBadge.tsx';
import { alertInWords } from '../../contract/sla.ts';

export type ConsoleQueueActor = ActorRefFrom<typeof consoleQueueMachine>;

export interface ConsoleQueueViewProps {
  queue: ConsoleQueueActor;
  /** The request open beside the list, marked as the current one. */
  selectedRequestId: number | null;
}

/** The queues as tabs with their sizes, the search, and the chosen queue's requests. */
export function ConsoleQueueView({ queue, selectedRequestId }: ConsoleQueueViewProps) {
  const selected = useSelector(queue, (snapshot) => snapshot.context.queue);
  const counts = useSelector(queue, (snapshot) => snapshot.context.counts);
  const searchText = useSelector(queue, (snapshot) => snapshot.context.searchText);
  const isBusy = useSelector(queue, (snapshot) => snapshot.hasTag('busy'));

  return (
    <section className="lc-console-queues" aria-label="Queues" aria-busy={isBusy}>
      <TurnaroundAlerts queue={queue} />
      <SearchField
        label="Search by employee or request name"
        value={searchText}
        onChange={(text) => queue.send({ type: 'TYPE_SEARCH', text })}
        onSubmit={() => queue.send({ type: 'SUBMIT_SEARCH' })}
      />
      <TabGroup
        variant="segmented"
        selectedKey={selected}
        onSelectionChange={(key) => queue.send({ type: 'SELECT_QUEUE', queue: key as ConsoleQueue })}
      >
        <TabList aria-label="Queue">
          {CONSOLE_QUEUES.map(({ queue: id, label }) => (
            // Named by what it shows, 'In Queue 2' (a name that differs from the visible text confuses voice control).
            <Tab key={id} id={id}>
              <span>{label}</span>{' '}
              {counts && <span className="lc-console-tabs__count">{counts[id]}</span>}
            </Tab>
          ))}
        </TabList>
        {CONSOLE_QUEUES.map(({ queue: id, label }) => (
          <TabPanel key={id} id={id}>
            <QueueList queue={queue} label={label} selectedRequestId={selectedRequestId} />
          </TabPanel>
        ))}
      </TabGroup>
    </section>
  );
}

/**
 * Issue 28: at-risk and breach alerts as they arrive, announced at once (a live log), each a link to its request,
 * until the concierge dismisses them.
 */
function TurnaroundAlerts({ queue }: { queue: ConsoleQueueActor }) {
  const alerts = useSelector(queue, (snapshot) => snapshot.context.alerts);
  return (
    <section role="log" aria-live="assertive" aria-label="Turnaround alerts" className="lc-console-alerts">
      {alerts.length > 0 && (
        <>
          <ul aria-label="Alerts">
            {alerts.map((alert) => (
              <li key={`${alert.request_id}-${alert.target}-${alert.kind}`}>
                <Link to={`/console/requests/${alert.request_id}`}>{alertInWords(alert)}</Link>
              </li>
            ))}
          </ul>
          <Button variant="secondary" onPress={() => queue.send({ type: 'DISMISS_ALERTS' })}>
            Dismiss alerts
          </Button>
        </>
      )}
    </section>
  );
}

function QueueList({ queue, label, selectedRequestId }: { queue: ConsoleQueueActor; label: string; selectedRequestId: number | null }) {
  const requests = useSelector(queue, (snapshot) => snapshot.context.requests);
  const total = useSelector(queue, (snapshot) => snapshot.context.total);
  const query = useSelector(queue, (snapshot) => snapshot.context.query);
  const error = useSelector(queue, (snapshot) => snapshot.context.error);

  if (error) {
    return (
      <div className="lc-failure">
        <Message severity="error">{error}</Message>
        <Button variant="secondary" onPress={() => queue.send({ type: 'RETRY' })}>
          Try again
        </Button>
      </div>
    );
  }
  if (requests === null) return <Skeleton lines={6} className="lc-console-queue__loading" />;
  if (requests.length === 0) {
    return <p className="lc-console-queue__empty">{query ? `No requests match “${query}”.` : 'No requests here.'}</p>;
  }
  return (
    <>
      <ul className="lc-console-queue__list" aria-label={`${label} requests`}>
        {requests.map((request) => (
          <li key={request.id}>
            <QueueRow request={request} isCurrent={request.id === selectedRequestId} />
          </li>
        ))}
      </ul>
      {total > requests.length && (
        <p className="lc-console-queue__more">
          Showing the first {requests.length} of {total}. Search to narrow the list.
        </p>
      )}
    </>
  );
}

function QueueRow({ request, isCurrent }: { request: ConsoleRequestSummary; isCurrent: boolean }) {
  const lastActivity = request.last_message_at ?? request.updated_at;
  return (
    <Link
      to={`/console/requests/${request.id}`}
      className="lc-console-row"
      aria-current={isCurrent ? 'page' : undefined}
    >
      <span className="lc-console-row__top">
        <span className="lc-console-row__name">{request.name}</span>
        {request.unread_count > 0 && (
          <span className="lc-console-row__unread">
            {request.unread_count} unread
          </span>
        )}
      </span>
      <span className="lc-console-row__employee">{request.employee.full_name}</span>
      <span className="lc-console-row__meta">
        <RequestStatusBadge status={request.status} /> · {request.assignee ? request.assignee.full_name : 'Unassigned'} ·{' '}
        {relativeTime(lastActivity)}
      </span>
      {request.service_level && request.status !== 'closed' && <ServiceLevelSummary level={request.service_level} />}
    </Link>
  );
}
