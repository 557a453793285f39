import ky, { HTTPError, type KyInstance } from 'ky';
import type * as z from 'zod/mini';
import { AUTHORIZATION_HEADER, MFA_REQUIRED_ERROR, MFA_TOKEN_HEADER, errorBody } from '../contract/common.ts';
import { readConfig } from './config.ts';
import { readSession } from './storage.ts';

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

/** The message of a failed call: the server's error, else the given fallback (SPEC §8 "Wrapped errors"). */
export function serverMessage(error: unknown, fallback = 'An unexpected error occurred'): string {
  if (error instanceof HTTPError) {
    const parsed = errorBody.safeParse(error.data);
    if (parsed.success) return parsed.data.error;
  }
  return fallback;
}

export function statusOf(error: unknown): number | null {
  return error instanceof HTTPError ? error.response.status : null;
}

function createApi(): KyInstance {
  return ky.create({
    prefix: `${readConfig().apiBaseUrl}/api/v1`,
    timeout: false,
    retry: 0,
    headers: { accept: 'application/json' },
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
          if (response.status !== 401) return;
          const path = new URL(request.url).pathname;
          if (OWN_401_PATHS.some((own) => path.endsWith(own))) return;
          const body = errorBody.safeParse(await response.clone().json().catch(() => null));
          const failure: AuthFailure = body.success && body.data.error === MFA_REQUIRED_ERROR ? 'mfaRequired' : 'sessionLost';
          for (const listener of authFailureListeners) listener(failure);
        },
      ],
    },
  });
}

let instance: KyInstance | null = null;
/** The app's one HTTP client (created on first use so that configuration errors surface at start-up). */
export function api(): KyInstance {
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
