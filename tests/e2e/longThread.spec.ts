import { expect, test } from '@playwright/test';
import { callApi, confirmEmail, createRequestThroughApi, firstTemplateOf, pageToken, signUp, uniqueEmail } from './support.ts';

/**
 * Issue 31: a long thread opens at its newest messages (the newest 100 of 130), and the older ones load as the
 * employee scrolls up to them, what they were reading staying in view; the welcome with the details opens the thread
 * once its start is there.
 */

const MESSAGES = 130;
const PAGE = 100;

test('a long thread opens at its newest messages and the older ones load on scrolling up', async ({ page }) => {
  test.setTimeout(180_000);
  const email = uniqueEmail('long-thread', 'acme.test');
  await signUp(page, { firstName: 'Lena', lastName: 'Longthread', email, password: 'long-thread-password', companySlug: 'acme' });
  await expect(page).toHaveURL(/\/welcome\/about-us$/);
  await confirmEmail(page.request, email);
  const token = await pageToken(page);
  const created = await createRequestThroughApi(page.request, token, await firstTemplateOf(page.request, token, 'Car'));
  for (let n = 1; n <= MESSAGES; n += 1) {
    await callApi(page.request, token, 'POST', `requests/${created.id}/messages`, { message: { body: `Message ${n}`, source: 'user', source_name: 'Lena' } });
  }

  await page.goto(`/requests/${created.id}`);
  const conversation = page.getByRole('log', { name: 'Conversation' });
  const message = (n: number) => conversation.getByText(`Message ${n}`, { exact: true });
  await expect(message(MESSAGES)).toBeInViewport();
  const oldestOfPage = MESSAGES - PAGE + 1;
  await expect(message(oldestOfPage)).toBeAttached();
  await expect(message(oldestOfPage - 1)).not.toBeAttached();
  await expect(conversation).not.toContainText("We've received your request");

  // Up to the start of what is loaded: the page before it comes, and the message read a moment ago stays in view.
  await message(oldestOfPage).scrollIntoViewIfNeeded();
  await page.evaluate(() => window.scrollTo({ top: 0 }));
  await expect(message(1)).toBeAttached();
  await expect(message(oldestOfPage)).toBeInViewport();
  await expect(message(1)).not.toBeInViewport();
  await expect(conversation.locator('.lc-message-bubble').first()).toContainText("We've received your request");
  await expect(conversation.locator('.lc-thread__start')).toHaveCount(0);
});
