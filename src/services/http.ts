import type * as z from 'zod/mini';
import {
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
 * The app's HTTP client: a thin typed layer over fetch (DESIGN §9 weight budget). Paths are relative to
 * `${apiBaseUrl}/api/v1/`; every call asks for JSON, carries the session's headers, has no timeout and is never
 * retried; an answer outside 2xx throws an HTTPError; 401s are reported to the session actor.
 */

export type AuthFailure = 'mfaRequired' | 'sessionLost';
type AuthFailureListener = (failure: AuthFailure) => void;
const authFailureListeners = new Set<AuthFailureListener>();

/** The session actor subscribes here; SPEC §4 "Session loss" and "MFA flags". Returns the unsubscribe. */
export function onAuthFailure(listener: AuthFailureListener): () => void {
  authFailureListeners.add(listener);
  return () => authFailureListeners.delete(listener);
}

/** Calls whose 401 means "wrong credentials or code", not "session lost". */
const OWN_401_PATHS = ['/users/sign_in', '/users/sign_up', '/mfa/verify', '/users/password'];

/** A call that was answered outside 2xx. */
export class HTTPError extends Error {
  name = 'HTTPError';
  readonly response: Response;
  readonly request: Request;
  /** The answer's body, already read: parsed when it is JSON, else its text; undefined when empty or unreadable. */
  readonly data: unknown;

  constructor(response: Response, request: Request, data?: unknown) {
    const status = `${response.status} ${response.statusText}`.trim();
    super(`Request failed with status code ${status}: ${request.method} ${request.url}`);
    this.response = response;
    this.request = request;
    this.data = data;
  }
}

/** The message of a failed call: the server's error or message, else the given fallback (SPEC §8 "Wrapped errors"). */
export function serverMessage(error: unknown, fallback = 'An unexpected error occurred'): string {
  return (error instanceof HTTPError ? serverText(error.data) : null) ?? fallback;
}

export function statusOf(error: unknown): number | null {
  return error instanceof HTTPError ? error.response.status : null;
}

/** A call's options: a JSON body, query parameters (undefined ones left out), and any other fetch option. */
export interface CallOptions extends Omit<RequestInit, 'method' | 'body'> {
  json?: unknown;
  searchParams?: Record<string, string | number | boolean | undefined>;
}

/** Awaited, the answer (2xx only); `.json()` is its parsed body. */
export interface ResponsePromise extends Promise<Response> {
  json(): Promise<unknown>;
  /** The answer read to the end, as text: also how a keepalive call releases its share of the budget. */
  text(): Promise<string>;
}

export interface ApiClient {
  get(path: string, options?: CallOptions): ResponsePromise;
  post(path: string, options?: CallOptions): ResponsePromise;
  put(path: string, options?: CallOptions): ResponsePromise;
  patch(path: string, options?: CallOptions): ResponsePromise;
  delete(path: string, options?: CallOptions): ResponsePromise;
}

/** Matches JSON media types: application/json, application/problem+json, application/vnd.api+json. */
const JSON_MEDIA_TYPE = /\/(?:.*[.+-])?json$/;

async function readErrorData(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => '');
  if (!text) return undefined;
  const mediaType = (response.headers.get('content-type') ?? '').split(';', 1)[0].trim().toLowerCase();
  if (!JSON_MEDIA_TYPE.test(mediaType)) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** SPEC §4: a 401 on any call but the app's own credential checks means the session is gone or needs MFA. */
async function reportAuthFailure(request: Request, response: Response): Promise<void> {
  const path = new URL(request.url).pathname;
  if (OWN_401_PATHS.some((own) => path.endsWith(own))) return;
  const message = errorBodyMessage(await response.clone().json().catch(() => null));
  const failure: AuthFailure = message === MFA_REQUIRED_ERROR ? 'mfaRequired' : 'sessionLost';
  for (const listener of authFailureListeners) listener(failure);
}

function buildRequest(apiRoot: string, method: string, path: string, options: CallOptions): Request {
  const { json, searchParams, headers, ...init } = options;
  const url = new URL(`${apiRoot}/${path.replace(/^\/+/, '')}`);
  for (const [name, value] of Object.entries(searchParams ?? {})) {
    if (value !== undefined) url.searchParams.append(name, String(value));
  }
  const requestHeaders = new Headers({ accept: 'application/json' });
  new Headers(headers).forEach((value, name) => requestHeaders.set(name, value));
  if (json !== undefined && !requestHeaders.has('content-type')) requestHeaders.set('content-type', 'application/json');
  const { token, mfaToken } = readSession();
  if (token) requestHeaders.set(AUTHORIZATION_HEADER, token);
  if (mfaToken) requestHeaders.set(MFA_TOKEN_HEADER, mfaToken);
  return new Request(url, {
    ...init,
    method,
    headers: requestHeaders,
    body: json === undefined ? undefined : JSON.stringify(json),
  });
}

function createApi(): ApiClient {
  const apiRoot = `${readConfig().apiBaseUrl}/api/v1`;
  const call = (method: string) => (path: string, options: CallOptions = {}): ResponsePromise => {
    const answer = (async () => {
      const request = buildRequest(apiRoot, method, path, options);
      const response = await (takeEarlyAnswer(request) ?? fetch(request));
      if (response.status === 401) await reportAuthFailure(request, response);
      if (!response.ok) throw new HTTPError(response, request, await readErrorData(response));
      return response;
    })();
    return Object.assign(answer, {
      json: async (): Promise<unknown> => (await answer).json(),
      text: async (): Promise<string> => (await answer).text(),
    });
  };
  return { get: call('GET'), post: call('POST'), put: call('PUT'), patch: call('PATCH'), delete: call('DELETE') };
}

let instance: ApiClient | null = null;
/** The app's one HTTP client (created on first use so that configuration errors surface at start-up). */
export function api(): ApiClient {
  instance ??= createApi();
  return instance;
}

/** GET/POST helpers that parse the answer with a contract schema. */
export async function getJson<S extends z.ZodMiniType>(path: string, schema: S): Promise<z.infer<S>> {
  return schema.parse(await api().get(path).json());
}

export async function sendJson<S extends z.ZodMiniType>(
  method: 'post' | 'put' | 'delete',
  path: string,
  body: unknown,
  schema: S,
): Promise<z.infer<S>> {
  return schema.parse(await api()[method](path, body === undefined ? {} : { json: body }).json());
}
