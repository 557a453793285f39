import type { Message } from '../../contract/requests.ts';
import type { Preview } from '../../machines/requestThread.machine.ts';
import { DELIVERY_TEXT, type Delivery, initialsOf } from '../../services/threadRules.ts';
import { Button } from '../../widgets/Button.tsx';
import { relativeTime } from '../../widgets/format.ts';
import { MessageAttachments } from './MessageAttachments.tsx';

/** A message of mine that did not go: why, and what I can do about it. */
export interface SendFailure {
  error: string;
  onRetry: () => void;
  onEdit: () => void;
}

export interface MessageBubbleProps {
  message: Message;
  /** The signed-in employee's initials, for their own messages' avatar. */
  userInitials: string;
  previews: Record<string, Preview>;
  onPreviewFailed: (key: string) => void;
  onPreviewShown: () => void;
  /** How this message of mine went, when it is the one that says (the last, or the one on its way). */
  delivery?: Delivery;
  failure?: SendFailure | null;
}

function DeliveryLine({ delivery, failure }: { delivery: Delivery; failure: SendFailure | null | undefined }) {
  if (delivery === 'failed' && failure) {
    return (
      <div className="lc-message-bubble__failure" role="alert">
        <p className="lc-message-bubble__delivery" data-delivery="failed">
          {DELIVERY_TEXT.failed}: {failure.error}
        </p>
        <div className="lc-message-bubble__failure-actions">
          <Button variant="secondary" onPress={failure.onRetry}>Retry</Button>
          <Button variant="tertiary" onPress={failure.onEdit}>Edit</Button>
        </div>
      </div>
    );
  }
  return <p className="lc-message-bubble__delivery" data-delivery={delivery}>{DELIVERY_TEXT[delivery]}</p>;
}

/**
 * One message of the thread. The source decides the avatar (SPEC §3, §6): the employee's own initials on the right,
 * the concierge's on the left in the concierge colour. The HTML comes from the server, escaped (the employee's text)
 * or sanitised (the concierge's reply); the synthetic welcome and a message on its way are escaped by threadRules.
 */
export function MessageBubble({ message, userInitials, previews, onPreviewFailed, onPreviewShown, delivery, failure }: MessageBubbleProps) {
  const fromUser = message.source === 'user';
  const initials = fromUser ? userInitials : initialsOf(message.source_name);
  return (
    <li className={`lc-message-bubble lc-message-bubble--${fromUser ? 'user' : 'concierge'}`} data-delivery={delivery}>
      <span className="lc-message-bubble__avatar" aria-hidden="true" data-source={message.source}>{initials}</span>
      <div className="lc-message-bubble__column">
        <div className="lc-message-bubble__content">
          <p className="lc-message-bubble__meta">
            <span className="lc-message-bubble__author">{fromUser ? 'You' : message.source_name}</span>
            <span className="lc-visually-hidden">, </span>
            <time dateTime={message.external_created_at}>{relativeTime(message.external_created_at)}</time>
          </p>
          {message.body_html && <div className="lc-message-bubble__body" dangerouslySetInnerHTML={{ __html: message.body_html }} />}
          <MessageAttachments keys={message.attachment_keys} previews={previews} onPreviewFailed={onPreviewFailed}
            onPreviewShown={onPreviewShown} />
        </div>
        {delivery && <DeliveryLine delivery={delivery} failure={failure} />}
      </div>
    </li>
  );
}
