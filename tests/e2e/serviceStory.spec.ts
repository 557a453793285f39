import { mkdirSync } from 'node:fs';
import { type APIRequestContext, type Browser, type Page, expect, test } from '@playwright/test';
import { clockResponse } from '../../src/contract/dev.ts';
import { SERVICE_STORY_CLOCK_START, SERVICE_STORY_PORT } from './ports.ts';
import { expectNoSeriousViolations, signInAs, signInThroughApi } from './support.ts';

/**
 * Issue 28's acceptance story, through the screens, on a server of its own whose turnaround clock stands still until
 * the story moves it (playwright.config.ts, MANUAL_CLOCK_START). Acme gets a tight target (1 working hour to a first
 * answer); Erin files a request at a given time; the clock moves on and the concierge's console turns the request at
 * risk, then breached, each with its live alert; the concierge answers with a saved reply an admin wrote, completes
 * the request; Erin rates it 2 with a comment; the Reports screen shows the rating and the missed target.
 *
 * Through the API, only what has no screen: Acme's service policy (admins set policies through the API) and the
 * server's clock (test runs only). The at-risk alert goes to the assignee (unassigned, only a breach alerts), so the
 * concierge claims the request first.
 */

const BASE_URL = `http://127.0.0.1:${SERVICE_STORY_PORT}`;
test.use({ baseURL: BASE_URL, viewport: { width: 1280, height: 900 } });

const EMPLOYEE = 'employee@demo.test';
const CONCIERGE = 'concierge@demo.test';
const ADMIN = 'admin@demo.test';
const REQUEST_NAME = 'Help me with my benefits';
const SAVED_REPLY_CODE = 'onit';
const COMMENT = 'The answer came a day late.';
const SHOTS = 'test-results/service-story';
/** The Paris working week of the demo's policies, Monday to Friday 9 to 18. */
const WORKING_WEEK = [...Array.from({ length: 5 }, () => ({ opens: '09:00', closes: '18:00' })), null, null];

/** Sets or moves the server's turnaround clock (the dev route, loopback and test runs only); answers where it stands. */
async function moveClock(request: APIRequestContext, move: { set: string } | { advance_minutes: number }): Promise<Date> {
  const response = await request.post('/api/dev/clock', { data: move });
  expect(response.status(), await response.text()).toBe(200);
  return new Date(clockResponse.parse(await response.json()).now);
}

/** Acme's own targets: 1 working hour to a first answer, 1 working day to done. */
async function giveAcmeATightTarget(request: APIRequestContext) {
  const token = await signInThroughApi(request, ADMIN);
  const headers = { authorization: token };
  const { companies } = (await (await request.get('/api/v1/admin/companies', { headers })).json()) as {
    companies: Array<{ id: number; slug: string }>;
  };
  const acme = companies.find((company) => company.slug === 'acme')!;
  const response = await request.post('/api/v1/admin/service_policies', {
    headers,
    data: { company_id: acme.id, first_response_minutes: 60, resolution_minutes: 9 * 60, time_zone: 'Europe/Paris', week: WORKING_WEEK, holidays: [] },
  });
  expect(response.status(), await response.text()).toBe(201);
}

async function signedInPage(browser: Browser, email: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: BASE_URL, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await signInAs(page, email);
  return page;
}

