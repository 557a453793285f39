import type { ErrorBody } from '../../../src/contract/common.ts';
import { type Database, type Executor, isUniqueViolation } from '../../db/client.ts';

/** The statuses of a refusal: what the SPEC answers a caller who can do something about it. */
export type RefusalStatus = 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429;

/**
 * A refusal the user caused and may be told about, with the SPEC wording: the only error class of the server's
 * answers. The app's error handler answers `statusCode` with `body`, so domain code can refuse without knowing about
 * replies.
 */
export class UserFacingError extends Error {
  readonly statusCode: RefusalStatus;
  /** The inputs at fault, each with its problem, keyed by dotted path (`fields` of the contract's errorBody). */
  readonly fields: Record<string, string> | undefined;

  constructor(statusCode: RefusalStatus, message: string, fields?: Record<string, string>) {
    super(message);
    this.name = 'UserFacingError';
    this.statusCode = statusCode;
    this.fields = fields;
  }

  /** The answer's body: `{ error }`, with `fields` when inputs are at fault. */
  get body(): ErrorBody {
    return this.fields ? { error: this.message, fields: this.fields } : { error: this.message };
  }
}

/** 401: the credentials, token or code given are not accepted. */
export const unauthorized = (message: string) => new UserFacingError(401, message);
/** 403: the caller is signed in but this is not theirs to do. */
export const forbidden = (message: string) => new UserFacingError(403, message);
/** 404: the record named does not exist. */
export const notFound = (message: string) => new UserFacingError(404, message);
/** 409: the change clashes with what is stored; `field`, when given, is the input at fault. */
export const conflict = (message: string, field?: string) =>
  new UserFacingError(409, message, field === undefined ? undefined : { [field]: message });
/** 422: the request is well-formed but cannot be carried out. */
export const unprocessable = (message: string) => new UserFacingError(422, message);
/** 422: one input is well-formed but not acceptable, said of that field as a schema's refusal would be. */
export const invalidField = (field: string, message: string) => new UserFacingError(422, message, { [field]: message });
/** 429: the caller has done this too often for now. */
export const tooManyRequests = (message: string) => new UserFacingError(429, message);

/**
 * Runs `write` in a transaction; a unique violation there (a concurrent write took the same name first, after the
 * write's own checks) is a 409 with `clashMessage`.
 */
export async function transactionRefusingClashes<T>(db: Database, clashMessage: string, write: (tx: Executor) => Promise<T>): Promise<T> {
  try {
    return await db.transaction(write);
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(clashMessage);
    throw error;
  }
}

/**
 * 422 for inputs a schema or the input guard refused, each with its problem keyed by dotted path: the first field's
 * problem, named, is the message a user is shown.
 */
export function invalidFields(fields: Record<string, string>): UserFacingError {
  const [firstField, firstProblem] = Object.entries(fields)[0] ?? ['body', 'Invalid request'];
  return new UserFacingError(422, `${firstField}: ${firstProblem}`, fields);
}
