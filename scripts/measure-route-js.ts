// Measures the gzipped JavaScript a route loads: opens it in Chromium against a running server and gzips each
// script the page fetched. Usage: node scripts/measure-route-js.ts [--sign-in email:password] <url> [more URLs]
// With --sign-in, each page opens signed in (the session is stored as the app stores it), e.g. to measure /dashboard.
import { gzipSync } from 'node:zlib';
import { type Browser, type BrowserContext, chromium } from '@playwright/test';

const args = process.argv.slice(2);
const signInAt = args.indexOf('--sign-in');
const credentials = signInAt === -1 ? null : args.splice(signInAt, 2)[1];
const urls = args;
if (urls.length === 0 || (signInAt !== -1 && !credentials?.includes(':'))) {
  console.error('usage: node scripts/measure-route-js.ts [--sign-in email:password] <url> [<url> ...]');
  process.exit(2);
}

/** A fresh context (empty cache), signed in through the API when asked: the token goes where the app keeps it. */
async function newContext(browser: Browser, url: string): Promise<BrowserContext> {
  const context = await browser.newContext();
  if (!credentials) return context;
  const separator = credentials.indexOf(':');
  const user = { email: credentials.slice(0, separator), password: credentials.slice(separator + 1) };
  const answer = await context.request.post(new URL('/api/v1/users/sign_in', url).href, { data: { user } });
  const token = answer.headers()['authorization'];
  if (!answer.ok() || !token) throw new Error(`Sign-in failed (${answer.status()}): ${await answer.text()}`);
  const { expires_at: expiresAt } = (await answer.json()) as { expires_at: string };
  await context.addInitScript(
    ([storedToken, storedExpiry]) => {
      localStorage.setItem('token', storedToken);
      localStorage.setItem('tokenExpiresAt', storedExpiry);
    },
    [token, expiresAt],
  );
  return context;
}
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
for (const url of urls) {
  const context = await newContext(browser, url);
  const page = await context.newPage();
  const scripts = new Map<string, number>();
  const bodiesRead: Promise<void>[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'script') return;
    bodiesRead.push(
      response.body().then(
        (body) => void scripts.set(new URL(response.url()).pathname, gzipSync(body, { level: 9 }).length),
        () => undefined,
      ),
    );
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  // A body may still be on its way when the network has gone quiet: count every script the page fetched.
  await Promise.all(bodiesRead);
  const total = [...scripts.values()].reduce((sum, size) => sum + size, 0);
  console.log(`${url}: ${(total / 1024).toFixed(1)} KB gzipped JavaScript in ${scripts.size} files`);
  for (const [path, size] of [...scripts].sort((a, b) => b[1] - a[1])) console.log(`  ${(size / 1024).toFixed(1).padStart(7)} KB  ${path}`);
  await context.close();
}
await browser.close();
