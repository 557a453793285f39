import { type Page, expect, test } from '@playwright/test';
import { expectNoSeriousViolations, signIn } from './support.ts';


async function signInAsEmployee(page: Page, path: string) {
  await page.goto('/sign-in');
  await signIn(page, 'employee@demo.test');
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto(path);
}

const cards = (page: Page) => page.getByRole('list', { name: 'Benefits and offers' }).getByRole('button');
const cardLabels = (page: Page) => cards(page).evaluateAll((buttons) => buttons.map((button) => button.getAttribute('aria-label')));

// The seed catalogue as Acme's employee sees it, in the category Family.
const FAMILY_BENEFITS = [
  'Lumen Employee Assistance, Confidential counselling (EAP), Six free counselling sessions per issue, for you and your household (benefit)',
  'Acme People Team, Paid parental leave, 16 weeks fully paid for every new parent, by birth, adoption or foster placement (benefit)',
];
const FAMILY_OFFERS = [/^Fresh Fork, Meal kits, .* \(offer\)$/, /^Little Nest, Childcare marketplace, .* \(offer\)$/, /^ClearCounsel, Legal plan, .* \(offer\)$/];

test.describe('Benefits & Offers', () => {
  test('the full page keeps its filter and switch in the address, replaced, and restores them on reload', async ({ page }) => {
    await signInAsEmployee(page, '/benefits-and-offers');
    await expect(page.getByRole('heading', { level: 1, name: 'Benefits & Offers' })).toBeVisible();
    await page.getByRole('region', { name: 'Exclusive Partner Offers' }).getByRole('link', { name: /^View all/ }).click();
    await expect(page).toHaveURL(/\/benefits-and-offers\/all$/);
    await expect(page.getByRole('heading', { level: 1, name: 'All benefits & offers' })).toBeVisible();
    await expect(cards(page)).toHaveCount(20);
    await expect(page.getByRole('radio', { name: 'All' })).toBeChecked();

    const filter = page.getByRole('radiogroup', { name: 'Filter by category' });
    await filter.getByText('Family', { exact: true }).click();
    await expect(page).toHaveURL(/\/benefits-and-offers\/all\?type=all&filter=Family$/);
    await expect(page.getByRole('radio', { name: 'Family' })).toBeChecked();
    await expect(cards(page)).toHaveCount(5);
    const labels = await cardLabels(page);
    expect(labels.slice(0, 2)).toEqual(FAMILY_BENEFITS);
    labels.slice(2).forEach((label, index) => expect(label).toMatch(FAMILY_OFFERS[index] as RegExp));

    const benefitsOnly = page.getByRole('switch', { name: 'Show only my benefits' });
    await expect(benefitsOnly).not.toBeChecked();
    await page.getByText('Show only my benefits').click();
    await expect(benefitsOnly).toBeChecked();
    await expect(page).toHaveURL(/\/benefits-and-offers\/all\?type=benefit&filter=Family$/);
    await expect(cards(page)).toHaveCount(2);
    expect(await cardLabels(page)).toEqual(FAMILY_BENEFITS);

    await page.reload();
    await expect(page.getByRole('radio', { name: 'Family' })).toBeChecked();
    await expect(page.getByRole('switch', { name: 'Show only my benefits' })).toBeChecked();
    await expect(cards(page)).toHaveCount(2);
    expect(await cardLabels(page)).toEqual(FAMILY_BENEFITS);

    // Legal holds no benefit of Acme's.
    await filter.getByText('Legal', { exact: true }).click();
    await expect(page.getByText('Sorry, no results have been found')).toBeVisible();
    await expect(page).toHaveURL(/\?type=benefit&filter=Legal$/);
    await expectNoSeriousViolations(page);

    // Every change replaced the address: one step back is the landing page.
    await page.goBack();
    await expect(page).toHaveURL(/\/benefits-and-offers$/);
  });

  test("'View all' of Your Benefits opens the full page with the switch on", async ({ page }) => {
    await signInAsEmployee(page, '/benefits-and-offers');
    await page.getByRole('region', { name: 'Your Benefits', exact: true }).getByRole('link', { name: /^View all/ }).click();
    await expect(page).toHaveURL(/\/benefits-and-offers\/all\?type=benefit$/);
    await expect(page.getByRole('switch', { name: 'Show only my benefits' })).toBeChecked();
    await expect(cards(page)).toHaveCount(8);
    for (const label of await cardLabels(page)) expect(label).toMatch(/\(benefit\)$/);
  });

  test('the drawer shows every section type with its links, closes with Escape, and its help button starts the survey', async ({
    page,
    context,
  }) => {
    // The partners' sites, as far as this test needs them.
    await context.route(/^https:\/\/[^/]*example\.com\//, (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<title>Partner</title><h1>Partner site</h1>' }),
    );
    await signInAsEmployee(page, '/benefits-and-offers');
    const medicalCard = page.getByRole('button', { name: /^Meridian Health Plans, Medical coverage, .* \(benefit\)$/ });
    await medicalCard.click();

    const drawer = page.getByRole('dialog', { name: 'Medical coverage' });
    await expect(drawer.getByText('Meridian Choice PPO and Meridian Saver HDHP')).toBeVisible();
    await expect(drawer.getByText('Partner offer')).toHaveCount(0);
    await expect(drawer.getByRole('heading', { level: 4 })).toHaveText(['How to enroll', 'Contact Meridian', 'Preventive care at no cost']);
    await expect(drawer.getByRole('region', { name: 'How to enroll' }).getByRole('listitem')).toHaveCount(4);
    await expect(drawer.getByText('Group number')).toBeVisible();

    const link = (name: RegExp) => drawer.getByRole('link', { name });
    await expect(link(/^Phone: \(800\) 555-0142/)).toHaveAttribute('href', 'tel:8005550142');
    await expect(link(/^Email: members@meridian-health\.example\.com/)).toHaveAttribute('href', 'mailto:members@meridian-health.example.com');
    const website = link(/^Website: www\.meridian-health\.example\.com\/find-care/);
    await expect(website).toHaveAttribute('href', 'https://www.meridian-health.example.com/find-care');
    const download = link(/^Download: Summary of Benefits and Coverage \(PDF\)/);
    await expect(download).toHaveAttribute('href', 'https://meridian-health.example.com/acme/summary-of-benefits.pdf');
    for (const external of [website, download, link(/^Open the benefits portal/), link(/^Find an in-network doctor/)]) {
      await expect(external).toHaveAttribute('target', '_blank');
      await expect(external).toHaveAttribute('rel', /noopener/);
    }
    await expect(link(/^Phone:/)).not.toHaveAttribute('target');
    await expect(link(/^Email:/)).not.toHaveAttribute('target');

    // Following a web link opens the partner's page in a new tab, and the drawer stays.
    for (const [external, address] of [
      [website, 'https://www.meridian-health.example.com/find-care'],
      [download, 'https://meridian-health.example.com/acme/summary-of-benefits.pdf'],
    ] as const) {
      const opened = context.waitForEvent('page');
      await external.click();
      const tab = await opened;
      await expect(tab).toHaveURL(address);
      await tab.close();
    }
    await expect(drawer).toBeVisible();
    await expectNoSeriousViolations(page);

    await page.keyboard.press('Escape');
    await expect(drawer).toHaveCount(0);
    await expect(medicalCard).toBeFocused();

    // A partner offer carries the label, and has no help block.
    await page.getByRole('button', { name: /^FitLoop, Gym memberships, .* \(offer\)$/ }).click();
    const offer = page.getByRole('dialog', { name: 'Gym memberships' });
    await expect(offer.getByText('Partner offer')).toBeVisible();
    await expect(offer.getByText('FitLoop All-Access Membership')).toBeVisible();
    await expect(offer.getByText(/^Get help from/)).toHaveCount(0);
    await offer.getByRole('button', { name: 'Close' }).click();

    await medicalCard.click();
    await expect(drawer.getByText('Get help from your Life Concierge assistant')).toBeVisible();
    await drawer.getByRole('button', { name: 'Ask a concierge to help me enroll' }).click();
    await expect(drawer).toHaveCount(0);
    const survey = page.getByRole('dialog', { name: 'Help me with my benefits' });
    await expect(survey.getByText('What do you need help with?')).toBeVisible();
  });

  test("the landing page's 'Request help' starts 'Help me with my benefits'", async ({ page }) => {
    await signInAsEmployee(page, '/benefits-and-offers');
    await expect(page.getByRole('region', { name: 'Your Benefits', exact: true }).getByRole('button')).toHaveCount(3);
    await expect(page.getByText(/general overview/)).toBeVisible();
    await expectNoSeriousViolations(page);
    await page.getByRole('button', { name: 'Request help' }).click();
    await expect(page.getByRole('dialog', { name: 'Help me with my benefits' }).getByText('What do you need help with?')).toBeVisible();
  });
});
