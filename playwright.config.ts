import { defineConfig } from '@playwright/test';
import {
  BROWSER_SENTRY_DSN,
  E2E_PORT as PORT,
  MONITORING_PORT,
  S3_STORAGE_PORT,
  SERVER_SENTRY_DSN,
  SERVICE_STORY_CLOCK_START,
  SERVICE_STORY_PORT,
} from './tests/e2e/ports.ts';

/** Debian's Chromium, never a downloaded browser (see README "Requirements"). */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export default defineConfig({
  testDir: 'tests/e2e',
  workers: 1,
  // One retry on CI, as Playwright's own template does: a story that passes only on its retry is reported as flaky
  // in the log, not hidden; one that fails twice fails the run.
  retries: process.env.CI ? 1 : 0,
  fullyParallel: false,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? 'line' : 'list',
  // The servers check every API answer against the OpenAPI document; a body it does not allow fails the run.
  globalSetup: './tests/e2e/openapiCheck.setup.ts',
  globalTeardown: './tests/e2e/openapiCheck.teardown.ts',
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    browserName: 'chromium',
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS },
    trace: 'retain-on-failure',
  },
  webServer: [
    {
      command: 'node tests/e2e/start-server.ts',
      url: `http://127.0.0.1:${PORT}/version.json`,
      env: { E2E_PORT: String(PORT) },
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      command: 'node tests/e2e/start-server.ts',
      url: `http://127.0.0.1:${MONITORING_PORT}/version.json`,
      env: { E2E_PORT: String(MONITORING_PORT), E2E_BROWSER_SENTRY_DSN: BROWSER_SENTRY_DSN, E2E_SERVER_SENTRY_DSN: SERVER_SENTRY_DSN },
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      command: 'node tests/e2e/start-server.ts',
      url: `http://127.0.0.1:${S3_STORAGE_PORT}/version.json`,
      env: { E2E_PORT: String(S3_STORAGE_PORT), E2E_STORAGE: 's3' },
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      command: 'node tests/e2e/start-server.ts',
      url: `http://127.0.0.1:${SERVICE_STORY_PORT}/version.json`,
      env: { E2E_PORT: String(SERVICE_STORY_PORT), E2E_MANUAL_CLOCK_START: SERVICE_STORY_CLOCK_START },
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
  ],
});