/** Erin files a benefits request from the Dashboard's categories; answers its id. */
async function fileRequestThroughScreens(page: Page): Promise<number> {
  await page.getByRole('button', { name: 'Explore categories' }).click();
  await page.getByRole('dialog', { name: 'Request categories' }).getByRole('button', { name: 'Medical / Employer Benefits' }).click();
  await page.getByRole('dialog', { name: 'Medical / Employer Benefits Requests' }).getByRole('button', { name: REQUEST_NAME }).click();
  const drawer = page.getByRole('dialog', { name: REQUEST_NAME });
  const continueButton = drawer.getByRole('button', { name: 'Continue' });
  await drawer.getByText('A claim or a bill', { exact: true }).click();
  await continueButton.click();
  await drawer.getByLabel(/Tell us more about your situation/).fill('My insurer refused a claim for a physiotherapy session.');
  await continueButton.click();
  await expect(drawer.getByLabel(/Who is your employer or benefits provider\?/)).toBeVisible();
  await drawer.getByRole('button', { name: 'Skip' }).click();
  await expect(drawer.getByText('Upload a plan document, bill or letter')).toBeVisible();
  await drawer.getByRole('button', { name: 'Skip' }).click();
  const phone = drawer.getByLabel('Which phone number is best for a quick call?');
  await phone.fill('');
  await phone.pressSequentially('2125550147');
  await continueButton.click();
  const summary = drawer.getByRole('region', { name: 'Review your request' });
  await summary.getByRole('button', { name: 'Submit' }).click();
  await expect(drawer.getByRole('heading', { name: `${REQUEST_NAME} has been added to your requests` })).toBeVisible();
  await drawer.getByRole('link', { name: 'Dashboard' }).click();
  const latest = page.getByRole('region', { name: 'Your latest request' }).getByRole('link');
  await expect(latest).toContainText(REQUEST_NAME);
  const href = await latest.getAttribute('href');
  return Number(/\/requests\/(\d+)/.exec(href ?? '')![1]);
}

