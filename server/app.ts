import { SCIM_BASE_PATH } from '../src/contract/scim.ts';
import { adminScimRoutes } from './routes/adminScim.routes.ts';
import { scimRoutes } from './routes/scim.routes.ts';
import compress from '@fastify/compress';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyError, type RouteOptions } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  validatorCompiler,
  type ZodFastifySchemaValidationError,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import { type Config, hasDemoMode, hasRealTransport } from './config.ts';
import type { DatabaseHandle } from './db/client.ts';
import { errorForLog, loggerOptions } from './logging.ts';
import { serializerCompiler } from './serialization.ts';
import { createStorage } from './adapters/storage/createStorage.ts';
import { loadSigningSecret } from './adapters/storage/disk.ts';
import { UserFacingError, invalidFields } from './domain/shared/userFacingError.ts';
import { MONITORING_TUNNEL_PATH } from '../src/contract/monitoring.ts';
import authenticate from './plugins/authenticate.ts';
import inputGuard from './plugins/inputGuard.ts';
import openApi from './plugins/openApi.ts';
import securityHeaders from './plugins/securityHeaders.ts';
import staticFiles from './plugins/staticFiles.ts';
import { startRealtimeHub } from './domain/realtime/realtime.ts';
import { IMAGE_NOT_FOUND_ERROR, findCatalogueImage } from './domain/catalogue/catalogueImages.ts';
import { findCompanyLogo } from './domain/admin/companies.ts';
import { createOfferingsCache } from './domain/catalogue/offerings.ts';
import { isStaffRole } from './domain/requests/requests.ts';
import { createUserViews } from './domain/realtime/userViews.ts';
import { adminRoutes } from './routes/admin.routes.ts';
import { assignmentAdminRoutes, assignmentConsoleRoutes } from './routes/assignment.routes.ts';
import { assignWaitingRequests } from './domain/requests/assignment.ts';
import { adminCatalogueRoutes } from './routes/adminCatalogue.routes.ts';
import { adminServicePoliciesRoutes } from './routes/adminServicePolicies.routes.ts';
import { type Clock, systemClock } from './domain/ports/clock.ts';
import { startServiceAlertWorker } from './domain/sla/serviceAlerts.ts';
import analyticsRoutes from './routes/analytics.routes.ts';
import { publicImagesRoutes } from './routes/publicImages.routes.ts';
import { consoleRoutes } from './routes/console.routes.ts';
import devRoutes from './routes/dev.routes.ts';
import { employerAdminRoutes, employerRoutes } from './routes/employer.routes.ts';
import { eventsRoutes } from './routes/events.routes.ts';
import { liveStreamCapacity } from './openFiles.ts';
import mfaRoutes from './routes/mfa.routes.ts';
import monitoringRoutes from './routes/monitoring.routes.ts';
import { onboardingRoutes, surveysRoutes } from './routes/surveys.routes.ts';
import offeringsRoutes from './routes/offerings.routes.ts';
import { notificationsRoutes } from './routes/notifications.routes.ts';
import { requestsRoutes } from './routes/requests.routes.ts';
import { ratingsRoutes } from './routes/ratings.routes.ts';
import { reportsRoutes } from './routes/reports.routes.ts';
import { diskStorageRoutes, uploadsRoutes } from './routes/uploads.routes.ts';
import usersRoutes from './routes/users.routes.ts';
import { adminSsoRoutes } from './routes/adminSso.routes.ts';
import { ssoRoutes } from './routes/sso.routes.ts';
import { type OidcClientOptions, createOidcClients } from './domain/sso/oidcClients.ts';

// The contract's schemas are zod/mini, which loads no locale of its own: the field messages of a 422 are English.
z.config(z.locales.en());

export interface AppOptions {
  config: Config;
  database: DatabaseHandle;
  /** Told of every route as it is added: how the fuzz test finds each route and its schemas. */
  onRoute?: (route: RouteOptions) => void;
  /** Where log lines go instead of stdout: how the log test reads them. */
  logStream?: { write(line: string): void };
  /** Live streams this process holds at most; by default what its open-files limit allows (server/openFiles.ts). */
  maxLiveStreams?: number;
  /** How the SSO client reaches identity providers and reads the clock (tests move both). */
  sso?: Pick<OidcClientOptions, 'fetch' | 'now'>;
  /** The time as the turnaround targets see it (server/domain/ports/clock.ts): the system's, or a test's manualClock. */
  clock?: Clock;
  /** Sweeps the turnaround alerts this often (ms); none when absent (the server's main process sets it). */
  serviceAlertIntervalMs?: number;
}

