import { type APIRequestContext, type Locator, type Page, expect, test } from '@playwright/test';
import { createCompanyOnScreen, expectNoSeriousViolations, latestLink, newEmployeeThroughApi, signIn, signInThroughApi, uniqueEmail } from './support.ts';

/**
 * Issue 29 part 3, through the screens: an admin creates a company and invites its employer admin from the Staff
 * screen; the invitee opens the e-mailed link, chooses a password, signs in and lands on the company's report, where
 * figures about enough employees are shown and those about too few say "fewer than 10".
 */

const MONTH_SHORT = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Picks an option of a react-aria select, by the select's label. */
async function choose(scope: Locator, page: Page, label: RegExp, option: string) {
  await scope.getByRole('button', { name: label }).click();
  await page.getByRole('listbox').getByRole('option', { name: option, exact: true }).click();
}

/** An employee of the company who signs up, confirms the address and opens benefits (and perhaps asks for help). */
async function activeEmployee(request: APIRequestContext, domain: string, slug: string, index: number, asksForHelp: boolean) {
  const token = await newEmployeeThroughApi(request, { email: uniqueEmail(`staffer${index}`, domain), companySlug: slug, name: `Worker${index}` });
  const now = new Date().toISOString();
  const view = (offering: number) => ({
    name: 'ui_interaction',
    properties: { element_type: 'offering_card', element_id: 'offering_benefit_card', offering_id: offering, provider_name: 'Acme', featured: false },
    occurred_at: now,
  });
  const help = { name: 'cta_click', properties: { offering_id: 1, provider_name: 'Acme', featured: false, cta_type: 'offering', text: 'Get help', url: '/help' }, occurred_at: now };
  const events = [view(1), view(2), ...(asksForHelp ? [help] : [])];
  const sent = await request.post('/api/v1/analytics/events', {
    headers: { authorization: token },
    data: { analytics_id: `e2e-${index}-${Date.now()}`, events, user_properties: { internal_user: false } },
  });
  expect(sent.status(), await sent.text()).toBe(202);
}

test('an admin invites an employer admin, who sees their company’s report with shown and suppressed figures', async ({ page, browser, request }) => {
  test.setTimeout(240_000);
  const suffix = Date.now().toString(36);
  const company = `Umbrella ${suffix}`;
  const slug = `umbrella-${suffix}`;
  const domain = `${suffix}.umbrella.test`;

  await page.goto('/sign-in');
  await signIn(page, 'admin@demo.test');
  await expect(page).toHaveURL(/\/console$/);
  await createCompanyOnScreen(page, { name: company, slug, domain });

  // Eleven employees open benefits this month; three of them ask for help (too few to show).
  for (let index = 0; index < 11; index += 1) await activeEmployee(request, domain, slug, index, index < 3);

  // The invitation, from the Staff screen: the role, then its company.
  await page.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name: 'Staff', exact: true }).click();
  await page.getByRole('button', { name: 'Invite staff' }).click();
  const invitation = page.getByRole('dialog', { name: 'Invite staff' });
  const email = uniqueEmail('employer', domain);
  await invitation.getByRole('textbox', { name: 'E-mail' }).fill(email);
  await invitation.getByRole('textbox', { name: 'First name' }).fill('Erin');
  await invitation.getByRole('textbox', { name: 'Last name' }).fill('Employer');
  await invitation.locator('label').filter({ hasText: /^Employer admin/ }).click();
  await invitation.getByRole('button', { name: 'Send invitation' }).click();
  await expect(invitation.getByText('Choose the company whose report they see')).toBeVisible();
  await choose(invitation, page, /Company/, company);
  await invitation.getByRole('button', { name: 'Send invitation' }).click();
  await expect(invitation).toHaveCount(0);
  await expect(page.getByRole('grid', { name: 'Staff' }).getByRole('row', { name: /Erin Employer/ })).toContainText(`Report of ${company}`);
  await page.screenshot({ path: 'test-results/employer-invited.png' });

  // The invitee, in a browser of their own: the link, a password, the sign-in, the report.
  const invitee = await (await browser.newContext()).newPage();
  const link = await latestLink(request, email, '/reset-password/');
  await invitee.goto(new URL(link).pathname);
  await invitee.getByLabel('New password', { exact: true }).fill('employer-password');
  await invitee.getByLabel('Confirm new password').fill('employer-password');
  await invitee.getByRole('button', { name: 'Update password' }).click();
  await expect(invitee).toHaveURL(/\/sign-in$/);
  await signIn(invitee, email, 'employer-password');
  await expect(invitee).toHaveURL(/\/employer\/report$/);
  await expect(invitee.getByRole('heading', { level: 1 })).toHaveText(`${company}: value report`);

  // This month, when the employees were active.
  const now = new Date();
  const thisMonth = `${MONTH_SHORT[now.getUTCMonth()]} ${now.getUTCFullYear()}`;
  await choose(invitee.getByRole('main'), invitee, /^\w{3} \d{4} Month$/, thisMonth);
  const tiles = invitee.getByRole('list', { name: 'Key figures' });
  await expect(tiles.getByRole('listitem').filter({ hasText: 'Benefit views' })).toContainText('22');
  await expect(tiles.getByRole('listitem').filter({ hasText: 'Signed up' })).toContainText('10–19');
  await expect(tiles.getByRole('listitem').filter({ hasText: 'Help requests' })).toContainText('fewer than 10');
  await expect(tiles.getByRole('listitem').filter({ hasText: 'Satisfaction' })).toContainText('not shown (fewer than 10 employees)');
  const figures = invitee.getByRole('grid', { name: 'All figures' });
  await expect(figures.getByRole('row').filter({ hasText: 'Monthly active employees' })).toContainText('11');
  await expect(invitee.getByRole('img', { name: /^Monthly active employees/ })).toBeVisible();
  // Nothing in the report names a person.
  await expect(invitee.getByRole('main')).not.toContainText('Worker');
  await expectNoSeriousViolations(invitee);
  await invitee.screenshot({ path: 'test-results/employer-report-1280.png', fullPage: true });

  // The CSV export saves the same figures.
  const [download] = await Promise.all([invitee.waitForEvent('download'), invitee.getByRole('button', { name: 'Export CSV' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^Umbrella-.*-report\.csv$/);
  const csv = await (await download.createReadStream()).toArray();
  expect(Buffer.concat(csv).toString()).toContain('Benefits,Help requests,fewer than 10');

  // Any other address leads back to the report; the API refuses the rest.
  await invitee.goto('/dashboard');
  await expect(invitee).toHaveURL(/\/employer\/report$/);
  const token = await signInThroughApi(request, email, 'employer-password');
  expect((await request.get('/api/v1/requests/open', { headers: { authorization: token } })).status()).toBe(403);

  await invitee.setViewportSize({ width: 390, height: 844 });
  await invitee.screenshot({ path: 'test-results/employer-report-390.png', fullPage: true });
});
