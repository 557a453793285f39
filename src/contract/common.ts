import * as z from 'zod/mini';

import { IDEMPOTENCY_KEY_HEADER } from './common.constants.ts';

export { AUTHORIZATION_HEADER, IDEMPOTENCY_KEY_HEADER, MFA_REQUIRED_ERROR, MFA_TOKEN_HEADER } from './common.constants.ts';

/** Every 4xx/5xx answer of the API has this body; `error` is the message a user may be shown. */
export const errorBody = z.object({
  error: z.string(),
  /** Field-level problems, keyed by the dotted path of the offending input. */
  fields: z.optional(z.record(z.string(), z.string())),
});
export type ErrorBody = z.infer<typeof errorBody>;

/** The largest PostgreSQL `integer`: every id is a serial of that type, so a larger number names nothing. */
export const MAX_DB_ID = 2_147_483_647;
/** An id in a JSON body; a larger or non-positive number is a 422 naming the field, never a database error. */
export const dbId = z.number().check(z.int(), z.minimum(1), z.maximum(MAX_DB_ID));
/** An id in a path or query string (text, read as a number). */
export const dbIdText = z.coerce.number().check(z.int(), z.minimum(1), z.maximum(MAX_DB_ID));
/** A path with one record id, e.g. /requests/{id}. */
export const idParams = z.object({ id: dbIdText });

/** The headers of a post that may be retried: an optional Idempotency-Key (other headers pass untouched). */
export const idempotentPostHeaders = z.looseObject({ [IDEMPOTENCY_KEY_HEADER]: z.optional(z.uuid()) });
export const IDEMPOTENCY_KEY_REUSED_ERROR = 'This Idempotency-Key was already used for a different post.';

export const successBody = z.object({ success: z.boolean() });
export const messageBody = z.object({ success: z.boolean(), message: z.string() });
