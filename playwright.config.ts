import { defineConfig } from '@playwright/test';
import { BROWSER_SENTRY_DSN, E2E_PORT as PORT, MONITORING_PORT, S3_STORAGE_PORT, SERVER_SENTRY_DSN } from './tests/e2e/ports.ts';

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
  fullyParallel: false,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? 'line' : 'list',
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
  ],
});
