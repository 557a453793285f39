import { type Page, type Request, expect, test } from '@playwright/test';
import { LOCAL_S3_BUCKET } from '../localS3.ts';
import { S3_STORAGE_PORT } from './ports.ts';
import { ONE_PIXEL_PNG, attachToMessage, createRequestThroughApi, firstTemplateOf, pageToken, signIn, signInAs } from './support.ts';

/** The employee's thread of a new request of theirs. */
async function employeeThread(page: Page): Promise<number> {
  await page.goto('/sign-in');
  await signIn(page, 'employee@demo.test');
  await expect(page).toHaveURL(/\/dashboard$/);
  const token = await pageToken(page);
  const created = await createRequestThroughApi(page.request, token, await firstTemplateOf(page.request, token, 'Pet'));
  await page.goto(`/requests/${created.id}`);
  return created.id;
}

/**
 * Attaches a real image with Chromium's upload slowed by network emulation, so that the progress bar is seen between
 * 0 and 100 percent; answers the browser's PUT of its bytes.
 */
async function attachWithVisibleProgress(page: Page, name: string): Promise<Request> {
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
  const bytesSent = page.waitForRequest((request) => request.method() === 'PUT');
  await attachToMessage(page, { name, mimeType: 'image/png', buffer: bigPng });

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
  return bytesSent;
}

/** Issue 3: a real file travels from Chromium to the server's signed storage address with visible progress. */
test('a real file uploads with visible progress, then shows as Uploaded', async ({ page }) => {
  await employeeThread(page);
  const put = await attachWithVisibleProgress(page, 'scan.png');
  expect(new URL(put.url()).pathname).toMatch(/^\/api\/storage\//);
});

/**
 * Issue 35: the same with STORAGE=s3, on a server whose files are in a bucket of a local S3-protocol server that checks
 * signatures and the bucket's CORS rule. The bytes go from the browser straight to the bucket; the image is shown
 * from there, and the concierge opens it from there.
 */
test.describe('with files on S3', () => {
  test.use({ baseURL: `http://127.0.0.1:${S3_STORAGE_PORT}` });

  test('an employee attaches an image in a thread, straight to the bucket; the concierge opens it', async ({ page, browser, baseURL }) => {
    const requestId = await employeeThread(page);
    const put = await attachWithVisibleProgress(page, 'receipt.png');
    const bucketAddress = new URL(put.url());
    expect(bucketAddress.origin).not.toBe(baseURL);
    expect(bucketAddress.pathname).toMatch(new RegExp(`^/${LOCAL_S3_BUCKET}/[0-9a-f]{32}\\.png$`));
    expect(bucketAddress.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    // No credentials of the app travel to the bucket: the signature is the permission.
    const sentHeaders = await put.allHeaders();
    expect(sentHeaders.cookie).toBeUndefined();
    expect(sentHeaders.authorization).toBeUndefined();
    expect((await put.response())?.status()).toBe(200);

    const text = 'Here is the receipt.';
    await page.getByLabel('Your message').fill(text);
    await page.getByRole('button', { name: 'Send' }).click();
    const preview = page.getByRole('listitem').filter({ hasText: text }).getByRole('img', { name: /Image attachment/ });
    await expect(preview).toBeVisible();
    // Shown from the bucket: the first read found a PNG, and the page's CSP lets the bucket's images in.
    await expect.poll(() => preview.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(1);
    expect(new URL(await preview.getAttribute('src') ?? '').origin).toBe(bucketAddress.origin);

    const concierge = await browser.newContext({ baseURL });
    const consolePage = await concierge.newPage();
    await signInAs(consolePage, 'concierge@demo.test');
    await consolePage.goto(`/console/requests/${requestId}`);
    const [attachmentTab] = await Promise.all([
      concierge.waitForEvent('page'),
      // The console shows the image as a thumbnail that opens the file in a new tab.
      consolePage.getByRole('log', { name: 'Conversation' }).getByRole('link', { name: 'Image attachment (opens in a new tab)' }).click(),
    ]);
    // The file itself: a CORS preflight to the bucket (OPTIONS, no body) may come first.
    const file = await attachmentTab.waitForResponse(
      (response) => new URL(response.url()).origin === bucketAddress.origin && response.request().method() === 'GET',
    );
    expect(file.status()).toBe(200);
    expect(new URL(file.url()).pathname).toBe(bucketAddress.pathname);
    // The bucket's own headers, asked for again: the tab may take the file from the cache its thumbnail filled, an
    // answer Playwright reports without them.
    const served = await concierge.request.get(file.url());
    expect(served.headers()['content-type']).toBe('image/png');
    expect(served.headers()['content-disposition']).toMatch(/^inline; filename="receipt\.png"/);
    await concierge.close();
  });
});
