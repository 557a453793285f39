import { mkdirSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { ratingStateResponse } from '../../src/contract/ratings.ts';
import { callApi, createRequestThroughApi, expectNoSeriousViolations, latestLink, signInAs, signInThroughApi } from './support.ts';

/**
 * Issue 28 parts 3 and 4, through the screens: a concierge completes a request; its employee follows the completion
 * e-mail's "2" link (signed out, as from a phone's mail app), which opens the rating page with 2 chosen and rates
 * nothing until sent; they send it with a comment; the console's Reports show the rating and the comment.
 */

const EMPLOYEE = 'employee@demo.test';
const CONCIERGE = 'concierge@demo.test';
const BENEFITS_HELP_SURVEY_ID = 720;
const SHOTS = 'test-results/csat';
const COMMENT = 'Took a week to hear back.';

for (const width of [1280, 390] as const) {
  test(`at ${width} px: the completion e-mail's link rates only once confirmed, and Reports show the rating`, async ({ browser, request }) => {
    test.setTimeout(120_000);
    mkdirSync(SHOTS, { recursive: true });
    const employeeToken = await signInThroughApi(request, EMPLOYEE);
    const conciergeToken = await signInThroughApi(request, CONCIERGE);
    const created = await createRequestThroughApi(request, employeeToken, BENEFITS_HELP_SURVEY_ID);
    for (const status of ['in_progress', 'closed']) {
      await callApi(request, conciergeToken, 'POST', `console/requests/${created.id}/status`, { status });
    }

    const link = new URL(await latestLink(request, EMPLOYEE, `/requests/${created.id}/rate?score=2`));
    const visitor = await browser.newContext({ viewport: { width, height: 844 } });
    const page = await visitor.newPage();
    await page.goto(`${link.pathname}${link.search}`);
    const card = page.getByRole('region', { name: 'How did we do?' });
    await expect(card.getByRole('radio', { name: '2 – Poor' })).toBeChecked();
    // Opening the link (as a mail scanner would) rated nothing.
    const before = ratingStateResponse.parse(await callApi(request, employeeToken, 'GET', `requests/${created.id}/rating`));
    expect(before.rating_state.rating).toBeNull();
    await expectNoSeriousViolations(page);
    await page.screenshot({ path: `${SHOTS}/rate-link-${width}.png`, fullPage: true });

    await card.getByRole('textbox', { name: /Comment/ }).fill(COMMENT);
    await card.getByRole('button', { name: 'Send rating' }).click();
    await expect(card.getByRole('status')).toHaveText('Thank you for your rating.');
    await expect(card).toContainText('You rated this 2 – Poor.');
    const after = ratingStateResponse.parse(await callApi(request, employeeToken, 'GET', `requests/${created.id}/rating`));
    expect(after.rating_state.rating).toMatchObject({ score: 2, comment: COMMENT });
    await page.screenshot({ path: `${SHOTS}/rated-${width}.png`, fullPage: true });
    await visitor.close();

    const staff = await browser.newContext({ viewport: { width, height: 900 } });
    const consolePage = await staff.newPage();
    await signInAs(consolePage, CONCIERGE);
    await consolePage.getByRole('link', { name: 'Reports' }).click();
    await expect(consolePage).toHaveURL(/\/console\/reports$/);
    await consolePage.getByRole('radiogroup', { name: 'Group by' }).getByText('Concierge', { exact: true }).click();
    await expect(consolePage.getByRole('radio', { name: 'Concierge' })).toBeChecked();
    const figures = consolePage.getByRole('grid', { name: 'Figures by concierge' });
    await expect(figures).toContainText('Casey');
    const comment = consolePage.locator('.lc-reports__comment').filter({ hasText: COMMENT }).first();
    await expect(comment).toContainText('2 of 5');
    await expect(comment.getByRole('link', { name: created.name })).toHaveAttribute('href', `/console/requests/${created.id}`);
    await expect(consolePage.getByRole('img', { name: /^Satisfaction and response rate by concierge/ })).toBeVisible();
    await expectNoSeriousViolations(consolePage);
    await consolePage.screenshot({ path: `${SHOTS}/reports-${width}.png`, fullPage: true });

    const download = consolePage.waitForEvent('download');
    await consolePage.getByRole('button', { name: 'Export CSV' }).click();
    expect((await download).suggestedFilename()).toMatch(/^report-concierge-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);
    await expect(consolePage.getByRole('status').filter({ hasText: 'The CSV file is in your downloads.' })).toBeVisible();
    await staff.close();
  });
}
