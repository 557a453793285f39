import { expect, test } from '@playwright/test';
import { type Credentials, kilobytes, newWeighingContext, weighRoute } from '../../scripts/routeWeight.ts';
import { BENEFITS_HELP_SURVEY_ID, DEMO_PASSWORD, callApi, createRequestThroughApi, newEmployeeThroughApi, signInThroughApi, uniqueEmail } from './support.ts';

/** DESIGN §9: gzipped JavaScript a route loads at its first visit, in KB. */
const PUBLIC_BAR = 150;
const SIGNED_IN_BAR = 200;

/**
 * Routes still over DESIGN §9's bar, each held to its weight of today in the e2e build (28 November 2026; it carries a
 * little more than production: the inspector's hook) plus about 1 KB so that it cannot grow while it waits to be brought
 * under. A route leaves this list when it meets the bar: the check then fails here until it is removed.
 */
const OVER_THE_BAR_TODAY: Record<string, number> = {
  '/sign-in': 154,
  '/sign-up': 153,
  '/forgot-password': 153,
  '/dashboard': 209,
  '/requests': 207,
  '/console': 293,
  '/console/requests/:requestId': 293,
  // With its charts (Chart.js, 53 KB), which it draws whenever a request was completed in its range.
  '/console/reports': 291,
  '/console/admin/companies': 416,
  '/console/admin/staff': 416,
};

const EMPLOYEE = { email: 'employee@demo.test', password: DEMO_PASSWORD };
const ADMIN = { email: 'admin@demo.test', password: DEMO_PASSWORD };

interface WeighedRoute {
  /** The address; `:requestId` stands for a request the employee made for this test. */
  path: string;
  as: Credentials | null;
  barKb: number;
}

const ROUTES: WeighedRoute[] = [
  ...['/sign-in', '/sign-up', '/forgot-password'].map((path) => ({ path, as: null, barKb: PUBLIC_BAR })),
  ...['/dashboard', '/requests', '/requests/:requestId', '/benefits-and-offers', '/benefits-and-offers/all', '/account'].map((path) => ({
    path,
    as: EMPLOYEE,
    barKb: SIGNED_IN_BAR,
  })),
  ...['/console', '/console/requests/:requestId', '/console/reports', '/console/admin/companies', '/console/admin/staff'].map((path) => ({
    path,
    as: ADMIN,
    barKb: SIGNED_IN_BAR,
  })),
].map((route) => ({ ...route, barKb: OVER_THE_BAR_TODAY[route.path] ?? route.barKb }));

test.describe('first-load weight (DESIGN §9)', () => {
  let requestId: number;

  test.beforeAll(async ({ request }) => {
    const token = await signInThroughApi(request, EMPLOYEE.email);
    requestId = (await createRequestThroughApi(request, token, BENEFITS_HELP_SURVEY_ID)).id;
    // Another employee's request, completed, so that Reports always has one in its range and draws its charts (their
    // chunk is weighed): whether earlier stories completed one must not change the weight.
    const completedId = (await createRequestThroughApi(request, await newEmployeeThroughApi(request, { email: uniqueEmail('weighing', 'acme.test'), companySlug: 'acme', name: 'Weighing' }), BENEFITS_HELP_SURVEY_ID)).id;
    const adminToken = await signInThroughApi(request, ADMIN.email);
    await callApi(request, adminToken, 'POST', `console/requests/${completedId}/claim`);
    await callApi(request, adminToken, 'POST', `console/requests/${completedId}/status`, { status: 'closed' });
  });

  for (const { path, as, barKb } of ROUTES) {
    test(`${path} loads at most ${barKb} KB of gzipped JavaScript`, async ({ browser, baseURL }) => {
      const url = new URL(path.replace(':requestId', String(requestId)), baseURL).href;
      const context = await newWeighingContext(browser, url, as);
      const { totalBytes, scripts } = await weighRoute(context, url);
      await context.close();
      const heaviest = [...scripts].sort((a, b) => b[1] - a[1]).map(([script, size]) => `${kilobytes(size)} KB ${script}`);
      if (path in OVER_THE_BAR_TODAY) {
        const designBar = as ? SIGNED_IN_BAR : PUBLIC_BAR;
        expect(totalBytes / 1024, `${path} meets DESIGN's ${designBar} KB: take it off OVER_THE_BAR_TODAY`).toBeGreaterThan(designBar);
      }
      expect(totalBytes / 1024, `${path}: ${kilobytes(totalBytes)} KB in ${scripts.size} scripts\n${heaviest.join('\n')}`).toBeLessThanOrEqual(barKb);
    });
  }
});
