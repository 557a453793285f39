/**
 * DESIGN §9 weight: the gzipped JavaScript a route loads, as Chromium fetches it from a fresh context (empty cache).
 * Shared by scripts/measure-route-js.ts (prints it) and tests/e2e/weight.spec.ts (holds each route to its bar).
 */
import { gzipSync } from 'node:zlib';
import type { Browser, BrowserContext } from '@playwright/test';

export interface RouteWeight {
  /** The sum over every script, in bytes, each gzipped on its own at level 9 (as a server would send it). */
  totalBytes: number;
  /** Each script's gzipped size by its path. */
  scripts: Map<string, number>;
}

export interface Credentials {
  email: string;
  password: string;
}

/**
 * A fresh context (empty cache), signed in through the API when `credentials` are given: the token goes where the app
 * keeps it, so that the page opens signed in at its first load.
 */
export async function newWeighingContext(browser: Browser, origin: string, credentials: Credentials | null): Promise<BrowserContext> {
  const context = await browser.newContext();
  if (!credentials) return context;
  const answer = await context.request.post(new URL('/api/v1/users/sign_in', origin).href, { data: { user: credentials } });
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

/** Opens `url` in a new page of `context`, waits for the network to go quiet, and weighs every script it fetched. */
export async function weighRoute(context: BrowserContext, url: string): Promise<RouteWeight> {
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
  await page.close();
  return { totalBytes: [...scripts.values()].reduce((sum, size) => sum + size, 0), scripts };
}

/** `email:password`, as given on a command line; null when it is not of that form. */
export function parseCredentials(text: string): Credentials | null {
  const separator = text.indexOf(':');
  if (separator < 1) return null;
  return { email: text.slice(0, separator), password: text.slice(separator + 1) };
}

export const kilobytes = (bytes: number) => (bytes / 1024).toFixed(1);
