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
