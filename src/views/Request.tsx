import { useSelector } from '@xstate/react';
import { type RefObject, useRef } from 'react';
import { Link, useParams } from 'react-router';
import { useFlow, useSession } from '../machines/appSystem.tsx';
import { THREAD_TEXT, requestThreadMachine } from '../machines/requestThread.machine.ts';
import { OUTGOING_MESSAGE_ID, isDelivered, lastOwnDelivery, outgoingAsMessage, threadMessages } from '../services/threadRules.ts';
import { Button } from '../widgets/Button.tsx';
import { relativeTime } from '../widgets/format.ts';
import { useKeyboardInset } from '../widgets/keyboardInset.ts';
import { Message } from '../widgets/Message.tsx';
import { Skeleton } from '../widgets/Skeleton.tsx';
import { Composer, type RequestThreadActor } from './requests/Composer.tsx';
import { RequestStatusBadge } from './requests/RequestStatusBadge.tsx';
import { Thread } from './requests/Thread.tsx';
import type { OlderMessagesState } from './requests/OlderMessagesHeader.tsx';
import { PageHeading } from './PageHeading.tsx';
import { RatingCard } from './rating/RatingCard.tsx';
import { type ServicePromise, promiseInWords } from '../contract/sla.ts';
import './requests/requests.css';

/** The turnaround promised, in plain words (issue 28): never the team's own state of it. */
function ServicePromiseLine({ promise }: { promise: ServicePromise | null | undefined }) {
  const words = promise ? promiseInWords(promise) : null;
  return words ? <p className="lc-request__promise">{words}</p> : null;
}

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
 * The conversation, with the message of mine on its way (or not sent) at its end, and how my messages went: the one
 * on its way says so, else my last one says Sent or Seen.
 */
function Conversation({ thread, pageEnd }: { thread: RequestThreadActor; pageEnd: RefObject<HTMLElement | null> }) {
  const request = useSelector(thread, (snapshot) => snapshot.context.request);
  const sent = useSelector(thread, (snapshot) => snapshot.context.outgoing);
  const previews = useSelector(thread, (snapshot) => snapshot.context.previews);
  const author = useSelector(thread, (snapshot) => snapshot.context.author);
  const older = useSelector(thread, (snapshot): OlderMessagesState => {
    if (snapshot.matches({ ready: { history: 'loadingOlder' } })) return 'loading';
    if (snapshot.matches({ ready: { history: 'olderFailed' } })) return 'failed';
    return snapshot.context.request?.has_older_messages ? 'more' : 'none';
  });
  if (!request) return null;
  const messages = threadMessages(request);
  const outgoing = sent && !isDelivered(sent, request) ? sent : null;
  const failure = outgoing?.error
    ? { error: outgoing.error, onRetry: () => thread.send({ type: 'RETRY_SEND' }), onEdit: () => thread.send({ type: 'DISCARD_FAILED' }) }
    : null;
  const delivery = outgoing
    ? { messageId: OUTGOING_MESSAGE_ID, delivery: outgoing.error ? ('failed' as const) : ('sending' as const) }
    : lastOwnDelivery(request);
  return (
    <Thread messages={outgoing ? [...messages, outgoingAsMessage(outgoing, author.fullName, new Date())] : messages}
      userInitials={author.initials} previews={previews} delivery={delivery} failure={failure} pageEnd={pageEnd}
      onPreviewFailed={(key) => thread.send({ type: 'PREVIEW_FAILED', key })} onEndSeen={() => thread.send({ type: 'END_OF_THREAD_SEEN' })}
      older={older} onLoadOlder={() => thread.send({ type: 'LOAD_OLDER' })} />
  );
}

/**
 * SPEC §2 Request, as a messenger: the page is the conversation with the concierge, live, newest at the bottom,
 * under the header (name, status, when it was requested), with the message box pinned to the bottom of the window
 * (above a phone's keyboard). The mobile bottom bar is hidden on this screen (route handle), hence the back link.
 */
export function RequestThreadView({ thread }: { thread: RequestThreadActor }) {
  const request = useSelector(thread, (snapshot) => snapshot.context.request);
  const isLoading = useSelector(thread, (snapshot) => snapshot.matches('loading'));
  const failed = useSelector(thread, (snapshot) => snapshot.matches('failed'));
  const livePaused = useSelector(thread, (snapshot) => snapshot.matches('ready') && snapshot.context.liveStatus === 'polling');
  const pageEnd = useRef<HTMLDivElement>(null);
  const dock = useRef<HTMLDivElement>(null);
  useKeyboardInset(dock);

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
              <RequestStatusBadge status={request.status} />
              <span>Requested <time dateTime={request.issued_at}>{relativeTime(request.issued_at)}</time></span>
            </p>
            <ServicePromiseLine promise={request.service_promise} />
          </header>
          {request.status === 'closed' && <RatingCard requestId={request.id} token={null} preselected={null} />}
          <Conversation thread={thread} pageEnd={pageEnd} />
          <div ref={dock} className="lc-request__dock">
            <p role="status" className="lc-request__live">{livePaused ? LIVE_UPDATES_PAUSED : ''}</p>
            <Composer thread={thread} />
          </div>
        </>
      )}
      <div ref={pageEnd} className="lc-request__end" />
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
