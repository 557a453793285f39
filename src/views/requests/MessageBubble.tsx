import type { Message } from '../../contract/requests.ts';
import type { Preview } from '../../machines/requestThread.machine.ts';
import { initialsOf } from '../../services/threadRules.ts';
import { relativeTime } from '../../widgets/format.ts';
import { MessageAttachments } from './MessageAttachments.tsx';

export interface MessageBubbleProps {
  message: Message;
  /** The signed-in employee's initials, for their own messages' avatar. */
  userInitials: string;
  previews: Record<string, Preview>;
  onPreviewFailed: (key: string) => void;
  onPreviewShown: () => void;
}

/**
 * One message of the thread. The source decides the avatar (SPEC §3, §6): the employee's own initials on the right,
 * the concierge's on the left in the concierge colour. The HTML comes from the server, escaped (the employee's text)
 * or sanitised (the concierge's reply); the synthetic welcome is escaped by threadRules.
 */
export function MessageBubble({ message, userInitials, previews, onPreviewFailed, onPreviewShown }: MessageBubbleProps) {
  const fromUser = message.source === 'user';
  const initials = fromUser ? userInitials : initialsOf(message.source_name);
  return (
    <li className={`lc-message-bubble lc-message-bubble--${fromUser ? 'user' : 'concierge'}`}>
      <span className="lc-message-bubble__avatar" aria-hidden="true" data-source={message.source}>{initials}</span>
      <div className="lc-message-bubble__content">
        <p className="lc-message-bubble__meta">
          <span className="lc-message-bubble__author">{fromUser ? 'You' : message.source_name}</span>
          <span className="lc-visually-hidden">, </span>
          <time dateTime={message.external_created_at}>{relativeTime(message.external_created_at)}</time>
        </p>
        <div className="lc-message-bubble__body" dangerouslySetInnerHTML={{ __html: message.body_html }} />
        <MessageAttachments keys={message.attachment_keys} previews={previews} onPreviewFailed={onPreviewFailed}
          onPreviewShown={onPreviewShown} />
      </div>
    </li>
  );
}
