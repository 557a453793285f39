import { type Page, expect, test } from '@playwright/test';
import { ONE_PIXEL_PNG, expectNoSeriousViolations, signInAs } from './support.ts';

/**
 * Issue 13: an admin builds a request template with its questions, previews it as the employee conversation, and
 * saves it; an employee then starts a request from it and completes the survey.
 */

const ADMIN = 'admin@demo.test';
const EMPLOYEE = 'employee@demo.test';
/** Where screenshots of the screens go when ADMIN_SHOTS is set (a visual check, not an assertion). */
const SHOTS_DIR = process.env.ADMIN_SHOTS;
const PHONE_VIEWPORT = { width: 390, height: 844 };

/** A drawer is fixed to the viewport: it is shot as the user sees it, not over the whole page. */
async function shoot(page: Page, name: string, { fullPage = true } = {}) {
  if (!SHOTS_DIR) return;
  // A drawer still sliding in would be caught half way (an animation cancelled meanwhile is over too).
  await page.evaluate(() =>
    Promise.all(document.getAnimations().filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity).map((animation) => animation.finished.catch(() => {}))),
  );
  await page.screenshot({ path: `${SHOTS_DIR}/${name}.png`, fullPage });
}

/** Picks an option of a react-aria select, by the select's label. */
async function choose(scope: ReturnType<Page['getByRole']>, page: Page, label: string | RegExp, option: string) {
  await scope.getByRole('button', { name: label }).click();
  await page.getByRole('listbox').getByRole('option', { name: option, exact: true }).click();
}

