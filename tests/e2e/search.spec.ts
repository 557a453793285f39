import { type Browser, type Page, expect, test } from '@playwright/test';
import {
  callApi,
  confirmEmail,
  createRequestThroughApi,
  expectNoSeriousViolations,
  firstTemplateOf,
  pageToken,
  signUp,
  uniqueEmail,
} from './support.ts';

/**
 * Issue 32 point 5: an employee searches their requests (by a word of a message) and the Benefits & Offers they may
 * see, sees how many results there are, and clears the search, at a desktop and a phone width.
 */

const WIDTHS = [
  { name: 'desktop', viewport: { width: 1280, height: 900 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
] as const;

async function newAcmeEmployee(browser: Browser, viewport: { width: number; height: number }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const email = uniqueEmail('search', 'acme.test');
  await signUp(page, { firstName: 'Sam', lastName: 'Search', email, password: 'search-password', companySlug: 'acme' });
  await expect(page).toHaveURL(/\/welcome\/about-us$/);
  await confirmEmail(context.request, email);
  return { context, page, token: await pageToken(page) };
}

/** Types into a screen's search, opening it first: until then the screen shows a button named like the field. */
async function search(page: Page, label: string, text: string) {
  const field = page.getByRole('searchbox', { name: label });
  if (!(await field.isVisible())) {
    await page.getByRole('button', { name: label }).click();
    await expect(field).toBeFocused();
  }
  await field.fill(text);
}

for (const { name, viewport } of WIDTHS) {
  test(`an employee finds a request by a word of its messages, and benefits by a word, then clears (${name})`, async ({ browser, request }, testInfo) => {
    const { context, page, token } = await newAcmeEmployee(browser, viewport);
    const car = await createRequestThroughApi(request, token, await firstTemplateOf(request, token, 'Car'));
    await createRequestThroughApi(request, token, await firstTemplateOf(request, token, 'Pet'));
    await callApi(request, token, 'POST', `requests/${car.id}/messages`, {
      message: { body: 'Please use the garage on Zanzibar Street.', source: 'user' },
    });

    // Requests: the count, the request found, and the tabs back once cleared.
    await page.goto('/requests');
    await expect(page.getByRole('tab', { name: 'To do (2)' })).toBeVisible();
    await search(page, 'Search your requests', 'zanzib');
    await expect(page.getByRole('status').filter({ hasText: 'result' })).toHaveText('1 result for “zanzib”');
    const found = page.getByRole('list', { name: 'Requests found' }).getByRole('link');
    await expect(found).toHaveCount(1);
    await expect(found.first()).toContainText(car.name);
    await expect(page.getByRole('tab', { name: 'To do (2)' })).toHaveCount(0);
    await expectNoSeriousViolations(page);
    await page.screenshot({ path: testInfo.outputPath(`requests-search-${name}.png`), fullPage: true });

    await search(page, 'Search your requests', 'zanzibar nothing');
    await expect(page.getByText('No results for “zanzibar nothing”')).toBeVisible();
    await page.getByRole('button', { name: 'Clear search' }).click();
    await expect(page.getByRole('searchbox', { name: 'Search your requests' })).toHaveValue('');
    await expect(page.getByRole('tab', { name: 'To do (2)' })).toBeVisible();

    await page.goto('/requests');
    await search(page, 'Search your requests', 'zanzibar');
    await found.first().click();
    await expect(page).toHaveURL(new RegExp(`/requests/${car.id}$`));

    // Benefits & Offers: the employer's benefit and a partner offer by category; another company's never.
    await page.goto('/benefits-and-offers/all');
    await search(page, 'Search benefits & offers', 'dental');
    await expect(page.getByRole('status').filter({ hasText: 'result' })).toHaveText('1 result for “dental”');
    await expect(page.getByRole('list', { name: 'Benefits and offers found' }).getByRole('listitem')).toHaveCount(1);
    await expect(page.getByRole('list', { name: 'Benefits and offers found' })).toContainText('Dental coverage');
    await expectNoSeriousViolations(page);
    await page.screenshot({ path: testInfo.outputPath(`offerings-search-${name}.png`), fullPage: true });

    await search(page, 'Search benefits & offers', 'pet');
    await expect(page.getByRole('status').filter({ hasText: 'result' })).toHaveText('1 result for “pet”');
    const pets = page.getByRole('list', { name: 'Benefits and offers found' });
    await expect(pets).toContainText('Pet telehealth');
    // Globex's pet insurance is a benefit of another company.
    await expect(pets).not.toContainText('Pawsure');
    await page.getByRole('searchbox', { name: 'Search benefits & offers' }).press('Escape');
    await expect(page.getByRole('radiogroup').first()).toBeVisible();
    await context.close();
  });
}
