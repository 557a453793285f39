/**
 * Failed calls as the app's services see them (src/services/http.ts error policy), for tests that hand a failure to a
 * machine or to error reporting, or that describe with it the answer the fake server sends back (network.support.ts
 * errorAnswer): ky's own HTTPError and NetworkError.
 */
import { HTTPError, type NormalizedOptions, NetworkError } from 'ky';

const API_CALL = 'http://localhost:3000/api/v1/';

/**
 * The server answered outside 2xx: ky's HTTPError with the body already read into `data` (as ky reads it: parsed
 * JSON, else the text). ky builds it with the call's options, which no reader of a failure looks at.
 */
export function httpError(status: number, data?: unknown, statusText = ''): HTTPError {
  const error = new HTTPError(new Response(null, { status, statusText }), new Request(API_CALL), {} as NormalizedOptions);
  error.data = data;
  return error;
}

/** The server's `{ error, fields? }` refusal (SPEC §8), as ky's HTTPError. */
export function serverRefusal(status: number, message: string, fields?: Record<string, string>): HTTPError {
  return httpError(status, { error: message, ...(fields ? { fields } : {}) });
}

/** No answer at all: ky's NetworkError. */
export function networkError(): NetworkError {
  return new NetworkError(new Request(API_CALL), { cause: new TypeError('Failed to fetch') });
}
