import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, type Browser, type Page, expect, test } from '@playwright/test';
import { DEMO_PASSWORD, signUp, uniqueEmail } from './support.ts';

/**
 * Issue 5: the employee's requests and their live conversation with a concierge, in two browser contexts.
 *
 * The employee uses the app; the employee's request is created through the survey API with the page's own session
 * token, and the concierge works through the console API (their screens are exercised by their own suites).
 */

const API = '/api/v1';
/** SPEC: a concierge reply appears in the employee's open thread within 2 s. */
const LIVE_DELAY_LIMIT_MS = 2000;

// Real file bytes: the server checks uploads by content.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
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

/** The signed-in page's session token, as the app keeps it. */
async function pageToken(page: Page): Promise<string> {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  expect(token).toBeTruthy();
  return token as string;
}

/** Uploads a file the way the app does: presign (tied to the request), then PUT the bytes to the address given. */
async function uploadFile(request: APIRequestContext, token: string, requestId: number, name: string, bytes: Buffer) {
  const presigned = await callApi(request, token, 'POST', 'uploads/presigned_url', { upload: { filename: name }, request_id: requestId });
  const stored = await request.put(presigned.presigned_url as string, {
    headers: { 'content-type': name.endsWith('.pdf') ? 'application/pdf' : 'image/png' },
    data: bytes,
  });
  expect(stored.ok()).toBe(true);
  return presigned.key as string;
}

interface CreatedRequest {
  id: number;
  name: string;
  details: string;
}

/** Begins the first Car template, answers every question as the survey asks, and submits it. */
async function createRequestThroughApi(request: APIRequestContext, token: string): Promise<CreatedRequest> {
  const { survey_categories: categories } = (await callApi(request, token, 'GET', 'survey_categories')) as {
    survey_categories: { id: number; name: string }[];
  };
  const car = categories.find((category) => category.name === 'Car') ?? categories[0]!;
  const { request_surveys: templates } = (await callApi(request, token, 'GET', `survey_categories/${car.id}/request_surveys`)) as {
    request_surveys: { id: number }[];
  };
  const begun = await callApi(request, token, 'POST', `request_surveys/${templates[0]!.id}/user_request_surveys`, { for_alpha: true });
  const surveyId = (begun.user_request_survey as { id: number }).id;
  for (;;) {
    const { next_item: item } = (await callApi(request, token, 'GET', `user_request_surveys/${surveyId}/next_screen_item`)) as {
      next_item: { question: { id: number; type: string; optional: boolean; select_options?: { value: string }[] } } | null;
    };
    if (!item) break;
    const { question } = item;
    const values: Record<string, string | null> = {
      PhoneNumberInput: '2125551212',
      ManagedEmailInput: 'driver@e2e.test',
      SingleSelectInput: question.select_options?.[0]?.value ?? null,
      SingleUploadInput: null,
    };
    const value = question.type in values ? values[question.type] : `Answer ${question.id}`;
    if (value === null && !question.optional) throw new Error(`Cannot answer required ${question.type} ${question.id}`);
    await callApi(request, token, 'POST', `user_request_surveys/${surveyId}/user_request_answers`, {
      user_request_answer: { object_satisfied_id: question.id, object_satisfied_type: 'Datum', value },
    });
  }
  const submitted = await callApi(request, token, 'POST', `user_request_surveys/${surveyId}/submit`);
  return submitted.request as CreatedRequest;
}

