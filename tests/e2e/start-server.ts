// Starts the real server on a fresh PGlite data folder for the end-to-end suite (the built app is in dist/).
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dataDir = mkdtempSync(join(tmpdir(), 'lc-e2e-'));
const port = process.env.E2E_PORT ?? '3100';
const server = spawn(process.execPath, ['server/main.ts'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    NODE_ENV: 'test',
    PORT: port,
    HOST: '127.0.0.1',
    APP_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    // Engineers running suites side by side build into their own folders (vite build --outDir).
    STATIC_DIR: process.env.E2E_STATIC_DIR ?? './dist',
    LOG_LEVEL: 'warn',
    AUTH_RATE_LIMIT: '200',
  },
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
