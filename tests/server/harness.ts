import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { type AppOptions, buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { type DatabaseHandle, openDatabase } from '../../server/db/client.ts';
import { startLocalS3 } from '../localS3.ts';
import { createScratchDatabase } from './scratchDatabase.ts';

/** `server-postgres` runs the same files with TEST_DB_ENGINE=postgres against TEST_DATABASE_URL. */
export const testEngine = process.env.TEST_DB_ENGINE === 'postgres' ? 'postgres' : 'pglite';
/** `server-s3` runs the upload suites with TEST_STORAGE=s3, each context with a local S3-protocol server of its own. */
export const testStorage = process.env.TEST_STORAGE === 's3' ? 's3' : 'disk';
const APP_URL = 'http://localhost:3000';

async function openTestDatabase(): Promise<{ database: DatabaseHandle; drop: () => Promise<void> }> {
  if (testEngine === 'pglite') {
    return { database: await openDatabase({}), drop: async () => {} };
  }
  const baseUrl = process.env.TEST_DATABASE_URL;
  if (!baseUrl) throw new Error('TEST_DB_ENGINE=postgres needs TEST_DATABASE_URL');
  const scratch = await createScratchDatabase(baseUrl, 'lc_test');
  return { database: await openDatabase({ url: scratch.url }), drop: scratch.drop };
}

/**
 * A real app on a fresh, migrated database (in-memory PGlite, or a throw-away PostgreSQL database).
 * `env` overrides configuration variables, e.g. { AUTH_RATE_LIMIT: '3' }.
 */
export async function createTestContext(
  env: Record<string, string> = {},
  { onRoute, logStream, sso, clock }: Pick<AppOptions, 'onRoute' | 'logStream' | 'sso' | 'clock'> = {},
) {
  const dataDir = mkdtempSync(join(tmpdir(), 'lc-test-'));
  const s3 = testStorage === 's3' ? await startLocalS3(APP_URL) : null;
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    OPENAPI_RESPONSE_CHECK: 'server',
    STATIC_DIR: join(dataDir, 'no-static'),
    DATA_DIR: dataDir,
    APP_URL,
    ...s3?.env,
    ...env,
  });
  const { database, drop } = await openTestDatabase();
  const app = await buildApp({ config, database, onRoute, logStream, sso, clock });
  await app.ready();
  return {
    app,
    db: database.db,
    database,
    config,
    async close() {
      await app.close();
      await database.close();
      await drop();
      await s3?.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type TestContext = Awaited<ReturnType<typeof createTestContext>>;

/**
 * The enclosing suite's context: created before its first test (then `prepare` runs), closed after its last.
 * The returned object is filled in by the beforeAll hook, so tests read it as they would the context itself.
 */
export function suiteContext(
  env: Record<string, string> = {},
  prepare?: (context: TestContext) => Promise<unknown>,
): TestContext {
  const context = {} as TestContext;
  beforeAll(async () => {
    Object.assign(context, await createTestContext(env));
    await prepare?.(context);
  });
  afterAll(async () => {
    await context.close();
  });
  return context;
}
