import { type Locator, type Page, expect, test } from '@playwright/test';
import { expectNoSeriousViolations, signInAs, signOut } from './support.ts';

/**
 * Issue 13: an admin writes a benefit in the console, with the drawer's preview beside the form, and publishes it;
 * the employees of its company then find it in Benefits & Offers. The benefit is unpublished again at the end, so
 * the catalogue the other journeys count is as seeded.
 */

/** Where screenshots of the screens go when ADMIN_SHOTS is set (a visual check, not an assertion). */
const SHOTS_DIR = process.env.ADMIN_SHOTS;

/** The screen at desktop width, in a window tall enough for a whole modal, then at 390 px, and each part there. */
async function shoot(page: Page, name: string, narrowParts: Locator[] = []) {
  if (!SHOTS_DIR) return;
  const size = page.viewportSize() ?? { width: 1280, height: 720 };
  await page.setViewportSize({ width: 1280, height: 2400 });
  await page.screenshot({ path: `${SHOTS_DIR}/${name}.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${SHOTS_DIR}/${name}-390.png` });
  for (const [index, part] of narrowParts.entries()) await part.screenshot({ path: `${SHOTS_DIR}/${name}-390-${index + 1}.png` });
  await page.setViewportSize(size);
}

test('an admin writes and publishes a benefit for Acme, and its employee finds it', async ({ page }) => {
  test.setTimeout(120_000);
  const suffix = Date.now().toString(36);
  const heading = `Bike to work ${suffix}`;
  const name = `Cycle scheme ${suffix}`;

  await signInAs(page, 'admin@demo.test');
  await page.goto('/console/admin/offerings');
  await expect(page).toHaveTitle(/Offerings/);
  const benefits = page.getByRole('grid', { name: 'Benefits' });
  await expect(benefits.getByRole('row').nth(1)).toBeVisible();
  await expectNoSeriousViolations(page);
  await shoot(page, 'offerings-list');

  await page.getByRole('button', { name: 'New offering' }).click();
  const form = page.getByRole('dialog', { name: 'New offering' });
  const preview = form.getByTestId('offering-preview');

  // An empty form is checked before it is sent: each message is beside its field.
  await form.getByRole('button', { name: 'Create offering' }).click();
  await expect(form.getByRole('textbox', { name: 'Heading', exact: true })).toHaveAttribute('aria-invalid', 'true');
  await expect(form.getByText('Add at least one section')).toBeVisible();
  await expect(form.getByRole('group', { name: 'Companies' })).toContainText('Give the benefit to at least one company');

  await form.getByRole('textbox', { name: 'Slug' }).fill(`bike-to-work-${suffix}`);
  await form.getByRole('textbox', { name: 'Provider name' }).fill('Acme People Team');
  await form.getByRole('textbox', { name: 'Provider logo address' }).fill('/seed/acme.svg');
  await form.getByRole('textbox', { name: 'Heading', exact: true }).fill(heading);
  await expect(preview).toContainText(heading);
  await form.getByRole('textbox', { name: 'Subheading' }).fill('Save on a new bike through your salary');
  await form.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
  await form.getByRole('group', { name: 'Companies' }).getByText('Acme Corporation').click();

  await form.getByRole('button', { name: 'Add numbered steps' }).click();
  const steps = form.getByRole('group', { name: 'Section 1: Numbered steps' });
  await steps.getByRole('textbox', { name: 'Section heading' }).fill('How to join');
  await steps.getByRole('textbox', { name: 'Step 1' }).fill('Choose a bike at a partner shop');
  await steps.getByRole('button', { name: 'Add a step' }).click();
  await steps.getByRole('textbox', { name: 'Step 2' }).fill('Send us the quote');
  await expect(preview.getByRole('listitem')).toHaveText(['Choose a bike at a partner shop', 'Send us the quote']);

  await form.getByRole('button', { name: 'Add contact rows' }).click();
  const contacts = form.getByRole('group', { name: 'Section 2: Contact rows' });
  await contacts.getByRole('textbox', { name: 'Section heading' }).fill('Contact');
  await expect(contacts.getByRole('combobox', { name: 'Row 1: kind' })).toHaveValue('phone');
  await contacts.getByRole('textbox', { name: 'Row 1: value' }).fill('+1 555 0100');
  await expect(preview.getByRole('link', { name: /Phone: \+1 555 0100/ })).toHaveAttribute('href', 'tel:+15550100');
  await expectNoSeriousViolations(page);
  await shoot(page, 'offering-form', [steps, contacts, preview]);

  await form.getByRole('button', { name: 'Create offering' }).click();
  await expect(form).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: `${name} saved.` })).toBeVisible();
  const row = benefits.getByRole('row', { name: new RegExp(name) });
  await expect(row).toContainText('Draft');
  // A new offering comes last among its type: it moves up, and back down.
  await expect(row.getByRole('button', { name: `Move ${name} down` })).toBeDisabled();
  await row.getByRole('button', { name: `Move ${name} up` }).click();
  await expect(page.getByRole('status').filter({ hasText: `${name} moved to place` })).toBeVisible();
  await expect(row.getByRole('button', { name: `Move ${name} down` })).toBeEnabled();
  await row.getByRole('button', { name: `Move ${name} down` }).click();
  await expect(row.getByRole('button', { name: `Move ${name} down` })).toBeDisabled();
  await row.getByRole('button', { name: `Publish ${name}` }).click();
  await expect(row).toContainText('Published');
  await expect(page.getByRole('status').filter({ hasText: `${name} is published` })).toBeVisible();

  // Acme's employee finds it in the catalogue, and opens it.
  await signOut(page);
  await signInAs(page, 'employee@demo.test');
  await page.goto('/benefits-and-offers/all');
  const card = page.getByRole('list', { name: 'Benefits and offers' }).getByRole('button', { name: new RegExp(heading) });
  await expect(card).toBeVisible();
  await card.click();
  const drawer = page.getByRole('dialog', { name: heading });
  await expect(drawer.getByRole('heading', { name: 'How to join' })).toBeVisible();
  await expect(drawer.getByRole('listitem').filter({ hasText: 'Send us the quote' })).toBeVisible();
  await expect(drawer.getByRole('link', { name: /Phone: \+1 555 0100/ })).toBeVisible();
  await expectNoSeriousViolations(page);

  // Back to the catalogue as seeded.
  await signOut(page);
  await signInAs(page, 'admin@demo.test');
  await page.goto('/console/admin/offerings');
  await page.getByRole('grid', { name: 'Benefits' }).getByRole('button', { name: `Unpublish ${name}` }).click();
  await expect(page.getByRole('grid', { name: 'Benefits' }).getByRole('row', { name: new RegExp(name) })).toContainText('Draft');
});

