import { type APIRequestContext, type Browser, type Page, expect, test } from '@playwright/test';
import { MINIMAL_PDF, ONE_PIXEL_PNG, attachToMessage, callApi, confirmEmail, createRequestThroughApi, expectNoSeriousViolations, firstTemplateOf, pageToken, signInAs, signInThroughApi, signUp, uniqueEmail } from './support.ts';

/**
 * Issue 5: the employee's requests and their live conversation with a concierge, in two browser contexts: the
 * employee creates a request through the request creation drawer, the concierge works it in the console. The delay
 * measurement drives the concierge through the console API, so that it times the live update alone.
 */

/** SPEC: a concierge reply appears in the employee's open thread within 2 s. */
const LIVE_DELAY_LIMIT_MS = 2000;

async function newEmployee(browser: Browser) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const email = uniqueEmail('thread', 'acme.test');
  await signUp(page, { firstName: 'Tess', lastName: 'Thread', email, password: 'thread-password', companySlug: 'acme' });
  await expect(page).toHaveURL(/\/welcome\/about-us$/);
  await confirmEmail(context.request, email);
  return { context, page, token: await pageToken(page) };
}

/**
 * Resolves with the time (ms since the epoch) at which `text` first shows inside the page's conversation log,
 * watched by a MutationObserver in the page, so that the measurement does not depend on Playwright's polling.
 */
function whenShown(page: Page, text: string): Promise<number> {
  return page.evaluate(
    (expected) =>
      new Promise<number>((resolve) => {
        const shown = () => document.querySelector('[role="log"][aria-label="Conversation"]')?.textContent?.includes(expected) ?? false;
        if (shown()) {
          resolve(Date.now());
          return;
        }
        const observer = new MutationObserver(() => {
          if (!shown()) return;
          observer.disconnect();
          resolve(Date.now());
        });
        observer.observe(document.body, { subtree: true, childList: true, characterData: true });
      }),
    text,
  );
}

/** Starts watching for `text`, then has the concierge post it; answers the delay from the call to its display. */
async function replyAndMeasure(
  employeePage: Page,
  request: APIRequestContext,
  conciergeToken: string,
  requestId: number,
  reply: { body: string; attachmentKey?: string },
): Promise<number> {
  const shown = whenShown(employeePage, reply.body);
  // The observer is installed before the reply leaves.
  await employeePage.evaluate(() => undefined);
  const sentAt = Date.now();
  await callApi(request, conciergeToken, 'POST', `console/requests/${requestId}/messages`, {
    body_markdown: reply.body,
    attachment_keys: reply.attachmentKey ? [reply.attachmentKey] : [],
  });
  return (await shown) - sentAt;
}

const conversation = (page: Page) => page.getByRole('log', { name: 'Conversation' });
const mainNavigation = (page: Page) => page.getByRole('navigation', { name: 'Main navigation' });

