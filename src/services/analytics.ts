import type { AnalyticsBatch, AnalyticsEvent, AnalyticsProperties } from '../contract/analytics.ts';
import { type AnalyticsEventName, MAX_EVENTS_PER_BATCH } from '../contract/analytics.constants.ts';
import { anonymisePath } from '../contract/analytics.paths.ts';
import type { User } from '../contract/account.ts';
import { AUTHORIZATION_HEADER } from '../contract/common.constants.ts';
import { type AppConfig, readConfig } from './config.ts';
import { api } from './http.ts';
import { readSession } from './storage.ts';

export { anonymisePath };

/** Events wait this long for company before they are sent together. */
export const ANALYTICS_FLUSH_DELAY_MS = 5000;
/** A batch this large is sent at once. */
export const ANALYTICS_BATCH_SIZE = 20;

export type AnalyticsUser = Pick<User, 'external_id' | 'internal_user'>;

const queue: AnalyticsEvent[] = [];
let currentUser: AnalyticsUser | null = null;
let flushTimer: ReturnType<typeof setTimeout> | null = null;
let listensForPageHide = false;

function analyticsConfig(): AppConfig | null {
  try {
    const config = readConfig();
    return config.reportAnalytics ? config : null;
  } catch {
    // Without a configuration the app shows 'Missing environment variables' and tracks nothing.
    return null;
  }
}

/** Whatever is queued leaves before the page is hidden or closed (the request is keepalive, see flushAnalytics). */
function flushWhenPageHides() {
  if (listensForPageHide) return;
  listensForPageHide = true;
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') void flushAnalytics();
  });
  window.addEventListener('pagehide', () => void flushAnalytics());
}

/**
 * Tracks one SPEC §3 event, e.g. `track('ui_interaction', { element_type: 'button', element_id: 'explore_categories' })`.
 * Nothing is queued when VITE_REPORT_ANALYTICS is "false".
 */
export function track<N extends AnalyticsEventName>(name: N, properties: AnalyticsProperties<N>): void {
  if (!analyticsConfig()) return;
  flushWhenPageHides();
  queue.push({ name, properties, occurred_at: new Date().toISOString() } as AnalyticsEvent);
  if (queue.length >= ANALYTICS_BATCH_SIZE) {
    void flushAnalytics();
  } else {
    flushTimer ??= setTimeout(() => void flushAnalytics(), ANALYTICS_FLUSH_DELAY_MS);
  }
}

/** SPEC §2: a page view after each navigation, with tokens, request ids and file keys replaced by their names. */
export function trackPageView(pathname: string): void {
  track('page_view', { path: anonymisePath(pathname) });
}

/**
 * Who the following events belong to (null after sign-out or session loss). Events of the previous user are sent
 * first, with the credentials present now: call this BEFORE the stored session is cleared.
 */
export function setAnalyticsUser(user: AnalyticsUser | null): void {
  if (user?.external_id !== currentUser?.external_id) void flushAnalytics();
  currentUser = user ? { external_id: user.external_id, internal_user: user.internal_user } : null;
}

/**
 * Sends everything queued to POST /api/v1/analytics/events. The server attaches the signed-in user from the
 * Authorization header, which is why this is a keepalive fetch through the API client and not sendBeacon (which
 * cannot carry headers): like a beacon, a keepalive request outlives the page that sent it (once the client has
 * loaded: a page closed before its first call has loaded it may lose its last batch, DESIGN §9 weight budget).
 * A batch that cannot be sent is dropped with a warning; analytics never disturbs the user.
 */
export async function flushAnalytics(): Promise<void> {
  if (flushTimer !== null) {
    clearTimeout(flushTimer);
    flushTimer = null;
  }
  const config = analyticsConfig();
  if (!config || queue.length === 0) return;
  // The token is read now, while it still belongs to the user who produced these events.
  const { token } = readSession();
  const headers = token ? { [AUTHORIZATION_HEADER]: token } : undefined;
  const sends: Promise<unknown>[] = [];
  while (queue.length > 0) {
    const batch: AnalyticsBatch = {
      analytics_id: config.analyticsId,
      ...(currentUser ? { user_properties: { internal_user: currentUser.internal_user } } : {}),
      events: queue.splice(0, MAX_EVENTS_PER_BATCH),
    };
    sends.push(
      api()
        .then((client) => client.post('analytics/events', { json: batch, headers, keepalive: true }).text())
        // Read to the end (text): Chromium holds a keepalive request against the page's 64 KB budget until then.
        .catch((error: unknown) => console.warn('Analytics events could not be sent', error)),
    );
  }
  await Promise.all(sends);
}

