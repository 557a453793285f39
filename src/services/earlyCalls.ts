import { AUTHORIZATION_HEADER, MFA_TOKEN_HEADER } from '../contract/common.constants.ts';
import { SESSION_STORAGE_KEYS } from './storage.ts';

/**
 * Issue 10: what the script at the top of every page does before the app's code arrives (pageHeadScript).
 *
 * The session check's call, GET users/current, made by a few lines at the top of the page as its HTML
 * arrives, rather than once the app's code has downloaded and started: on a phone's link that takes a round trip and
 * the server's answer off every signed-in page's first paint. The app's HTTP client adopts the answer when its own
 * first call is that very call with the same headers (takeEarlyAnswer); otherwise the answer is dropped and the app
 * calls as it always does. Only for an API on the page's own origin (VITE_API_BASE_URL a path): the early call goes
 * nowhere the app would not.
 */

/** Where the page keeps its early calls for the app, by address. */
const EARLY_CALLS = 'lcEarlyCalls';

interface EarlyCall {
  headers: Record<string, string>;
  answer: Promise<Response>;
}
type EarlyCalls = Record<string, EarlyCall>;
type PageGlobals = Record<string, EarlyCalls | undefined>;

export interface EarlyCallSetup {
  /** The API's base as configured: a path on the page's origin, e.g. "/". */
  apiBasePath: string;
  /** The call, below the API's base. */
  path: string;
  storageKeys: { token: string; mfaToken: string };
  headers: { authorization: string; mfaToken: string };
  globalName: string;
}

/**
 * Runs in the page's head, written into it at build time from its source text (vite.config.ts): it may refer to
 * nothing outside itself. The headers are the ones the HTTP client sends (http.ts: Accept, and the session's from
 * its beforeRequest hook). A token that has expired is sent all the same: the app, seeing it expired, never adopts
 * the answer.
 */
export function startEarlyCalls({ apiBasePath, path, storageKeys, headers: names, globalName }: EarlyCallSetup): void {
  try {
    const token = localStorage.getItem(storageKeys.token);
    if (!token) return;
    const headers: Record<string, string> = { accept: 'application/json', [names.authorization]: token };
    const mfaToken = localStorage.getItem(storageKeys.mfaToken);
    if (mfaToken) headers[names.mfaToken] = mfaToken;
    const base = new URL(apiBasePath, location.origin).href.replace(/\/?$/, '/');
    const url = new URL(path, base).href;
    const answer = fetch(url, { headers });
    // Not adopted, its failure is nobody's concern; adopted, the app sees it as its own.
    answer.catch(() => undefined);
    (window as unknown as PageGlobals)[globalName] = { [url]: { headers, answer } };
  } catch {
    // Storage refused (some private modes): the app makes the call itself.
  }
}

/** The setup of this app's early calls; null when its API is on another origin. */
export function earlyCallSetup(apiBaseSetting: string): EarlyCallSetup | null {
  if (!apiBaseSetting.startsWith('/') || apiBaseSetting.startsWith('//')) return null;
  return {
    apiBasePath: apiBaseSetting,
    path: 'api/v1/users/current',
    storageKeys: { token: SESSION_STORAGE_KEYS.token, mfaToken: SESSION_STORAGE_KEYS.mfaToken },
    headers: { authorization: AUTHORIZATION_HEADER, mfaToken: MFA_TOKEN_HEADER },
    globalName: EARLY_CALLS,
  };
}

/**
 * The browser's internationalisation data (ICU) loads on its first use, which react-aria makes as its modules load:
 * a long step of the app's start on a phone. Made here in a task of its own once the head has run, it falls while the
 * app's code is still downloading and the main thread has nothing else to do. Runs in the page as written into it (no outer names).
 */
export function warmUpIntl(): void {
  const warmUp = () => {
    try {
      Intl.DateTimeFormat.supportedLocalesOf([navigator.language]);
    } catch {
      // An unusual locale string: react-aria falls back to en-US, and so does nothing here.
    }
  };
  setTimeout(warmUp, 0);
}

/** The script at the top of every page: the functions' own text, called (the early calls only with a setup). */
export function pageHeadScript(setup: EarlyCallSetup | null): string {
  const earlyCalls = setup ? `(${startEarlyCalls.toString()})(${JSON.stringify(setup)});` : '';
  return `${earlyCalls}(${warmUpIntl.toString()})();`;
}

function sameHeaders(actual: Headers, expected: Headers): boolean {
  const entries = [...actual];
  return entries.length === [...expected].length && entries.every(([name, value]) => expected.get(name) === value);
}

/**
 * The page's answer to `request`, when it is the app's first call and the page made the same one; null otherwise.
 * Whatever the first call is, the page's calls are then forgotten: a later call must not get an answer from page load.
 */
export function takeEarlyAnswer(request: Request): Promise<Response> | null {
  const globals = window as unknown as PageGlobals;
  const calls = globals[EARLY_CALLS];
  if (!calls) return null;
  delete globals[EARLY_CALLS];
  const call = Object.hasOwn(calls, request.url) ? calls[request.url] : undefined;
  if (!call || request.method !== 'GET' || !sameHeaders(request.headers, new Headers(call.headers))) return null;
  return call.answer;
}
