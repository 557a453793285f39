import type { HTTPError, KyInstance, NetworkError } from 'ky';
import {
  ACCESS_TURNED_OFF_ERROR,
  AUTHORIZATION_HEADER,
  MFA_REQUIRED_ERROR,
  MFA_TOKEN_HEADER,
  errorBodyMessage,
  serverText,
} from '../contract/common.constants.ts';
import { readConfig } from './config.ts';
import { takeEarlyAnswer } from './earlyCalls.ts';
import { readSession } from './storage.ts';

/**
 * The app's HTTP client is ky, loaded with the first call rather than with the page (DESIGN §2, §9 weight budget;
 * signed-in pages preload it with the home screen's chunk, vite.config.ts). Paths are relative to
 * `${apiBaseUrl}/api/v1/`; every call asks for JSON, carries the session's headers, has no timeout and is never
 * retried; 401s are reported to the session actor.
 *
 * One error policy for every service. A call fails with
 * - ky's HTTPError: the server answered outside 2xx; `data` is the answer's body (parsed JSON, else its text);
 * - ky's NetworkError: no answer at all (offline, DNS, CORS refusal, connection reset);
 * - an UnsuccessfulAnswer: a 2xx answer that still tells of a failure (SPEC §7 `success: false`);
 * - ky's SchemaValidationError (or the contract schema's own error): an answer outside the contract;
 * - an AbortError (DOMException) when the caller aborted it.
 * Services let these through, and flows read them with serverMessage and statusOf. File transfers (uploads.ts) fail
 * the same way; only the account service words its failures itself (AccountError: SPEC §8 gives each account step
 * its own messages).
 */

/**
 * ky's errors are told by name, as ky's own guards (isHTTPError, isNetworkError) also do: importing those would
 * bring the whole of ky with the page.
 */
export function isHTTPError(error: unknown): error is HTTPError {
  return error instanceof Error && error.name === 'HTTPError';
}

export function isNetworkError(error: unknown): error is NetworkError {
  return error instanceof Error && error.name === 'NetworkError';
}

/** The DOMException of an aborted call, told by name: DOMException is not the same class in every realm. */
export function isAbortError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'name' in error && error.name === 'AbortError';
}

/** A 2xx answer that still tells of a failure: `success: false` (SPEC §7), or not the status the call expects. */
export class UnsuccessfulAnswer extends Error {
  /** The answer's body, parsed. */
  readonly data: unknown;

  constructor(data: unknown) {
    super('The server answered without success');
    this.name = 'UnsuccessfulAnswer';
    this.data = data;
  }
}

/** SPEC §7: an answer that says `success: false` (or says nothing of success) fails the call, whatever its status. */
export function requireSuccess<T>(answer: T): T {
  const succeeded = typeof answer === 'object' && answer !== null && 'success' in answer && answer.success === true;
  if (!succeeded) throw new UnsuccessfulAnswer(answer);
  return answer;
}

/** The message of a failed call: the server's error or message, else the given fallback (SPEC §8 "Wrapped errors"). */
export function serverMessage(error: unknown, fallback = 'An unexpected error occurred'): string {
  const answered = isHTTPError(error) || error instanceof UnsuccessfulAnswer;
  return (answered ? serverText(error.data) : null) ?? fallback;
}

/** What a call without any answer tells the user (offline, the connection dropped). */
export const NO_CONNECTION = 'We could not reach the server. Check your connection and try again.';

/**
 * A refusal in words for a person: the problem a 422 names for its first field, without the field's path (the
 * answer's `error` reads 'message.body: …'), else the server's message, else the fallback; no connection says so.
 */
export function refusalInWords(error: unknown, fallback = 'An unexpected error occurred'): string {
  if (isNetworkError(error)) return NO_CONNECTION;
  const data: unknown = isHTTPError(error) || error instanceof UnsuccessfulAnswer ? error.data : null;
  const fields = typeof data === 'object' && data !== null && 'fields' in data ? data.fields : null;
  const firstProblem = typeof fields === 'object' && fields !== null ? Object.values(fields)[0] : undefined;
  return typeof firstProblem === 'string' && firstProblem !== '' ? firstProblem : serverMessage(error, fallback);
}

/** The status of an answer outside 2xx; null when the call failed otherwise (no answer, an unsuccessful 2xx...). */
export function statusOf(error: unknown): number | null {
  return isHTTPError(error) ? error.response.status : null;
}

/** `accessTurnedOff`: the employer's directory turned the employee off (SCIM); the app signs out and says so. */
export type AuthFailure = 'mfaRequired' | 'sessionLost' | 'accessTurnedOff';
type AuthFailureListener = (failure: AuthFailure) => void;
const authFailureListeners = new Set<AuthFailureListener>();

/** The session actor subscribes here; SPEC §4 "Session loss" and "MFA flags". Returns the unsubscribe. */
export function onAuthFailure(listener: AuthFailureListener): () => void {
  authFailureListeners.add(listener);
  return () => authFailureListeners.delete(listener);
}

/** Calls whose 401 means "wrong credentials or code", not "session lost". */
const OWN_401_PATHS = ['/users/sign_in', '/users/sign_up', '/mfa/verify', '/users/password'];

/** SPEC §4: a 401 on any call but the app's own credential checks means the session is gone or needs MFA. */
async function reportAuthFailure(request: Request, response: Response): Promise<void> {
  const path = new URL(request.url).pathname;
  if (OWN_401_PATHS.some((own) => path.endsWith(own))) return;
  const message = errorBodyMessage(await response.json().catch(() => null));
  const failure: AuthFailure =
    message === MFA_REQUIRED_ERROR ? 'mfaRequired' : message === ACCESS_TURNED_OFF_ERROR ? 'accessTurnedOff' : 'sessionLost';
  for (const listener of authFailureListeners) listener(failure);
}

async function createClient(apiBaseUrl: string): Promise<KyInstance> {
  const { default: ky } = await import('ky');
  return ky.create({
    prefix: `${apiBaseUrl}/api/v1/`,
    retry: 0,
    timeout: false,
    headers: { accept: 'application/json' },
    // The page itself may have made this very call as it arrived (earlyCalls.ts): its answer is taken then.
    fetch: (request, init) => (request instanceof Request ? takeEarlyAnswer(request) : null) ?? fetch(request, init),
    hooks: {
      beforeRequest: [
        ({ request }) => {
          const { token, mfaToken } = readSession();
          if (token) request.headers.set(AUTHORIZATION_HEADER, token);
          if (mfaToken) request.headers.set(MFA_TOKEN_HEADER, mfaToken);
        },
      ],
      afterResponse: [
        async ({ request, response }) => {
          if (response.status === 401) await reportAuthFailure(request, response);
        },
      ],
    },
  });
}

let client: Promise<KyInstance> | null = null;
/**
 * The app's one HTTP client (created on first use so that configuration errors surface at start-up). When ky could
 * not be loaded (offline, say), the call fails and the next one loads it again.
 */
export function api(): Promise<KyInstance> {
  client ??= createClient(readConfig().apiBaseUrl).catch((error: unknown) => {
    client = null;
    throw error;
  });
  return client;
}
