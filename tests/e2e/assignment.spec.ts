import { type APIRequestContext, type Page, expect, test } from '@playwright/test';
import { createRequestThroughApi, expectNoSeriousViolations, signInAs, signInThroughApi, signOut } from './support.ts';

/**
 * Issue 28, part 2: an admin writes a saved reply and sees the team's caps; a concierge switches themselves
 * Available, and inserts the saved reply in a request's composer by typing `/`, filled in for that request.
 */

const EMPLOYEE = 'employee@demo.test';
const CONCIERGE = 'concierge@demo.test';
const ADMIN = 'admin@demo.test';
const BENEFITS_HELP_SURVEY_ID = 720;
/** Where screenshots go when ASSIGNMENT_SHOTS is set (a visual check, not an assertion). */
const SHOTS_DIR = process.env.ASSIGNMENT_SHOTS;

async function shoot(page: Page, name: string) {
  if (SHOTS_DIR) await page.screenshot({ path: `${SHOTS_DIR}/${name}.png`, fullPage: true });
}

/** The demo concierge's own cap (null: the default), set through the admin API. */
async function setConciergeCap(request: APIRequestContext, adminToken: string, cap: number | null) {
  const staff = await (await request.get('/api/v1/admin/assignment/staff', { headers: { authorization: adminToken } })).json();
  const concierge = (staff.staff as Array<{ id: number; email: string }>).find((member) => member.email === CONCIERGE)!;
  const response = await request.fetch(`/api/v1/admin/assignment/staff/${concierge.id}`, {
    method: 'PATCH',
    headers: { authorization: adminToken },
    data: { cap_override: cap },
  });
  expect(response.ok()).toBe(true);
}

test('an admin writes a saved reply; a concierge goes Available and inserts it with /, filled in', async ({ page }) => {
  test.setTimeout(120_000);
  const code = `thanks${Date.now().toString(36)}`;
  const adminToken = await signInThroughApi(page.request, ADMIN);
  // A cap of 0 keeps the demo concierge from taking the other stories' waiting requests while Available here.
  await setConciergeCap(page.request, adminToken, 0);
  const employeeToken = await signInThroughApi(page.request, EMPLOYEE);
  const created = await createRequestThroughApi(page.request, employeeToken, BENEFITS_HELP_SURVEY_ID);

  await signInAs(page, ADMIN);
  await page.goto('/console/admin/saved-replies');
  await expect(page).toHaveTitle(/Saved Replies/);
  await page.getByRole('button', { name: 'New saved reply' }).click();
  const dialog = page.getByRole('dialog', { name: 'New saved reply' });
  await dialog.getByRole('textbox', { name: /^Title/ }).fill('Thanks for waiting');
  await dialog.getByRole('textbox', { name: /^Short code/ }).fill(code);
  await dialog.getByRole('textbox', { name: /^Reply/ }).fill('Hi {{employee_first_name}}, {{request_name}} is with me now. {{concierge_name}}');
  await dialog.getByRole('button', { name: 'Create saved reply' }).click();
  await expect(page.getByRole('grid', { name: 'Saved replies' }).getByRole('row', { name: new RegExp(`/${code}`) })).toBeVisible();
  await expectNoSeriousViolations(page);
  await shoot(page, 'admin-saved-replies');
  await page.getByRole('link', { name: 'Assignment' }).click();
  await expect(page.getByRole('grid', { name: 'Caps of open requests' }).getByRole('row', { name: /Casey Concierge/ })).toContainText('0');
  await expectNoSeriousViolations(page);
  await shoot(page, 'admin-assignment');

  await signOut(page);
  await signInAs(page, CONCIERGE);
  await expect(page).toHaveURL(/\/console$/);
  const available = page.getByRole('switch', { name: 'Available' });
  await expect(available).toBeEnabled();
  await available.focus();
  await page.keyboard.press('Space');
  await expect(available).toBeChecked();
  await page.goto(`/console/requests/${created.id}`);
  await expect(page.getByRole('heading', { level: 1, name: created.name })).toBeVisible();

  const reply = page.getByRole('textbox', { name: /^Reply \(Markdown\)/ });
  await reply.click();
  await page.keyboard.type('/');
  const search = page.getByRole('combobox', { name: /^Saved reply/ });
  await expect(search).toBeFocused();
  // The list opens with the search, once the team's replies have loaded: the search is typed into from then on.
  await expect(page.getByRole('listbox')).toBeVisible();
  await page.keyboard.type(code);
  await expect(search).toHaveValue(code);
  await expect(page.getByRole('option', { name: new RegExp(code) })).toBeVisible();
  await shoot(page, 'console-saved-reply-picker');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(reply).toHaveValue(`Hi Erin, ${created.name} is with me now. Casey Concierge`);
  await expect(reply).toBeFocused();
  await expectNoSeriousViolations(page);
  await shoot(page, 'console-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  await shoot(page, 'console-390');

  // Away again, and the cap back to the default, for the other stories.
  await page.setViewportSize({ width: 1280, height: 800 });
  await available.focus();
  await page.keyboard.press('Space');
  await expect(available).not.toBeChecked();
  await setConciergeCap(page.request, adminToken, null);
});
