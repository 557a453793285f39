import { type Page, expect, test } from '@playwright/test';
import { expectNoSeriousViolations, signInAs, uniqueEmail } from './support.ts';

/**
 * Issue 13: the console's admin area. An admin creates a company and invites a concierge; a concierge gets the
 * administrators-only page; nobody but an admin downloads the admin area's code.
 */

const EMPLOYEE = 'employee@demo.test';
const CONCIERGE = 'concierge@demo.test';
const ADMIN = 'admin@demo.test';
/** The admin area's one lazy chunk, as the build names it (the admin test checks it really loads under this name). */
const ADMIN_CHUNK = /\/assets\/AdminArea-[\w-]+\.js$/;
/** Where screenshots of the admin screens go when ADMIN_SHOTS is set (a visual check, not an assertion). */
const SHOTS_DIR = process.env.ADMIN_SHOTS;

function recordScripts(page: Page): string[] {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  return scripts;
}

async function shoot(page: Page, name: string) {
  if (SHOTS_DIR) await page.screenshot({ path: `${SHOTS_DIR}/${name}.png`, fullPage: true });
}

test('an admin creates a company with an e-mail domain and invites a concierge', async ({ page }) => {
  test.setTimeout(120_000);
  const scripts = recordScripts(page);
  await signInAs(page, ADMIN);
  await page.goto('/console');
  await page.getByRole('link', { name: 'Administration' }).click();
  await expect(page).toHaveURL(/\/console\/admin\/companies$/);
  await expect(page).toHaveTitle(/Companies/);
  expect(scripts.filter((script) => ADMIN_CHUNK.test(script))).toHaveLength(1);

  const companies = page.getByRole('grid', { name: 'Companies' });
  await expect(companies.getByRole('row', { name: /Acme Corporation/ })).toBeVisible();
  await expectNoSeriousViolations(page);
  await shoot(page, 'companies-list');

  // A bad slug and domain are named beside their fields, and what was typed stays.
  const suffix = Date.now().toString(36);
  const name = `Newco ${suffix}`;
  const slug = `newco-${suffix}`;
  const domain = `${suffix}.newco.test`;
  await page.getByRole('button', { name: 'New company' }).click();
  const form = page.getByRole('dialog', { name: 'New company' });
  await form.getByRole('textbox', { name: 'Name' }).fill(name);
  await form.getByRole('textbox', { name: 'Sign-up address' }).fill('Not A Slug');
  await form.getByRole('textbox', { name: /E-mail domains/ }).fill('@newco');
  await form.getByRole('button', { name: 'Create company' }).click();
  const slugField = form.getByRole('textbox', { name: 'Sign-up address' });
  await expect(slugField).toHaveAttribute('aria-invalid', 'true');
  await expect(slugField).toHaveAccessibleDescription(/Use lower-case letters, digits and single hyphens/);
  await expect(form.getByRole('textbox', { name: /E-mail domains/ })).toHaveAccessibleDescription(/@newco: Enter a domain such as acme\.com/);
  await expect(form.getByRole('textbox', { name: 'Name' })).toHaveValue(name);
  await expectNoSeriousViolations(page);
  await form.getByRole('textbox', { name: 'Name' }).scrollIntoViewIfNeeded();
  await shoot(page, 'company-form-error');

  // A slug another company has is refused by the server, on its field.
  await slugField.fill('acme');
  await form.getByRole('textbox', { name: /E-mail domains/ }).fill(domain);
  // The radio's input is visually hidden: its label is what a pointer presses.
  await form.getByText('Employees may turn on a text-message code.').click();
  await expect(form.getByRole('radio', { name: /^Optional/ })).toBeChecked();
  await form.getByRole('button', { name: 'Create company' }).click();
  await expect(slugField).toHaveAccessibleDescription(/acme/);
  await expect(slugField).toHaveAttribute('aria-invalid', 'true');

  await slugField.fill(slug);
  await form.getByRole('button', { name: 'Create company' }).click();
  await expect(form).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: `${name} saved.` })).toBeVisible();
  const row = companies.getByRole('row', { name: new RegExp(name) });
  await expect(row).toContainText(domain);
  await expect(row).toContainText('Optional');
  // Cells after the company's name: domains, MFA, employees.
  await expect(row.getByRole('gridcell').nth(2)).toHaveText('0');
  await expect(row).toContainText('Active');

  // Deactivation asks first, and says what it does.
  await row.getByRole('button', { name: `Deactivate ${name}` }).click();
  const confirmation = page.getByRole('alertdialog', { name: `Deactivate ${name}?` });
  await expect(confirmation).toContainText('signed out at once');
  await expectNoSeriousViolations(page);
  await confirmation.getByRole('button', { name: 'Deactivate' }).click();
  await expect(confirmation).toHaveCount(0);
  await expect(row).toContainText('Deactivated since');

  // Staff: invite a concierge.
  await page.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name: 'Staff' }).click();
  await expect(page).toHaveURL(/\/console\/admin\/staff$/);
  const staff = page.getByRole('grid', { name: 'Staff' });
  await expect(staff.getByRole('row', { name: /Alex Admin/ })).toBeVisible();
  await expectNoSeriousViolations(page);
  await shoot(page, 'staff-list');

  const email = uniqueEmail('concierge', 'newco.test');
  await page.getByRole('button', { name: 'Invite staff' }).click();
  const invitation = page.getByRole('dialog', { name: 'Invite staff' });
  await invitation.getByRole('textbox', { name: 'E-mail' }).fill(email);
  await invitation.getByRole('textbox', { name: 'First name' }).fill('Nico');
  await invitation.getByRole('textbox', { name: 'Last name' }).fill('Newhire');
  await invitation.getByRole('button', { name: 'Send invitation' }).click();
  await expect(invitation).toHaveCount(0);
  // By the unique address: a run against the same database (--repeat-each) has invited a Nico Newhire before.
  const invited = staff.getByRole('row', { name: /Nico Newhire/ }).filter({ hasText: email });
  await expect(invited).toBeVisible();
  await expect(invited.getByRole('button', { name: /Role of Nico Newhire/ })).toContainText('Concierge');

  // The audit log has both changes, newest first.
  await page.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name: 'Audit log' }).click();
  const audit = page.getByRole('grid', { name: 'Audit log' });
  await expect(audit.getByRole('row').nth(1)).toContainText('Invited staff');
  await expect(audit.getByRole('row').nth(2)).toContainText('Deactivated company');
  await expect(audit.getByRole('row').nth(3)).toContainText('Created company');
  await expectNoSeriousViolations(page);
});

test('a concierge who opens the admin area sees the administrators-only page and never loads it', async ({ page }) => {
  const scripts = recordScripts(page);
  await signInAs(page, CONCIERGE);
  await page.goto('/console');
  await expect(page.getByRole('region', { name: 'Queues' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Administration' })).toHaveCount(0);

  await page.goto('/console/admin/companies');
  await expect(page.getByText('This area is for administrators only.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Go to the concierge console' })).toBeVisible();
  await expectNoSeriousViolations(page);
  expect(scripts.filter((script) => ADMIN_CHUNK.test(script))).toEqual([]);
});

test('an employee never loads the admin area', async ({ page }) => {
  const scripts = recordScripts(page);
  await signInAs(page, EMPLOYEE);
  await page.goto('/console/admin/staff');
  await expect(page.getByText('This area is for concierge staff only.')).toBeVisible();
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.filter((script) => ADMIN_CHUNK.test(script))).toEqual([]);
});
