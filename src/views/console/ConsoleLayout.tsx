import { useSelector } from '@xstate/react';
import { type ReactNode, useEffect } from 'react';
import { Link, useParams } from 'react-router';
import { Logo } from '../../widgets/Logo.tsx';
import { useFlow, useSession } from '../../machines/appSystem.tsx';
import type { User } from '../../contract/account.ts';
import { type ConsoleQueueContext, consoleQueueMachine } from '../../machines/consoleQueue.machine.ts';
import { REQUEST_NOT_FOUND } from '../../machines/consoleRequest.machine.ts';
import { Message } from '../../widgets/Message.tsx';
import { type ConsoleQueueActor, ConsoleQueueView } from './ConsoleQueueView.tsx';
import { ConsoleAvailability } from './ConsoleAvailability.tsx';
import { ConsoleRequestLoading, ConsoleRequestView, type ConsoleStaffUser } from './ConsoleRequestView.tsx';
import './console.css';

const LIVE_STATUS_TEXT: Record<ConsoleQueueContext['liveStatus'], string> = {
  connecting: 'Connecting…',
  live: 'Live',
  polling: 'Reconnecting (refreshing every few seconds)',
};

function useStaffUser(): User {
  const user = useSession((snapshot) => snapshot.context.user);
  if (!user) throw new Error('The console rendered without a signed-in user');
  return user;
}

/** A positive whole number from the address, or null. */
function requestIdFrom(param: string | undefined): number | null {
  if (param === undefined || !/^\d+$/.test(param)) return null;
  const id = Number(param);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/**
 * The concierge console (DESIGN §1): its own frame, not the employee app's. The queues stay on the left while a
 * request is open on the right; below 900 px one of the two fills the screen. One queue actor lives as long as the
 * console; it and the open request hear the system's one live stream.
 */
export default function ConsoleLayout() {
  const user = useStaffUser();
  const queue = useFlow(consoleQueueMachine, { id: 'consoleQueue' });
  const { requestId: requestParam } = useParams();
  const requestId = requestIdFrom(requestParam);
  const hasRequestAddress = requestParam !== undefined;

  return (
    <div className={`lc-console${hasRequestAddress ? ' lc-console--request-open' : ''}`}>
      <a className="lc-console__skip" href="#console-main">
        Skip to the request
      </a>
      <ConsoleHeader queue={queue} user={user} availability={<ConsoleAvailability />} />
      <div className="lc-console__body">
        {/* An open request's name is the page's heading; without one, the console is. */}
        {!hasRequestAddress && <h1 className="lc-visually-hidden">Concierge console</h1>}
        <ConsoleQueueView queue={queue} selectedRequestId={requestId} />
        <main id="console-main" className="lc-console__main" tabIndex={-1}>
          {hasRequestAddress && (
            <Link to="/console" className="lc-console__back">
              Back to the queues
            </Link>
          )}
          {requestId !== null ? (
            <OpenRequest requestId={requestId} queue={queue} me={user} />
          ) : hasRequestAddress ? (
            <Message severity="error">{REQUEST_NOT_FOUND}</Message>
          ) : (
            <p className="lc-console__placeholder">Choose a request from a queue to see it here.</p>
          )}
        </main>
      </div>
    </div>
  );
}

/** The console's bar: where you are, whether news arrives live, who you are, and the way back to the app. */
export function ConsoleHeader({
  queue,
  user,
  availability,
}: {
  queue: ConsoleQueueActor;
  user: ConsoleStaffUser & Partial<Pick<User, 'role'>>;
  /** The availability switch (its own flow), where the console shows it. */
  availability?: ReactNode;
}) {
  const liveStatus = useSelector(queue, (snapshot) => snapshot.context.liveStatus);
  return (
    <header className="lc-console__header">
      <Logo to="/console" />
      <span className="lc-console__title">Concierge console</span>
      <span className={`lc-console__live lc-console__live--${liveStatus}`} role="status">
        <span className="lc-console__live-dot" aria-hidden="true" />
        {LIVE_STATUS_TEXT[liveStatus]}
      </span>
      <nav className="lc-console__nav" aria-label="Console">
        {availability}
        <span className="lc-console__me">{user.full_name}</span>
        <Link to="/console/reports">Reports</Link>
        {user.role === 'admin' && <Link to="/console/admin/companies">Administration</Link>}
        <Link to="/dashboard">Employee app</Link>
      </nav>
    </header>
  );
}

/** The request the address names, opened by the queue (its child, which tells it of every change the queues show). */
function OpenRequest({ requestId, queue, me }: { requestId: number; queue: ConsoleQueueActor; me: ConsoleStaffUser }) {
  const shown = useSelector(queue, (snapshot) => snapshot.context.shownRequest);
  useEffect(() => {
    queue.send({ type: 'SHOW_REQUEST', requestId });
    return () => {
      // Leaving the console ends the queue, and its request with it.
      if (queue.getSnapshot().status === 'active') queue.send({ type: 'SHOW_REQUEST', requestId: null });
    };
  }, [queue, requestId]);
  // Until the queue has opened the address's request, the one before it (or none) is not shown.
  if (shown?.requestId !== requestId) return <ConsoleRequestLoading />;
  return <ConsoleRequestView key={requestId} request={shown.actor} me={me} />;
}
