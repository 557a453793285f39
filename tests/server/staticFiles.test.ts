import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { seedOfferingCatalogue } from '../../server/db/seed/offeringCatalogue.ts';
import { PAGE_TABLE, type PageTableEntry, pageFor } from '../../server/pageTable.ts';
import { IMMUTABLE } from '../../server/plugins/staticFiles.ts';
import { suiteContext } from './harness.ts';
import { authHeaders, registerUser, signedIn } from './helpers.ts';

/** Issue 10: the built app as the build compressed it, with its caching; API answers compressed on the fly. */

const built = mkdtempSync(join(tmpdir(), 'lc-static-'));
const SHELL = '<!doctype html><html><head><title>Life Concierge</title></head><body><div id="root"></div></body></html>';
const SCRIPT = `console.log(${JSON.stringify('x'.repeat(4000))});`;
function writeBuilt(file: string, text: string) {
  writeFileSync(join(built, file), text);
  writeFileSync(join(built, `${file}.br`), brotliCompressSync(text));
  writeFileSync(join(built, `${file}.gz`), gzipSync(text));
}
const prerendered = (body: string) => `<!doctype html><html><head><title>Life Concierge</title></head><body><div id="root">${body}</div></body></html>`;
const SIGN_IN_PAGE = prerendered('<h1>Sign in</h1>');
const REQUEST_SKELETON = prerendered('<div class="lc-app"></div>');
const RESET_PAGE = prerendered('<h1>Reset your password</h1>');
const NOT_FOUND_PAGE = prerendered("<h1>Oops! We can't find that page.</h1>");
for (const folder of ['assets', '.vite', 'pages/requests', 'pages/reset-password', 'pages/[companySlug]']) mkdirSync(join(built, folder), { recursive: true });
writeBuilt('index.html', SHELL);
writeBuilt('pages/sign-in.html', SIGN_IN_PAGE);
writeBuilt('pages/requests/[requestId].html', REQUEST_SKELETON);
writeBuilt('pages/reset-password/[resetToken].html', RESET_PAGE);
writeBuilt('pages/[not-found].html', NOT_FOUND_PAGE);
writeBuilt('pages/[companySlug]/join.html', SIGN_IN_PAGE);
// The page table as scripts/prerender.ts writes it: every pattern of the app's routes, redirects with the bare shell.
const table: PageTableEntry[] = [
  { path: '/sign-in', file: 'pages/sign-in.html', status: 200 },
  { path: '/requests/:requestId', file: 'pages/requests/[requestId].html', status: 200 },
  { path: '/requests/new', file: 'index.html', status: 200 },
  { path: '/reset-password/:resetToken', file: 'pages/reset-password/[resetToken].html', status: 200 },
  // Addresses whose first part is a parameter: a legacy link the app only redirects, and a page with a form.
  { path: '/:unlockToken/unlock/:userId?', file: 'index.html', status: 200 },
  { path: '/:companySlug/join', file: 'pages/[companySlug]/join.html', status: 200 },
  { path: '/*', file: 'pages/[not-found].html', status: 404 },
];
writeFileSync(join(built, PAGE_TABLE), JSON.stringify(table));
writeBuilt('assets/index-abc123.js', SCRIPT);
writeFileSync(join(built, 'version.json'), '{"version":"v1"}');
afterAll(() => rmSync(built, { recursive: true, force: true }));

const context = suiteContext({ STATIC_DIR: built, AUTH_RATE_LIMIT: '1000' });
const get = (url: string, headers: Record<string, string> = {}) => context.app.inject({ method: 'GET', url, headers });

