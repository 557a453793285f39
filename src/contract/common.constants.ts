/**
 * The zod-free part of the common contract (src/contract/common.ts re-exports it): what the first page load needs
 * without pulling the schema library into it (DESIGN §9 weight budget).
 */

/** Header names of SPEC §7. */
export const AUTHORIZATION_HEADER = 'authorization';
export const MFA_TOKEN_HEADER = 'mfa-token';
/** A UUID the app sends with each message it composes; a retried post with it is stored once (IETF Idempotency-Key). */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
/** The 401 error that means "verify an SMS code first" rather than "your session is gone". */
export const MFA_REQUIRED_ERROR = 'MFA authentication required';

/**
 * The user-facing message of an API error answer (`errorBody` in common.ts): `error` when the body has that shape,
 * else null. Checked by hand because the HTTP client reads it synchronously on the first page, before any schema
 * has loaded; tests/unit/contract.zodFree.test.ts keeps it in step with `errorBody`.
 */
export function errorBodyMessage(data: unknown): string | null {
  if (!isPlainObject(data)) return null;
  const { error, fields } = data;
  if (typeof error !== 'string') return null;
  if (fields === undefined) return error;
  return isMessageRecord(fields) ? error : null;
}

/**
 * SPEC §8 "Wrapped errors combine a prefix with the server's error or message": the `error` of an error answer, else
 * the `message` an answer carries (e.g. `{success: false, message}`), else null.
 */
export function serverText(data: unknown): string | null {
  const error = errorBodyMessage(data);
  if (error !== null) return error;
  return isPlainObject(data) && typeof data.message === 'string' && data.message.trim() !== '' ? data.message : null;
}

/** A JSON object (not an array), as z.object and z.record accept it. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isMessageRecord(value: unknown): boolean {
  return isPlainObject(value) && Object.values(value).every((message) => typeof message === 'string');
}

/**
 * The 401 of a member whose company's directory turned them off (SCIM): at sign-in, and on the next call of a session
 * that was open then. The app signs out and shows it.
 */
export const ACCESS_TURNED_OFF_ERROR = 'Your employer has turned off your access to Life Concierge.';
