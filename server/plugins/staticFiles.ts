import { existsSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import fp from 'fastify-plugin';
import { PAGE_TABLE, PRERENDERED_PAGES, type PageTableEntry, pageFor } from '../pageTable.ts';

/** Built files whose name carries a hash of their content: a new build gives them a new name. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Pages and the SPA shell: kept, but checked against the server (ETag) before every use. */
export const REVALIDATE = 'no-cache';

/**
 * Issue 10: how long a browser may keep a built file. Hashed assets for a year; the version file never (the running
 * app compares itself with it); everything else (index.html, favicon, seed images) is revalidated on each use.
 */
export function cacheControlOf(file: string): string {
  const [folder] = file.split(sep);
  if (folder === 'assets') return IMMUTABLE;
  if (file === 'version.json') return 'no-store';
  return REVALIDATE;
}

/** The build's page table; none from a build made before pages were prerendered. */
function readPageTable(root: string): PageTableEntry[] {
  const file = join(root, PAGE_TABLE);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as PageTableEntry[]) : [];
}

/**
 * The built app: each file as the build compressed it (.br or .gz, as the browser accepts; Vary: Accept-Encoding),
 * with its caching. Every other address outside /api gets the page the build prerendered for it (scripts/prerender.ts),
 * found as the app's router finds it: a public page, a signed-in page's skeleton, or NotFound with a 404. The /api
 * routes answer their own 404s.
 */
export default fp<{ root: string }>(
  async (app, { root }) => {
    const staticRoot = resolve(root);
    if (!existsSync(resolve(staticRoot, 'index.html'))) {
      // No build (the API alone, as under `npm run dev`): a 404 of our own, since Fastify's logs the address as it is.
      app.setNotFoundHandler((_request, reply) => reply.code(404).send({ error: 'Not found' }));
      return;
    }
    await app.register(fastifyStatic, {
      root: staticRoot,
      wildcard: false,
      index: false,
      preCompressed: true,
      // The prerendered pages are sent at their routes' addresses only (the page table), never at their file's.
      globIgnore: [`${PRERENDERED_PAGES}/**`],
      cacheControl: false,
      setHeaders: (reply, path) => reply.header('cache-control', cacheControlOf(relative(staticRoot, path).replace(/\.(br|gz)$/, ''))),
    });
    const table = readPageTable(staticRoot);
    app.setNotFoundHandler((request, reply) => {
      if (request.url.startsWith('/api/')) return reply.code(404).send({ error: `No such API route: ${request.url}` });
      const path = request.url.split('?')[0]!.replace(/(.)\/+$/, '$1');
      const page = pageFor(table, path);
      // A prerendered form sent before its page was hydrated (method="post", so that a password never lands in an
      // address): its body is not read; the visitor gets the page again. Only a prerendered page has such a form, and
      // the address goes back as a path of this site: browsers read a leading '//' or '/\' as another site's.
      if (request.method === 'POST' && page.status === 200 && page.file.startsWith(`${PRERENDERED_PAGES}/`)) {
        return reply.redirect(`/${path.replace(/^[/\\]+/, '')}`, 303);
      }
      return reply.code(page.status).type('text/html').sendFile(page.file);
    });
  },
  { name: 'static-files' },
);