test('an employee and a concierge talk about a request, live, until it is completed', async ({ browser }) => {
  test.setTimeout(120_000);
  const employee = await newEmployee(browser);
  const { page } = employee;

  // Nothing yet: an empty to-do list and no Completed tab.
  await page.goto('/requests');
  await expect(page.getByRole('tab', { name: 'To do (0)' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByText('No open requests')).toBeVisible();
  await expect(page.getByRole('tab', { name: /^Completed/ })).toHaveCount(0);
  await expectNoSeriousViolations(page, 'main');

  // The employee creates a request through the drawer that 'Create a request' opens.
  await page.getByRole('button', { name: 'Create a request' }).click();
  const categories = page.getByRole('dialog', { name: 'Custom request' });
  await expect(categories.getByText('How would you categorize your request?')).toBeVisible();
  await categories.getByRole('button', { name: 'Wildcard' }).click();
  await page.getByRole('dialog', { name: 'Wildcard Requests' }).getByRole('button', { name: 'Anything else' }).click();
  const survey = page.getByRole('dialog', { name: 'Anything else' });
  const next = survey.getByRole('button', { name: 'Continue' });
  await survey.getByLabel('What can we take off your plate?').fill('Renew my car registration before it runs out');
  await next.click();
  await survey.getByLabel(/Tell us the details/).fill('Plate 7ABC123, registered in Oregon.');
  await next.click();
  await survey.getByText('This week', { exact: true }).click();
  await next.click();
  await expect(survey.getByText('Do you have a document or photo that would help?')).toBeVisible();
  await survey.getByRole('button', { name: 'Skip' }).click();
  await survey.getByLabel('What is the best phone number to reach you?').pressSequentially('2125550147');
  await next.click();
  await expect(survey.getByLabel('Which email should we send updates to?')).toHaveValue(/@acme\.test$/);
  await next.click();
  await survey.getByRole('button', { name: 'Skip' }).click();
  await survey.getByRole('region', { name: 'Review your request' }).getByRole('button', { name: 'Submit' }).click();
  await expect(survey.getByRole('heading', { name: 'Anything else has been added to your requests' })).toBeVisible();
  await survey.getByRole('link', { name: 'Requests' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // The Requests screen shows it in the queue.
  await expect(page.getByRole('tab', { name: 'To do (1)' })).toBeVisible();
  await expect(page.getByRole('heading', { name: '1 request in queue' })).toBeVisible();
  await expect(page.getByRole('heading', { name: /in progress$/ })).toHaveCount(0);
  const listed = page.getByRole('link', { name: /^Anything else/ });
  await expect(listed).toContainText('In Queue');
  const requestId = Number(/\/requests\/(\d+)$/.exec((await listed.getAttribute('href')) ?? '')?.[1]);
  expect(requestId).toBeGreaterThan(0);

  // On a phone: the bottom bar is on Requests, and not on the request itself.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(mainNavigation(page)).toBeVisible();
  await listed.click();
  await expect(page).toHaveURL(new RegExp(`/requests/${requestId}$`));
  await expect(page).toHaveTitle(/\| Request Details$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Anything else' })).toBeVisible();
  await expect(page.getByText('In Queue', { exact: true })).toBeVisible();
  await expect(page.getByText(/^Requested /)).toBeVisible();
  const welcome = conversation(page).getByRole('listitem').first();
  await expect(welcome).toContainText("We've received your request");
  await expect(welcome).toContainText('Renew my car registration before it runs out');
  await expect(mainNavigation(page)).toHaveCount(0);

  // Blank text is never sent.
  const send = page.getByRole('button', { name: 'Send' });
  await expect(send).toBeDisabled();
  await page.getByLabel('Your message').fill('   ');
  await expect(send).toBeDisabled();

  // The concierge, in a browser of their own, claims the request in the console: the open thread follows.
  const concierge = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const consolePage = await concierge.newPage();
  await signInAs(consolePage, 'concierge@demo.test');
  await consolePage.goto(`/console/requests/${requestId}`);
  await expect(consolePage.getByRole('heading', { level: 1, name: 'Anything else' })).toBeVisible();
  await expect(consolePage.getByRole('region', { name: 'Employee' })).toContainText('Tess Thread');
  await expect(consolePage.getByRole('status').filter({ hasText: 'Live' })).toBeVisible();
  const actions = consolePage.getByRole('region', { name: 'Assignment and status' });
  await actions.getByRole('button', { name: 'Claim' }).click();
  await expect(actions).toContainText('Assigned to you');
  await expect(page.getByText('In Progress', { exact: true })).toBeVisible({ timeout: LIVE_DELAY_LIMIT_MS });

  // The concierge replies with a PDF: it appears in the employee's thread live, within 2 s.
  const replyText = 'I found a garage that can do it on Tuesday. The quote is attached.';
  const replyBox = consolePage.getByRole('tabpanel', { name: 'Reply to employee' });
  await replyBox.getByRole('textbox', { name: 'Reply (Markdown)' }).fill(replyText);
  await replyBox.locator('input[type="file"]').setInputFiles({ name: 'quote.pdf', mimeType: 'application/pdf', buffer: MINIMAL_PDF });
  await expect(replyBox.getByRole('progressbar', { name: 'Uploaded' })).toBeVisible();
  const shown = whenShown(page, replyText);
  await page.evaluate(() => undefined);
  const sentAt = Date.now();
  await replyBox.getByRole('button', { name: 'Send reply' }).click();
  const delay = (await shown) - sentAt;
  console.log(`Live reply delay, from 'Send reply' in the console to the employee's thread: ${delay} ms`);
  test.info().annotations.push({ type: 'live reply delay (console click to employee display)', description: `${delay} ms` });
  expect(delay).toBeLessThan(LIVE_DELAY_LIMIT_MS);
  const reply = conversation(page).getByRole('listitem').filter({ hasText: replyText });
  // The avatar tells who wrote: the concierge's initial here, the employee's initials on their own messages.
  await expect(reply.locator('[data-source="life_concierge"]')).toHaveText('C');

  // The employee opens the attachment: through the Attachment route, in a new tab, to the file itself.
  const [attachmentTab] = await Promise.all([
    employee.context.waitForEvent('page'),
    reply.getByRole('link', { name: /Open PDF/ }).click(),
  ]);
  const download = await attachmentTab.waitForEvent('download');
  expect(download.suggestedFilename()).toBe('quote.pdf');
  expect(new URL(download.url()).pathname).toMatch(/^\/api\/storage\/[0-9a-f]+\.pdf$/);
  await attachmentTab.close();
  await expectNoSeriousViolations(page, 'main');

  // The employee answers, with a photo; it appears in the console without a reload.
  const answerText = 'Tuesday works. Here is a photo of the registration.';
  await page.getByLabel('Your message').fill(answerText);
  await attachToMessage(page, { name: 'registration.png', mimeType: 'image/png', buffer: ONE_PIXEL_PNG });
  await expect(page.getByRole('progressbar', { name: 'Uploaded' })).toBeVisible();
  await send.click();
  const answer = conversation(page).getByRole('listitem').filter({ hasText: answerText });
  await expect(answer).toContainText('You');
  await expect(answer.locator('[data-source="user"]')).toHaveText('TT');
  await expect(answer.getByRole('img', { name: /Image attachment/ })).toBeVisible();
  await expect(page.getByLabel('Your message')).toHaveValue('');
  await expect(page.getByText('registration.png')).toHaveCount(0);
  const consoleThread = consolePage.getByRole('log', { name: 'Conversation' });
  await expect(consoleThread.getByText(answerText)).toBeVisible({ timeout: LIVE_DELAY_LIMIT_MS });

  // The concierge completes the request: the employee's thread shows it at once.
  await actions.getByRole('button', { name: 'Mark completed' }).click();
  await expect(page.getByText('Completed', { exact: true })).toBeVisible({ timeout: LIVE_DELAY_LIMIT_MS });

  // Back on Requests: nothing left to do, one completed.
  await page.getByRole('link', { name: 'Back to requests' }).click();
  await expect(page.getByRole('tab', { name: 'To do (0)' })).toBeVisible();
  await expect(page.getByText('No open requests')).toBeVisible();
  await page.getByRole('tab', { name: 'Completed (1)' }).click();
  await expect(page.getByRole('heading', { name: '1 request completed' })).toBeVisible();
  await expect(page.getByRole('link', { name: /^Anything else/ })).toContainText('Completed');
  await expectNoSeriousViolations(page, 'main');

  await concierge.close();
  await employee.context.close();
});

test('a concierge reply reaches the open thread in well under 2 s (median of 20)', async ({ browser, request }) => {
  const employee = await newEmployee(browser);
  const created = await createRequestThroughApi(request, employee.token, await firstTemplateOf(request, employee.token, 'Car'));
  const conciergeToken = await signInThroughApi(request, 'concierge@demo.test');
  await callApi(request, conciergeToken, 'POST', `console/requests/${created.id}/claim`);
  await employee.page.goto(`/requests/${created.id}`);
  await expect(employee.page.getByText('In Progress', { exact: true })).toBeVisible();
  // A first reply, not measured, proves the live stream open.
  await replyAndMeasure(employee.page, request, conciergeToken, created.id, { body: 'Hello, I am on it.' });

  const delays: number[] = [];
  for (let round = 1; round <= 20; round += 1) {
    delays.push(await replyAndMeasure(employee.page, request, conciergeToken, created.id, { body: `Update number ${round}.` }));
  }
  const sorted = [...delays].sort((a, b) => a - b);
  const median = (sorted[9]! + sorted[10]!) / 2;
  const summary = `median ${median} ms, min ${sorted[0]} ms, max ${sorted.at(-1)} ms; all: ${delays.join(', ')}`;
  console.log(`Live reply delay over 20 replies: ${summary}`);
  test.info().annotations.push({ type: 'live reply delay (20 replies)', description: summary });
  expect(median).toBeLessThan(LIVE_DELAY_LIMIT_MS);
  expect(sorted.at(-1)).toBeLessThan(LIVE_DELAY_LIMIT_MS);
  await expect(conversation(employee.page).getByRole('listitem')).toHaveCount(22);

  await employee.context.close();
});
