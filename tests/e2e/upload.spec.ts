import { expect, test } from '@playwright/test';
import { ONE_PIXEL_PNG, attachToMessage, createRequestThroughApi, firstTemplateOf, pageToken, signIn } from './support.ts';

/**
 * Issue 3: a real file travels from Chromium to the server's signed storage address with visible progress. The
 * upload is slowed with Chromium's network emulation so that the progress bar is seen between 0 and 100 percent.
 */
test('a real file uploads with visible progress, then shows as Uploaded', async ({ page }) => {
  await page.goto('/sign-in');
  await signIn(page, 'employee@demo.test');
  await expect(page).toHaveURL(/\/dashboard$/);
  const token = await pageToken(page);
  const created = await createRequestThroughApi(page.request, token, await firstTemplateOf(page.request, token, 'Pet'));
  await page.goto(`/requests/${created.id}`);

  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 20,
    downloadThroughput: -1,
    uploadThroughput: 400 * 1024,
  });

  // A valid PNG followed by 1.5 MB of padding: image viewers ignore what follows the image's end marker.
  const bigPng = Buffer.concat([ONE_PIXEL_PNG, Buffer.alloc(1.5 * 1024 * 1024, 7)]);
  await attachToMessage(page, { name: 'scan.png', mimeType: 'image/png', buffer: bigPng });

  const progress = page.getByRole('progressbar', { name: 'Uploading' });
  await expect(progress).toBeVisible();
  await expect
    .poll(async () => Number(await progress.getAttribute('aria-valuenow')), { timeout: 15_000 })
    .toBeGreaterThan(0);
  const midway = Number(await progress.getAttribute('aria-valuenow'));
  expect(midway).toBeLessThan(100);

  await expect(page.getByRole('progressbar', { name: 'Uploaded' })).toHaveAttribute('aria-valuenow', '100', {
    timeout: 30_000,
  });
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
});
