import { createReadStream, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import { COMMITTED_DOCUMENT, type ContractComments, contractCommentsIfReadable } from '../openapi/contractComments.ts';
import { type ApiRoute, type OpenApiDocument, type OtherSuccess, buildOpenApiDocument, isScimPath, openApiPath } from '../openapi/document.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A success answer that is not JSON (a redirect, a stream), for the OpenAPI document. */
    otherSuccess?: OtherSuccess;
    /** A route of the app's own (the browser's error-report tunnel): not part of the documented API. */
    internal?: boolean;
  }
}

/** The public API, the one the document describes; /api/dev (the outbox) and /api/storage (signed files) stay out. */
export const PUBLIC_API_PREFIX = '/api/v1/';
export const OPENAPI_PATH = '/api/openapi.json';

/** The public API and the SCIM endpoint of the directories (issue 29). */
function isDocumented(url: string): boolean {
  return url.startsWith(PUBLIC_API_PREFIX) || isScimPath(url);
}
export const API_DOCS_PATH = '/api/docs';

const packageVersion = (JSON.parse(readFileSync(join(import.meta.dirname, '../../package.json'), 'utf8')) as { version: string }).version;
const require = createRequire(import.meta.url);
/** Scalar's standalone bundle, served from this server (the page's CSP allows no other origin). */
const SCALAR_DIST = dirname(require.resolve('@scalar/api-reference'));
const SCALAR_BUNDLE = join(SCALAR_DIST, 'browser/standalone.js');
const SCALAR_VERSION = (JSON.parse(readFileSync(join(SCALAR_DIST, '../package.json'), 'utf8')) as { version: string }).version;
export const SCALAR_PATH = `${API_DOCS_PATH}/scalar-${SCALAR_VERSION}.js`;

/** The hooks of the instance a route is added to: Fastify keeps them under a symbol of its own. */
function onRequestHooksOf(instance: FastifyInstance): unknown[] {
  const hooksSymbol = Object.getOwnPropertySymbols(instance).find((symbol) => symbol.description === 'fastify.hooks');
  const hooks = hooksSymbol ? (instance as unknown as Record<symbol, { onRequest?: unknown[] }>)[hooksSymbol] : undefined;
  return hooks?.onRequest ?? [];
}

/** What the reference page's renderer is told: our document, no fonts or calls from elsewhere. */
const SCALAR_CONFIGURATION = {
  url: OPENAPI_PATH,
  withDefaultFonts: false,
  telemetry: false,
  hideClientButton: true,
  showDeveloperTools: 'never',
  agent: { disabled: true },
  mcp: { disabled: true },
};

function referencePage(): string {
  const configuration = JSON.stringify(SCALAR_CONFIGURATION).replaceAll('"', '&quot;');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Life Concierge API reference</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
</head>
<body>
<script id="api-reference" data-configuration="${configuration}"></script>
<script src="${SCALAR_PATH}"></script>
</body>
</html>
`;
}

/**
 * Registered before the compression plugin, so that the response check reads answers before they are compressed, and
 * before the routes, whose guards (server/plugins/authenticate.ts) it recognises when they are added.
 *
 * The API as a product (issue 30): the OpenAPI 3.1 document of /api/v1, generated from the routes' own schemas as they
 * are added, at /api/openapi.json (made on the first call, not at start), and its reference page at /api/docs. With
 * `responseCheck` (test runs) every answer of a documented route is checked against the document.
 */
export default fp<{ responseCheck: Config['OPENAPI_RESPONSE_CHECK'] }>(
  async (app, { responseCheck }) => {
    const added: Array<{ route: RouteOptions; instance: FastifyInstance }> = [];
    app.addHook('onRoute', function collect(this: FastifyInstance, route: RouteOptions) {
      if (isDocumented(route.url) && !route.config?.internal) added.push({ route, instance: this });
    });
    /** Read once the app is ready: a plugin's own onRequest hooks join its instance after its routes are added. */
    const apiRoutes = (): ApiRoute[] =>
      added.flatMap(({ route, instance }) => {
        const onRequest = [...onRequestHooksOf(instance), ...[route.onRequest ?? []].flat()];
        const runs = (hook: unknown) => onRequest.includes(hook);
        const config = route.config ?? {};
        return [route.method]
          .flat()
          .filter((method) => method !== 'HEAD')
          .map((method) => ({
            method,
            url: route.url,
            schema: (route.schema ?? {}) as ApiRoute['schema'],
            rateLimit: (config as { rateLimit?: ApiRoute['rateLimit'] }).rateLimit ?? null,
            guards: {
              session: runs(app.authenticate),
              staffOnly: runs(app.requireStaff),
              adminOnly: runs(app.requireAdmin),
              employerAdminOnly: runs(app.requireEmployerAdmin),
              openToEmployerAdmin: config.openToEmployerAdmin === true,
              confirmedEmail: runs(app.requireConfirmedEmail),
              skipMfa: config.skipMfa === true,
            },
            otherSuccess: config.otherSuccess ?? null,
          }));
      });

    let described: Promise<OpenApiDocument> | null = null;
    let bare: Promise<OpenApiDocument> | null = null;
    /** With the contract's comments (what integrators read); without them (what the response check needs). */
    const documentOf = (comments?: ContractComments) => buildOpenApiDocument({ routes: apiRoutes(), comments, version: packageVersion });
    app.decorate(
      'openApiDocument',
      () =>
        (described ??= contractCommentsIfReadable().then(async (comments) =>
          comments ? documentOf(comments) : (JSON.parse(await readFile(COMMITTED_DOCUMENT, 'utf8')) as OpenApiDocument),
        )),
    );

    app.get(OPENAPI_PATH, async (_request, reply) => {
      reply.header('cache-control', 'no-cache');
      return reply.type('application/json').send(JSON.stringify(await app.openApiDocument()));
    });
    app.get(API_DOCS_PATH, async (_request, reply) => reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(referencePage()));
    app.get(SCALAR_PATH, async (_request, reply) =>
      reply.header('cache-control', 'public, max-age=31536000, immutable').type('text/javascript; charset=utf-8').send(createReadStream(SCALAR_BUNDLE)),
    );

    if (responseCheck) {
      // Loaded only in test runs: a production server never reads ajv for it.
      const { createResponseCheck } = await import('../openapi/responseCheck.ts');
      let check: Promise<ReturnType<typeof createResponseCheck>> | null = null;
      app.addHook('onSend', async (request, reply, payload) => {
        const url = request.routeOptions.url;
        if (!url || !isDocumented(url) || request.method === 'HEAD') return payload;
        check ??= (bare ??= documentOf()).then((document) => createResponseCheck(document, responseCheck));
        (await check)({
          method: request.method,
          path: openApiPath(url),
          status: reply.statusCode,
          contentType: reply.getHeader('content-type')?.toString(),
          payload,
        });
        return payload;
      });
    }
  },
  { name: 'open-api' },
);

declare module 'fastify' {
  interface FastifyInstance {
    /** The OpenAPI document of the public API, made once, on first use. */
    openApiDocument: () => Promise<OpenApiDocument>;
  }
}
