import { expect, test } from '@playwright/test';

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

  test('the deployed version file is served', async ({ request }) => {
    const response = await request.get(`/version.json?t=${Date.now()}`);
    expect(response.ok()).toBe(true);
    expect(await response.json()).toEqual({ version: expect.any(String) });
  });
});
