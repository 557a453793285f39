import { type Browser, type Page, expect, test } from '@playwright/test';
import { signInThroughApi } from './support.ts';

/** A page in a browser with JavaScript off: what the server sent, as it paints before any script runs. */
async function withoutScripts(browser: Browser, baseURL: string | undefined, check: (page: Page) => Promise<void>) {
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
  await check(await context.newPage());
  await context.close();
}

/** Signs the page's browser in as the app does: the session in local storage (read at the next load). */
async function storeSession(page: Page, token: string) {
  await page.goto('/version.json');
  await page.evaluate((stored) => {
    localStorage.setItem('token', stored);
    localStorage.setItem('tokenExpiresAt', new Date(Date.now() + 3_600_000).toISOString());
  }, token);
}

/**
 * A page with JavaScript, failing on any page error, and on React's report of a page that hydrated to something else
 * than its HTML (errors #418, #423, #425, logged on the console).
 */
async function hydratingCleanly(browser: Browser, baseURL: string | undefined, check: (page: Page) => Promise<void>) {
  const page = await browser.newPage({ baseURL });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && /hydrat|#41[89]|#42[35]/i.test(message.text())) errors.push(message.text());
  });
  await check(page);
  expect(errors).toEqual([]);
  await page.close();
}

test.describe('routes, redirects and guards (signed out)', () => {
  test('the root sends a visitor to sign-in without remembering a return path', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/sign-in$/);
    await expect(page).toHaveTitle('Life Concierge | Sign In');
    expect(await page.evaluate(() => sessionStorage.getItem('returnTo'))).toBeNull();
  });

  test('a protected address is remembered whole as returnTo', async ({ page }) => {
    await page.goto('/benefits-and-offers/all?type=benefit&filter=Pet#top');
    await expect(page).toHaveURL(/\/sign-in$/);
    expect(await page.evaluate(() => sessionStorage.getItem('returnTo'))).toBe(
      '/benefits-and-offers/all?type=benefit&filter=Pet#top',
    );
  });

  test('unknown paths show NotFound with a way home', async ({ page }) => {
    await page.goto('/no/such/page');
    await expect(page.getByRole('heading', { name: "Oops! We can't find that page." })).toBeVisible();
    await page.getByRole('link', { name: 'Go to Home' }).click();
    await expect(page).toHaveURL(/\/sign-in$/);
  });

  const redirects: [string, RegExp][] = [
    ['/users/sign_in', /\/sign-in$/],
    ['/users/sign_up/acme', /\/sign-up\/acme$/],
    ['/users/sign_up', /\/sign-up$/],
    ['/abc123/unlock', /\/unlock\/abc123$/],
    ['/abc123/unlock/42', /\/unlock\/abc123$/],
    ['/reset-password/abc123/unlock/42', /\/unlock\/abc123$/],
    ['/welcome', /\/sign-in$/],
    ['/life_concierge_requests', /\/sign-in$/],
  ];
  for (const [from, to] of redirects) {
    test(`${from} redirects`, async ({ page }) => {
      await page.goto(from);
      await expect(page).toHaveURL(to);
    });
  }

  test('legacy unlock links need a numeric user id', async ({ page }) => {
    await page.goto('/abc123/unlock/not-a-number');
    await expect(page.getByRole('heading', { name: "Oops! We can't find that page." })).toBeVisible();
  });

  test('partner product pages send the browser to the partner site, also under /additional-information', async ({
    page,
  }) => {
    await page.route('https://partners.lifeconcierge.com/**', (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<h1>Partner</h1>' }),
    );
    await page.goto('/products/pet-insurance');
    await expect(page).toHaveURL('https://partners.lifeconcierge.com/pet-insurance');
    await page.goto('/additional-information/wills-and-trusts');
    await expect(page).toHaveURL('https://partners.lifeconcierge.com/wills-and-trusts');
  });

  // Issue 10: prerendered public pages paint before any JavaScript, then hydrate without a mismatch.
  for (const { path, heading } of [
    { path: '/sign-in', heading: 'Sign in' },
    { path: '/sign-up', heading: 'Create your account' },
    { path: '/forgot-password', heading: 'Forgot your password?' },
  ]) {
    test(`${path} arrives as a page of its own, whole without JavaScript, and hydrates cleanly`, async ({ browser, baseURL }) => {
      await withoutScripts(browser, baseURL, async (bare) => {
        await bare.goto(path);
        await expect(bare.getByRole('heading', { level: 1, name: heading })).toBeVisible();
        await expect(bare.getByRole('textbox', { name: 'Email' })).toBeVisible();
        // Sent before the page is alive, the form posts (nothing typed lands in the address) and the page comes back.
        await bare.getByRole('textbox', { name: 'Email' }).fill('someone@acme.test');
        await bare.locator('form button[type="submit"]').first().click();
        await expect(bare).toHaveURL(new RegExp(`${path}$`));
        await expect(bare.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      });
      await hydratingCleanly(browser, baseURL, async (page) => {
        await page.goto(path, { waitUntil: 'networkidle' });
        await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
        await page.getByRole('textbox', { name: 'Email' }).fill('someone@acme.test');
        await expect(page.getByRole('textbox', { name: 'Email' })).toHaveValue('someone@acme.test');
      });
    });
  }

  // Issue 10: the frame's chunk (vite.config.ts) is for signed-in users; the sign-in page never loads it.
  test('the sign-in page loads none of the signed-in frame\'s code', async ({ page }) => {
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await page.goto('/sign-in', { waitUntil: 'networkidle' });
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
    expect(scripts.some((path) => path.startsWith('/assets/SignIn-'))).toBe(true);
    expect(scripts.filter((path) => path.startsWith('/assets/frame-'))).toEqual([]);
  });

  // Issue 10: every other page too: the e-mailed links' pages for any token, NotFound (with a 404), and a signed-in
  // page as the frame's skeleton until the session is known.
  for (const { path, heading, status } of [
    { path: '/reset-password/a-token-from-an-email', heading: 'Reset your password', status: 200 },
    { path: '/unlock/a-token-from-an-email', heading: 'Unlock your account', status: 200 },
    { path: '/no/such/page', heading: "Oops! We can't find that page.", status: 404 },
  ]) {
    test(`${path} arrives prerendered (${status}) and hydrates cleanly`, async ({ browser, baseURL }) => {
      await withoutScripts(browser, baseURL, async (bare) => {
        expect((await bare.goto(path))?.status()).toBe(status);
        await expect(bare.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      });
      await hydratingCleanly(browser, baseURL, async (page) => {
        await page.goto(path, { waitUntil: 'networkidle' });
        await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      });
    });
  }

  test("a signed-in page paints the frame's skeleton before any JavaScript, then hydrates into the page", async ({
    browser,
    baseURL,
    request,
  }) => {
    await withoutScripts(browser, baseURL, async (bare) => {
      await bare.goto('/benefits-and-offers');
      await expect(bare.getByRole('navigation', { name: 'Main navigation' }).first()).toBeVisible();
      await expect(bare.getByRole('progressbar', { name: 'Loading' })).toBeVisible();
    });
    const token = await signInThroughApi(request, 'employee@demo.test');
    await hydratingCleanly(browser, baseURL, async (page) => {
      await storeSession(page, token);
      await page.goto('/benefits-and-offers', { waitUntil: 'networkidle' });
      await expect(page.getByRole('heading', { level: 1, name: 'Benefits & Offers' })).toBeVisible();
      // The frame is the user's now: their sponsors' footer.
      await expect(page.getByText('Brought to you by')).toBeVisible();
      // A public page, prerendered for a signed-out visitor, hydrates as such, then sends a signed-in one on (SPEC §2).
      await page.goto('/sign-in', { waitUntil: 'networkidle' });
      await expect(page).toHaveURL(/\/dashboard$/);
    });
  });

  // Issue 10: the session check's call leaves with the page's head (src/services/earlyCalls.ts), which the page's
  // policy lets run, and the app takes its answer rather than asking again.
  test('a signed-in page asks for the current user once, from its head', async ({ browser, baseURL, request }) => {
    const token = await signInThroughApi(request, 'employee@demo.test');
    const page = await browser.newPage({ baseURL });
    const refusedByPolicy: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) refusedByPolicy.push(message.text());
    });
    const isCurrentUserCall = (url: string) => new URL(url).pathname === '/api/v1/users/current';
    const currentUserCalls: string[] = [];
    page.on('request', (call) => {
      if (isCurrentUserCall(call.url())) currentUserCalls.push(call.url());
    });
    await storeSession(page, token);
    // Without the app's code, the head alone makes the call.
    const appCode = /\/assets\/index-[\w-]+\.js$/;
    await page.route(appCode, (route) => route.abort());
    const answered = page.waitForResponse((response) => isCurrentUserCall(response.url()));
    await page.goto('/dashboard');
    expect((await answered).status()).toBe(200);
    expect(currentUserCalls).toHaveLength(1);

    await page.unroute(appCode);
    currentUserCalls.length = 0;
    await page.goto('/dashboard', { waitUntil: 'networkidle' });
    // The user's page, shown from the head's answer.
    await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toBeVisible();
    expect(currentUserCalls).toHaveLength(1);
    expect(refusedByPolicy).toEqual([]);
    await page.close();
  });

  test('the deployed version file is served', async ({ request }) => {
    const response = await request.get(`/version.json?t=${Date.now()}`);
    expect(response.ok()).toBe(true);
    expect(await response.json()).toEqual({ version: expect.any(String) });
  });
});
