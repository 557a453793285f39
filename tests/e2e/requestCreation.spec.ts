import { crc32, deflateSync } from 'node:zlib';
import { expect, test } from '@playwright/test';
import { confirmEmail, expectNoSeriousViolations, signUp, uniqueEmail } from './support.ts';


/** A real PNG image, made here: 8x8 pixels of one colour. */
function smallPng(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const checksum = Buffer.alloc(4);
    checksum.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, checksum]);
  };
  const size = 8;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(size * 3, 0x3c)]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: size }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

test('a new user is onboarded, explores categories, creates a first request with every question type, and sees it on the Dashboard', async ({ page, request }) => {
  test.setTimeout(120_000);
  const email = uniqueEmail('pia', 'acme.test');
  await signUp(page, { firstName: 'Pia', lastName: 'Lindqvist', email, password: 'pia-password', companySlug: 'acme' });
  await confirmEmail(request, email);

  // Onboarding, step 1 of 3.
  await expect(page).toHaveURL(/\/welcome\/about-us$/);
  await expect(page.getByRole('progressbar', { name: 'Getting started' })).toHaveAttribute('aria-valuetext', 'Step 1 of 3');
  await expectNoSeriousViolations(page);
  await page.getByRole('button', { name: 'Continue' }).click();

  // Step 2: the user has a pet.
  await expect(page).toHaveURL(/\/welcome\/about-you$/);
  await expect(page.getByRole('progressbar', { name: 'Getting started' })).toHaveAttribute('aria-valuetext', 'Step 2 of 3');
  await page.getByText('I have a pet').click();
  await expect(page.getByRole('checkbox', { name: /I have a pet/ })).toBeChecked();
  await expectNoSeriousViolations(page);
  await page.getByRole('button', { name: 'Continue' }).click();

  // Step 3: a phone, and an address that, once begun, must be complete (SPEC §5).
  await expect(page).toHaveURL(/\/welcome\/contact-info$/);
  await page.getByLabel('Phone number').pressSequentially('2125550147');
  await page.getByLabel('Street address').fill('1 Main St');
  await page.getByRole('button', { name: 'Finish' }).click();
  await expect(page.getByText('Please enter the city')).toBeVisible();
  await expect(page.getByText('Please enter the country')).toBeVisible();
  await page.getByLabel('City').fill('Springfield');
  await page.getByLabel('State').fill('IL');
  await page.getByLabel('Postal code').fill('62701');
  await page.getByLabel('Country').fill('USA');
  await expectNoSeriousViolations(page);
  await page.getByRole('button', { name: 'Finish' }).click();

  // The Dashboard of a user without requests suggests what fits a pet owner.
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1, name: "It's your first request!" })).toBeVisible();
  await expect(page.getByRole('heading', { level: 3, name: 'Pet' })).toBeVisible();
  // Styled as a list of requests before the request drawer (whose chunk shares the list) was ever opened.
  await expect(page.getByRole('list', { name: 'Suggested Pet requests' })).toHaveCSS('list-style-type', 'none');
  await expectNoSeriousViolations(page);

  // SPEC §9 onboarding intro survey (603): the first conversation, offered until the first request.
  await page.getByRole('button', { name: 'Start the conversation' }).click();
  const intro = page.getByRole('dialog', { name: 'Welcome to Life Concierge' });
  await expect(intro.getByLabel('What should your concierge call you?')).toBeVisible();
  await intro.getByRole('button', { name: 'Close' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Yes, cancel' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // The Pet category page lists its requests.
  await page.getByRole('link', { name: 'View all Pet requests' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Pet Requests' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Book a vet appointment' })).toBeVisible();
  await page.getByRole('link', { name: 'Dashboard' }).first().click();

  // Explore the categories; the Wildcard's 'Anything else' has every question type.
  await page.getByRole('button', { name: 'Explore categories' }).click();
  const categories = page.getByRole('dialog', { name: 'Request categories' });
  await expect(categories.getByText('Explore request ideas from the following categories.')).toBeVisible();
  await categories.getByRole('button', { name: 'Wildcard' }).click();
  await page.getByRole('dialog', { name: 'Wildcard Requests' }).getByRole('button', { name: 'Anything else' }).click();

  const drawer = page.getByRole('dialog', { name: 'Anything else' });
  const continueButton = drawer.getByRole('button', { name: 'Continue' });

  // TextInput: Continue waits for an answer.
  const plate = drawer.getByLabel('What can we take off your plate?');
  await expect(plate).toBeVisible();
  await expect(continueButton).toBeDisabled();
  await plate.fill('Find a quiet venue for a team dinner');
  await expectNoSeriousViolations(page);
  await continueButton.click();

  // MultilineTextInput.
  await drawer.getByLabel(/Tell us the details/).fill('Twelve people, near the office, on a Thursday.');
  await continueButton.click();

  // SingleSelectInput.
  await drawer.getByText('This week', { exact: true }).click();
  await expect(drawer.getByRole('radio', { name: 'This week' })).toBeChecked();
  await continueButton.click();

  // SingleUploadInput (optional): the uploaded file becomes the answer by itself.
  await expect(drawer.getByText('Do you have a document or photo that would help?')).toBeVisible();
  await drawer.locator('input[type="file"]').setInputFiles({ name: 'floor-plan.png', mimeType: 'image/png', buffer: smallPng() });

  // PhoneNumberInput, pre-filled (masked) with the phone given in onboarding.
  const phone = drawer.getByLabel('What is the best phone number to reach you?');
  await expect(phone).toHaveValue('(212) 555-0147');
  await expect(drawer.getByText('floor-plan.png')).toBeVisible();
  await continueButton.click();

  // ManagedEmailInput, pre-filled.
  await expect(drawer.getByLabel('Which email should we send updates to?')).toHaveValue(/@acme\.test$/);
  await continueButton.click();

  // TextInput (optional): skipped.
  await expect(drawer.getByLabel(/Is there a budget we should stay within\?/)).toBeVisible();
  await drawer.getByRole('button', { name: 'Skip' }).click();

  // The summary: every answer, each editable.
  const summary = drawer.getByRole('region', { name: 'Review your request' });
  await expect(summary).toBeVisible();
  await expect(summary.getByText('This week')).toBeVisible();
  await expect(summary.getByText('(212) 555-0147')).toBeVisible();
  await expect(summary.getByText('Skipped')).toBeVisible();
  await expectNoSeriousViolations(page);
  await summary.getByRole('button', { name: 'Edit your answer to What can we take off your plate?' }).click();
  await expect(summary.getByRole('button', { name: 'Finish editing above' })).toBeDisabled();
  await summary.getByLabel('What can we take off your plate?').fill('Book a quiet venue for a team dinner');
  await summary.getByRole('button', { name: 'Save' }).click();
  await expect(summary.getByText('Book a quiet venue for a team dinner')).toBeVisible();

  // Submit; the first request is celebrated.
  await summary.getByRole('button', { name: 'Submit' }).click();
  await expect(drawer.getByRole('heading', { name: 'Anything else has been added to your requests' })).toBeVisible();
  await expect(page.locator('.lc-confetti')).toBeAttached();
  await drawer.getByRole('link', { name: 'Dashboard' }).click();

  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome, Pia' })).toBeVisible();
  const latest = page.getByRole('region', { name: 'Your latest request' });
  await expect(latest).toBeVisible();
  await expect(latest.getByRole('link')).toContainText('Anything else');
  await expect(latest.getByRole('link')).toContainText('In Queue');
});