test('an admin creates a template with three questions, previews and saves it, and an employee completes it', async ({ page, browser }) => {
  test.setTimeout(180_000);
  const suffix = Date.now().toString(36);
  const name = `Walk my dog ${suffix}`;

  await signInAs(page, ADMIN);
  await page.goto('/console/admin/companies');
  await page.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name: 'Surveys' }).click();
  await expect(page).toHaveURL(/\/console\/admin\/surveys$/);
  await expect(page).toHaveTitle(/Surveys/);
  const categories = page.getByRole('grid', { name: 'Survey categories' });
  await expect(categories.getByRole('row', { name: /Pet/ })).toBeVisible();
  const templates = page.getByRole('grid', { name: 'Request templates' });
  await expect(templates.getByRole('row', { name: /Book a vet appointment/ })).toBeVisible();
  await expectNoSeriousViolations(page);
  await shoot(page, 'surveys-list');

  // A category with an image uploaded in the form; creating it before the image is there is refused.
  await page.getByRole('button', { name: 'New category' }).click();
  const categoryForm = page.getByRole('dialog', { name: 'New survey category' });
  await categoryForm.getByRole('textbox', { name: 'Name' }).fill(`Garden ${suffix}`);
  await categoryForm.getByRole('textbox', { name: 'Slug' }).fill(`garden-${suffix}`);
  await categoryForm.getByRole('button', { name: 'Create category' }).click();
  await expect(categoryForm.getByText('Choose an image for the category.')).toBeVisible();
  await expectNoSeriousViolations(page);
  await shoot(page, 'category-form-error', { fullPage: false });
  await categoryForm.locator('input[type="file"]').setInputFiles({ name: 'garden.png', mimeType: 'image/png', buffer: ONE_PIXEL_PNG });
  await expect(categoryForm.getByText('Choose an image for the category.')).toHaveCount(0);
  await categoryForm.getByRole('button', { name: 'Create category' }).click();
  await expect(categoryForm).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: `Garden ${suffix} saved.` })).toBeVisible();
  const garden = categories.getByRole('row', { name: new RegExp(`Garden ${suffix}`) });
  // The uploaded image is served as the category's image.
  await expect.poll(() => garden.locator('img').evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);
  await expect(garden.getByRole('gridcell').first()).toHaveText('0');

  // A new template: its details, then its questions.
  await page.getByRole('link', { name: 'New template' }).click();
  await expect(page).toHaveURL(/\/console\/admin\/surveys\/new$/);
  await expect(page).toHaveTitle(/Survey Template/);
  const editor = page.getByRole('region', { name: 'New request template' });
  await editor.getByRole('textbox', { name: 'Name' }).fill(name);
  await editor.getByRole('textbox', { name: 'Slug' }).fill(`walk-my-dog-${suffix}`);
  await choose(editor, page, /Category/, 'Pet');

  const question = (position: number) => editor.getByRole('group', { name: `Question ${position}`, exact: true });
  await question(1).getByRole('textbox', { name: 'Question' }).fill("What is your dog's name?");

  await editor.getByRole('button', { name: 'Add a question' }).click();
  await expect(question(2).getByRole('textbox', { name: 'Question' })).toBeFocused();
  await question(2).getByRole('textbox', { name: 'Question' }).fill('Which walk would suit?');
  await choose(question(2), page, /Answer type/, 'Single choice');

  // Options left empty are named beside their fields; nothing is sent.
  await editor.getByRole('button', { name: 'Create template' }).click();
  const firstOption = question(2).getByRole('textbox', { name: 'Option 1', exact: true });
  await expect(firstOption).toHaveAttribute('aria-invalid', 'true');
  await expect(firstOption).toHaveAccessibleDescription(/Please fill this in/);
  await expect(question(1).getByRole('textbox', { name: 'Question' })).toHaveValue("What is your dog's name?");
  await expectNoSeriousViolations(page);
  await shoot(page, 'template-editor-errors');

  await firstOption.fill('A short walk');
  await question(2).getByRole('textbox', { name: 'Option 2', exact: true }).fill('A long walk');
  // The value follows the label until it is typed itself.
  await expect(question(2).getByRole('textbox', { name: 'Value of option 2' })).toHaveValue('a_long_walk');

  await editor.getByRole('button', { name: 'Add a question' }).click();
  await question(3).getByRole('textbox', { name: 'Question' }).fill('Anything else we should know?');
  await choose(question(3), page, /Answer type/, 'Long text');
  await question(3).getByText('The employee may skip it.').click();
  await expect(question(3).getByRole('checkbox', { name: /Optional/ })).toBeChecked();

  // The preview is the employee conversation, beside the questions; nothing is saved.
  const preview = editor.getByRole('region', { name: 'Preview' });
  await preview.getByRole('button', { name: 'Preview' }).click();
  await preview.getByLabel("What is your dog's name?").fill('Rex');
  await preview.getByRole('button', { name: 'Continue' }).click();
  await expect(preview.getByRole('radio', { name: 'A long walk' })).toBeVisible();
  await expect(preview.getByText('Rex')).toBeVisible();
  await expectNoSeriousViolations(page);
  await shoot(page, 'template-preview', { fullPage: false });
  await preview.getByRole('button', { name: 'Start again' }).click();
  await expect(preview.getByLabel("What is your dog's name?")).toHaveValue('');
  await expect(preview.getByText('Rex')).toHaveCount(0);
  await preview.getByRole('button', { name: 'Close the preview' }).click();
  await expect(preview.getByText('Rex')).toHaveCount(0);

  await editor.getByRole('button', { name: 'Create template' }).click();
  await expect(page).toHaveURL(/\/console\/admin\/surveys\/\d+$/);
  const templateAddress = page.url();
  const saved = page.getByRole('region', { name });
  await expect(saved.getByRole('status').filter({ hasText: `${name} created, with version 1 of its questions.` })).toBeVisible();
  await expect(saved.getByText('version 1', { exact: true })).toBeVisible();
  await expectNoSeriousViolations(page);
  await shoot(page, 'template-editor-saved');

  await page.setViewportSize(PHONE_VIEWPORT);
  await shoot(page, 'template-editor-phone');
  const savedPreview = saved.getByRole('region', { name: 'Preview' });
  await savedPreview.getByRole('button', { name: 'Preview' }).click();
  await expect(savedPreview.getByLabel("What is your dog's name?")).toBeVisible();
  await shoot(page, 'template-preview-phone');
  await savedPreview.getByRole('button', { name: 'Close the preview' }).click();

  await saved.getByRole('button', { name: 'Back to surveys' }).click();
  await expect(templates.getByRole('row', { name: new RegExp(name) })).toContainText('Pet');
  await shoot(page, 'surveys-list-phone');
  await page.setViewportSize({ width: 1280, height: 800 });

  // The employee starts a request from the new template and completes it.
  const employeeContext = await browser.newContext();
  const employee = await employeeContext.newPage();
  await signInAs(employee, EMPLOYEE);
  await employee.getByRole('button', { name: 'Explore categories' }).click();
  await employee.getByRole('dialog', { name: 'Request categories' }).getByRole('button', { name: 'Pet' }).click();
  await employee.getByRole('dialog', { name: 'Pet Requests' }).getByRole('button', { name }).click();
  const drawer = employee.getByRole('dialog', { name });
  await drawer.getByLabel("What is your dog's name?").fill('Rex');
  await drawer.getByRole('button', { name: 'Continue' }).click();
  await drawer.getByText('A long walk', { exact: true }).click();
  await drawer.getByRole('button', { name: 'Continue' }).click();
  await expect(drawer.getByLabel(/Anything else we should know\?/)).toBeVisible();
  await drawer.getByRole('button', { name: 'Skip' }).click();
  const summary = drawer.getByRole('region', { name: 'Review your request' });
  await expect(summary.getByText('A long walk')).toBeVisible();
  await expect(summary.getByText('Skipped')).toBeVisible();
  await summary.getByRole('button', { name: 'Submit' }).click();
  await expect(drawer.getByRole('heading', { name: `${name} has been added to your requests` })).toBeVisible();
  await employeeContext.close();

  // Once an employee has begun it, a change of the questions is a new version, and the editor says so.
  await page.goto(templateAddress);
  const edited = page.getByRole('region', { name });
  await edited.getByRole('group', { name: 'Question 1', exact: true }).getByRole('textbox', { name: 'Question' }).fill("What is your dog's name, and breed?");
  await edited.getByRole('button', { name: 'Save questions' }).click();
  await expect(edited.getByRole('status')).toHaveText(
    'Questions saved as version 2. Employees who began this request on version 1 keep the questions they began with; new requests get these.',
  );
  await expect(edited.getByText('version 2', { exact: true })).toBeVisible();
});
