import { type Locator, type Page, expect, test } from '@playwright/test';
import { expectNoSeriousViolations, latestLink, signIn, signUp } from './support.ts';

/**
 * Issue 13, the whole story, through the screens only: an admin sets up a new sponsoring company with its e-mail
 * domain, a request template, and a benefit for that company whose help button starts the template; a new employee
 * of that domain signs up, finds the benefit, and completes the template's survey from it.
 */

async function signInAsAdmin(page: Page) {
  await page.goto('/sign-in');
  await signIn(page, 'admin@demo.test');
  // Staff start in the console (issue 32).
  await expect(page).toHaveURL(/\/console$/);
}

async function openAdminScreen(page: Page, link: string) {
  await page.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name: link, exact: true }).click();
}

/** Picks an option of a react-aria select, by the select's label. */
async function choose(scope: Locator, page: Page, label: RegExp, option: string) {
  await scope.getByRole('button', { name: label }).click();
  await page.getByRole('listbox').getByRole('option', { name: option, exact: true }).click();
}

test('an admin sets up a company, a template and a benefit; a new employee of the company signs up, finds the benefit and completes its survey', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const suffix = Date.now().toString(36);
  const company = `Initech ${suffix}`;
  const slug = `initech-${suffix}`;
  const domain = `${suffix}.initech.test`;
  const template = `Book a bike service ${suffix}`;
  const benefit = `Cycle to work ${suffix}`;

  await signInAsAdmin(page);
  await page.goto('/console/admin/companies');

  // The company, admitting addresses of its domain.
  await page.getByRole('button', { name: 'New company' }).click();
  const companyForm = page.getByRole('dialog', { name: 'New company' });
  await companyForm.getByRole('textbox', { name: 'Name' }).fill(company);
  await companyForm.getByRole('textbox', { name: 'Sign-up address' }).fill(slug);
  await companyForm.getByRole('textbox', { name: /E-mail domains/ }).fill(domain);
  await companyForm.getByRole('button', { name: 'Create company' }).click();
  await expect(companyForm).toHaveCount(0);
  await expect(page.getByRole('grid', { name: 'Companies' }).getByRole('row', { name: new RegExp(company) })).toContainText(domain);

  // The request template, with a question in words and a choice.
  await openAdminScreen(page, 'Surveys');
  await page.getByRole('link', { name: 'New template' }).click();
  const editor = page.getByRole('region', { name: 'New request template' });
  await editor.getByRole('textbox', { name: 'Name' }).fill(template);
  await editor.getByRole('textbox', { name: 'Slug' }).fill(`bike-service-${suffix}`);
  await choose(editor, page, /Category/, 'Car');
  const question = (position: number) => editor.getByRole('group', { name: `Question ${position}`, exact: true });
  await question(1).getByRole('textbox', { name: 'Question' }).fill('Which bike needs the service?');
  await editor.getByRole('button', { name: 'Add a question' }).click();
  await question(2).getByRole('textbox', { name: 'Question' }).fill('When would suit you?');
  await choose(question(2), page, /Answer type/, 'Single choice');
  await question(2).getByRole('textbox', { name: 'Option 1', exact: true }).fill('This week');
  await question(2).getByRole('textbox', { name: 'Option 2', exact: true }).fill('Next week');
  await editor.getByRole('button', { name: 'Create template' }).click();
  await expect(page).toHaveURL(/\/console\/admin\/surveys\/\d+$/);
  await expect(page.getByRole('region', { name: template }).getByRole('status')).toContainText('version 1');

  // The benefit, for the new company only, whose help button starts the template.
  await openAdminScreen(page, 'Offerings');
  await page.getByRole('button', { name: 'New offering' }).click();
  const offeringForm = page.getByRole('dialog', { name: 'New offering' });
  await offeringForm.getByRole('textbox', { name: 'Slug' }).fill(`cycle-to-work-${suffix}`);
  await offeringForm.getByRole('textbox', { name: 'Provider name' }).fill(`${company} People Team`);
  await offeringForm.getByRole('textbox', { name: 'Provider logo address' }).fill('/seed/acme.svg');
  await offeringForm.getByRole('textbox', { name: 'Heading', exact: true }).fill(benefit);
  await offeringForm.getByRole('textbox', { name: 'Subheading' }).fill('A new bike through your salary, serviced for free');
  await offeringForm.getByRole('textbox', { name: 'Name', exact: true }).fill(benefit);
  await offeringForm.getByRole('group', { name: 'Companies' }).getByText(company, { exact: true }).click();
  await offeringForm.getByRole('textbox', { name: 'Button text' }).fill('Book my free service');
  await offeringForm.getByRole('combobox', { name: 'Request it starts' }).selectOption({ label: template });
  await offeringForm.getByRole('button', { name: 'Add numbered steps' }).click();
  const steps = offeringForm.getByRole('group', { name: 'Section 1: Numbered steps' });
  await steps.getByRole('textbox', { name: 'Section heading' }).fill('How it works');
  await steps.getByRole('textbox', { name: 'Step 1' }).fill('Ask us for a service');
  await offeringForm.getByRole('button', { name: 'Create offering' }).click();
  await expect(offeringForm).toHaveCount(0);
  const row = page.getByRole('grid', { name: 'Benefits' }).getByRole('row', { name: new RegExp(benefit) });
  await row.getByRole('button', { name: `Publish ${benefit}` }).click();
  await expect(row).toContainText('Published');

  // A new employee of that domain signs up with the company's address, and confirms their e-mail address.
  const employeeContext = await browser.newContext();
  const employee = await employeeContext.newPage();
  const email = `pat.${suffix}@${domain}`;
  await signUp(employee, { firstName: 'Pat', lastName: 'Lee', email, password: 'a-new-password', companySlug: slug });
  await expect(employee).toHaveURL(/\/welcome\/about-us$/);
  await employee.goto(new URL(await latestLink(request, email, '/confirm-email/')).pathname);
  await employee.getByRole('link', { name: 'Go to Benefits & Offers' }).click();

  // Their employer's benefit is there; its help button starts the admin's template.
  await expect(employee.getByRole('heading', { name: 'Your Benefits', exact: true })).toBeVisible();
  await expect(employee.getByText('Brought to you by')).toBeVisible();
  await employee.getByRole('button', { name: new RegExp(benefit) }).first().click();
  const drawer = employee.getByRole('dialog', { name: benefit });
  await expect(drawer.getByRole('heading', { name: 'How it works' })).toBeVisible();
  await expectNoSeriousViolations(employee);
  await drawer.getByRole('button', { name: 'Book my free service' }).click();

  const survey = employee.getByRole('dialog', { name: template });
  await survey.getByLabel('Which bike needs the service?').fill('My red road bike');
  await survey.getByRole('button', { name: 'Continue' }).click();
  await survey.getByText('Next week', { exact: true }).click();
  await survey.getByRole('button', { name: 'Continue' }).click();
  const summary = survey.getByRole('region', { name: 'Review your request' });
  await expect(summary.getByText('My red road bike')).toBeVisible();
  await expect(summary.getByText('Next week')).toBeVisible();
  await summary.getByRole('button', { name: 'Submit' }).click();
  await expect(survey.getByRole('heading', { name: `${template} has been added to your requests` })).toBeVisible();

  // The request is the employee's, under the admin's template's name.
  await employee.goto('/requests');
  await expect(employee.getByRole('main').getByText(template).first()).toBeVisible();
  await employeeContext.close();

  // The benefit is for that company only: Acme's employee does not see it.
  const acmeContext = await browser.newContext();
  const acme = await acmeContext.newPage();
  await acme.goto('/sign-in');
  await signIn(acme, 'employee@demo.test');
  await expect(acme).toHaveURL(/\/dashboard$/);
  await acme.goto('/benefits-and-offers/all');
  await expect(acme.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(acme.getByRole('list', { name: 'Benefits and offers' }).getByRole('button').first()).toBeVisible();
  await expect(acme.getByRole('button', { name: new RegExp(benefit) })).toHaveCount(0);
  await acmeContext.close();
});
