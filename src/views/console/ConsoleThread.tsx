import type { ConsoleRequest, ThreadEntry } from '../../contract/console.ts';
import { requestStatusLabel } from '../../contract/requests.ts';
import { attachmentHref, attachmentKind } from '../../services/threadRules.ts';
import { relativeTime } from '../../widgets/format.ts';
import { ImageThumbnail } from './ImageThumbnail.tsx';

export const INTERNAL_NOTE_LABEL = 'Internal note — not visible to the employee';


function When({ at }: { at: string }) {
  return (
    <time dateTime={at} title={new Date(at).toLocaleString()}>
      {relativeTime(at)}
    </time>
  );
}

/** A message's files: images as thumbnails (as the employee sees them), anything else as a link. */
function Attachments({ keys }: { keys: string[] }) {
  if (keys.length === 0) return null;
  return (
    <ul className="lc-console-entry__files" aria-label="Attachments">
      {keys.map((key, index) => (
        <li key={key}>
          {attachmentKind(key) === 'image' ? (
            <ImageThumbnail fileKey={key} />
          ) : (
            <a href={attachmentHref(key)} target="_blank" rel="noopener noreferrer">
              Open attachment{keys.length > 1 ? ` ${index + 1}` : ''} (new tab)
            </a>
          )}
        </li>
      ))}
    </ul>
  );
}

/** Server-made HTML: an employee's text escaped, a concierge's Markdown sanitised (src/contract/requests.ts). */
function Body({ html }: { html: string }) {
  return <div className="lc-console-entry__body" dangerouslySetInnerHTML={{ __html: html }} />;
}

function eventText(entry: Extract<ThreadEntry, { kind: 'event' }>): string {
  if (entry.event === 'assigned') {
    if (!entry.assignee_name) return `${entry.actor_name} unassigned the request`;
    return entry.assignee_name === entry.actor_name
      ? `${entry.actor_name} claimed the request`
      : `${entry.actor_name} assigned the request to ${entry.assignee_name}`;
  }
  const from = entry.from_status ? ` from ${requestStatusLabel(entry.from_status)}` : '';
  return `${entry.actor_name} moved the request${from} to ${requestStatusLabel(entry.to_status)}`;
}

function Entry({ entry }: { entry: ThreadEntry }) {
  switch (entry.kind) {
    case 'message': {
      const fromEmployee = entry.source === 'user';
      return (
        <article className={`lc-console-entry lc-console-entry--${fromEmployee ? 'employee' : 'reply'}`}>
          <header className="lc-console-entry__header">
            <span className="lc-console-entry__author">{entry.source_name}</span>
            <span className="lc-console-entry__kind">{fromEmployee ? 'Employee' : 'Reply to the employee'}</span>
            <When at={entry.external_created_at} />
          </header>
          <Body html={entry.body_html} />
          <Attachments keys={entry.attachment_keys} />
        </article>
      );
    }
    case 'note':
      return (
        <article className="lc-console-entry lc-console-entry--note">
          <header className="lc-console-entry__header">
            <span className="lc-console-entry__kind lc-console-entry__kind--note">{INTERNAL_NOTE_LABEL}</span>
            <span className="lc-console-entry__author">{entry.author_name}</span>
            <When at={entry.created_at} />
          </header>
          <Body html={entry.body_html} />
        </article>
      );
    case 'event':
      return (
        <p className="lc-console-entry lc-console-entry--event">
          {eventText(entry)} · <When at={entry.created_at} />
        </p>
      );
  }
}

/** Messages, internal notes and history, oldest first; what arrives later is announced politely. */
export function ConsoleThread({ request }: { request: ConsoleRequest }) {
  return (
    <section className="lc-console-thread" aria-labelledby="console-thread-heading">
      <h2 id="console-thread-heading" className="lc-console-section-title">
        Conversation
      </h2>
      <div role="log" aria-labelledby="console-thread-heading">
        {request.thread.length === 0 ? (
          <p className="lc-console-thread__empty">No messages yet</p>
        ) : (
          <ol className="lc-console-thread__entries">
            {request.thread.map((entry) => (
              <li key={`${entry.kind}-${entry.id}`}>
                <Entry entry={entry} />
              </li>
            ))}
          </ol>
        )}
      </div>
    </section>
  );
}