async function newEmployee(browser: Browser, viewport = { width: 390, height: 844 }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const email = uniqueEmail('thread');
  await signUp(page, { firstName: 'Tess', lastName: 'Thread', email, password: 'thread-password', companySlug: 'acme' });
  await expect(page).toHaveURL(/\/welcome\/about-us$/);
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
        const shown = () => document.querySelector('[role="log"]')?.textContent?.includes(expected) ?? false;
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

/** DESIGN §9: no serious or critical axe violation in the screen's content. */
async function expectAccessible(page: Page) {
  const { violations } = await new AxeBuilder({ page }).include('main').analyze();
  const serious = violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  expect(serious.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([]);
}

const conversation = (page: Page) => page.getByRole('log', { name: 'Conversation' });
const mainNavigation = (page: Page) => page.getByRole('navigation', { name: 'Main navigation' });

test('an employee and a concierge talk about a request, live, until it is completed', async ({ browser, request }) => {
  const employee = await newEmployee(browser);
  const { page } = employee;
  const created = await createRequestThroughApi(request, employee.token);
  const conciergeToken = await signInThroughApi(request, 'concierge@demo.test');

  // The Requests screen: one request in the queue; no Completed tab yet; the bottom bar is there.
  await page.goto('/requests');
  await expect(page.getByRole('tab', { name: 'To do (1)' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tab', { name: /^Completed/ })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: '1 request in queue' })).toBeVisible();
  await expect(page.getByRole('heading', { name: /in progress$/ })).toHaveCount(0);
  await expect(mainNavigation(page)).toBeVisible();
  await expectAccessible(page);

  // The thread: header, the concierge's welcome with the details, no bottom bar.
  await page.getByRole('link', { name: new RegExp(created.name) }).click();
  await expect(page).toHaveURL(new RegExp(`/requests/${created.id}$`));
  await expect(page).toHaveTitle(/\| Request Details$/);
  await expect(page.getByRole('heading', { level: 1, name: created.name })).toBeVisible();
  await expect(page.getByText('In Queue', { exact: true })).toBeVisible();
  await expect(page.getByText(/^Requested /)).toBeVisible();
  const welcome = conversation(page).getByRole('listitem').first();
  await expect(welcome).toContainText("We've received your request");
  await expect(welcome).toContainText(created.details.split('\n')[0]!);
  await expect(mainNavigation(page)).toHaveCount(0);

  // Blank text is never sent.
  const send = page.getByRole('button', { name: 'Send' });
  await expect(send).toBeDisabled();
  await page.getByLabel('Your message').fill('   ');
  await expect(send).toBeDisabled();

  // The concierge claims the request: its status changes on the open thread.
  await callApi(request, conciergeToken, 'POST', `console/requests/${created.id}/claim`);
  await expect(page.getByText('In Progress', { exact: true })).toBeVisible();

  // The concierge replies with a PDF: it appears live, within 2 s.
  const pdfKey = await uploadFile(request, conciergeToken, created.id, 'quote.pdf', PDF);
  const delay = await replyAndMeasure(page, request, conciergeToken, created.id, {
    body: 'I found a garage that can do it on Tuesday. The quote is attached.',
    attachmentKey: pdfKey,
  });
  test.info().annotations.push({ type: 'live reply delay', description: `${delay} ms` });
  expect(delay).toBeLessThan(LIVE_DELAY_LIMIT_MS);
  const reply = conversation(page).getByRole('listitem').filter({ hasText: 'I found a garage' });
  // The avatar tells who wrote: the concierge's initial here, the employee's initials on their own messages.
  await expect(reply.locator('[data-source="life_concierge"]')).toHaveText(/^[A-Z]{1,2}$/);

  // The employee opens the attachment: through the Attachment route, in a new tab, to the file itself.
  const [attachmentTab] = await Promise.all([
    employee.context.waitForEvent('page'),
    reply.getByRole('link', { name: /Open PDF/ }).click(),
  ]);
  const download = await attachmentTab.waitForEvent('download');
  expect(download.suggestedFilename()).toBe('quote.pdf');
  expect(new URL(download.url()).pathname).toBe(`/api/storage/${pdfKey}`);
  await attachmentTab.close();
  await expectAccessible(page);

  // The employee answers, with a photo.
  await page.getByLabel('Your message').fill('Tuesday works. Here is a photo of the registration.');
  await page.locator('.lc-composer input[type="file"]').setInputFiles({ name: 'registration.png', mimeType: 'image/png', buffer: PNG });
  await expect(page.getByRole('progressbar', { name: 'Uploaded' })).toBeVisible();
  await send.click();
  const answer = conversation(page).getByRole('listitem').filter({ hasText: 'Tuesday works.' });
  await expect(answer).toContainText('You');
  await expect(answer.locator('[data-source="user"]')).toHaveText('TT');
  await expect(answer.getByRole('img', { name: /Image attachment/ })).toBeVisible();
  await expect(page.getByLabel('Your message')).toHaveValue('');
  await expect(page.getByText('registration.png')).toHaveCount(0);

  // The concierge sees the answer and its photo, then completes the request: the thread shows it at once.
  const seen = await callApi(request, conciergeToken, 'GET', `console/requests/${created.id}`);
  const employeeMessages = ((seen.request as Json).thread as Json[]).filter(
    (entry) => entry.kind === 'message' && entry.source === 'user',
  );
  expect(employeeMessages).toHaveLength(1);
  expect((employeeMessages[0]!.attachment_keys as string[])[0]).toMatch(/\.png$/);
  await callApi(request, conciergeToken, 'POST', `console/requests/${created.id}/status`, { status: 'closed' });
  await expect(page.getByText('Completed', { exact: true })).toBeVisible();

  // Back on Requests: nothing left to do, one completed.
  await page.getByRole('link', { name: 'Back to requests' }).click();
  await expect(page.getByRole('tab', { name: 'To do (0)' })).toBeVisible();
  await expect(page.getByText('No open requests')).toBeVisible();
  await page.getByRole('tab', { name: 'Completed (1)' }).click();
  await expect(page.getByRole('heading', { name: '1 request completed' })).toBeVisible();
  await expect(page.getByRole('link', { name: new RegExp(created.name) })).toContainText('Completed');
  await expectAccessible(page);

  await employee.context.close();
});

test('a concierge reply reaches the open thread in well under 2 s (median of 20)', async ({ browser, request }) => {
  const employee = await newEmployee(browser, { width: 1280, height: 900 });
  const created = await createRequestThroughApi(request, employee.token);
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
