import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, type Page, expect, test } from '@playwright/test';
import { DEMO_PASSWORD, signIn } from './support.ts';

/**
 * Issue 5, item 3: the concierge console at /console. Employees get the staff-only page and never download the
 * console's code; a concierge works a request an employee created, from the queue to a closed and reopened request.
 */

const API = '/api/v1';
const EMPLOYEE = 'employee@demo.test';
const CONCIERGE = 'concierge@demo.test';
/** The survey behind the Benefits & Offers 'Request help' button (SPEC §9). */
const BENEFITS_HELP_SURVEY_ID = 720;
/** Issue 5: an employee message appears in the console within 2 s, without a reload. */
const LIVE_DELAY_LIMIT_MS = 2000;
/** The console's lazy chunk, as the build names it (the staff test checks that it really is loaded under this name). */
const CONSOLE_CHUNK = /\/assets\/ConsoleLayout-[\w-]+\.js$/;

// Real file bytes: the server checks uploads by content.
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\n' +
    'trailer<</Root 1 0 R>>\n%%EOF\n',
);

type Json = Record<string, unknown>;

async function callApi(request: APIRequestContext, token: string, method: 'GET' | 'POST', path: string, data?: unknown) {
  const response = await request.fetch(`${API}/${path}`, {
    method,
    headers: { authorization: token, accept: 'application/json' },
    ...(data === undefined ? {} : { data }),
  });
  expect(response.ok(), `${method} ${path}: ${response.status()} ${await response.text()}`).toBe(true);
  return (await response.json()) as Json;
}

async function signInThroughApi(request: APIRequestContext, email: string): Promise<string> {
  const response = await request.post(`${API}/users/sign_in`, { data: { user: { email, password: DEMO_PASSWORD } } });
  expect(response.status()).toBe(200);
  return response.headers().authorization as string;
}

interface SurveyQuestion {
  id: number;
  label: string;
  type: string;
  optional: boolean;
  select_options?: { value: string }[];
}

/** What an employee would answer, by question type (pre-filled answers are kept). */
function answerFor(question: SurveyQuestion, universalAnswer: string | null): string | null {
  if (universalAnswer) return universalAnswer;
  switch (question.type) {
    case 'SingleSelectInput':
      return question.select_options?.[0]?.value ?? null;
    case 'PhoneNumberInput':
      return '2125551212';
    case 'ManagedEmailInput':
      return EMPLOYEE;
    case 'SingleUploadInput':
      return null;
    default:
      return `For "${question.label}": my dental plan, please.`;
  }
}

/** The employee answers the benefits-help survey through the API and submits it: a new In Queue request. */
async function createRequestAsEmployee(request: APIRequestContext, token: string): Promise<{ id: number; name: string }> {
  const begun = await callApi(request, token, 'POST', `request_surveys/${BENEFITS_HELP_SURVEY_ID}/user_request_surveys`, { for_alpha: true });
  const surveyId = (begun.user_request_survey as { id: number }).id;
  for (;;) {
    const { next_item: item } = (await callApi(request, token, 'GET', `user_request_surveys/${surveyId}/next_screen_item`)) as {
      next_item: { question: SurveyQuestion; universal_answer: string | null } | null;
    };
    if (!item) break;
    const value = answerFor(item.question, item.universal_answer);
    expect(value !== null || item.question.optional, `required question "${item.question.label}" has an answer`).toBe(true);
    await callApi(request, token, 'POST', `user_request_surveys/${surveyId}/user_request_answers`, {
      user_request_answer: { object_satisfied_id: item.question.id, object_satisfied_type: 'Datum', value },
    });
  }
  const submitted = await callApi(request, token, 'POST', `user_request_surveys/${surveyId}/submit`);
  return submitted.request as { id: number; name: string };
}

/** DESIGN §9: no serious or critical axe violation (React Aria's live announcer aside, see requestCreation.spec.ts). */
async function expectNoSeriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).exclude('[data-live-announcer]').analyze();
  const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  expect(serious.map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`)).toEqual([]);
}

/** Every script the page asks for, from now on. */
function recordScripts(page: Page): string[] {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  return scripts;
}

async function signInAs(page: Page, email: string) {
  await page.goto('/sign-in');
  await signIn(page, email);
  await expect(page).toHaveURL(/\/dashboard$/);
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
  const refused = await page.request.get(`${API}/console/requests`, { headers: { authorization: token } });
  expect(refused.status()).toBe(403);
});

test('a concierge claims a request, replies in Markdown with a file, notes, closes and reopens it, and sees the employee answer live', async ({ page }) => {
  test.setTimeout(120_000);
  const employeeToken = await signInThroughApi(page.request, EMPLOYEE);
  const created = await createRequestAsEmployee(page.request, employeeToken);

  const scripts = recordScripts(page);
  await signInAs(page, CONCIERGE);
  // Staff find the console from the app.
  await page.getByRole('link', { name: 'Concierge console' }).first().click();
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
  await expect(page.getByRole('region', { name: 'Survey answers' })).toContainText('my dental plan, please.');

  // Claim: assigned to me, In Progress.
  const actions = page.getByRole('region', { name: 'Assignment and status' });
  await actions.getByRole('button', { name: 'Claim' }).click();
  await expect(actions).toContainText('Assigned to you (Casey Concierge)');
  await expect(page.getByText('In Progress', { exact: true })).toBeVisible();
  await expect(page.getByRole('log', { name: 'Conversation' })).toContainText('Casey Concierge claimed the request');

  // A Markdown reply, previewed as the server renders it, with one PDF.
  const reply = page.getByRole('tabpanel', { name: 'Reply to employee' });
  await reply.getByRole('textbox', { name: 'Reply (Markdown)' }).fill('Hello Erin, here is **your quote**.\n\n- call us <script>alert(1)</script>');
  await reply.getByRole('button', { name: 'Preview' }).click();
  const preview = reply.getByRole('region', { name: 'Preview' });
  await expect(preview.locator('strong')).toHaveText('your quote');
  await expect(preview.locator('script')).toHaveCount(0);
  await reply.getByRole('button', { name: 'Edit' }).click();
  await reply.locator('input[type="file"]').setInputFiles({ name: 'quote.pdf', mimeType: 'application/pdf', buffer: PDF });
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
