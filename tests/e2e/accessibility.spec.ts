import { expect, test } from '@playwright/test';
import { DEMO_PASSWORD, expectNoSeriousViolations, signIn } from './support.ts';


const WIDTHS = [390, 1280];

for (const width of WIDTHS) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('public screens', async ({ page }) => {
      for (const [path, heading] of [
        ['/sign-in', 'Sign in'],
        ['/sign-up/acme', 'Create your account'],
        ['/forgot-password', 'Forgot your password?'],
        ['/reset-password/some-token', 'Reset your password'],
        ['/no/such/page', "Oops! We can't find that page."],
      ] as const) {
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
        await expectNoSeriousViolations(page);
      }
      await page.goto('/unlock/not-a-real-token');
      await expect(page.getByText('We were unable to unlock your account.', { exact: false })).toBeVisible();
      await expectNoSeriousViolations(page);
    });

    test('signed-in screens', async ({ page }) => {
      await page.goto('/sign-in');
      await signIn(page, 'employee@demo.test', DEMO_PASSWORD);
      await expect(page).toHaveURL(/\/dashboard$/);
      for (const path of ['/dashboard', '/account', '/requests', '/benefits-and-offers', '/benefits-and-offers/all']) {
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await expectNoSeriousViolations(page);
      }
    });

    test('the widget gallery', async ({ page }) => {
      await page.goto('/dev/widgets');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expectNoSeriousViolations(page);
    });
  });
}
