import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, type Page, expect } from '@playwright/test';
import { type OutboxMessage, outboxResponse } from '../../src/contract/dev.ts';

export const DEMO_PASSWORD = 'demo-password';
/** The seeded 'Benefits help' survey template, which any demo employee may start. */
export const BENEFITS_HELP_SURVEY_ID = 720;

let counter = 0;
/**
 * An address no other test (or earlier run on the same database) has used; a sign-up to a demo company needs its
 * domain ("acme.test" for acme).
 */
export function uniqueEmail(prefix: string, domain = 'e2e.test'): string {
  counter += 1;
  return `${prefix}.${Date.now().toString(36)}${counter}@${domain}`;
}

/** The newest outbox message to an address or phone, waiting for it to be written. */
export async function latestMessage(
  request: APIRequestContext,
  to: string,
  matching: (message: OutboxMessage) => boolean = () => true,
): Promise<OutboxMessage> {
  let found: OutboxMessage | undefined;
  await expect
    .poll(async () => {
      const response = await request.get(`/api/dev/outbox?to=${encodeURIComponent(to)}&limit=20`);
      found = outboxResponse.parse(await response.json()).messages.find(matching);
      return found !== undefined;
    })
    .toBe(true);
  return found!;
}

export async function latestLink(request: APIRequestContext, to: string, pathPart: string): Promise<string> {
  const message = await latestMessage(request, to, (candidate) => candidate.links.some((link) => link.includes(pathPart)));
  return message.links.find((link) => link.includes(pathPart))!;
}

/**
 * Opens the newest confirmation link e-mailed to `email` as its owner would, through the API, leaving the page where
 * it is: an address must be confirmed before its account sends anything to staff.
 */
export async function confirmEmail(request: APIRequestContext, email: string) {
  const token = new URL(await latestLink(request, email, '/confirm-email/')).pathname.split('/').pop()!;
  const response = await request.get('/api/v1/users/confirmation', { params: { confirmation_token: token } });
  expect(response.ok(), await response.text()).toBe(true);
}

/** The newest 6-digit SMS code sent to a phone number that is not in `notIn` (codes already used). */
export async function latestCode(request: APIRequestContext, phone: string, notIn: string[] = []): Promise<string> {
  const message = await latestMessage(request, phone, (candidate) => {
    const code = /\b(\d{6})\b/.exec(candidate.text)?.[1];
    return code !== undefined && !notIn.includes(code);
  });
  return /\b(\d{6})\b/.exec(message.text)![1]!;
}

export async function signIn(page: Page, email: string, password = DEMO_PASSWORD) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** The demo staff accounts: they land on the console after sign-in, employees on the Dashboard. */
const DEMO_STAFF = new Set(['concierge@demo.test', 'admin@demo.test']);

/** Signs a demo account in from /sign-in and waits for its landing page. */
export async function signInAs(page: Page, email: string) {
  await page.goto('/sign-in');
  await signIn(page, email);
  await expect(page).toHaveURL(DEMO_STAFF.has(email) ? /\/console$/ : /\/dashboard$/);
}

export async function signUp(
  page: Page,
  user: { firstName: string; lastName: string; email: string; password: string; companySlug?: string },
) {
  await page.goto(user.companySlug ? `/sign-up/${user.companySlug}` : '/sign-up');
  await page.getByLabel('First name').fill(user.firstName);
  await page.getByLabel('Last name').fill(user.lastName);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Sign up' }).click();
}

export async function signOut(page: Page) {
  await page.goto('/account');
  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
}

