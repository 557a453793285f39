import { useSelector } from '@xstate/react';
import { Link, useParams } from 'react-router';
import { useFlow, useSession } from '../machines/appSystem.tsx';
import { THREAD_TEXT, requestThreadMachine } from '../machines/requestThread.machine.ts';
import { threadMessages } from '../services/threadRules.ts';
import { Button } from '../widgets/Button.tsx';
import { relativeTime } from '../widgets/format.ts';
import { Message } from '../widgets/Message.tsx';
import { Skeleton } from '../widgets/Skeleton.tsx';
import { Composer, type RequestThreadActor } from './requests/Composer.tsx';
import { StatusLabel } from './requests/StatusLabel.tsx';
import { Thread } from './requests/Thread.tsx';
import { PageHeading } from './PageHeading.tsx';
import './requests/requests.css';

export const LIVE_UPDATES_PAUSED = 'Reconnecting… New messages may take a few seconds to appear.';

function BackLink() {
  return (
    <Link to="/requests" className="lc-request__back">
      <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false" fill="none" stroke="currentColor"
        strokeWidth="2" strokeLinecap="round" strokeLinejoin="round"><path d="M15 18l-6-6 6-6" /></svg>
      Back to requests
    </Link>
  );
}

function LoadFailure({ thread }: { thread: RequestThreadActor }) {
  const failure = useSelector(thread, (snapshot) => snapshot.context.loadFailure);
  if (failure === 'notFound') return <Message severity="error">{THREAD_TEXT.notFound}</Message>;
  return (
    <div className="lc-request__failure">
      <Message severity="error">{THREAD_TEXT.loadFailed}</Message>
      <Button variant="secondary" onPress={() => thread.send({ type: 'RETRY' })}>Try again</Button>
    </div>
  );
}

/**
 * SPEC §2 Request: the header (name, status, when it was requested), the conversation with the concierge, live,
 * and the message box. The mobile bottom bar is hidden on this screen (route handle), hence the back link.
 */
export function RequestThreadView({ thread }: { thread: RequestThreadActor }) {
  const request = useSelector(thread, (snapshot) => snapshot.context.request);
  const isLoading = useSelector(thread, (snapshot) => snapshot.matches('loading'));
  const failed = useSelector(thread, (snapshot) => snapshot.matches('failed'));
  const previews = useSelector(thread, (snapshot) => snapshot.context.previews);
  const userInitials = useSelector(thread, (snapshot) => snapshot.context.author.initials);
  const livePaused = useSelector(thread, (snapshot) => snapshot.matches('ready') && snapshot.context.liveStatus === 'polling');

  return (
    <div className="lc-request" aria-busy={isLoading}>
      <BackLink />
      {!request && <PageHeading title="Request Details" />}
      {isLoading && request === null && <Skeleton lines={3} blockHeight={160} className="lc-request__skeleton" />}
      {failed && <LoadFailure thread={thread} />}
      {request && (
        <>
          <header className="lc-request__header">
            <h1 className="lc-request__name">{request.name}</h1>
            <p className="lc-request__meta">
              <StatusLabel status={request.status} />
              <span>Requested <time dateTime={request.issued_at}>{relativeTime(request.issued_at)}</time></span>
            </p>
          </header>
          <Thread messages={threadMessages(request)} userInitials={userInitials} previews={previews}
            onPreviewFailed={(key) => thread.send({ type: 'PREVIEW_FAILED', key })} />
          <p role="status" className="lc-request__live">{livePaused ? LIVE_UPDATES_PAUSED : ''}</p>
          <Composer thread={thread} />
        </>
      )}
    </div>
  );
}

/** One thread actor per request: moving to another request starts over with that one (SPEC §2: fetched on entry). */
function RequestThread({ requestId }: { requestId: number }) {
  const author = useSession((snapshot) => snapshot.context.user);
  const thread = useFlow(requestThreadMachine, {
    id: 'requestThread',
    input: { requestId, author: { fullName: author?.full_name ?? '', initials: author?.initials ?? '' } },
  });
  return <RequestThreadView thread={thread} />;
}

export default function Request() {
  const { requestId = '' } = useParams();
  return <RequestThread key={requestId} requestId={Number(requestId)} />;
}
