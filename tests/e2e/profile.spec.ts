import { type Page, expect, test } from '@playwright/test';
import { confirmEmail, expectNoSeriousViolations, latestCode, signIn, signUp, uniqueEmail } from './support.ts';

/**
 * Issue 32 point 3: Account Settings' profile at a desktop's and a phone's width. The employee edits their name,
 * phone, address and interests, which persist after a reload; a password change needs the current password and
 * signs out another browser, while this one stays signed in. With MFA on, the phone is shown masked and a new one
 * replaces it only once the code texted to it is entered.
 */

const WIDTHS = [
  { name: 'desktop', viewport: { width: 1280, height: 900 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
] as const;

const PASSWORD = 'profile-password';
const NEW_PASSWORD = 'profile-password-2';

const profile = (page: Page) => page.getByRole('region', { name: 'Profile' });
const editForm = (page: Page) => page.getByRole('form', { name: 'Edit your profile' });

for (const width of WIDTHS) {
  test(`an employee edits their profile and changes their password (${width.name}, ${width.viewport.width} px)`, async ({ browser }) => {
    test.setTimeout(120_000);
    const context = await browser.newContext({ viewport: width.viewport });
    const page = await context.newPage();
    const email = uniqueEmail(`profile-${width.name}`, 'acme.test');
    await signUp(page, { firstName: 'Pat', lastName: 'Profile', email, password: PASSWORD, companySlug: 'acme' });
    await expect(page).toHaveURL(/\/welcome\/about-us$/);
    await confirmEmail(context.request, email);

    await page.goto('/account');
    await expect(profile(page)).toContainText(`E-mail${email}`);
    await expect(profile(page)).toContainText('NamePat Profile');
    await expectNoSeriousViolations(page, 'main');

    // A started address must be complete (SPEC §5), in words beside its fields; then everything saves.
    await profile(page).getByRole('button', { name: 'Edit profile' }).click();
    await editForm(page).getByLabel('First name').fill('Patricia');
    await editForm(page).getByLabel(/^Last name/).fill('Profile-Smith');
    await editForm(page).getByLabel(/^Phone number/).pressSequentially('2125550147');
    await editForm(page).getByLabel(/^City/).fill('Portland');
    await editForm(page).getByRole('button', { name: 'Save' }).click();
    await expect(editForm(page).getByText('Please enter the street address')).toBeVisible();
    await expectNoSeriousViolations(page, 'main');
    await page.screenshot({ path: test.info().outputPath(`profile-edit-${width.viewport.width}.png`), fullPage: true });
    await editForm(page).getByLabel(/^Street address/).fill('1 Main St');
    await editForm(page).getByLabel(/^State/).fill('OR');
    await editForm(page).getByLabel(/^Postal code/).fill('97201');
    await editForm(page).getByLabel(/^Country/).fill('USA');
    await editForm(page).getByText('I have a pet').click();
    await editForm(page).getByRole('button', { name: 'Save' }).click();
    await expect(profile(page).getByText('Your profile has been saved.')).toBeVisible();

    // It persists: after a reload, the facts are the new ones, and the menus carry the new name.
    await page.reload();
    await expect(profile(page)).toContainText('NamePatricia Profile-Smith');
    await expect(profile(page)).toContainText('Phone(212) 555-0147');
    await expect(profile(page)).toContainText('Address1 Main St, Portland, OR, 97201, USA');
    await expect(profile(page)).toContainText('About youI have a pet');
    await page.screenshot({ path: test.info().outputPath(`profile-${width.viewport.width}.png`), fullPage: true });

    // Another browser is signed in as the same employee.
    const other = await browser.newContext({ viewport: width.viewport });
    const otherPage = await other.newPage();
    await otherPage.goto('/sign-in');
    await signIn(otherPage, email, PASSWORD);
    await expect(otherPage).not.toHaveURL(/\/sign-in/);

    // The current password is required and checked.
    const passwordSection = page.getByRole('region', { name: 'Password' });
    await passwordSection.getByRole('button', { name: 'Change password' }).click();
    const passwordForm = page.getByRole('form', { name: 'Change password' });
    await passwordForm.getByLabel(/^Current password/).fill('not my password');
    await passwordForm.getByLabel(/^New password/).fill(NEW_PASSWORD);
    await passwordForm.getByLabel(/^Confirm new password/).fill(NEW_PASSWORD);
    await passwordForm.getByRole('button', { name: 'Change password' }).click();
    await expect(passwordForm.getByText('That is not your current password')).toBeVisible();
    await expectNoSeriousViolations(page, 'main');
    await passwordForm.getByLabel(/^Current password/).fill(PASSWORD);
    await passwordForm.getByRole('button', { name: 'Change password' }).click();
    await expect(passwordSection.getByText('Your password has been changed. Every other device has been signed out.')).toBeVisible();

    // This browser stays signed in; the other one is signed out at its next call.
    await page.reload();
    await expect(profile(page)).toContainText('NamePatricia Profile-Smith');
    await otherPage.goto('/account');
    await expect(otherPage).toHaveURL(/\/sign-in/);
    await signIn(otherPage, email, NEW_PASSWORD);
    await expect(otherPage).not.toHaveURL(/\/sign-in/);

    await other.close();
    await context.close();
  });
}

/** A number of its own per run: the SMS limits count codes per number across accounts. */
function unusedPhone(): string {
  return `312555${String(Math.floor(Math.random() * 10_000)).padStart(4, '0')}`;
}

for (const width of WIDTHS) {
  test(`an employee with MFA on changes their phone with a code texted to the new one (${width.name}, ${width.viewport.width} px)`, async ({ browser }) => {
    test.setTimeout(120_000);
    const context = await browser.newContext({ viewport: width.viewport });
    const page = await context.newPage();
    const email = uniqueEmail(`mfa-phone-${width.name}`, 'initech.test');
    const [oldPhone, newPhone] = [unusedPhone(), unusedPhone()];
    await signUp(page, { firstName: 'Mo', lastName: 'Phone', email, password: PASSWORD, companySlug: 'initech' });
    await expect(page).toHaveURL(/\/mfa-enrollment$/);
    await page.getByLabel('Mobile phone number').pressSequentially(oldPhone);
    await page.getByRole('button', { name: 'Send code' }).click();
    const enrolmentCode = await latestCode(context.request, oldPhone);
    await page.getByRole('textbox', { name: 'Verification code' }).fill(enrolmentCode);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page).toHaveURL(/\/welcome\/about-us$/);

    await page.goto('/account');
    const verification = page.getByRole('region', { name: 'Two-step verification' });
    await expect(verification).toContainText(`(•••) •••-${oldPhone.slice(-4)}`);
    await expect(verification).not.toContainText(oldPhone.slice(0, 6));
    await verification.getByRole('button', { name: 'Change phone' }).click();
    const change = page.getByRole('group', { name: 'Change phone' });
    await change.getByLabel('Mobile phone number').pressSequentially(newPhone);
    await change.getByRole('button', { name: 'Send code' }).click();
    const code = await latestCode(context.request, newPhone);

    // A wrong code is refused in words; the old phone is still the one shown after a reload.
    await change.getByRole('textbox', { name: 'Verification code' }).fill(code === '000000' ? '111111' : '000000');
    await change.getByRole('button', { name: 'Verify' }).click();
    await expect(change.getByText('Invalid verification code.')).toBeVisible();
    await expectNoSeriousViolations(page, 'main');
    await verification.screenshot({ path: test.info().outputPath(`mfa-phone-code-${width.viewport.width}.png`) });
    await page.reload();
    await expect(verification).toContainText(`(•••) •••-${oldPhone.slice(-4)}`);

    await verification.getByRole('button', { name: 'Change phone' }).click();
    await change.getByLabel('Mobile phone number').pressSequentially(newPhone);
    await change.getByRole('button', { name: 'Send code' }).click();
    const secondCode = await latestCode(context.request, newPhone, [code]);
    await change.getByRole('textbox', { name: 'Verification code' }).fill(secondCode);
    await change.getByRole('button', { name: 'Verify' }).click();
    await expect(verification.getByText('Your new phone number is verified. Codes now go to it.')).toBeVisible();
    await expect(verification).toContainText(`(•••) •••-${newPhone.slice(-4)}`);
    await expectNoSeriousViolations(page, 'main');
    await verification.screenshot({ path: test.info().outputPath(`mfa-phone-changed-${width.viewport.width}.png`) });
    await context.close();
  });
}
