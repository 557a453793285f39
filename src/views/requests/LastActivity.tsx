import type { LastMessage } from '../../contract/requests.ts';
import { useUnreadCountOf } from '../../machines/appSystem.tsx';
import { CountBadge } from '../../widgets/CountBadge.tsx';
import { relativeTime } from '../../widgets/format.ts';
import './LastActivity.css';

export const LAST_ACTIVITY_TEXT = {
  fromEmployee: 'You: ',
  fileOnly: 'Sent a file',
  unread: { one: 'unread reply', other: 'unread replies' },
} as const;

/** The request's unread replies (issue 32), as the employee's unread statechart counts them. */
export function UnreadRepliesBadge({ requestId }: { requestId: number }) {
  const count = useUnreadCountOf(requestId);
  return <CountBadge count={count} label={LAST_ACTIVITY_TEXT.unread} className="lc-last-activity__badge" />;
}

/**
 * Issue 32: a request's newest message as one line, with its time, in the lists and on the Dashboard; bold while the
 * request has unread replies. Nothing for a thread without messages.
 */
export function LastActivity({ requestId, lastMessage }: { requestId: number; lastMessage: LastMessage | null | undefined }) {
  const unread = useUnreadCountOf(requestId) > 0;
  if (!lastMessage) return null;
  return (
    <span className={`lc-last-activity${unread ? ' lc-last-activity--unread' : ''}`}>
      <span className="lc-last-activity__preview">
        {lastMessage.from_staff ? '' : LAST_ACTIVITY_TEXT.fromEmployee}
        {lastMessage.body_preview || LAST_ACTIVITY_TEXT.fileOnly}
      </span>
      <time className="lc-last-activity__time" dateTime={lastMessage.created_at}>{relativeTime(lastMessage.created_at)}</time>
    </span>
  );
}