/** A request the route's schema refused: a 422 naming each field at fault by its dotted path. */
function schemaRefusal(error: Pick<FastifyError, 'validationContext'> & { validation: ZodFastifySchemaValidationError[] }): UserFacingError {
  const fields: Record<string, string> = {};
  for (const issue of error.validation) {
    const path = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
    fields[path || error.validationContext || 'body'] ??= issue.message ?? 'Invalid value';
  }
  return invalidFields(fields);
}

/** Builds the Fastify instance: the API under /api, the built SPA for every other path. Tests use it with inject. */
export async function buildApp({
  config,
  database,
  onRoute,
  logStream,
  maxLiveStreams = liveStreamCapacity(),
  sso,
  clock = systemClock,
  serviceAlertIntervalMs,
}: AppOptions) {
  const app = Fastify({
    logger: loggerOptions(config.LOG_LEVEL, logStream),
    // Only behind a known proxy may X-Forwarded-For name the client (rate limits count per client address).
    trustProxy: config.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>();
  if (onRoute) app.addHook('onRoute', onRoute);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // The one error handler: every refusal the user may be told about is a UserFacingError by the time it answers.
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const refusal = hasZodFastifySchemaValidationErrors(error) ? schemaRefusal(error) : error;
    if (refusal instanceof UserFacingError) return reply.code(refusal.statusCode).send(refusal.body);
    // Fastify's and its plugins' own refusals (malformed JSON, a body too large, a rate limit) carry their status.
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: errorForLog(error) }, 'request failed');
      return reply.code(500).send({ error: 'An unexpected error occurred' });
    }
    return reply.code(status).send({ error: error.message });
  });

  await app.register(securityHeaders, { config });
  await app.register(openApi, { responseCheck: config.OPENAPI_RESPONSE_CHECK });
  // Answers made on the fly (the API's JSON) over 1 KB; the built files come compressed already. Request bodies are
  // taken as sent: no client needs to compress them, and decompressing is work anyone could ask of the server.
  await app.register(compress, { threshold: 1024, globalDecompression: false });
  await app.register(inputGuard);
  await app.register(rateLimit, { global: false });
  // Live updates between this and every other server process on the same database; stopped with the app.
  const realtime = await startRealtimeHub(database, app.log);
  app.addHook('onClose', () => realtime.close());
  await app.register(authenticate, { db: database.db, realtime });
  // One catalogue cache per process: the employees' routes read it, the admin's writes wait until it has heard them.
  const offeringsCache = createOfferingsCache(database.db, realtime);
  app.addHook('onClose', () => offeringsCache.close());
  // One cache of the employees' everyday reads per process. A call that may write forgets its caller's answers as it
  // answers, so their next read shows what they just did even before the database's notice arrives. Staff write what
  // employees see (a reply, a company renamed): their calls answer once this process has heard every change so far.
  const userViews = createUserViews(realtime);
  app.addHook('onClose', () => userViews.close());
  app.addHook('onSend', async (request) => {
    const caller = request.currentUser;
    if (!caller || request.method === 'GET' || request.method === 'HEAD') return;
    userViews.forget(caller.id);
    if (isStaffRole(caller.role)) await userViews.settle();
  });
  const storage = await createStorage(config);
  const oidcClients = createOidcClients({ secretKey: config.SSO_SECRET_KEY, ...sso });
  // Signs what the server hands out to be brought back unchanged (the rating links of completion e-mails).
  const signingSecret = config.SIGNING_SECRET ?? loadSigningSecret(config.DATA_DIR);
  if (serviceAlertIntervalMs !== undefined) {
    const serviceAlerts = startServiceAlertWorker({
      db: database.db,
      appUrl: config.APP_URL,
      clock,
      publish: (notices) => realtime.publish(notices),
      log: app.log,
      intervalMs: serviceAlertIntervalMs,
    });
    app.addHook('onClose', () => serviceAlerts.stop());
  }

  await app.register(
    async (api) => {
      api.setNotFoundHandler((request, reply) => reply.code(404).send({ error: `No such API route: ${request.url}` }));
      await api.register(analyticsRoutes, { prefix: '/v1/analytics', db: database.db });
      await api.register(usersRoutes, { prefix: '/v1/users', config, db: database.db, realtime, views: userViews });
      await api.register(mfaRoutes, { prefix: '/v1/mfa', config, db: database.db });
      await api.register(surveysRoutes, {
        prefix: '/v1',
        db: database.db,
        storage,
        views: userViews,
        clock,
        onRequestFiled: async () => realtime.publish(await assignWaitingRequests(database.db, config.APP_URL)),
      });
      await api.register(onboardingRoutes, { prefix: '/v1/onboarding_answers', db: database.db });
      await api.register(offeringsRoutes, { prefix: '/v1', db: database.db, catalogue: offeringsCache });
      await api.register(uploadsRoutes, { prefix: '/v1/uploads', db: database.db, storage });
      await api.register(requestsRoutes, { prefix: '/v1/requests', db: database.db, storage, realtime, views: userViews, clock });
      await api.register(notificationsRoutes, { prefix: '/v1/notification_settings', db: database.db });
      await api.register(consoleRoutes, { prefix: '/v1/console', config, db: database.db, storage, realtime, signingSecret, clock });
      await api.register(adminRoutes, { prefix: '/v1/admin', config, db: database.db, storage });
      await api.register(adminServicePoliciesRoutes, { prefix: '/v1/admin', db: database.db });
      await api.register(assignmentConsoleRoutes, { prefix: '/v1/console', config, db: database.db, realtime });
      await api.register(assignmentAdminRoutes, { prefix: '/v1/admin', config, db: database.db, realtime });
      await api.register(adminCatalogueRoutes, { prefix: '/v1/admin', db: database.db, storage, catalogue: offeringsCache });
      await api.register(adminScimRoutes, { prefix: '/v1/admin', db: database.db });
      await api.register(publicImagesRoutes, { prefix: '/v1/company_logos', db: database.db, storage, find: findCompanyLogo, notFoundError: 'Logo not found' });
      await api.register(publicImagesRoutes, {
        prefix: '/v1/catalogue_images',
        db: database.db,
        storage,
        find: findCatalogueImage,
        notFoundError: IMAGE_NOT_FOUND_ERROR,
      });
      await api.register(ssoRoutes, { prefix: '/v1/sso', config, db: database.db, clients: oidcClients, now: sso?.now });
      await api.register(adminSsoRoutes, { prefix: '/v1/admin', config, db: database.db, clients: oidcClients });
      await api.register(ratingsRoutes, { prefix: '/v1', db: database.db, signingSecret });
      await api.register(reportsRoutes, { prefix: '/v1/console', db: database.db });
      await api.register(employerRoutes, { prefix: '/v1/employer', db: database.db });
      await api.register(employerAdminRoutes, { prefix: '/v1/admin/employer', db: database.db });
      await api.register(eventsRoutes, { prefix: '/v1/events', db: database.db, realtime, maxStreams: maxLiveStreams });
      // The disk store's signed file addresses; an S3 store serves its own.
      if (storage.kind === 'disk') await api.register(diskStorageRoutes, { prefix: '/storage', db: database.db, storage });
      // The outbox holds reset links and codes: only a demo server whose messages never leave the machine shows it.
      if (hasDemoMode(config) && !hasRealTransport(config)) await api.register(devRoutes, { prefix: '/dev', db: database.db, clock });
    },
    { prefix: '/api' },
  );
  await app.register(scimRoutes, { prefix: SCIM_BASE_PATH, db: database.db, appUrl: config.APP_URL });
  // The browser's Sentry tunnel exists only when the app is built to report to Sentry.
  if (config.VITE_SENTRY_DSN) {
    await app.register(monitoringRoutes, { prefix: MONITORING_TUNNEL_PATH, browserDsn: config.VITE_SENTRY_DSN });
  }

  await app.register(staticFiles, { root: config.STATIC_DIR });

  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
