import { expect, test } from '@playwright/test';
import {
  BENEFITS_HELP_SURVEY_ID,
  DEMO_PASSWORD,
  callApi,
  createRequestThroughApi,
  expectNoSeriousViolations,
  signIn,
  signInAs,
  signInThroughApi,
  uniqueEmail,
} from './support.ts';


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

    // Issue 32's corners as staff see them, each looked at (the screenshots) and scanned: the queue's and the
    // request's status badges, the audit log's filters, and the staff list with an invitation not yet taken up.
    test('staff screens', async ({ page }, testInfo) => {
      const employeeToken = await signInThroughApi(page.request, 'employee@demo.test');
      const request = await createRequestThroughApi(page.request, employeeToken, BENEFITS_HELP_SURVEY_ID);
      const adminToken = await signInThroughApi(page.request, 'admin@demo.test');
      const invited = uniqueEmail('invited');
      await callApi(page.request, adminToken, 'POST', 'admin/staff', { email: invited, first_name: 'Ivy', last_name: 'Ivory', role: 'concierge' });
      await signInAs(page, 'admin@demo.test');
      const screens = [
        { path: '/console', ready: page.locator(`a[href="/console/requests/${request.id}"]`).getByText('In Queue') },
        { path: `/console/requests/${request.id}`, ready: page.locator('#console-main').getByText('In Queue', { exact: true }) },
        { path: '/console/admin/audit', ready: page.getByRole('heading', { level: 1, name: 'Audit Log' }) },
        { path: '/console/admin/staff', ready: page.getByRole('row').filter({ hasText: invited }).getByText('Invited', { exact: true }) },
      ];
      for (const { path, ready } of screens) {
        await page.goto(path);
        await expect(ready).toBeVisible();
        await expectNoSeriousViolations(page);
        await page.screenshot({ path: testInfo.outputPath(`${path.replaceAll('/', '_')}-${width}.png`), fullPage: true });
      }
    });

    test("the survey conversation's question bar", async ({ page }, testInfo) => {
      await page.goto('/sign-in');
      await signIn(page, 'employee@demo.test', DEMO_PASSWORD);
      await page.getByRole('button', { name: 'Explore categories' }).click();
      await page.getByRole('dialog', { name: 'Request categories' }).getByRole('button', { name: 'Wildcard' }).click();
      await page.getByRole('dialog', { name: 'Wildcard Requests' }).getByRole('button', { name: 'Anything else' }).click();
      const bar = page.getByRole('dialog', { name: 'Anything else' }).getByText(/^Question 1 of \d+$/);
      await expect(bar).toBeVisible();
      await expectNoSeriousViolations(page);
      await page.screenshot({ path: testInfo.outputPath(`survey-${width}.png`), fullPage: false });
    });

    test('the widget gallery', async ({ page }) => {
      // Every widget in every state on one page: axe alone takes 20-35 s there on two busy cores.
      test.slow();
      await page.goto('/dev/widgets');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expectNoSeriousViolations(page);
    });
  });
}
