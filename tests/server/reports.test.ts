import { beforeAll, describe, expect, it } from 'vitest';
import { requests } from '../../server/db/schema.ts';
import { requestRatings, requestServiceLevels } from '../../server/db/service.schema.ts';
import { surveyCategories } from '../../server/db/surveys.schema.ts';
import { REPORT_CSV_COLUMNS, type Report, type ReportRow, reportResponse } from '../../src/contract/reports.ts';
import { suiteContext } from './harness.ts';
import { type Person, createPerson, get } from './requests.helpers.ts';

/** Issue 28 part 4: the console's Reports, their figures on a known data set, their CSV and who may read them. */

const context = suiteContext();

interface Completion {
  owner: Person;
  concierge: Person | null;
  categoryId?: number | null;
  completedAt: string;
  status?: 'closed' | 'in_progress';
  firstResponse?: { minutes: number; met: boolean };
  resolution?: { minutes: number; met: boolean };
  rating?: { score: number; comment?: string };
}

/** A request with its service level and rating written as the SLA clock and the rating flow would leave them. */
async function insertCompletion(completion: Completion) {
  const completedAt = new Date(completion.completedAt);
  const reopened = completion.status === 'in_progress';
  const [request] = await context.db
    .insert(requests)
    .values({
      userId: completion.owner.id,
      name: `Request completed ${completion.completedAt}`,
      status: completion.status ?? 'closed',
      surveyCategoryId: completion.categoryId ?? null,
      closedAt: reopened ? null : completedAt,
    })
    .returning({ id: requests.id });
  await context.db.insert(requestServiceLevels).values({
    requestId: request.id,
    // Reopening withdraws the completion from the reports.
    completedAt: reopened ? null : completedAt,
    completedByUserId: completion.concierge?.id ?? null,
    employeeUserId: completion.owner.id,
    surveyCategoryId: completion.categoryId ?? null,
    ratingScore: reopened ? null : (completion.rating?.score ?? null),
    firstResponseBusinessMinutes: completion.firstResponse?.minutes ?? null,
    firstResponseMet: completion.firstResponse?.met ?? null,
    resolutionBusinessMinutes: completion.resolution?.minutes ?? null,
    resolutionMet: completion.resolution?.met ?? null,
  });
  if (completion.rating) {
    await context.db.insert(requestRatings).values({
      requestId: request.id,
      completedAt,
      userId: completion.owner.id,
      conciergeUserId: completion.concierge?.id ?? null,
      score: completion.rating.score,
      comment: completion.rating.comment ?? null,
    });
  }
  return request.id;
}

async function reportOf(person: Person, query: Record<string, string>): Promise<Report> {
  const response = await context.app.inject({ method: 'GET', url: '/api/v1/console/reports', query, headers: person.headers });
  expect(response.statusCode, response.body).toBe(200);
  return reportResponse.parse(response.json());
}

const byLabel = (report: Report) => Object.fromEntries(report.rows.map((row) => [row.label, row]));

/** The figures of one row that the data set decides, rounded where shares are fractions. */
function figures(row: ReportRow) {
  const round = (value: number | null) => (value === null ? null : Math.round(value * 1000) / 1000);
  return {
    volume: row.volume,
    rated: row.rated,
    response_rate: round(row.response_rate),
    satisfaction: round(row.satisfaction),
    distribution: row.distribution,
    first_response: [row.first_response_median_minutes, row.first_response_p90_minutes],
    resolution: [row.resolution_median_minutes, row.resolution_p90_minutes],
    met: [round(row.first_response_met), round(row.resolution_met)],
  };
}

