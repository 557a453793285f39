import { type Page, expect, test } from '@playwright/test';
import { BENEFITS_HELP_SURVEY_ID, MINIMAL_PDF, callApi, createRequestThroughApi, expectNoSeriousViolations, signInAs, signInThroughApi } from './support.ts';

/**
 * Issue 5, item 3: the concierge console at /console. Employees get the staff-only page and never download the
 * console's code; a concierge works a request an employee created, from the queue to a closed and reopened request.
 */

const EMPLOYEE = 'employee@demo.test';
const CONCIERGE = 'concierge@demo.test';
/** The survey behind the Benefits & Offers 'Request help' button (SPEC §9). */
/** Issue 5: an employee message appears in the console within 2 s, without a reload. */
const LIVE_DELAY_LIMIT_MS = 2000;
/** The console's lazy chunk, as the build names it (the staff test checks that it really is loaded under this name). */
const CONSOLE_CHUNK = /\/assets\/ConsoleLayout-[\w-]+\.js$/;

/** Every script the page asks for, from now on. */
function recordScripts(page: Page): string[] {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  return scripts;
}

test('an employee who opens /console sees the staff-only page and never loads the console', async ({ page }) => {
  const scripts = recordScripts(page);
  await signInAs(page, EMPLOYEE);
  // Employees get no way into the console.
  await expect(page.getByRole('link', { name: 'Concierge console' })).toHaveCount(0);

  for (const address of ['/console', '/console/requests/1']) {
    await page.goto(address);
    await expect(page.getByText('This area is for concierge staff only.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Go to Dashboard' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Queues' })).toHaveCount(0);
  }
  await expectNoSeriousViolations(page);
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.filter((script) => CONSOLE_CHUNK.test(script))).toEqual([]);

  // Nor can the console's API be used directly.
  const token = await signInThroughApi(page.request, EMPLOYEE);
  const refused = await page.request.get('/api/v1/console/requests', { headers: { authorization: token } });
  expect(refused.status()).toBe(403);
});

test('a concierge claims a request, replies in Markdown with a file, notes, closes and reopens it, and sees the employee answer live', async ({ page }) => {
  test.setTimeout(120_000);
  const employeeToken = await signInThroughApi(page.request, EMPLOYEE);
  const created = await createRequestThroughApi(page.request, employeeToken, BENEFITS_HELP_SURVEY_ID);

  const scripts = recordScripts(page);
  await signInAs(page, CONCIERGE);
  // Staff land on the console after sign-in (issue 32).
  await expect(page).toHaveURL(/\/console$/);
  await expect(page).toHaveTitle(/Concierge Console/);
  expect(scripts.filter((script) => CONSOLE_CHUNK.test(script))).toHaveLength(1);
  await expect(page.getByRole('status').filter({ hasText: 'Live' })).toBeVisible();

  // The new request waits In Queue; the search finds it by the employee's name.
  const queues = page.getByRole('region', { name: 'Queues' });
  await expect(queues.getByRole('tab', { name: /^In Queue \d+$/ })).toHaveAttribute('aria-selected', 'true');
  await queues.getByRole('searchbox', { name: 'Search by employee or request name' }).fill('Erin Employee');
  const row = queues.locator(`a[href="/console/requests/${created.id}"]`);
  await expect(row).toContainText(created.name);
  await expect(row).toContainText('Erin Employee');
  await expect(row).toContainText('In Queue · Unassigned');
  await expectNoSeriousViolations(page);
  await row.click();

  // The request: its employee, company and survey answers.
  await expect(page).toHaveURL(new RegExp(`/console/requests/${created.id}$`));
  await expect(page.getByRole('heading', { level: 1, name: created.name })).toBeVisible();
  const employeeCard = page.getByRole('region', { name: 'Employee' });
  await expect(employeeCard).toContainText('Erin Employee');
  await expect(employeeCard).toContainText('Acme Corporation');
  await expect(page.getByRole('region', { name: 'Survey answers' })).toContainText('please take care of it.');

  // Claim: assigned to me, In Progress.
  const actions = page.getByRole('region', { name: 'Assignment and status' });
  await actions.getByRole('button', { name: 'Claim' }).click();
  await expect(actions).toContainText('Assigned to you (Casey Concierge)');
  // The queue beside the request shows its badge too: read the request's own.
  await expect(page.locator('#console-main').getByText('In Progress', { exact: true })).toBeVisible();
  await expect(page.getByRole('log', { name: 'Conversation' })).toContainText('Casey Concierge claimed the request');

  // A Markdown reply, previewed as the server renders it, with one PDF.
  const reply = page.getByRole('tabpanel', { name: 'Reply to employee' });
  await reply.getByRole('textbox', { name: 'Reply (Markdown)' }).fill('Hello Erin, here is **your quote**.\n\n- call us <script>alert(1)</script>');
  await reply.getByRole('button', { name: 'Preview' }).click();
  const preview = reply.getByRole('region', { name: 'Preview' });
  await expect(preview.locator('strong')).toHaveText('your quote');
  await expect(preview.locator('script')).toHaveCount(0);
  await reply.getByRole('button', { name: 'Edit' }).click();
  await reply.locator('input[type="file"]').setInputFiles({ name: 'quote.pdf', mimeType: 'application/pdf', buffer: MINIMAL_PDF });
  await expect(reply.getByRole('progressbar', { name: 'Uploaded' })).toBeVisible();
  await reply.getByRole('button', { name: 'Send reply' }).click();
  const thread = page.getByRole('log', { name: 'Conversation' });
  const sent = thread.locator('.lc-console-entry--reply').last();
  await expect(sent.locator('strong')).toHaveText('your quote');
  await expect(sent.getByRole('link', { name: /^Open attachment/ })).toHaveAttribute('href', /^\/attachments\/.+/);
  await expect(reply.getByRole('textbox', { name: 'Reply (Markdown)' })).toHaveValue('');

  // An internal note, set apart and labelled.
  await page.getByRole('tab', { name: 'Internal note' }).click();
  const notePanel = page.getByRole('tabpanel', { name: 'Internal note' });
  await notePanel.getByRole('textbox', { name: 'Note (Markdown)' }).fill('Quote requested from the carrier.');
  await notePanel.getByRole('button', { name: 'Add note' }).click();
  const note = thread.locator('.lc-console-entry--note').last();
  await expect(note).toContainText('Internal note — not visible to the employee');
  await expect(note).toContainText('Quote requested from the carrier.');

  // The employee sees the reply and its file, never the note.
  const employeeView = (await callApi(page.request, employeeToken, 'GET', `requests/${created.id}`)).request as {
    messages: { body_html: string; attachment_keys: string[] }[];
  };
  expect(employeeView.messages.some((message) => message.body_html.includes('<strong>your quote</strong>') && message.attachment_keys.length === 1)).toBe(true);
  expect(employeeView.messages.some((message) => message.body_html.includes('<script'))).toBe(false);
  expect(JSON.stringify(employeeView)).not.toContain('Quote requested from the carrier.');
  await expectNoSeriousViolations(page);

  // The employee answers: it appears here live, without a reload.
  const answer = `Thanks! Reference ${Date.now()}`;
  await callApi(page.request, employeeToken, 'POST', `requests/${created.id}/messages`, { message: { body: answer, source: 'user' } });
  await expect(thread.getByText(answer)).toBeVisible({ timeout: LIVE_DELAY_LIMIT_MS });

  // Close, then reopen.
  await actions.getByRole('button', { name: 'Mark completed' }).click();
  await expect(page.getByText('Completed', { exact: true }).first()).toBeVisible();
  await expect(thread).toContainText('moved the request from In Progress to Completed');
  await actions.getByRole('button', { name: 'Reopen' }).click();
  await expect(actions.getByRole('button', { name: 'Mark completed' })).toBeVisible();
  await expect(thread).toContainText('moved the request from Completed to In Progress');
  const final = (await callApi(page.request, employeeToken, 'GET', `requests/${created.id}`)).request as { status: string };
  expect(final.status).toBe('in_progress');

  // The request is now among my own In Progress requests.
  await page.getByRole('searchbox', { name: 'Search by employee or request name' }).fill('');
  await queues.getByRole('tab', { name: /^In Progress: mine/ }).click();
  await expect(queues.locator(`a[href="/console/requests/${created.id}"]`)).toHaveAttribute('aria-current', 'page');

  // On a phone the request fills the screen, with a way back to the queues; both pass axe there too.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(queues).toBeHidden();
  await expect(page.getByRole('heading', { level: 1, name: created.name })).toBeVisible();
  await expectNoSeriousViolations(page);
  await page.getByRole('link', { name: 'Back to the queues' }).click();
  await expect(queues).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: created.name })).toHaveCount(0);
  await expectNoSeriousViolations(page);
});
