import { mkdirSync } from 'node:fs';
import { type APIRequestContext, type Browser, type Page, expect, test } from '@playwright/test';
import { outboxResponse } from '../../src/contract/dev.ts';
import { unreadRepliesResponse } from '../../src/contract/requests.ts';
import {
  BENEFITS_HELP_SURVEY_ID,
  callApi,
  createRequestThroughApi,
  expectNoSeriousViolations,
  signIn,
  signInThroughApi,
} from './support.ts';

/**
 * Issue 32 point 1, unread replies: two tabs of one employee see a concierge's reply counted at once; reading it in
 * one clears the other, live; the reply e-mail is not sent because it was read (the e2e server waits
 * REPLY_EMAIL_DELAY_MS, tests/e2e/start-server.ts, where production waits 5 minutes).
 */

const EMPLOYEE = 'employee@demo.test';
const CONCIERGE = 'concierge@demo.test';
const SHOTS = 'test-results/unread';
const WIDTHS = [1280, 390] as const;

/** Everything the employee has unread is read first (an earlier story may have left replies), through the API. */
async function readEverything(request: APIRequestContext, token: string) {
  const unread = unreadRepliesResponse.parse(await callApi(request, token, 'GET', 'requests/unread'));
  for (const { id } of unread.requests) {
    const { request: thread } = (await callApi(request, token, 'GET', `requests/${id}`)) as { request: { messages: { id: number }[] } };
    await callApi(request, token, 'POST', `requests/${id}/read`, { message_id: Math.max(...thread.messages.map((message) => message.id)) });
  }
}

async function employeeTab(browser: Browser, width: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 844 } });
  const page = await context.newPage();
  await page.goto('/sign-in');
  await signIn(page, EMPLOYEE);
  await expect(page).toHaveURL(/\/dashboard$/);
  return page;
}

/** The Requests item of the navigation the width shows (sidebar, or bottom bar), by its accessible name. */
const requestsNav = (page: Page, unread: number) =>
  page.getByRole('navigation', { name: 'Main navigation' }).filter({ visible: true })
    .getByRole('link', { name: unread > 0 ? `Requests ${unread} unread ${unread === 1 ? 'reply' : 'replies'}` : /^Requests$/ });

for (const width of WIDTHS) {
  test(`two tabs of one employee at ${width} px: a reply is counted in both, read in one, cleared in both, and not e-mailed`, async ({
    browser,
    request,
  }) => {
    // The story waits for the control's e-mail (REPLY_EMAIL_DELAY_MS and a sweep) after two sign-ins and two axe scans.
    test.setTimeout(150_000);
    mkdirSync(SHOTS, { recursive: true });
    const employeeToken = await signInThroughApi(request, EMPLOYEE);
    const conciergeToken = await signInThroughApi(request, CONCIERGE);
    await readEverything(request, employeeToken);
    const read = await createRequestThroughApi(request, employeeToken, BENEFITS_HELP_SURVEY_ID);
    const control = await createRequestThroughApi(request, employeeToken, BENEFITS_HELP_SURVEY_ID);

    const tabA = await employeeTab(browser, width);
    const tabB = await employeeTab(browser, width);
    await tabB.goto('/requests');
    await expect(requestsNav(tabA, 0)).toBeVisible();

    await callApi(request, conciergeToken, 'POST', `console/requests/${read.id}/messages`, { body_markdown: 'I found **two** options for you.' });
    for (const tab of [tabA, tabB]) {
      await expect(requestsNav(tab, 1)).toBeVisible();
      await expect(tab).toHaveTitle(/^\(1\) Life Concierge/);
    }
    // The list counts the request's unread reply as it arrives.
    const item = tabB.locator(`a[href="/requests/${read.id}"]`);
    await expect(item.getByText('1 unread reply')).toBeAttached();

    // Read in tab A: opened and scrolled to its end.
    await tabA.goto(`/requests/${read.id}`);
    await expect(tabA.getByText('I found two options for you.')).toBeVisible();
    await tabA.getByRole('log', { name: 'Conversation' }).evaluate((log) => log.lastElementChild?.scrollIntoView());
    // Cleared in tab B at once, and in tab A.
    await expect(requestsNav(tabB, 0)).toBeVisible();
    await expect(item.getByText('1 unread reply')).toHaveCount(0);
    await expect(tabB).toHaveTitle(/^Life Concierge/);
    await expect(tabA).toHaveTitle(/^Life Concierge/);

    // The control's reply, left unread: counted, previewed in the lists and on the Dashboard.
    await callApi(request, conciergeToken, 'POST', `console/requests/${control.id}/messages`, { body_markdown: 'Any preference?' });
    await expect(requestsNav(tabB, 1)).toBeVisible();
    await tabB.reload();
    const controlItem = tabB.locator(`a[href="/requests/${control.id}"]`);
    await expect(controlItem.getByText('Any preference?')).toBeVisible();
    await expect(controlItem.getByText('1 unread reply')).toBeAttached();
    await expect(item.getByText('I found two options for you.')).toBeVisible();
    await tabA.goto('/dashboard');
    await expect(requestsNav(tabA, 1)).toBeVisible();
    await tabA.screenshot({ path: `${SHOTS}/dashboard-${width}.png`, fullPage: true });
    await tabB.screenshot({ path: `${SHOTS}/requests-${width}.png`, fullPage: true });
    await expectNoSeriousViolations(tabB);
    await expectNoSeriousViolations(tabA);

    // The control's reply is e-mailed once its wait is over; the read one never is.
    const mailsAbout = async (requestId: number) => {
      const outbox = outboxResponse.parse(await (await request.get(`/api/dev/outbox?to=${encodeURIComponent(EMPLOYEE)}&limit=50`)).json());
      return outbox.messages.filter((message) => message.links.some((link) => link.endsWith(`/requests/${requestId}`)));
    };
    await expect.poll(async () => (await mailsAbout(control.id)).map((mail) => mail.subject), { timeout: 40_000 }).toEqual([
      `New reply on your request "${control.name}"`,
    ]);
    // The read reply fell due first (it was sent first): its e-mail would be there by now.
    expect(await mailsAbout(read.id)).toEqual([]);

    await tabA.context().close();
    await tabB.context().close();
  });
}

test('Account: the employee chooses the reply e-mails, and the choice is kept', async ({ browser }) => {
  for (const width of WIDTHS) {
    const page = await employeeTab(browser, width);
    await page.goto('/account');
    const choices = page.getByRole('radiogroup', { name: 'E-mail me about replies' });
    await expect(choices.getByRole('radio', { name: /Each reply/ })).toBeChecked();
    await choices.getByText('Daily digest').click();
    await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
    await page.getByRole('region', { name: 'Notifications' }).screenshot({ path: `${SHOTS}/account-notifications-${width}.png` });
    await page.screenshot({ path: `${SHOTS}/account-${width}.png`, fullPage: true });
    await expectNoSeriousViolations(page);
    await page.reload();
    await expect(choices.getByRole('radio', { name: /Daily digest/ })).toBeChecked();
    // Back as it was, for the stories after this one.
    await choices.getByText('Each reply').click();
    await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
    await page.context().close();
  }
});
