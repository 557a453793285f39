import { type Page, expect, test } from '@playwright/test';
import { expectNoSeriousViolations, signInAs, signInThroughApi } from './support.ts';

/**
 * Issue 28: an admin sets a new company's service targets through the Service targets screen: a closing time before
 * the opening is named beside it, the holiday is picked with the date picker, and the list words the saved targets.
 */

const ADMIN = 'admin@demo.test';
/** Where screenshots go when SERVICE_TARGETS_SHOTS is set (a visual check, not an assertion). */
const SHOTS_DIR = process.env.SERVICE_TARGETS_SHOTS;

async function shoot(page: Page, name: string) {
  if (SHOTS_DIR) await page.screenshot({ path: `${SHOTS_DIR}/${name}.png`, fullPage: true });
}

test('an admin sets a company its own service targets', async ({ page }) => {
  test.setTimeout(120_000);
  const stamp = Date.now().toString(36);
  const name = `Targets ${stamp}`;
  // A company of this story's own: the demo companies may have targets already from an earlier run.
  const token = await signInThroughApi(page.request, ADMIN);
  const made = await page.request.post('/api/v1/admin/companies', { headers: { authorization: token }, data: { name, slug: `targets-${stamp}` } });
  expect(made.status()).toBe(201);

  await signInAs(page, ADMIN);
  await page.goto('/console/admin/service-targets');
  await expect(page).toHaveTitle(/Service Targets/);
  const list = page.getByRole('grid', { name: 'Service targets' });
  await expect(list.getByRole('row', { name: /Default/ })).toContainText('First response');
  await expectNoSeriousViolations(page);
  await shoot(page, 'service-targets-1280');

  await page.getByRole('button', { name: 'New company targets' }).click();
  const dialog = page.getByRole('dialog', { name: 'New company targets' });
  await expect(dialog).toContainText('applies to requests filed from now on');
  await dialog.getByRole('button', { name: /Company/ }).click();
  await page.getByRole('option', { name }).click();
  await dialog.getByRole('textbox', { name: /^First response/ }).fill('2');
  const monday = dialog.getByRole('group', { name: 'Monday' });
  await monday.getByRole('textbox', { name: /^Monday closes/i }).fill('08:00');
  const zone = dialog.getByRole('combobox', { name: /^Time zone/ });
  await zone.fill('Europe/Berl');
  await page.getByRole('option', { name: 'Europe/Berlin' }).click();
  const picker = dialog.getByRole('group', { name: /^Date closed all day/ });
  await picker.getByRole('spinbutton', { name: /month/i }).click();
  await page.keyboard.type('12252026');
  await dialog.getByRole('button', { name: 'Add holiday' }).click();
  await expect(dialog.getByRole('list', { name: 'Holidays' })).toContainText('Fri, 25 Dec 2026');

  await dialog.getByRole('button', { name: 'Create targets' }).click();
  const closes = monday.getByRole('textbox', { name: /^Monday closes/i });
  await expect(closes).toHaveAttribute('aria-invalid', 'true');
  await expect(monday).toContainText('The closing time must come after the opening time');
  await expectNoSeriousViolations(page);
  await monday.scrollIntoViewIfNeeded();
  await shoot(page, 'service-targets-form-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  await monday.scrollIntoViewIfNeeded();
  await shoot(page, 'service-targets-form-390');
  await closes.fill('17:00');
  await dialog.getByRole('button', { name: 'Create targets' }).click();

  await expect(page.getByText(`${name}'s service targets saved. They apply to requests filed from now on.`)).toBeVisible();
  await expect(list.getByRole('row', { name: new RegExp(name) })).toContainText(
    'First response 2 working hours · Resolution 3 working days · Mon 9:00–17:00, Tue–Fri 9:00–18:00 Europe/Berlin · 1 holiday',
  );
  await expectNoSeriousViolations(page);
  await shoot(page, 'service-targets-390');
  await page.setViewportSize({ width: 1280, height: 900 });

  // Saved as worded: a working day is the week's longest opening (9 hours).
  const policies = (await (await page.request.get('/api/v1/admin/service_policies', { headers: { authorization: token } })).json()) as {
    policies: Array<{ company: { name: string } | null; first_response_minutes: number; resolution_minutes: number; holidays: string[] }>;
  };
  const saved = policies.policies.find((policy) => policy.company?.name === name)!;
  expect(saved).toMatchObject({ first_response_minutes: 120, resolution_minutes: 3 * 9 * 60, holidays: ['2026-12-25'] });
});