describe('console reports', () => {
  let concierge: Person;
  let cara: Person;
  let dev: Person;
  let alpha: Person;
  let beta: Person;
  let categoryId: number;
  const range = { from: '2031-03-01', to: '2031-03-31' };

  beforeAll(async () => {
    concierge = await createPerson(context, 'concierge', { firstName: 'Cara', lastName: 'Credited' });
    cara = concierge;
    dev = await createPerson(context, 'concierge', { firstName: 'Dev', lastName: 'Other' });
    alpha = await createPerson(context, 'employee', { companyName: 'Alpha Ltd' });
    beta = await createPerson(context, 'employee', { companyName: 'Beta plc' });
    [{ id: categoryId }] = await context.db
      .insert(surveyCategories)
      .values({ slug: `reports-${Date.now()}`, name: 'Travel', imageUrl: '/travel.png' })
      .returning({ id: surveyCategories.id });

    const first = await insertCompletion({
      owner: alpha, concierge: cara, categoryId, completedAt: '2031-03-02T10:00:00Z',
      firstResponse: { minutes: 30, met: true }, resolution: { minutes: 600, met: true }, rating: { score: 5, comment: 'Perfect' },
    });
    // An earlier completion of the same request, rated then, in February: outside the range.
    await context.db.insert(requestRatings).values({
      requestId: first, completedAt: new Date('2031-02-20T10:00:00Z'), userId: alpha.id, conciergeUserId: dev.id, score: 1, comment: 'Old',
    });
    await insertCompletion({
      owner: alpha, concierge: cara, categoryId, completedAt: '2031-03-10T10:00:00Z',
      firstResponse: { minutes: 60, met: true }, resolution: { minutes: 1200, met: false }, rating: { score: 4 },
    });
    await insertCompletion({
      owner: alpha, concierge: dev, completedAt: '2031-03-31T23:59:00Z',
      firstResponse: { minutes: 90, met: false }, resolution: { minutes: 300, met: true }, rating: { score: 2, comment: 'Slow start' },
    });
    await insertCompletion({
      owner: beta, concierge: dev, categoryId, completedAt: '2031-03-15T10:00:00Z', firstResponse: { minutes: 120, met: false },
    });
    // Outside the range, and reopened since its completion: neither counts.
    await insertCompletion({ owner: beta, concierge: cara, completedAt: '2031-04-01T00:00:00Z', rating: { score: 1, comment: 'April' } });
    await insertCompletion({ owner: beta, concierge: cara, completedAt: '2031-03-20T10:00:00Z', status: 'in_progress', rating: { score: 1 } });
  });

  it('counts each completion of the range once, with its rating, by company, concierge and category', async () => {

    const byCompany = await reportOf(concierge, { ...range, group: 'company' });
    expect(figures(byCompany.total)).toEqual({
      volume: 4,
      rated: 3,
      response_rate: 0.75,
      satisfaction: 0.667,
      distribution: [0, 1, 0, 1, 1],
      first_response: [75, 111],
      resolution: [600, 1080],
      met: [0.5, 0.667],
    });
    expect(byCompany.rows.map((row) => row.label)).toEqual(['Alpha Ltd', 'Beta plc']);
    expect(figures(byLabel(byCompany)['Alpha Ltd'])).toMatchObject({ volume: 3, rated: 3, satisfaction: 0.667, distribution: [0, 1, 0, 1, 1] });
    expect(figures(byLabel(byCompany)['Beta plc'])).toMatchObject({ volume: 1, rated: 0, response_rate: 0, satisfaction: null, met: [0, null] });

    const byConcierge = byLabel(await reportOf(concierge, { ...range, group: 'concierge' }));
    expect(figures(byConcierge['Cara Credited'])).toMatchObject({ volume: 2, rated: 2, satisfaction: 1, met: [1, 0.5] });
    expect(figures(byConcierge['Dev Other'])).toMatchObject({ volume: 2, rated: 1, satisfaction: 0, first_response: [105, 117] });

    const byCategory = await reportOf(concierge, { ...range, group: 'category' });
    expect(byCategory.rows.map((row) => [row.label, row.key, row.volume])).toEqual([
      ['Travel', categoryId, 3],
      ['No category', null, 1],
    ]);
    expect(figures(byCategory.total)).toEqual(figures(byCompany.total));

    expect(byCompany.comments.map((comment) => [comment.comment, comment.score, comment.request_name, comment.concierge_name])).toEqual([
      ['Slow start', 2, 'Request completed 2031-03-31T23:59:00Z', 'Dev Other'],
      ['Perfect', 5, 'Request completed 2031-03-02T10:00:00Z', 'Cara Credited'],
    ]);
  });

  it('answers an empty range with zero volume and no figures', async () => {
    const report = await reportOf(concierge, { from: '2031-06-01', to: '2031-06-30', group: 'concierge' });
    expect(report.rows).toEqual([]);
    expect(figures(report.total)).toMatchObject({ volume: 0, rated: 0, response_rate: null, satisfaction: null, first_response: [null, null] });
    expect(report.comments).toEqual([]);
  });

  it('exports the same figures as CSV: a header, one line per group and the total', async () => {
    const response = await context.app.inject({ method: 'GET', url: '/api/v1/console/reports.csv', query: { ...range, group: 'company' }, headers: concierge.headers });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/csv/);
    expect(response.headers['content-disposition']).toBe('attachment; filename="report-company-2031-03-01-2031-03-31.csv"');
    const lines = response.body.trimEnd().split('\r\n').map((line) => line.split(','));
    expect(lines[0]).toEqual([...REPORT_CSV_COLUMNS]);
    expect(lines.slice(1).map((line) => line.slice(0, 4))).toEqual([
      ['Company', 'Alpha Ltd', '3', '3'],
      ['Company', 'Beta plc', '1', '0'],
      ['Total', 'All', '4', '3'],
    ]);
    expect(lines.at(-1)!.slice(6, 11)).toEqual(['0', '1', '0', '1', '1']);
    expect(lines.every((line) => line.length === REPORT_CSV_COLUMNS.length)).toBe(true);
  });

  it('is for staff only: anonymous 401, an employee 403, a concierge and an admin 200', async () => {
    const admin = await createPerson(context, 'admin');
    for (const url of ['/api/v1/console/reports', '/api/v1/console/reports.csv']) {
      const query = `?from=${range.from}&to=${range.to}`;
      expect((await get(context, null, url + query)).statusCode).toBe(401);
      expect((await get(context, alpha, url + query)).statusCode).toBe(403);
      expect((await get(context, admin, url + query)).statusCode).toBe(200);
    }
  });

  it('names the field at fault in a bad range', async () => {
    for (const [query, field] of [
      ['from=2031-03-31&to=2031-03-01', 'to'],
      ['from=2020-01-01&to=2031-03-01', 'to'],
      ['from=yesterday&to=2031-03-01', 'from'],
      ['from=2031-03-01&to=2031-03-02&group=planet', 'group'],
    ]) {
      const response = await get(context, concierge, `/api/v1/console/reports?${query}`);
      expect(response.statusCode, query).toBe(422);
      expect(Object.keys(response.json().fields), query).toEqual([field]);
    }
  });
});