test('an admin sees the offering categories in the filter bar\'s order, moves one and edits one', async ({ page }) => {
  await signInAs(page, 'admin@demo.test');
  await page.goto('/console/admin/offerings');
  await page.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name: 'Offering categories' }).click();
  await expect(page).toHaveURL(/\/console\/admin\/offering-categories$/);
  await expect(page).toHaveTitle(/Offering Categories/);
  const categories = page.getByRole('grid', { name: 'Offering categories' });
  const health = categories.getByRole('row', { name: /Health/ });
  await expect(health).toBeVisible();
  await expect(health.getByRole('button', { name: 'Move Health up' })).toBeDisabled();
  await expectNoSeriousViolations(page);
  await shoot(page, 'offering-categories-list');

  // Down one place, and back: the filter bar ends as seeded.
  await health.getByRole('button', { name: 'Move Health down' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Health moved to place 2.' })).toBeVisible();
  await expect(categories.getByRole('row').nth(2)).toContainText('Health');
  await health.getByRole('button', { name: 'Move Health up' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Health moved to place 1.' })).toBeVisible();
  await expect(categories.getByRole('row').nth(1)).toContainText('Health');

  // The form names each field, shows the image, and gives focus back to what opened it.
  await health.getByRole('button', { name: 'Edit Health' }).click();
  const form = page.getByRole('dialog', { name: 'Edit Health' });
  await expect(form.getByRole('textbox', { name: 'Name' })).toHaveValue('Health');
  await expect(form.getByRole('img', { name: 'Current image of Health' })).toBeVisible();
  await form.getByRole('textbox', { name: 'External id' }).fill('Not An Id');
  await form.getByRole('button', { name: 'Save changes' }).click();
  await expect(form.getByRole('textbox', { name: 'External id' })).toHaveAttribute('aria-invalid', 'true');
  await expectNoSeriousViolations(page);
  await shoot(page, 'offering-category-form');
  // The form was changed: leaving it asks first, as every admin form does.
  await form.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('alertdialog', { name: 'Discard your changes?' }).getByRole('button', { name: 'Discard changes' }).click();
  await expect(form).toHaveCount(0);
  await expect(health.getByRole('button', { name: 'Edit Health' })).toBeFocused();
});

test('an admin opens a seeded offering: the form holds its sections and the preview draws them as the drawer does', async ({ page }) => {
  await signInAs(page, 'admin@demo.test');
  await page.goto('/console/admin/offerings');
  const name = 'Acme Paid Parental Leave';
  const edit = page.getByRole('grid', { name: 'Benefits' }).getByRole('button', { name: `Edit ${name}` });
  await edit.click();
  const form = page.getByRole('dialog', { name: `Edit ${name}` });
  await expect(form.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue(name);
  await expect(form.getByRole('textbox', { name: 'Slug' })).toHaveCount(0);
  const firstSection = form.getByRole('group', { name: /^Section 1:/ });
  const firstHeading = await firstSection.getByRole('textbox', { name: 'Section heading' }).inputValue();
  const preview = form.getByTestId('offering-preview');
  await expect(preview.getByRole('heading', { level: 4 }).first()).toHaveText(firstHeading);

  // The preview follows the typing.
  await firstSection.getByRole('textbox', { name: 'Section heading' }).fill('What you get');
  await expect(preview.getByRole('heading', { level: 4 }).first()).toHaveText('What you get');
  await expectNoSeriousViolations(page);
  await shoot(page, 'offering-edit-form', [preview]);

  // Cancelled: the changed form asks first; discarded, nothing is saved, and focus goes back to what opened the form.
  await form.getByRole('button', { name: 'Cancel' }).click();
  const discard = page.getByRole('alertdialog', { name: 'Discard your changes?' });
  await expect(discard).toContainText('Your changes to this offering have not been saved.');
  await expectNoSeriousViolations(page);
  await discard.getByRole('button', { name: 'Discard changes' }).click();
  await expect(form).toHaveCount(0);
  await expect(edit).toBeFocused();
  await edit.click();
  await expect(page.getByRole('dialog', { name: `Edit ${name}` }).getByRole('group', { name: /^Section 1:/ }).getByRole('textbox', { name: 'Section heading' }))
    .toHaveValue(firstHeading);
});