/** DESIGN §9: no serious or critical axe violation, on the whole page or inside `within` (a CSS selector). */
export async function expectNoSeriousViolations(page: Page, within?: string) {
  await finiteAnimationsEnded(page);
  const builder = new AxeBuilder({ page });
  const { violations } = await (within ? builder.include(within) : builder).analyze();
  const serious = violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  expect(
    serious.map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`),
  ).toEqual([]);
}

/**
 * axe reads colours as painted, so text still fading in (the offerings list's entry) fails contrast that the
 * settled page meets. Endless animations (skeleton shimmer, spinner) never end and change no text colour.
 */
async function finiteAnimationsEnded(page: Page) {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
}

const API = '/api/v1';
export type Json = Record<string, unknown>;

/** An API call with a session token, as a client of the API would make it; fails the test on any non-2xx answer. */
export async function callApi(request: APIRequestContext, token: string, method: 'GET' | 'POST', path: string, data?: unknown) {
  const response = await request.fetch(`${API}/${path}`, {
    method,
    headers: { authorization: token, accept: 'application/json' },
    ...(data === undefined ? {} : { data }),
  });
  expect(response.ok(), `${method} ${path}: ${response.status()} ${await response.text()}`).toBe(true);
  return (await response.json()) as Json;
}

/** Signs in through the API and returns the session token (the `authorization` answer header). */
export async function signInThroughApi(request: APIRequestContext, email: string, password = DEMO_PASSWORD): Promise<string> {
  const response = await request.post(`${API}/users/sign_in`, { data: { user: { email, password } } });
  expect(response.status()).toBe(200);
  return response.headers().authorization as string;
}

/** A new employee of the company, signed up and confirmed through the API; answers their session token. */
export async function newEmployeeThroughApi(request: APIRequestContext, { email, companySlug, name }: { email: string; companySlug: string; name: string }) {
  const signUp = await request.post(`${API}/users/sign_up`, {
    data: { user: { email, password: DEMO_PASSWORD, name, last_name: 'Person', terms_of_service: 1, company_slug: companySlug } },
  });
  expect(signUp.status(), await signUp.text()).toBe(201);
  await confirmEmail(request, email);
  return signInThroughApi(request, email);
}

/** The signed-in page's session token, as the app keeps it. */
export async function pageToken(page: Page): Promise<string> {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  expect(token).toBeTruthy();
  return token as string;
}

export interface SurveyQuestion {
  id: number;
  label: string;
  type: string;
  optional: boolean;
  select_options?: { value: string }[];
}

/** What an employee would answer, by question type; pre-filled answers are kept, uploads skipped (optional ones). */
export function plausibleAnswer(question: SurveyQuestion, universalAnswer: string | null): string | null {
  if (universalAnswer) return universalAnswer;
  switch (question.type) {
    case 'SingleSelectInput':
      return question.select_options?.[0]?.value ?? null;
    case 'PhoneNumberInput':
      return '2125551212';
    case 'ManagedEmailInput':
      return 'employee@e2e.test';
    case 'SingleUploadInput':
      return null;
    default:
      return `For "${question.label}": please take care of it.`;
  }
}

export interface CreatedRequest {
  id: number;
  name: string;
  details: string;
}

/** Begins a request survey, answers every question as it comes, and submits it: a new In Queue request. */
export async function createRequestThroughApi(
  request: APIRequestContext,
  token: string,
  surveyId: number,
  answer: (question: SurveyQuestion, universalAnswer: string | null) => string | null = plausibleAnswer,
): Promise<CreatedRequest> {
  const begun = await callApi(request, token, 'POST', `request_surveys/${surveyId}/user_request_surveys`, { for_alpha: true });
  const userSurveyId = (begun.user_request_survey as { id: number }).id;
  for (;;) {
    const { next_item: item } = (await callApi(request, token, 'GET', `user_request_surveys/${userSurveyId}/next_screen_item`)) as {
      next_item: { question: SurveyQuestion; universal_answer: string | null } | null;
    };
    if (!item) break;
    const value = answer(item.question, item.universal_answer);
    expect(value !== null || item.question.optional, `required question "${item.question.label}" has an answer`).toBe(true);
    await callApi(request, token, 'POST', `user_request_surveys/${userSurveyId}/user_request_answers`, {
      user_request_answer: { object_satisfied_id: item.question.id, object_satisfied_type: 'Datum', value },
    });
  }
  const submitted = await callApi(request, token, 'POST', `user_request_surveys/${userSurveyId}/submit`);
  return submitted.request as CreatedRequest;
}

/** The id of the first request template of a survey category, e.g. 'Car'. */
export async function firstTemplateOf(request: APIRequestContext, token: string, categoryName: string): Promise<number> {
  const { survey_categories: categories } = (await callApi(request, token, 'GET', 'survey_categories')) as {
    survey_categories: { id: number; name: string }[];
  };
  const category = categories.find((candidate) => candidate.name === categoryName);
  expect(category, `survey category ${categoryName}`).toBeTruthy();
  const { request_surveys: templates } = (await callApi(request, token, 'GET', `survey_categories/${category!.id}/request_surveys`)) as {
    request_surveys: { id: number }[];
  };
  return templates[0]!.id;
}

// Real file bytes: the server checks uploads by content.
export const ONE_PIXEL_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
export const MINIMAL_PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\n' +
    'trailer<</Root 1 0 R>>\n%%EOF\n',
);

/**
 * Attaches a file in a request's message box as the employee does: the first press of 'Attach an image or PDF' loads
 * the uploader and opens the file picker, which gets the file.
 */
export async function attachToMessage(page: Page, file: { name: string; mimeType: string; buffer: Buffer }) {
  const chooser = page.waitForEvent('filechooser');
  await page.locator('.lc-composer').getByRole('button', { name: 'Attach an image or PDF' }).click();
  await (await chooser).setFiles(file);
}

/** An admin, on the console, creates a company through Administration > Companies (signed in as an admin already). */
export async function createCompanyOnScreen(page: Page, company: { name: string; slug: string; domain: string }) {
  await page.goto('/console/admin/companies');
  await page.getByRole('button', { name: 'New company' }).click();
  const companyForm = page.getByRole('dialog', { name: 'New company' });
  await companyForm.getByRole('textbox', { name: 'Name' }).fill(company.name);
  await companyForm.getByRole('textbox', { name: 'Sign-up address' }).fill(company.slug);
  await companyForm.getByRole('textbox', { name: /E-mail domains/ }).fill(company.domain);
  await companyForm.getByRole('button', { name: 'Create company' }).click();
  await expect(companyForm).toHaveCount(0);
}
