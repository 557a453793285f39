/** SPEC §3 "Locally persisted": token, tokenExpiresAt, mfaToken in local storage; returnTo in session storage. */
export const SESSION_STORAGE_KEYS = { token: 'token', tokenExpiresAt: 'tokenExpiresAt', mfaToken: 'mfaToken' } as const;
const RETURN_TO = 'returnTo';

export interface StoredSession {
  token: string | null;
  tokenExpiresAt: string | null;
  mfaToken: string | null;
}

export function readSession(): StoredSession {
  return {
    token: localStorage.getItem(SESSION_STORAGE_KEYS.token),
    tokenExpiresAt: localStorage.getItem(SESSION_STORAGE_KEYS.tokenExpiresAt),
    mfaToken: localStorage.getItem(SESSION_STORAGE_KEYS.mfaToken),
  };
}

export function writeToken(token: string, expiresAt: string) {
  localStorage.setItem(SESSION_STORAGE_KEYS.token, token);
  localStorage.setItem(SESSION_STORAGE_KEYS.tokenExpiresAt, expiresAt);
}

export function writeMfaToken(mfaToken: string) {
  localStorage.setItem(SESSION_STORAGE_KEYS.mfaToken, mfaToken);
}

/** Session loss and sign-out clear everything the app keeps locally. */
export function clearSession() {
  localStorage.clear();
}

/** SPEC §4: a session is valid only if a token exists and its expiry is in the future. */
export function hasValidSession(stored: StoredSession = readSession(), now = Date.now()): boolean {
  if (!stored.token || !stored.tokenExpiresAt) return false;
  const expiresAt = Date.parse(stored.tokenExpiresAt);
  return Number.isFinite(expiresAt) && expiresAt > now;
}

export function rememberReturnTo(target: string) {
  sessionStorage.setItem(RETURN_TO, target);
}

/** Reads and clears the stored target. */
export function takeReturnTo(): string | null {
  const target = sessionStorage.getItem(RETURN_TO);
  sessionStorage.removeItem(RETURN_TO);
  return target;
}
