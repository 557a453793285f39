import type { Executor } from '../db/client.ts';
import { analyticsEvents } from '../db/schema.ts';
import { type AnalyticsBatch, type ClientErrorReport, anonymisePath } from '../../src/contract/analytics.ts';

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

/** Keeps a client error report (SPEC §8 "Error boundary reports") as an analytics event named 'error'. */
export async function recordClientError(db: Executor, report: ClientErrorReport, userExternalId: string | null) {
  const { user_properties: userProperties, ...details } = report;
  await db.insert(analyticsEvents).values({
    name: CLIENT_ERROR_EVENT,
    userExternalId,
    properties: { ...details, path: anonymisePath(report.path), ...userProperties },
  });
}
