import { expect, test } from '@playwright/test';

/** The API reference (issue 30): rendered in the browser from the server's own document, under the app's CSP. */
test('the API reference at /api/docs renders the document with nothing from another origin and no CSP refusal', async ({ page, baseURL }) => {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  const elsewhere: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(baseURL!)) elsewhere.push(request.url());
  });

  await page.goto('/api/docs');
  await expect(page.getByRole('heading', { name: 'Life Concierge API', level: 1 })).toBeVisible();
  await page.getByText('requests', { exact: true }).first().click();
  await page.getByText('POST /requests/{id}/messages').first().click();
  await expect(page.getByText('Idempotency-Key').first()).toBeVisible();

  expect(elsewhere).toEqual([]);
  expect(problems).toEqual([]);
});
