import { ConfigError, hasDemoMode, loadConfig } from './config.ts';
import { buildApp } from './app.ts';
import { openDatabase } from './db/client.ts';
import { demoAccountsOpenWith, listDemoAccounts, seedDemoAccounts } from './db/seed/demoAccounts.ts';
import { seedOfferingCatalogue } from './db/seed/offeringCatalogue.ts';
import { seedSurveyCatalogue } from './db/seed/surveyCatalogue.ts';
import { seedServicePolicies } from './db/seed/servicePolicies.ts';
import { createMailTransport } from './adapters/mail.ts';
import { createSmsTransport } from './adapters/sms.ts';
import { manualClock, systemClock } from './domain/ports/clock.ts';
import { startOutboxWorker } from './domain/shared/outbox.ts';
import { startRepeatingWorker } from './domain/shared/repeatingWorker.ts';
import { sendDueReplyEmails } from './domain/requests/replyEmails.ts';
import { sendDueMonthlySummaries } from './domain/employer/monthlySummary.ts';
import { startServerMonitoring } from './monitoring.ts';
import { DESCRIPTORS_BESIDE_STREAMS, liveStreamCapacity, openFilesLimit } from './openFiles.ts';

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
  if (!hasDemoMode(config) && !config.SSO_SECRET_KEY) {
    await database.close();
    throw new ConfigError(
      'Refusing to start in production without SSO_SECRET_KEY: it seals the companies\' SSO client secrets at rest.\n' +
        '  Set it to 32 random bytes, e.g. SSO_SECRET_KEY=$(openssl rand -hex 32), and keep it with your other secrets.',
    );
  }
  await seedDemoAccounts(database.db, { nodeEnv: config.NODE_ENV, password: config.SEED_PASSWORD });
  await seedOfferingCatalogue(database.db, { nodeEnv: config.NODE_ENV });
  await seedSurveyCatalogue(database.db);
  await seedServicePolicies(database.db, { nodeEnv: config.NODE_ENV });
  // One sweep of the turnaround alerts a second: with several processes, each claims its own rows (serviceAlerts.ts).
  // A test run may start the turnaround clock at a given instant and move it through /api/dev/clock (config.ts).
  const clock = config.MANUAL_CLOCK_START ? manualClock(new Date(config.MANUAL_CLOCK_START)) : systemClock;
  const app = await buildApp({ config, database, clock, serviceAlertIntervalMs: 1000 });
  // `npm start`'s SSO demo: its identity provider is a dev dependency, loaded only here and only in development.
  if (config.NODE_ENV === 'development' && config.DEMO_IDP_PORT > 0) {
    const { startDemoSso } = await import('./demo/demoSso.ts');
    await startDemoSso(database.db, config).then(
      (provider) => app.addHook('onClose', () => provider.close()),
      (error: unknown) => app.log.warn({ err: error }, `The SSO demo did not start (DEMO_IDP_PORT=${config.DEMO_IDP_PORT}); set DEMO_IDP_PORT=0 to leave it out`),
    );
  }
  const outboxWorker = startOutboxWorker({
    db: database.db,
    transports: { email: createMailTransport(config, app.log), sms: createSmsTransport(config, app.log) },
    log: app.log,
  });
  app.addHook('onClose', () => outboxWorker.stop());
  // Unread replies whose e-mail has fallen due go to the outbox (issue 32); a process that dies leaves them for another.
  const replyEmailWorker = startRepeatingWorker({
    name: 'reply e-mail',
    log: app.log,
    round: () => sendDueReplyEmails(database.db, { appUrl: config.APP_URL }),
  });
  app.addHook('onClose', () => replyEmailWorker.stop());
  // Employer admins' monthly summaries (issue 29 part 3): checked every ten minutes, sent once per admin and month.
  const employerSummaryWorker = startRepeatingWorker({
    name: 'employer summary',
    log: app.log,
    intervalMs: 10 * 60 * 1000,
    round: () => sendDueMonthlySummaries(database.db, { appUrl: config.APP_URL }),
  });
  app.addHook('onClose', () => employerSummaryWorker.stop());

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
  reportOpenFilesLimit();
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
    if (config.NODE_ENV === 'development' && config.DEMO_IDP_PORT > 0) {
      console.log(`Single sign-on demo: type uma@umbrella.test on the sign-in page (Umbrella Health, demo identity provider on port ${config.DEMO_IDP_PORT}).`);
    }
  }
}

/** Streams a production process is sized for: below it, the operator is told how to raise the limit. */
const EXPECTED_LIVE_STREAMS = 20_000;

/** Each live stream holds a descriptor: the process's open-files limit is its live-update capacity. */
function reportOpenFilesLimit() {
  const limit = openFilesLimit();
  if (limit === null) return;
  const capacity = liveStreamCapacity(limit);
  if (capacity >= EXPECTED_LIVE_STREAMS) return;
  console.warn(
    `The open-files limit is ${limit}: this process holds at most ${capacity} live-update streams (one descriptor each, ` +
      `${DESCRIPTORS_BESIDE_STREAMS} kept for the rest); past that, clients are told live updates are unavailable and poll.\n` +
      `  For ${EXPECTED_LIVE_STREAMS} streams, raise it to ${EXPECTED_LIVE_STREAMS + DESCRIPTORS_BESIDE_STREAMS} or more: ` +
      '`ulimit -n 65536` in the shell that starts the server, LimitNOFILE=65536 under systemd, --ulimit nofile=65536 with Docker.',
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
