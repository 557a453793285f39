// Measures the gzipped JavaScript a route loads: opens it in Chromium against a running server and gzips each
// script the page fetched (scripts/routeWeight.ts). Usage: node scripts/measure-route-js.ts [--sign-in email:password] <url> [more URLs]
// With --sign-in, each page opens signed in (the session is stored as the app stores it), e.g. to measure /dashboard.
import { chromium } from '@playwright/test';
import { kilobytes, newWeighingContext, parseCredentials, weighRoute } from './routeWeight.ts';

const args = process.argv.slice(2);
const signInAt = args.indexOf('--sign-in');
const credentials = signInAt === -1 ? null : parseCredentials(args.splice(signInAt, 2)[1] ?? '');
const urls = args;
if (urls.length === 0 || (signInAt !== -1 && !credentials)) {
  console.error('usage: node scripts/measure-route-js.ts [--sign-in email:password] <url> [<url> ...]');
  process.exit(2);
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
for (const url of urls) {
  const context = await newWeighingContext(browser, url, credentials);
  const { totalBytes, scripts } = await weighRoute(context, url);
  console.log(`${url}: ${kilobytes(totalBytes)} KB gzipped JavaScript in ${scripts.size} files`);
  for (const [path, size] of [...scripts].sort((a, b) => b[1] - a[1])) console.log(`  ${kilobytes(size).padStart(7)} KB  ${path}`);
  await context.close();
}
await browser.close();
