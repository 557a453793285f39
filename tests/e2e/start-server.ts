// Starts the real server on a fresh PGlite data folder for the end-to-end suite (the built app is in dist/).
// With E2E_BROWSER_SENTRY_DSN it first builds the app into a folder of its own with that DSN and error reporting on,
// and the server gets E2E_SERVER_SENTRY_DSN: the monitoring journey's server. With E2E_STORAGE=s3 it keeps files in a
// bucket of a local S3-protocol server that it starts first, whose CORS rule allows this server's origin. With
// E2E_MANUAL_CLOCK_START its turnaround clock starts there and moves only through /api/dev/clock (the service story).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalS3 } from '../localS3.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'lc-e2e-'));
const port = process.env.E2E_PORT ?? '3100';
const browserSentryDsn = process.env.E2E_BROWSER_SENTRY_DSN;
// Engineers running suites side by side build into their own folders (node scripts/build.ts --outDir).
let staticDir = process.env.E2E_STATIC_DIR ?? './dist';
if (browserSentryDsn) {
  staticDir = mkdtempSync(join(tmpdir(), 'lc-e2e-monitored-app-'));
  execFileSync(process.execPath, ['scripts/build.ts', '--mode', 'e2e', '--outDir', staticDir], {
    stdio: 'inherit',
    env: { ...process.env, VITE_SENTRY_DSN: browserSentryDsn, VITE_REPORT_ERRORS: 'true' },
  });
}
const appUrl = `http://127.0.0.1:${port}`;
const s3 = process.env.E2E_STORAGE === 's3' ? await startLocalS3(appUrl) : null;
const server = spawn(process.execPath, ['server/main.ts'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    NODE_ENV: 'test',
    PORT: port,
    HOST: '127.0.0.1',
    APP_URL: appUrl,
    DATA_DIR: dataDir,
    STATIC_DIR: staticDir,
    LOG_LEVEL: 'warn',
    AUTH_RATE_LIMIT: '200',
    OPENAPI_RESPONSE_CHECK: 'e2e',
    // An unread reply is e-mailed after seconds rather than minutes, so that the unread story sees both outcomes.
    REPLY_EMAIL_DELAY_MS: '10000',
    ...(browserSentryDsn ? { VITE_SENTRY_DSN: browserSentryDsn, SENTRY_DSN: process.env.E2E_SERVER_SENTRY_DSN } : {}),
    ...s3?.env,
    ...(process.env.E2E_MANUAL_CLOCK_START ? { MANUAL_CLOCK_START: process.env.E2E_MANUAL_CLOCK_START } : {}),
  },
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => void (s3?.close() ?? Promise.resolve()).finally(() => process.exit(code ?? 0)));
