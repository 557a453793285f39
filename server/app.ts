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
import { UserFacingError, invalidFields } from './domain/shared/userFacingError.ts';
import { MONITORING_TUNNEL_PATH } from '../src/contract/monitoring.ts';
import authenticate from './plugins/authenticate.ts';
import inputGuard from './plugins/inputGuard.ts';
import securityHeaders from './plugins/securityHeaders.ts';
import staticFiles from './plugins/staticFiles.ts';
import { startRealtimeHub } from './domain/realtime/realtime.ts';
import { IMAGE_NOT_FOUND_ERROR, findCatalogueImage } from './domain/catalogue/catalogueImages.ts';
import { findCompanyLogo } from './domain/admin/companies.ts';
import { createOfferingsCache } from './domain/catalogue/offerings.ts';
import { isStaffRole } from './domain/requests/requests.ts';
import { createUserViews } from './domain/realtime/userViews.ts';
import { adminRoutes } from './routes/admin.routes.ts';
import { adminCatalogueRoutes } from './routes/adminCatalogue.routes.ts';
import analyticsRoutes from './routes/analytics.routes.ts';
import { publicImagesRoutes } from './routes/publicImages.routes.ts';
import { consoleRoutes } from './routes/console.routes.ts';
import devRoutes from './routes/dev.routes.ts';
import { eventsRoutes } from './routes/events.routes.ts';
import mfaRoutes from './routes/mfa.routes.ts';
import monitoringRoutes from './routes/monitoring.routes.ts';
import { onboardingRoutes, surveysRoutes } from './routes/surveys.routes.ts';
import offeringsRoutes from './routes/offerings.routes.ts';
import { requestsRoutes } from './routes/requests.routes.ts';
import { diskStorageRoutes, uploadsRoutes } from './routes/uploads.routes.ts';
import usersRoutes from './routes/users.routes.ts';

// The contract's schemas are zod/mini, which loads no locale of its own: the field messages of a 422 are English.
z.config(z.locales.en());

export interface AppOptions {
  config: Config;
  database: DatabaseHandle;
  /** Told of every route as it is added: how the fuzz test finds each route and its schemas. */
  onRoute?: (route: RouteOptions) => void;
  /** Where log lines go instead of stdout: how the log test reads them. */
  logStream?: { write(line: string): void };
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
export async function buildApp({ config, database, onRoute, logStream }: AppOptions) {
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

  await app.register(
    async (api) => {
      api.setNotFoundHandler((request, reply) => reply.code(404).send({ error: `No such API route: ${request.url}` }));
      await api.register(analyticsRoutes, { prefix: '/v1/analytics', db: database.db });
      await api.register(usersRoutes, { prefix: '/v1/users', config, db: database.db, realtime, views: userViews });
      await api.register(mfaRoutes, { prefix: '/v1/mfa', config, db: database.db });
      await api.register(surveysRoutes, { prefix: '/v1', db: database.db, storage, views: userViews });
      await api.register(onboardingRoutes, { prefix: '/v1/onboarding_answers', db: database.db });
      await api.register(offeringsRoutes, { prefix: '/v1', db: database.db, catalogue: offeringsCache });
      await api.register(uploadsRoutes, { prefix: '/v1/uploads', db: database.db, storage });
      await api.register(requestsRoutes, { prefix: '/v1/requests', db: database.db, storage, realtime, views: userViews });
      await api.register(consoleRoutes, { prefix: '/v1/console', config, db: database.db, storage, realtime });
      await api.register(adminRoutes, { prefix: '/v1/admin', config, db: database.db, storage });
      await api.register(adminCatalogueRoutes, { prefix: '/v1/admin', db: database.db, storage, catalogue: offeringsCache });
      await api.register(publicImagesRoutes, { prefix: '/v1/company_logos', db: database.db, storage, find: findCompanyLogo, notFoundError: 'Logo not found' });
      await api.register(publicImagesRoutes, {
        prefix: '/v1/catalogue_images',
        db: database.db,
        storage,
        find: findCatalogueImage,
        notFoundError: IMAGE_NOT_FOUND_ERROR,
      });
      await api.register(eventsRoutes, { prefix: '/v1/events', db: database.db, realtime });
      // The disk store's signed file addresses; an S3 store serves its own.
      if (storage.kind === 'disk') await api.register(diskStorageRoutes, { prefix: '/storage', db: database.db, storage });
      // The outbox holds reset links and codes: only a demo server whose messages never leave the machine shows it.
      if (hasDemoMode(config) && !hasRealTransport(config)) await api.register(devRoutes, { prefix: '/dev', db: database.db });
    },
    { prefix: '/api' },
  );
  // The browser's Sentry tunnel exists only when the app is built to report to Sentry.
  if (config.VITE_SENTRY_DSN) {
    await app.register(monitoringRoutes, { prefix: MONITORING_TUNNEL_PATH, browserDsn: config.VITE_SENTRY_DSN });
  }

  await app.register(staticFiles, { root: config.STATIC_DIR });

  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
