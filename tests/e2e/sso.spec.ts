import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { type RunningIdentityProvider, startIdentityProvider } from '../../server/demo/identityProvider.ts';
import { E2E_PORT } from './ports.ts';
import { expectNoSeriousViolations, signInAs, signInThroughApi, signOut, uniqueEmail } from './support.ts';

/**
 * Issue 29 part 1: an admin sets up single sign-on for Globex through the admin screens; an employee at globex.test
 * signs in for the first time through a real OpenID provider (oidc-provider, started here on loopback) and lands on
 * the Dashboard with Globex's benefits. Globex requires MFA: the identity provider did it, so the app asks for none.
 */

const APP_URL = `http://127.0.0.1:${E2E_PORT}`;
const client = { client_id: 'life-concierge-e2e', client_secret: randomBytes(24).toString('base64url') };
const newcomer = { sub: `sso-${Date.now()}`, email: uniqueEmail('sam.single', 'globex.test'), email_verified: true, given_name: 'Sam', family_name: 'Single' };
let provider: RunningIdentityProvider;

test.beforeAll(async () => {
  provider = await startIdentityProvider({
    accounts: [newcomer],
    clients: [{ ...client, redirect_uris: [`${APP_URL}/api/v1/sso/callback`] }],
  });
});

test.afterAll(async ({ request }) => {
  // Globex's SSO goes with this story's identity provider: the other stories sign Globex people in with passwords.
  const token = await signInThroughApi(request, 'admin@demo.test');
  const companies = (await (await request.get('/api/v1/admin/companies', { headers: { authorization: token } })).json()) as {
    companies: Array<{ id: number; slug: string }>;
  };
  const globex = companies.companies.find((company) => company.slug === 'globex')!;
  await request.delete(`/api/v1/admin/companies/${globex.id}/sso`, { headers: { authorization: token } });
  await provider?.close();
});

test('an admin sets up SSO for Globex, and a Globex employee signs in through it for the first time', async ({ page }) => {
  test.setTimeout(120_000);
  await signInAs(page, 'admin@demo.test');
  await page.goto('/console/admin/companies');
  await page.getByRole('link', { name: 'Single sign-on of Globex' }).click();
  await expect(page).toHaveURL(/\/console\/admin\/companies\/\d+\/sso$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Single sign-on for Globex' })).toBeVisible();
  await expect(page.getByText(`${APP_URL}/api/v1/sso/callback`)).toBeVisible();
  await page.getByLabel('Issuer').fill(provider.issuer);
  await page.getByLabel('Client ID').fill(client.client_id);
  await page.getByLabel('Client secret').fill(client.client_secret);
  await expect(page.getByRole('checkbox', { name: 'globex.test' })).toBeChecked();
  await expectNoSeriousViolations(page);
  await page.getByRole('button', { name: 'Save single sign-on' }).click();
  await expect(page.getByRole('region', { name: 'Single sign-on for Globex' }).getByRole('status')).toHaveText('Globex’s single sign-on saved.');
  // The secret is write-only: saved, the field is empty and says one is kept.
  await expect(page.getByLabel('Client secret')).toHaveValue('');
  await expect(page.getByText('A secret is stored, encrypted, and never shown.')).toBeVisible();
  await signOut(page);

  // The employee types their work address: Globex's SSO is offered beside the password (optional SSO).
  await page.getByLabel('Email').fill(newcomer.email);
  const continueWithSso = page.getByRole('button', { name: 'Continue with Globex SSO' });
  await expect(continueWithSso).toBeVisible();
  await expect(page.getByLabel('Password', { exact: true })).toBeVisible();
  await expectNoSeriousViolations(page);

  // A first try is cancelled at the provider: the app says so and leads back to the sign-in page.
  await continueWithSso.click();
  await expect(page.getByRole('heading', { name: 'Demo identity provider' })).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(/\/sign-in\/sso$/);
  await expect(page.getByRole('alert')).toHaveText('You cancelled the sign-in at your company’s identity provider.');
  await expectNoSeriousViolations(page);
  await page.getByRole('link', { name: 'Back to sign in' }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  await page.getByLabel('Email').fill(newcomer.email);
  await continueWithSso.click();

  // At the identity provider, which knows the address from the app's login hint.
  await expect(page.getByRole('heading', { name: 'Demo identity provider' })).toBeVisible();
  expect(new URL(page.url()).origin).toBe(provider.issuer);
  await expect(page.getByRole('radio', { name: new RegExp(newcomer.email) })).toBeChecked();
  await page.getByRole('button', { name: 'Sign in' }).click();

  // Back in the app, signed in: a new account starts with onboarding (no MFA step: the provider did it).
  await expect(page).toHaveURL(/\/welcome\/about-us$/);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeTruthy();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/welcome\/about-you$/);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/welcome\/contact-info$/);
  await page.getByRole('button', { name: 'Finish' }).click();

  // The Dashboard, with the company's name and benefits: the provider vouched for the address at Globex.
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText('Brought to you by')).toBeVisible();
  await expect(page.getByRole('img', { name: 'Globex' }).first()).toBeVisible();
  await page.goto('/benefits-and-offers');
  await expect(page.getByRole('heading', { name: 'Your Benefits', exact: true })).toBeVisible();
  await expect(page.getByText('Medical plan with HSA').first()).toBeVisible();
  await page.goto('/account');
  await expect(page.getByText('Sam Single').first()).toBeVisible();
});
