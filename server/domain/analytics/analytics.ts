import type { Executor } from '../../db/client.ts';
import { analyticsEvents } from '../../db/schema.ts';
import { type AnalyticsBatch, type ClientErrorReport, anonymisePath } from '../../../src/contract/analytics.ts';

/** The name under which client error reports are kept beside the analytics events. */
export const CLIENT_ERROR_EVENT = 'error';

/**
 * Stores a batch of client events. `userExternalId` is the signed-in user as the server knows them (never taken
 * from the client); page paths are anonymised again here so that an old or tampered client cannot store a token.
 */
export async function recordAnalyticsBatch(db: Executor, batch: AnalyticsBatch, userExternalId: string | null) {
  const rows = batch.events.map((event) => ({
    name: event.name,
    userExternalId,
    properties: {
      ...event.properties,
      ...(event.name === 'page_view' ? { path: anonymisePath(event.properties.path) } : {}),
      occurred_at: event.occurred_at,
      analytics_id: batch.analytics_id,
      ...batch.user_properties,
    },
  }));
  await db.insert(analyticsEvents).values(rows);
  return rows.length;
}

/** The most of a failed call's response body an error report keeps (as JSON text); the rest is cut off. */
export const MAX_STORED_RESPONSE_DATA = 4096;

/** A report's response body as stored: as sent when it is small, else the first MAX_STORED_RESPONSE_DATA characters. */
function storedResponseData(data: unknown): unknown {
  const text = JSON.stringify(data) ?? '';
  return text.length <= MAX_STORED_RESPONSE_DATA ? data : { truncated: true, preview: text.slice(0, MAX_STORED_RESPONSE_DATA) };
}

/** Keeps a client error report (SPEC §8 "Error boundary reports") as an analytics event named 'error'. */
export async function recordClientError(db: Executor, report: ClientErrorReport, userExternalId: string | null) {
  const { user_properties: userProperties, response, ...details } = report;
  await db.insert(analyticsEvents).values({
    name: CLIENT_ERROR_EVENT,
    userExternalId,
    properties: {
      ...details,
      ...(response ? { response: { ...response, data: storedResponseData(response.data) } } : {}),
      path: anonymisePath(report.path),
      ...userProperties,
    },
  });
}

/** What a client error report logs: enough to notice and find it in the table, none of the sender's long text. */
export function clientErrorSummary(report: ClientErrorReport) {
  return {
    name: report.name.slice(0, 100),
    message: report.message.slice(0, 200),
    feature: report.feature?.slice(0, 100),
    path: anonymisePath(report.path).slice(0, 200),
    status: report.response?.status,
  };
}

/**
 * Events one sender may store per hour, whatever the batch size and rate (a fixed window per sender, in this
 * process). A real user sends a page view per navigation: a few hundred a day.
 */
export const STORED_EVENTS_PER_HOUR = 1000;
const HOUR_MS = 60 * 60 * 1000;

/** Counts what each sender stored in the current hour; `take` grants what is left of `wanted`. */
export function createHourlyBudget(limit: number) {
  const used = new Map<string, { windowStart: number; count: number }>();
  return {
    take(sender: string, wanted: number, now = Date.now()): number {
      if (used.size > 10_000) for (const [key, entry] of used) if (now - entry.windowStart >= HOUR_MS) used.delete(key);
      let entry = used.get(sender);
      if (!entry || now - entry.windowStart >= HOUR_MS) {
        entry = { windowStart: now, count: 0 };
        used.set(sender, entry);
      }
      const granted = Math.max(0, Math.min(wanted, limit - entry.count));
      entry.count += granted;
      return granted;
    },
  };
}