describe('the built app', () => {
  it('sends a hashed asset as brotli or gzip, as the browser accepts, cached for a year', async () => {
    const brotli = await get('/assets/index-abc123.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe(SCRIPT);
    expect(brotli.headers['content-type']).toMatch(/javascript/);
    expect(brotli.headers['cache-control']).toBe(IMMUTABLE);
    expect(brotli.headers.vary).toMatch(/accept-encoding/i);

    const gzip = await get('/assets/index-abc123.js', { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(SCRIPT);

    const plain = await get('/assets/index-abc123.js', { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
  });

  it("answers an app address with its route's prerendered page, compressed, revalidated by its ETag on each use", async () => {
    const page = await get('/requests/12', { 'accept-encoding': 'br' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(page.rawPayload).toString()).toBe(REQUEST_SKELETON);
    expect(page.headers['cache-control']).toBe('no-cache');
    const etag = page.headers.etag as string;
    expect(etag).toBeTruthy();
    const again = await get('/requests/12', { 'accept-encoding': 'br', 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
  });

  it('finds the page as the app router does: a parameter fits any value, a fixed path wins over one', async () => {
    expect((await get('/reset-password/any-token-at-all')).body).toBe(RESET_PAGE);
    expect((await get('/requests/new')).body).toBe(SHELL);
    for (const url of ['/sign-in', '/sign-in/', '/sign-in?returnTo=x']) {
      const page = await get(url, { 'accept-encoding': 'br' });
      expect(page.statusCode, url).toBe(200);
      expect(brotliDecompressSync(page.rawPayload).toString(), url).toBe(SIGN_IN_PAGE);
      expect(page.headers['cache-control']).toBe('no-cache');
      expect(page.headers['content-type']).toMatch(/text\/html/);
    }
  });

  it("answers an address no route knows with NotFound and a 404: below a page, the page table, a page's own file", async () => {
    for (const url of ['/no-such-page', '/sign-in/elsewhere', `/${PAGE_TABLE}`, '/pages/sign-in.html']) {
      const page = await get(url);
      expect(page.statusCode, url).toBe(404);
      expect(page.body, url).toBe(NOT_FOUND_PAGE);
    }
  });

  it('answers every address with the bare shell for a build without a page table', async () => {
    expect(pageFor([], '/anything')).toEqual({ file: 'index.html', status: 200 });
  });

  it('answers a prerendered form sent before hydration with the page again, never reading what it carried', async () => {
    const sent = await context.app.inject({
      method: 'POST',
      url: '/sign-in',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'email=ada%40example.com&password=correct+horse',
    });
    expect(sent.statusCode).toBe(303);
    expect(sent.headers.location).toBe('/sign-in');
  });

  it('sends a form back only where a prerendered page has one, and only to this site', async () => {
    // Over the network, since the injector would tidy the address: browsers read '/\\host' as another site's.
    await context.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = context.app.server.address() as AddressInfo;
    const post = (path: string) =>
      new Promise<{ status: number; location: string | undefined; body: string }>((resolve, reject) => {
        const sent = request({ host: '127.0.0.1', port, method: 'POST', path, headers: { 'content-type': 'application/x-www-form-urlencoded' } }, (answer) => {
          let body = '';
          answer.on('data', (chunk: Buffer) => (body += chunk.toString()));
          answer.on('end', () => resolve({ status: answer.statusCode ?? 0, location: answer.headers.location, body }));
        });
        sent.on('error', reject);
        sent.end('x=1');
      });
    // No prerendered form here (a legacy link the app only redirects): the page, not a redirect.
    const legacy = await post('/\\evil.example/unlock');
    expect(legacy.status).toBe(200);
    expect(legacy.body).toBe(SHELL);
    expect(legacy.location).toBeUndefined();
    const page = await post('/\\evil.example/join');
    expect(page.status).toBe(303);
    expect(page.location).toBe('/evil.example/join');
  });

  it('never lets the version file be cached', async () => {
    const version = await get('/version.json');
    expect(version.json()).toEqual({ version: 'v1' });
    expect(version.headers['cache-control']).toBe('no-store');
  });
});

describe('API answers', () => {
  it('are compressed on the fly when large enough, and still never cached', async () => {
    await seedOfferingCatalogue(context.db, { nodeEnv: 'development' });
    const authorization = await signedIn(context, await registerUser(context));
    const offerings = await get('/api/v1/offerings?types=benefit,product', { ...authHeaders(authorization), 'accept-encoding': 'gzip' });
    expect(offerings.statusCode).toBe(200);
    expect(offerings.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(offerings.rawPayload).toString())).toHaveProperty('offerings');
    expect(offerings.headers['cache-control']).toBe('no-store');

    const small = await get('/api/v1/users/current', { ...authHeaders(authorization), 'accept-encoding': 'gzip' });
    expect(small.headers['content-encoding']).toBeUndefined();
  });
});
