import { Marked } from 'marked';
import sanitizeHtml from 'sanitize-html';

/**
 * The only ways text becomes the `body_html` of a message or note (DESIGN §6). The employee app renders body_html
 * as HTML, so everything stored there has been through one of these:
 * - an employee's message is plain text: escaped, never interpreted (`plainTextToHtml`);
 * - a concierge writes Markdown: rendered by `marked`, then passed through an allow-list (`markdownToSafeHtml`).
 */

/** GitHub-flavoured Markdown; a single line break is kept as a break, as people expect in a chat. */
const markdown = new Marked({ gfm: true, breaks: true });

/**
 * What a concierge reply may contain. No images (a remote image is a tracking pixel; files go as attachments), no
 * forms, frames, scripts or styles; links only to web and mail addresses. Every attribute not listed is dropped,
 * which removes event handlers (onclick, onerror, ...) and inline styles.
 */
const REPLY_POLICY: sanitizeHtml.IOptions = {
  allowedTags: [
    'p', 'br', 'strong', 'b', 'em', 'i', 'del', 's', 'code', 'pre', 'blockquote', 'hr',
    'ul', 'ol', 'li', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'a',
    'table', 'thead', 'tbody', 'tr', 'th', 'td',
  ],
  // target and rel are always overwritten by the transform below (it runs before this list is applied).
  allowedAttributes: { a: ['href', 'title', 'target', 'rel'], ol: ['start'], th: ['align'], td: ['align'] },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  // A disallowed element goes, but its text stays readable; script and style contents go with them.
  disallowedTagsMode: 'discard',
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'title', 'iframe', 'object'],
  // A link whose address was refused is just its text.
  exclusiveFilter: (frame) => (frame.tag === 'a' && !frame.attribs.href ? 'excludeTag' : false),
  transformTags: {
    // Links leave the app in a new tab, without handing it the opener or the referring address.
    a: sanitizeHtml.simpleTransform('a', { target: '_blank', rel: 'noopener noreferrer nofollow' }),
  },
};

/** Any HTML reduced to the reply allow-list: no scripts, no event-handler attributes, no javascript: URLs. */
export function sanitizeReplyHtml(html: string): string {
  return sanitizeHtml(html, REPLY_POLICY).trim();
}

/** A concierge's Markdown as safe HTML. Raw HTML inside the Markdown is allowed through the same allow-list. */
export function markdownToSafeHtml(source: string): string {
  return sanitizeReplyHtml(markdown.parse(source, { async: false }));
}

export { escapeHtml, plainTextToHtml } from '../../../src/contract/plainText.ts';

const ENTITY_TEXT: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&nbsp;': ' ' };

/**
 * A message's safe HTML as one line of plain text of at most `max` characters (an ellipsis ends a cut one): the
 * preview of a thread in the request lists. Block ends and line breaks become spaces.
 */
export function previewOfHtml(html: string, max: number): string {
  const text = sanitizeHtml(html.replace(/<\/(?:p|li|h\d|tr|td|th|blockquote|pre)>|<br\s*\/?>/gi, ' '), { allowedTags: [], allowedAttributes: {} })
    .replace(/&(?:amp|lt|gt|quot|#39|nbsp);/g, (entity) => ENTITY_TEXT[entity])
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}
