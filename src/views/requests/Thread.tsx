import { useCallback, useLayoutEffect, useRef } from 'react';
import type { Message } from '../../contract/requests.ts';
import type { Preview } from '../../machines/requestThread.machine.ts';
import { NO_MESSAGES } from '../../services/threadRules.ts';
import { MessageBubble } from './MessageBubble.tsx';

export interface ThreadProps {
  /** In display order (threadRules.threadMessages). */
  messages: Message[];
  userInitials: string;
  previews: Record<string, Preview>;
  onPreviewFailed: (key: string) => void;
}

/** Within this many pixels of the end, the reader counts as following the conversation. */
const FOLLOWING_SLACK_PX = 48;

/**
 * The conversation (SPEC §2 Request, §4 Message thread), a scrolling log: screen readers hear new messages
 * politely, and the newest message is scrolled into view whenever one arrives.
 */
export function Thread({ messages, userInitials, previews, onPreviewFailed }: ThreadProps) {
  const log = useRef<HTMLDivElement>(null);
  const following = useRef(true);
  const scrollToNewest = useCallback(() => {
    const element = log.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, []);

  const newestId = messages.at(-1)?.id;
  useLayoutEffect(() => {
    following.current = true;
    scrollToNewest();
  }, [newestId, scrollToNewest]);

  // A preview that loads makes its message taller: the newest message stays in view for a reader who follows.
  const onPreviewShown = () => {
    if (following.current) scrollToNewest();
  };
  const onScroll = () => {
    const element = log.current;
    if (element) following.current = element.scrollHeight - element.scrollTop - element.clientHeight <= FOLLOWING_SLACK_PX;
  };

  return (
    // Focusable so that keyboard users can scroll it.
    <div ref={log} role="log" aria-label="Conversation" tabIndex={0} className="lc-thread" onScroll={onScroll}>
      {messages.length === 0 ? (
        <p className="lc-thread__empty">{NO_MESSAGES}</p>
      ) : (
        <ol className="lc-thread__messages" aria-label="Messages">
          {messages.map((message) => (
            <MessageBubble key={message.id} message={message} userInitials={userInitials} previews={previews}
              onPreviewFailed={onPreviewFailed} onPreviewShown={onPreviewShown} />
          ))}
        </ol>
      )}
    </div>
  );
}
