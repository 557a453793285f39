/**
 * An employee's plain text as the thread shows it, the same on both sides: the server stores a message so
 * (server/domain/requests/sanitize.ts), and the app shows a message on its way so before the server has it.
 */

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character] as string);
}

/**
 * Plain text as HTML: every character escaped, blank lines separating paragraphs, single line breaks kept. Nothing
 * the employee types is ever interpreted as markup.
 */
export function plainTextToHtml(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .trim()
    .split(/\n[ \t]*\n+/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean)
    .map((paragraph) => `<p>${paragraph.split('\n').map(escapeHtml).join('<br>')}</p>`)
    .join('');
}
