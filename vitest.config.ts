import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const serverProject = (name: string, env: Record<string, string>, include = ['tests/server/**/*.test.ts']) => ({
  test: {
    name,
    environment: 'node',
    include,
    env,
    globalSetup: ['tests/server/openapiCoverage.setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig({
  plugins: [react()],
  test: {
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'jsdom',
          include: ['tests/unit/**/*.test.{ts,tsx}', 'tests/machines/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/unit/setup.ts'],
          testTimeout: 20_000,
        },
      },
      serverProject('server', { TEST_DB_ENGINE: 'pglite' }),
      // The same server suite on PostgreSQL, whenever a test server is configured.
      ...(process.env.TEST_DATABASE_URL ? [serverProject('server-postgres', { TEST_DB_ENGINE: 'postgres' })] : []),
      // The upload suites once more with STORAGE=s3, against a local S3-protocol server (tests/localS3.ts).
      serverProject('server-s3', { TEST_DB_ENGINE: 'pglite', TEST_STORAGE: 's3' }, ['tests/server/uploads*.test.ts']),
    ],
  },
});
