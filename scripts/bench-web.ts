/**
 * `npm run bench:web` (issue 10): builds the app, starts the production server on a fresh PGlite folder (with the demo
 * accounts), and runs Lighthouse (mobile: simulated Slow 4G, 4x CPU) in the system Chromium (CHROME_PATH, default
 * /usr/bin/chromium) on /sign-in, and signed in on /dashboard, /benefits-and-offers and a request page (a request the
 * demo employee files through the API first), each from an empty cache, in `--runs N` consecutive runs (default 3).
 * Prints the performance score, FCP, LCP, TBT, CLS, bytes transferred and JavaScript transferred, against the bars.
 * A benchmark, not a test: it always exits 0 once it has measured. `--no-build` measures the dist/ already built;
 * `--why` also prints where each page's time went: the LCP breakdown and element, layout shifts, long tasks, and the
 * main thread's work by kind and by script.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, request } from '@playwright/test';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { BENEFITS_HELP_SURVEY_ID, createRequestThroughApi } from '../tests/e2e/support.ts';

const BARS = { performance: 95, cls: 0.05, signInTransferKb: 160 };
const DEMO_USER = { email: 'employee@demo.test', password: 'demo-password' };
const PAGES = [
  { path: '/sign-in', signedIn: false },
  { path: '/dashboard', signedIn: true },
  { path: '/benefits-and-offers', signedIn: true },
];
const runsAt = process.argv.indexOf('--runs');
const RUNS = runsAt === -1 ? 3 : Number(process.argv[runsAt + 1]);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}

async function waitFor(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await fetch(url).then((answer) => answer.ok, () => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

async function signIn(origin: string): Promise<{ token: string; expiresAt: string }> {
  const answer = await fetch(`${origin}/api/v1/users/sign_in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user: DEMO_USER }),
  });
  const token = answer.headers.get('authorization');
  if (!answer.ok || !token) throw new Error(`Sign-in failed (${answer.status})`);
  const { expires_at: expiresAt } = (await answer.json()) as { expires_at: string };
  return { token, expiresAt };
}

if (!process.argv.includes('--no-build')) execFileSync(process.execPath, ['scripts/build.ts'], { stdio: 'inherit' });

const port = await freePort();
const origin = `http://127.0.0.1:${port}`;
const dataDir = mkdtempSync(join(tmpdir(), 'lc-bench-web-'));
const server = spawn(process.execPath, ['server/main.ts'], {
  stdio: ['ignore', 'ignore', 'inherit'],
  env: { ...process.env, NODE_ENV: 'development', HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
});
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
  await waitFor(`${origin}/version.json`);
  const session = await signIn(origin);
  const api = await request.newContext({ baseURL: origin });
  const filed = await createRequestThroughApi(api, session.token, BENEFITS_HELP_SURVEY_ID);
  await api.dispose();
  const pages = [...PAGES, { path: `/requests/${filed.id}`, signedIn: true }];
  // The session goes where the app keeps it, in the browser Lighthouse drives (its storage is not reset below).
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
  const context = browser.contexts()[0]!;
  const rows: string[][] = [];
  for (let run = 1; run <= RUNS; run += 1) for (const { path, signedIn } of pages) {
    const page = await context.newPage();
    await page.goto(`${origin}/version.json`);
    await page.evaluate(
      ({ stored }) => {
        localStorage.clear();
        if (stored) {
          localStorage.setItem('token', stored.token);
          localStorage.setItem('tokenExpiresAt', stored.expiresAt);
        }
      },
      { stored: signedIn ? session : null },
    );
    // Every page from an empty HTTP cache, as a first visit.
    await (await context.newCDPSession(page)).send('Network.clearBrowserCache');
    await page.close();
    const result = await lighthouse(`${origin}${path}`, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance'],
      disableStorageReset: true,
    });
    if (!result) throw new Error(`Lighthouse gave no result for ${path}`);
    const { lhr } = result;
    const audit = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
    const requests = (lhr.audits['network-requests']?.details as { items?: { resourceType?: string; transferSize?: number }[] } | undefined)?.items ?? [];
    const scriptBytes = requests.filter((item) => item.resourceType === 'Script').reduce((sum, item) => sum + (item.transferSize ?? 0), 0);
    const score = Math.round((lhr.categories.performance?.score ?? 0) * 100);
    const transferKb = audit('total-byte-weight') / 1024;
    const cls = audit('cumulative-layout-shift');
    const meets = score >= BARS.performance && cls < BARS.cls && (path !== '/sign-in' || transferKb <= BARS.signInTransferKb);
    if (process.argv.includes('--why')) {
      for (const id of Object.keys(lhr.audits).filter((key) => /lcp|layout-shift|long-tasks|bootup|mainthread/i.test(key))) {
        const items = (lhr.audits[id]?.details as { items?: unknown[] } | undefined)?.items ?? [];
        console.log(`${path} ${id}: ${JSON.stringify(items).slice(0, 1500)}`);
      }
    }
    rows.push([
      String(run),
      path,
      String(score),
      `${(audit('first-contentful-paint') / 1000).toFixed(1)} s`,
      `${(audit('largest-contentful-paint') / 1000).toFixed(1)} s`,
      `${Math.round(audit('total-blocking-time'))} ms`,
      cls.toFixed(3),
      `${transferKb.toFixed(1)} KB`,
      `${(scriptBytes / 1024).toFixed(1)} KB`,
      meets ? 'yes' : 'no',
    ]);
  }
  await browser.close();
  const header = ['run', 'page', 'performance', 'FCP', 'LCP', 'TBT', 'CLS', 'transferred', 'JS transferred', 'meets the bars'];
  console.log(`\nLighthouse (mobile, simulated Slow 4G, 4x CPU) on ${origin}`);
  console.log(`Bars: performance >= ${BARS.performance}, CLS < ${BARS.cls}, /sign-in transferred <= ${BARS.signInTransferKb} KB\n`);
  console.log(`| ${header.join(' | ')} |\n|${header.map(() => '---').join('|')}|`);
  for (const row of rows) console.log(`| ${row.join(' | ')} |`);
} finally {
  chrome.kill();
  server.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
}
