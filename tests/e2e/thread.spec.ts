import { type Browser, type Page, expect, test } from '@playwright/test';
import {
  ONE_PIXEL_PNG,
  attachToMessage,
  callApi,
  confirmEmail,
  createRequestThroughApi,
  expectNoSeriousViolations,
  firstTemplateOf,
  pageToken,
  signIn,
  signUp,
  uniqueEmail,
} from './support.ts';

/**
 * Issue 32 point 2: the thread as a messenger, at a desktop's and a phone's width. Enter sends (Shift+Enter adds a
 * line); a post the network loses stays in the thread, 'Not sent', and Retry sends it once under the same
 * Idempotency-Key; a photo goes alone; 'Seen' follows a concierge opening the request in the console; the counter
 * and the pinned message box.
 */

const WIDTHS = [
  { name: 'desktop', viewport: { width: 1280, height: 900 }, touch: false },
  { name: 'phone', viewport: { width: 390, height: 844 }, touch: true },
] as const;

type Width = (typeof WIDTHS)[number];

async function employeeWithRequest(browser: Browser, width: Width) {
  const context = await browser.newContext({ viewport: width.viewport, hasTouch: width.touch, isMobile: width.touch });
  const page = await context.newPage();
  const email = uniqueEmail(`messenger-${width.name}`, 'acme.test');
  await signUp(page, { firstName: 'Mia', lastName: 'Messenger', email, password: 'messenger-password', companySlug: 'acme' });
  await expect(page).toHaveURL(/\/welcome\/about-us$/);
  await confirmEmail(context.request, email);
  const token = await pageToken(page);
  const created = await createRequestThroughApi(context.request, token, await firstTemplateOf(context.request, token, 'Car'));
  await page.goto(`/requests/${created.id}`);
  await expect(page.getByRole('heading', { level: 1, name: created.name })).toBeVisible();
  return { context, page, token, requestId: created.id };
}

const conversation = (page: Page) => page.getByRole('log', { name: 'Conversation' });
const messageBox = (page: Page) => page.getByRole('textbox', { name: /^Your message/ });
const myMessages = (page: Page) => conversation(page).locator('.lc-message-bubble--user');

/** The message box is in the window, at its bottom, however long the thread. */
async function expectBoxPinned(page: Page) {
  const box = await page.locator('.lc-composer').boundingBox();
  const height = page.viewportSize()!.height;
  expect(box).not.toBeNull();
  expect(box!.y + box!.height).toBeLessThanOrEqual(height + 1);
  expect(box!.y + box!.height).toBeGreaterThan(height - 48);
}

for (const width of WIDTHS) {
  test(`the thread works as a messenger (${width.name}, ${width.viewport.width} px)`, async ({ browser }) => {
    test.setTimeout(120_000);
    const { context, page, token, requestId } = await employeeWithRequest(browser, width);

    if (width.touch) {
      // On a touch screen Enter adds a line, and nothing says otherwise; Send sends.
      await expect(page.getByText('Enter sends, Shift+Enter adds a line.')).toHaveCount(0);
      await messageBox(page).fill('First line');
      await messageBox(page).press('Enter');
      await messageBox(page).pressSequentially('second line');
      await expect(messageBox(page)).toHaveValue('First line\nsecond line');
      await page.getByRole('button', { name: 'Send', exact: true }).click();
    } else {
      // On a desktop Enter sends and Shift+Enter adds a line, as the box says.
      await expect(page.getByText('Enter sends, Shift+Enter adds a line.')).toBeVisible();
      await messageBox(page).fill('First line');
      await messageBox(page).press('Shift+Enter');
      await messageBox(page).pressSequentially('second line');
      await messageBox(page).press('Enter');
    }
    const first = myMessages(page).filter({ hasText: 'second line' });
    await expect(first.locator('.lc-message-bubble__body')).toHaveJSProperty('innerHTML', '<p>First line<br>second line</p>');
    await expect(first).toContainText('Sent');
    await expect(messageBox(page)).toHaveValue('');

    // The network loses the next post: it stays in the thread, not sent, with its text; Retry sends it once.
    const keys: string[] = [];
    let dropNext = true;
    await page.route(`**/api/v1/requests/${requestId}/messages`, async (route) => {
      keys.push(route.request().headers()['idempotency-key'] ?? '');
      if (dropNext) {
        dropNext = false;
        await route.abort('connectionreset');
      } else {
        await route.continue();
      }
    });
    await messageBox(page).fill('Is Tuesday still possible?');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const failed = myMessages(page).filter({ hasText: 'Is Tuesday still possible?' });
    await expect(failed.getByRole('alert')).toContainText('Not sent: We could not reach the server. Check your connection and try again.');
    await expect(page.getByText('Retry or edit the message that was not sent first.')).toBeVisible();
    await expectNoSeriousViolations(page, 'main');
    await page.screenshot({ path: test.info().outputPath(`thread-failed-${width.viewport.width}.png`) });
    await failed.getByRole('button', { name: 'Retry' }).click();
    await expect(failed).toContainText('Sent');
    await expect(failed.getByRole('button', { name: 'Retry' })).toHaveCount(0);
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    await page.unroute(`**/api/v1/requests/${requestId}/messages`);

    // A photo alone is a message.
    await attachToMessage(page, { name: 'dashboard-light.png', mimeType: 'image/png', buffer: ONE_PIXEL_PNG });
    await expect(page.getByRole('progressbar', { name: 'Uploaded' })).toBeVisible();
    await expect(messageBox(page)).not.toHaveAttribute('aria-required', 'true');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const photo = myMessages(page).last();
    await expect(photo.getByRole('img', { name: /Image attachment/ })).toBeVisible();
    await expect(photo).toContainText('Sent');
    // Only the last message of mine says how it went.
    await expect(conversation(page).getByText('Sent', { exact: true })).toHaveCount(1);

    // The server holds each message once.
    const stored = (await callApi(context.request, token, 'GET', `requests/${requestId}`)) as {
      request: { messages: { body_html: string; attachment_keys: string[] }[] };
    };
    expect(stored.request.messages.map((message) => message.body_html)).toEqual([
      '<p>First line<br>second line</p>',
      '<p>Is Tuesday still possible?</p>',
      '',
    ]);

    // A concierge opens the request in the console: the employee's thread says Seen, live.
    const concierge = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const consolePage = await concierge.newPage();
    await consolePage.goto('/sign-in');
    await signIn(consolePage, 'concierge@demo.test');
    await expect(consolePage).not.toHaveURL(/\/sign-in/);
    await consolePage.goto(`/console/requests/${requestId}`);
    await expect(consolePage.getByRole('log', { name: 'Conversation' })).toContainText('Is Tuesday still possible?');
    await expect(photo).toContainText('Seen');
    await expect(conversation(page).getByText('Sent', { exact: true })).toHaveCount(0);
    await concierge.close();

    // Near the limit a counter shows what is left; over it, Send waits.
    await messageBox(page).fill('a'.repeat(9_500));
    await expect(page.getByText('500 characters left')).toBeVisible();
    await messageBox(page).fill('a'.repeat(10_001));
    await expect(page.getByText('1 character over the limit')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeDisabled();
    await messageBox(page).fill('');

    // The page is the thread: the header scrolls with it, the message box stays at the bottom of the window.
    await expectBoxPinned(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect(page.getByRole('heading', { level: 1 })).toBeInViewport();
    await expectBoxPinned(page);
    await page.screenshot({ path: test.info().outputPath(`thread-${width.viewport.width}.png`), fullPage: false });
    await expectNoSeriousViolations(page, 'main');

    await context.close();
  });
}
