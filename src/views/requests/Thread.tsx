import { type RefObject, useCallback, useEffect, useLayoutEffect, useRef } from 'react';
import type { Message } from '../../contract/requests.ts';
import type { Preview } from '../../machines/requestThread.machine.ts';
import { type Delivery, NO_MESSAGES } from '../../services/threadRules.ts';
import { MessageBubble, type SendFailure } from './MessageBubble.tsx';
import { ThreadEnd } from './ThreadEnd.tsx';
import { type OlderMessagesState, OlderMessagesHeader } from './OlderMessagesHeader.tsx';

export interface ThreadProps {
  /** In display order (threadRules.threadMessages), a message on its way last. */
  messages: Message[];
  userInitials: string;
  previews: Record<string, Preview>;
  onPreviewFailed: (key: string) => void;
  /** The message of mine that says how my messages went, and how. */
  delivery: { messageId: number; delivery: Delivery } | null;
  /** Why the message on its way did not go, when it did not. */
  failure: SendFailure | null;
  /** The end of the page (below the message box): the newest message is in view when it is. */
  pageEnd: RefObject<HTMLElement | null>;
  /** The end of the thread was seen in the visible tab (issue 32: the replies are read). */
  onEndSeen: () => void;
  /** Issue 31: whether the thread has older messages than those shown, and how loading them goes. */
  older: OlderMessagesState;
  /** The start of what is shown was reached, or 'Load earlier messages' pressed. */
  onLoadOlder: () => void;
}

/** Within this many pixels of the end, the reader counts as following the conversation. */
const FOLLOWING_SLACK_PX = 48;

/** How far the end of the page is below the bottom of the window. */
function distanceToEnd(end: HTMLElement): number {
  return end.getBoundingClientRect().bottom - window.innerHeight;
}

/**
 * The conversation (SPEC §2 Request, §4 Message thread) as the page itself, newest at the bottom as in a messenger:
 * the window scrolls (no box of its own that would clip the header), and the newest message is brought into view
 * when one arrives while the reader follows the end. Screen readers hear new messages politely.
 */
export function Thread({ messages, userInitials, previews, onPreviewFailed, delivery, failure, pageEnd, onEndSeen, older, onLoadOlder }: ThreadProps) {
  const following = useRef(true);
  // Older messages go in above what the employee reads: the page grows above them by as much as it scrolls down, so
  // that what they read stays where it was (the page's own scroll anchoring is off for it, lc-request).
  const oldestId = messages[0]?.id;
  const shownOldestId = useRef(oldestId);
  const pageHeight = useRef<number | null>(null);
  useLayoutEffect(() => {
    const height = document.documentElement.scrollHeight;
    if (shownOldestId.current !== oldestId && pageHeight.current !== null && !following.current) {
      window.scrollBy(0, height - pageHeight.current);
    }
    shownOldestId.current = oldestId;
    pageHeight.current = height;
  });
  const scrollToNewest = useCallback(() => {
    const end = pageEnd.current;
    if (end) window.scrollTo({ top: Math.max(0, window.scrollY + distanceToEnd(end)) });
  }, [pageEnd]);

  const newest = messages.at(-1);
  const newestId = newest?.id;
  const newestIsMine = newest?.source === 'user';
  // A message of mine (just sent) is always brought into view; another's only to a reader who follows the end. A
  // change of how my message went (its Retry appearing) makes the end taller: it stays in view too.
  const shownDelivery = delivery?.delivery;
  useLayoutEffect(() => {
    if (following.current || newestIsMine) scrollToNewest();
  }, [newestId, newestIsMine, shownDelivery, scrollToNewest]);

  useEffect(() => {
    const onScroll = () => {
      const end = pageEnd.current;
      if (end) following.current = distanceToEnd(end) <= FOLLOWING_SLACK_PX;
      pageHeight.current = document.documentElement.scrollHeight;
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, [pageEnd]);

  // A preview that loads makes its message taller: the newest message stays in view for a reader who follows.
  const onPreviewShown = () => {
    if (following.current) scrollToNewest();
  };

  return (
    <div role="log" aria-label="Conversation" className="lc-thread">
      <OlderMessagesHeader key={`oldest-${oldestId}`} state={older} onLoadOlder={onLoadOlder} />
      {messages.length === 0 ? (
        <p className="lc-thread__empty">{NO_MESSAGES}</p>
      ) : (
        <ol className="lc-thread__messages" aria-label="Messages">
          {messages.map((message) => {
            const shown = delivery?.messageId === message.id ? delivery.delivery : undefined;
            return (
              <MessageBubble key={message.id} message={message} userInitials={userInitials} previews={previews}
                onPreviewFailed={onPreviewFailed} onPreviewShown={onPreviewShown} delivery={shown}
                failure={shown === 'failed' ? failure : null} />
            );
          })}
        </ol>
      )}
      <ThreadEnd key={`newest-${newestId}`} onSeen={onEndSeen} />
    </div>
  );
}
