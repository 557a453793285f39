// Zod-free and dependency-free: the first page load's monitoring and the server's logs both use it.

/** Query parameters that carry a credential or a capability (an e-mailed link's token, an SMS code, a signature). */
export const SECRET_QUERY_PARAMETERS = [
  'unlock_token',
  'reset_password_token',
  'confirmation_token',
  'token',
  'ticket',
  'code',
  'otp',
  'signature',
];
export const REDACTED = '[redacted]';

// Characters that end an address inside free text (a message, a JSON string, an HTML attribute).
const ADDRESS_END = `/?#\\s"'<>`;
const SEGMENT = `[^${ADDRESS_END}]+`;
const QUERY_VALUE = `[^&#\\s"'<>]*`;
/** The path segment ends there: not followed by another character of a segment. */
const PATH_ENDS = '(?![\\w.~%-])';

const SECRET_QUERY = new RegExp(`([?&](?:${SECRET_QUERY_PARAMETERS.join('|')}|X-Amz-[A-Za-z-]+)=)${QUERY_VALUE}`, 'gi');
/** SPEC §2: /reset-password/:token, /unlock/:token and the confirmation link /confirm-email/:token. */
const SECRET_PATH = new RegExp(`/(reset-password|unlock|confirm-email)/${SEGMENT}`, 'g');
/** SPEC §2's legacy unlock link /:unlockToken/unlock, as a whole address or as a path that starts the text. */
const LEGACY_UNLOCK_IN_ADDRESS = new RegExp(`(https?://[^${ADDRESS_END}]+)/(?!${escape(REDACTED)})${SEGMENT}/unlock${PATH_ENDS}`, 'g');
const LEGACY_UNLOCK_PATH = new RegExp(`(^|[\\s"'(=])/(?!${escape(REDACTED)})${SEGMENT}/unlock${PATH_ENDS}`, 'g');

/** A credential written out as an Authorization header's value would be, `Bearer <token>` (not the word in prose). */
const BEARER_VALUE = /\b(Bearer\s+)[\w.~+/=-]{16,}/gi;

function escape(text: string): string {
  return text.replace(/[[\]]/g, '\\$&');
}

/**
 * Any text with the secrets of the app's addresses replaced: the tokens of the e-mailed links (in the path or the
 * query), SMS codes and the signatures of file addresses. Addresses are found wherever they are in the text, whole
 * (`https://host/unlock/abc`) or as paths (`/unlock/abc`), so it also cleans messages, breadcrumbs and recorded pages;
 * and a session token written out as `Bearer <token>`.
 */
export function redactSecrets(text: string): string {
  return text
    .replace(SECRET_QUERY, `$1${REDACTED}`)
    .replace(SECRET_PATH, `/$1/${REDACTED}`)
    .replace(LEGACY_UNLOCK_IN_ADDRESS, `$1/${REDACTED}/unlock`)
    .replace(LEGACY_UNLOCK_PATH, `$1/${REDACTED}/unlock`)
    .replace(BEARER_VALUE, `$1${REDACTED}`);
}

/** A copy of any JSON-like value with redactSecrets applied to every string in it, keys included. */
export function redactSecretsDeep<T>(value: T): T {
  return redactValue(value, new WeakMap()) as T;
}

function redactValue(value: unknown, seen: WeakMap<object, unknown>): unknown {
  if (typeof value === 'string') return redactSecrets(value);
  if (typeof value !== 'object' || value === null || ArrayBuffer.isView(value)) return value;
  const known = seen.get(value);
  if (known !== undefined) return known;
  if (Array.isArray(value)) {
    const copy: unknown[] = [];
    seen.set(value, copy);
    for (const item of value) copy.push(redactValue(item, seen));
    return copy;
  }
  const copy: Record<string, unknown> = {};
  seen.set(value, copy);
  for (const [key, item] of Object.entries(value)) copy[redactSecrets(key)] = redactValue(item, seen);
  return copy;
}
