// Where the end-to-end suite's servers listen; E2E_PORT moves them all, for suites run side by side.
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);
/** A second server, built with a Sentry DSN that names a stand-in for Sentry (tests/e2e/sentryCollector.ts). */
export const MONITORING_PORT = E2E_PORT + 1;
export const SENTRY_COLLECTOR_PORT = E2E_PORT + 2;
/** The browser's and the server's Sentry projects, both at the stand-in. */
export const BROWSER_SENTRY_DSN = `http://browserkey@127.0.0.1:${SENTRY_COLLECTOR_PORT}/1`;
export const SERVER_SENTRY_DSN = `http://serverkey@127.0.0.1:${SENTRY_COLLECTOR_PORT}/2`;
/** A third server with STORAGE=s3, beside a local S3-protocol server of its own on a free port (tests/localS3.ts). */
export const S3_STORAGE_PORT = E2E_PORT + 3;
/** A fourth server whose turnaround clock stands still until the service story moves it (serviceStory.spec.ts). */
export const SERVICE_STORY_PORT = E2E_PORT + 4;
/** Where that server's clock starts; the story moves it through the loopback-only POST /api/dev/clock. */
export const SERVICE_STORY_CLOCK_START = lastWeekdayMorning(new Date());

/**
 * 09:00 UTC on the last Monday to Friday before today: inside Paris's working hours in winter and summer (10:00 or
 * 11:00), recent enough for the Reports screen's default 30 days and the 14 days a rating may be changed.
 */
function lastWeekdayMorning(today: Date): string {
  const day = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate(), 9));
  do day.setUTCDate(day.getUTCDate() - 1);
  while (day.getUTCDay() === 0 || day.getUTCDay() === 6);
  return day.toISOString();
}
