import { type APIRequestContext, type Page, type Response, expect, test } from '@playwright/test';
import { ACCESS_TURNED_OFF_ERROR } from '../../src/contract/common.constants.ts';
import { confirmEmail, createCompanyOnScreen, expectNoSeriousViolations, signIn, signUp, uniqueEmail } from './support.ts';

/**
 * Issue 29 part 2, through the screens: an admin makes a company and its SCIM token in the console (shown once); an
 * employee of the company has the app open; the company's directory turns them off through SCIM with that token; the
 * employee's next action signs them out with the employer's message, which sign-in repeats; turned on again, they
 * sign in as before.
 */

const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

/** A call of the directory (Entra ID's shapes), with the company's token. */
function directory(request: APIRequestContext, token: string) {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/scim+json' };
  return {
    findByUserName: async (userName: string) => {
      const response = await request.get('/scim/v2/Users', { headers, params: { filter: `userName eq "${userName}"` } });
      expect(response.status()).toBe(200);
      const body = (await response.json()) as { Resources: Array<{ id: string; active: boolean }> };
      expect(body.Resources).toHaveLength(1);
      return body.Resources[0]!;
    },
    setActive: async (id: string, active: boolean) => {
      const response = await request.patch(`/scim/v2/Users/${id}`, {
        headers,
        data: JSON.stringify({ schemas: [PATCH_OP], Operations: [{ op: 'Replace', path: 'active', value: active ? 'True' : 'False' }] }),
      });
      expect(response.status(), await response.text()).toBe(200);
    },
  };
}

async function makeCompanyAndToken(page: Page, company: string, slug: string, domain: string): Promise<string> {
  await page.goto('/sign-in');
  await signIn(page, 'admin@demo.test');
  await expect(page).toHaveURL(/\/console$/);
  await createCompanyOnScreen(page, { name: company, slug, domain });

  await page.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name: 'SCIM provisioning' }).click();
  await expect(page.getByRole('heading', { name: 'SCIM provisioning' })).toBeVisible();
  await page.getByRole('button', { name: 'New SCIM token' }).click();
  const tokenForm = page.getByRole('dialog', { name: 'New SCIM token' });
  await tokenForm.getByRole('button', { name: /Company/ }).click();
  await page.getByRole('listbox').getByRole('option', { name: company, exact: true }).click();
  await tokenForm.getByRole('button', { name: 'Create token' }).click();
  const notice = page.getByRole('status').filter({ hasText: `Copy the new SCIM token of ${company}` });
  await expect(notice).toBeVisible();
  const token = /: (lcscim_\S+)$/.exec((await notice.textContent())!.trim())![1]!;
  const row = page.getByRole('grid', { name: 'SCIM tokens' }).getByRole('row', { name: new RegExp(company) });
  await expect(row).toContainText('Active');
  // The list shows the token's start only; the secret is in the notice and nowhere else.
  await expect(row).not.toContainText(token);
  await expectNoSeriousViolations(page);
  await page.screenshot({ path: 'test-results/scim-tokens-1280.png', fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: 'test-results/scim-tokens-390.png', fullPage: true });
  return token;
}

test('the directory turns an employee off while they have the app open: their next action signs them out with the employer’s message', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const suffix = Date.now().toString(36);
  const company = `Hooli ${suffix}`;
  const domain = `${suffix}.hooli.test`;
  const token = await makeCompanyAndToken(page, company, `hooli-${suffix}`, domain);

  // The employee signs up at the company's address, confirms it and browses the company's benefits.
  const employeeContext = await browser.newContext();
  const employee = await employeeContext.newPage();
  const email = uniqueEmail('gavin', domain);
  await signUp(employee, { firstName: 'Gavin', lastName: 'Belson', email, password: 'gavin-password', companySlug: `hooli-${suffix}` });
  await expect(employee).toHaveURL(/\/welcome\/about-us$/);
  await confirmEmail(request, email);
  // The app settles before the directory acts, so that the click below makes its next call: live updates are open and
  // the unread count they catch up with as they open is in.
  const isUnreadCount = (response: Response) => response.url().endsWith('/api/v1/requests/unread');
  const settled = employee
    .waitForRequest((request) => request.url().includes('/api/v1/events?ticket='))
    .then(() => employee.waitForResponse(isUnreadCount));
  await employee.goto('/benefits-and-offers');
  await expect(employee.getByText('Brought to you by').first()).toBeVisible();
  expect((await settled).status()).toBe(200);

  // The directory finds them by userName and turns them off.
  const scim = directory(request, token);
  const member = await scim.findByUserName(email);
  expect(member.active).toBe(true);
  await scim.setActive(member.id, false);

  // Their next action in the open app signs them out, and says why.
  await employee.getByRole('link', { name: 'Requests' }).first().click();
  await expect(employee).toHaveURL(/\/sign-in$/);
  await expect(employee.getByText(ACCESS_TURNED_OFF_ERROR)).toBeVisible();
  await employee.setViewportSize({ width: 390, height: 844 });
  await employee.screenshot({ path: 'test-results/scim-turned-off-390.png', fullPage: true });
  await expectNoSeriousViolations(employee);

  // Signing in again is refused with the same words.
  await signIn(employee, email, 'gavin-password');
  await expect(employee.getByText(ACCESS_TURNED_OFF_ERROR)).toBeVisible();
  await expect(employee).toHaveURL(/\/sign-in$/);

  // Turned on again, they sign in as before.
  await scim.setActive(member.id, true);
  await signIn(employee, email, 'gavin-password');
  await expect(employee).toHaveURL(/\/welcome\/about-us$/);
  await employeeContext.close();
});
