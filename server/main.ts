import { ConfigError, hasDemoMode, loadConfig } from './config.ts';
import { buildApp } from './app.ts';
import { openDatabase } from './db/client.ts';
import { demoAccountsOpenWith, listDemoAccounts, seedDemoAccounts } from './db/seed/demoAccounts.ts';
import { seedOfferingCatalogue } from './db/seed/offeringCatalogue.ts';
import { seedSurveyCatalogue } from './db/seed/surveyCatalogue.ts';
import { createMailTransport } from './adapters/mail.ts';
import { createSmsTransport } from './adapters/sms.ts';
import { startOutboxWorker } from './domain/shared/outbox.ts';
import { startServerMonitoring } from './monitoring.ts';

async function main() {
  const config = loadConfig();
  if (config.STORAGE === 's3') {
    const { checkBucketAnswers } = await import('./adapters/storage/s3.ts');
    await checkBucketAnswers(config);
  }
  const monitoring = await startServerMonitoring(config);
  const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR });
  if (!hasDemoMode(config)) {
    // Whatever the address it listens on: behind a reverse proxy on 127.0.0.1 the demo accounts face the network too.
    const openDemoAccounts = await demoAccountsOpenWith(database.db, config.SEED_PASSWORD);
    if (openDemoAccounts.length > 0) {
      await database.close();
      throw new ConfigError(
        `Refusing to start in production: these demo accounts still open with the demo password: ${openDemoAccounts.join(', ')}.\n` +
          '  Delete them or change their passwords (Forgot password), or use a database that was never seeded in demo mode.',
      );
    }
  }
  await seedDemoAccounts(database.db, { nodeEnv: config.NODE_ENV, password: config.SEED_PASSWORD });
  await seedOfferingCatalogue(database.db, { nodeEnv: config.NODE_ENV });
  await seedSurveyCatalogue(database.db);
  const app = await buildApp({ config, database });
  const outboxWorker = startOutboxWorker({
    db: database.db,
    transports: { email: createMailTransport(config, app.log), sms: createSmsTransport(config, app.log) },
    log: app.log,
  });
  app.addHook('onClose', () => outboxWorker.stop());

  const shutdown = async (signal: string) => {
    app.log.info(`${signal} received, shutting down`);
    await app.close();
    await database.close();
    await monitoring?.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ host: config.HOST, port: config.PORT });
  const engine = database.engine === 'pglite' ? `PGlite in ${config.DATA_DIR}` : 'PostgreSQL';
  console.log(`\nLife Concierge is running at ${config.APP_URL} (database: ${engine})`);
  if (hasDemoMode(config)) {
    const demoAccounts = await listDemoAccounts(database.db);
    if (demoAccounts.length > 0) {
      console.log(`Demo accounts (password: ${config.SEED_PASSWORD}):`);
      for (const account of demoAccounts) {
        console.log(`  ${account.email.padEnd(24)} ${account.role.padEnd(10)} ${account.company ?? ''}`);
      }
    }
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
