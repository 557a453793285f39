import { type APIRequestContext, type Page, expect } from '@playwright/test';
import { type OutboxMessage, outboxResponse } from '../../src/contract/dev.ts';

export const DEMO_PASSWORD = 'demo-password';

let counter = 0;
/** An address no other test (or earlier run on the same database) has used. */
export function uniqueEmail(prefix: string): string {
  counter += 1;
  return `${prefix}.${Date.now().toString(36)}${counter}@e2e.test`;
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