test('a tight target falls due in the console, is answered with a saved reply, rated 2, and reported missed', async ({ browser, request }) => {
  test.setTimeout(180_000);
  mkdirSync(SHOTS, { recursive: true });
  await giveAcmeATightTarget(request);
  const filedAt = await moveClock(request, { set: SERVICE_STORY_CLOCK_START });

  // An admin writes the saved reply on the admin screen.
  const admin = await signedInPage(browser, ADMIN);
  await admin.goto('/console/admin/saved-replies');
  await admin.getByRole('button', { name: 'New saved reply' }).click();
  const dialog = admin.getByRole('dialog', { name: 'New saved reply' });
  await dialog.getByRole('textbox', { name: /^Title/ }).fill('On it');
  await dialog.getByRole('textbox', { name: /^Short code/ }).fill(SAVED_REPLY_CODE);
  await dialog.getByRole('textbox', { name: /^Reply/ }).fill('Hi {{employee_first_name}}, I am on {{request_name}} now. {{concierge_name}}');
  await dialog.getByRole('button', { name: 'Create saved reply' }).click();
  await expect(admin.getByRole('grid', { name: 'Saved replies' }).getByRole('row', { name: new RegExp(`/${SAVED_REPLY_CODE}`) })).toBeVisible();
  await expectNoSeriousViolations(admin);
  await admin.context().close();

  // Erin files the request at the given time: one working hour to a first answer.
  const employee = await signedInPage(browser, EMPLOYEE);
  const requestId = await fileRequestThroughScreens(employee);

  // The concierge claims it and watches the queue.
  const concierge = await signedInPage(browser, CONCIERGE);
  await concierge.goto(`/console/requests/${requestId}`);
  await expect(concierge.getByRole('heading', { level: 1, name: REQUEST_NAME })).toBeVisible();
  await concierge.getByRole('button', { name: 'Claim' }).click();
  await expect(concierge.getByText('Assigned to you (Casey Concierge)')).toBeVisible();
  const targets = concierge.getByRole('region', { name: 'Turnaround targets' });
  await expect(targets).toContainText('On track');
  await expectNoSeriousViolations(concierge);
  await concierge.goto('/console');
  await concierge.getByRole('tab', { name: /^In Progress: mine/ }).click();
  const row = concierge.getByRole('list', { name: /requests$/ }).getByRole('listitem').filter({ hasText: REQUEST_NAME });
  await expect(row).toContainText('On track');
  const alerts = concierge.getByRole('log', { name: 'Turnaround alerts' });
  await expect(alerts.getByRole('link')).toHaveCount(0);

  // 50 minutes on, past 80% of the hour: at risk, and the concierge is alerted live.
  expect((await moveClock(request, { advance_minutes: 50 })).getTime() - filedAt.getTime()).toBe(50 * 60_000);
  await expect(alerts.getByRole('link', { name: `At risk: first response of "${REQUEST_NAME}"` })).toBeVisible();
  await expect(row).toContainText('At risk');
  await expectNoSeriousViolations(concierge);
  await concierge.screenshot({ path: `${SHOTS}/at-risk.png`, fullPage: true });

  // 15 more: the hour has passed unanswered.
  await moveClock(request, { advance_minutes: 15 });
  const breach = alerts.getByRole('link', { name: `Breached: first response of "${REQUEST_NAME}"` });
  await expect(breach).toBeVisible();
  await expect(row).toContainText('Breached');
  await expectNoSeriousViolations(concierge);
  await concierge.screenshot({ path: `${SHOTS}/breached.png`, fullPage: true });

  // The alert leads to the request; the concierge answers with the saved reply, then completes it.
  await breach.click();
  await expect(concierge).toHaveURL(new RegExp(`/console/requests/${requestId}$`));
  await expect(targets).toContainText('Breached');
  const reply = concierge.getByRole('textbox', { name: /^Reply \(Markdown\)/ });
  await reply.click();
  await concierge.keyboard.type('/');
  await expect(concierge.getByRole('combobox', { name: /^Saved reply/ })).toBeFocused();
  await concierge.keyboard.type(SAVED_REPLY_CODE);
  await expect(concierge.getByRole('option', { name: new RegExp(SAVED_REPLY_CODE) })).toBeVisible();
  await concierge.keyboard.press('ArrowDown');
  await concierge.keyboard.press('Enter');
  const answer = `Hi Erin, I am on ${REQUEST_NAME} now. Casey Concierge`;
  await expect(reply).toHaveValue(answer);
  await moveClock(request, { advance_minutes: 5 });
  await concierge.getByRole('button', { name: 'Send reply' }).click();
  await expect(concierge.getByText(answer)).toBeVisible();
  await expect(targets).toContainText('First response');
  await expect(targets).toContainText('missed');
  await moveClock(request, { advance_minutes: 60 });
  await concierge.getByRole('button', { name: 'Mark completed' }).click();
  await expect(concierge.getByRole('button', { name: 'Mark completed' })).toHaveCount(0);
  await expectNoSeriousViolations(concierge);
  await concierge.screenshot({ path: `${SHOTS}/completed.png`, fullPage: true });

  // Erin reads the answer and rates the request 2 with a comment on its page.
  await employee.goto(`/requests/${requestId}`);
  await expect(employee.getByText(answer)).toBeVisible();
  const card = employee.getByRole('region', { name: 'How did we do?' });
  await card.getByRole('radiogroup').getByText('2', { exact: true }).click();
  await expect(card.getByRole('radio', { name: '2 – Poor' })).toBeChecked();
  await card.getByRole('textbox', { name: /Comment/ }).fill(COMMENT);
  await card.getByRole('button', { name: 'Send rating' }).click();
  await expect(card.getByRole('status')).toHaveText('Thank you for your rating.');
  await employee.context().close();

  // Reports: Acme's one completed request, rated 2, answered after 70 working minutes (its first-response target
  // missed) and completed after 130 (its resolution target of 9 working hours met).
  await concierge.getByRole('link', { name: 'Reports' }).click();
  await expect(concierge).toHaveURL(/\/console\/reports$/);
  const acme = concierge.getByRole('grid', { name: 'Figures by company' }).getByRole('row', { name: /^Acme/ });
  await expect(acme.getByRole('rowheader')).toHaveText('Acme Corporation');
  await expect(acme.getByRole('gridcell')).toHaveText([
    '1',
    '1',
    '100%',
    '0%',
    '0 / 1 / 0 / 0 / 0',
    '1 h 10 min / 1 h 10 min',
    '2 h 10 min / 2 h 10 min',
    '0%',
    '100%',
  ]);
  const comment = concierge.locator('.lc-reports__comment').filter({ hasText: COMMENT });
  await expect(comment).toContainText('2 of 5');
  await expect(comment.getByRole('link', { name: REQUEST_NAME })).toHaveAttribute('href', `/console/requests/${requestId}`);
  await expectNoSeriousViolations(concierge);
  await concierge.screenshot({ path: `${SHOTS}/reports.png`, fullPage: true });
  await concierge.context().close();
});
