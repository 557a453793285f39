// Measures the gzipped JavaScript a route loads: opens it in Chromium against a running server and gzips each
// script the page fetched. Usage: node scripts/measure-route-js.ts http://127.0.0.1:3000/sign-in [more URLs]
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';

const urls = process.argv.slice(2);
if (urls.length === 0) {
  console.error('usage: node scripts/measure-route-js.ts <url> [<url> ...]');
  process.exit(2);
}
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
for (const url of urls) {
  const page = await browser.newPage();
  const scripts = new Map<string, number>();
  page.on('response', async (response) => {
    if (response.request().resourceType() !== 'script') return;
    const body = await response.body().catch(() => null);
    if (body) scripts.set(new URL(response.url()).pathname, gzipSync(body, { level: 9 }).length);
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  const total = [...scripts.values()].reduce((sum, size) => sum + size, 0);
  console.log(`${url}: ${(total / 1024).toFixed(1)} KB gzipped JavaScript in ${scripts.size} files`);
  for (const [path, size] of [...scripts].sort((a, b) => b[1] - a[1])) console.log(`  ${(size / 1024).toFixed(1).padStart(7)} KB  ${path}`);
  await page.close();
}
await browser.close();
