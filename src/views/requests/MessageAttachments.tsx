import { Link } from 'react-router';
import type { Preview } from '../../machines/requestThread.machine.ts';
import { attachmentHref, attachmentKind } from '../../services/threadRules.ts';
import './thumbnail.css';

export interface MessageAttachmentsProps {
  keys: string[];
  previews: Record<string, Preview>;
  /** An image that cannot be shown (its address expired or broke): it is offered as a link instead. */
  onPreviewFailed: (key: string) => void;
  onPreviewShown: () => void;
}

const LINK_TEXT = { pdf: 'Open PDF', image: 'Open image', file: 'Open attachment' } as const;
const NEW_TAB = { target: '_blank', rel: 'noopener noreferrer' } as const;

function DocumentIcon() {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false" fill="none" stroke="currentColor"
      strokeWidth="1.75" strokeLinecap="round" strokeLinejoin="round">
      <path d="M14 3H6a1 1 0 0 0-1 1v16a1 1 0 0 0 1 1h12a1 1 0 0 0 1-1V8z" /><path d="M14 3v5h5" /><path d="M8 13h8M8 17h6" />
    </svg>
  );
}

/**
 * A message's files (SPEC §2 Request): images previewed, PDFs and anything else as links. Each opens through the
 * Attachment route, which sends the browser to a fresh address for the file, in a new tab: the conversation stays
 * open (and a PDF, which the server hands out as a download, does not leave this tab on an empty page).
 */
export function MessageAttachments({ keys, previews, onPreviewFailed, onPreviewShown }: MessageAttachmentsProps) {
  if (keys.length === 0) return null;
  return (
    <ul className="lc-message-attachments" aria-label="Attachments">
      {keys.map((key) => {
        const kind = attachmentKind(key);
        const preview = previews[key];
        if (kind === 'image' && preview && preview !== 'failed') {
          return (
            <li key={key}>
              <Link to={attachmentHref(key)} {...NEW_TAB} className="lc-message-attachments__image-link">
                {preview === 'loading'
                  ? <span className="lc-message-attachments__placeholder">Loading image</span>
                  : <img src={preview.url} alt="Image attachment (opens in a new tab)" className="lc-thumbnail"
                      onLoad={onPreviewShown} onError={() => onPreviewFailed(key)} />}
              </Link>
            </li>
          );
        }
        return (
          <li key={key}>
            <Link to={attachmentHref(key)} {...NEW_TAB} className="lc-message-attachments__file-link">
              <DocumentIcon />
              <span>{LINK_TEXT[kind]}</span>
              <span className="lc-visually-hidden"> (opens in a new tab)</span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
