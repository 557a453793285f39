import { type Database, type Executor, isUniqueViolation } from '../../db/client.ts';

/**
 * A refusal the user caused and may be told about, with the SPEC wording. The app's error handler answers
 * `statusCode` with `{ error: message }`, so domain code can refuse without knowing about replies.
 */
export class UserFacingError extends Error {
  readonly statusCode: 401 | 404 | 409 | 422 | 429;
  /** The inputs at fault, each with its problem, keyed by dotted path (`fields` of the contract's errorBody). */
  readonly fields: Record<string, string> | undefined;

  constructor(statusCode: 401 | 404 | 409 | 422 | 429, message: string, fields?: Record<string, string>) {
    super(message);
    this.name = 'UserFacingError';
    this.statusCode = statusCode;
    this.fields = fields;
  }
}

/** 401: the credentials, token or code given are not accepted. */
export const unauthorized = (message: string) => new UserFacingError(401, message);
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
 * The 422 body for invalid fields (`errorBody` of the contract): the first field's problem as the message a user is
 * shown, and every field's problem keyed by its dotted path.
 */
export function invalidFieldsBody(fields: Record<string, string>) {
  const [firstField, firstProblem] = Object.entries(fields)[0] ?? ['body', 'Invalid request'];
  return { error: `${firstField}: ${firstProblem}`, fields };
}
