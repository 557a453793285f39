import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { loadSigningSecret } from '../../server/adapters/storage/disk.ts';
import { requests } from '../../server/db/schema.ts';
import { requestRatings, requestServiceLevels } from '../../server/db/service.schema.ts';
import { RATING_WINDOW_MS, checkRatingLinkToken, ratingLinkToken } from '../../server/domain/service/ratingLinks.ts';
import { rateByLink } from '../../server/domain/service/ratings.ts';
import { RATING_ERRORS, type RatingState, pendingRatingsResponse, ratingStateResponse } from '../../src/contract/ratings.ts';
import { suiteContext } from './harness.ts';
import { errorOf, outboxTo } from './helpers.ts';
import { type Person, createPerson, createRequest, get, post } from './requests.helpers.ts';

/** Issue 28 part 3: the employee's rating of each completion of their request, in the app and from signed links. */

const context = suiteContext();

const ratingUrl = (requestId: number) => `/api/v1/requests/${requestId}/rating`;
const linkUrl = (requestId: number) => `/api/v1/rating_links/${requestId}`;
const DAY_MS = 24 * 60 * 60 * 1000;

function put(person: Person | null, url: string, payload: object) {
  return context.app.inject({ method: 'PUT', url, headers: person?.headers ?? {}, payload });
}

async function changeStatus(staff: Person, requestId: number, status: 'in_progress' | 'closed') {
  const response = await post(context, staff, `/api/v1/console/requests/${requestId}/status`, { status });
  expect(response.statusCode, response.body).toBe(200);
}

/** A request of a new employee, completed by a new concierge through the console. */
async function completedRequest() {
  const employee = await createPerson(context, 'employee');
  const concierge = await createPerson(context, 'concierge');
  const requestId = await createRequest(context, employee, { name: 'Book a table' });
  await changeStatus(concierge, requestId, 'in_progress');
  await changeStatus(concierge, requestId, 'closed');
  return { employee, concierge, requestId };
}

async function stateOf(employee: Person, requestId: number): Promise<RatingState> {
  const response = await get(context, employee, ratingUrl(requestId));
  expect(response.statusCode, response.body).toBe(200);
  return ratingStateResponse.parse(response.json()).rating_state;
}

async function rate(employee: Person, requestId: number, score: number, comment?: string) {
  const response = await put(employee, ratingUrl(requestId), { score, comment });
  expect(response.statusCode, response.body).toBe(200);
  return ratingStateResponse.parse(response.json()).rating_state;
}

const ratingsOf = (requestId: number) => context.db.select().from(requestRatings).where(eq(requestRatings.requestId, requestId));

/** The five links of the latest completion e-mail to the employee. */
async function emailedLinks(employee: Person): Promise<URL[]> {
  const [completion] = (await outboxTo(context, employee.email)).filter((message) => message.subject?.includes('is Completed'));
  return completion.links.filter((link) => link.includes('/rate?')).map((link) => new URL(link));
}

/** Moves the request's current completion (and its rating) into the past, as if `days` had gone by. */
async function ageCompletion(requestId: number, days: number) {
  const [level] = await context.db.select().from(requestServiceLevels).where(eq(requestServiceLevels.requestId, requestId));
  const earlier = new Date(level.completedAt!.getTime() - days * DAY_MS);
  await context.db.update(requestServiceLevels).set({ completedAt: earlier }).where(eq(requestServiceLevels.requestId, requestId));
  await context.db.update(requests).set({ closedAt: earlier }).where(eq(requests.id, requestId));
  await context.db
    .update(requestRatings)
    .set({ completedAt: earlier })
    .where(and(eq(requestRatings.requestId, requestId), eq(requestRatings.completedAt, level.completedAt!)));
}

describe('completion', () => {
  it('credits the concierge who completed it and e-mails five signed rating links, one per score', async () => {
    const { employee, concierge, requestId } = await completedRequest();
    const [level] = await context.db.select().from(requestServiceLevels).where(eq(requestServiceLevels.requestId, requestId));
    expect(level.completedByUserId).toBe(concierge.id);
    expect(level.completedAt).not.toBeNull();

    const links = await emailedLinks(employee);
    expect(links.map((link) => link.pathname)).toEqual(Array(5).fill(`/requests/${requestId}/rate`));
    expect(links.map((link) => link.searchParams.get('score'))).toEqual(['1', '2', '3', '4', '5']);
    expect(new Set(links.map((link) => link.searchParams.get('token'))).size).toBe(1);
  });
});

describe('rating in the app', () => {
  it('asks for a rating of a completed request, on the page and among the pending ones, until one is given', async () => {
    const { employee, requestId } = await completedRequest();
    const before = await stateOf(employee, requestId);
    expect(before.rating).toBeNull();
    expect(new Date(before.changeable_until!).getTime() - new Date(before.completed_at!).getTime()).toBe(RATING_WINDOW_MS);
    const pending = pendingRatingsResponse.parse((await get(context, employee, '/api/v1/ratings/pending')).json());
    expect(pending.requests.map((request) => request.request_id)).toEqual([requestId]);

    const rated = await rate(employee, requestId, 4, '  Quick and kind  ');
    expect(rated.rating).toMatchObject({ score: 4, comment: 'Quick and kind' });
    const after = pendingRatingsResponse.parse((await get(context, employee, '/api/v1/ratings/pending')).json());
    expect(after.requests).toEqual([]);
  });

  it('keeps one rating per completion, changed in place, credited to the completing concierge', async () => {
    const { employee, concierge, requestId } = await completedRequest();
    await rate(employee, requestId, 5, 'Great');
    const changed = await rate(employee, requestId, 2, '');
    expect(changed.rating).toMatchObject({ score: 2, comment: null });
    const rows = await ratingsOf(requestId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ score: 2, userId: employee.id, conciergeUserId: concierge.id });
  });

  it('refuses a change once the 14 days after completion have passed (409), and a rating of an open request', async () => {
    const { employee, requestId } = await completedRequest();
    await rate(employee, requestId, 3);
    await ageCompletion(requestId, 13);
    await rate(employee, requestId, 4);
    await ageCompletion(requestId, 1.01);
    const late = await put(employee, ratingUrl(requestId), { score: 5 });
    expect(late.statusCode).toBe(409);
    expect(errorOf(late)).toBe(RATING_ERRORS.windowClosed);
    expect((await ratingsOf(requestId))[0].score).toBe(4);

    const open = await createRequest(context, employee);
    const early = await put(employee, ratingUrl(open), { score: 5 });
    expect(early.statusCode).toBe(409);
    expect(errorOf(early)).toBe(RATING_ERRORS.notCompleted);
    expect((await stateOf(employee, open)).completed_at).toBeNull();
  });

  it('asks again when the request is reopened and completed again, keeping the earlier rating', async () => {
    const { employee, concierge, requestId } = await completedRequest();
    await rate(employee, requestId, 2, 'Slow');
    await changeStatus(concierge, requestId, 'in_progress');
    expect((await stateOf(employee, requestId)).completed_at).toBeNull();
    await changeStatus(concierge, requestId, 'closed');
    expect((await stateOf(employee, requestId)).rating).toBeNull();
    await rate(employee, requestId, 5, 'Sorted now');
    expect((await ratingsOf(requestId)).map((row) => row.score).sort()).toEqual([2, 5]);
  });

  it('keeps the reports’ copy of the completion: its employee and score, withdrawn on reopening until completed again', async () => {
    const { employee, concierge, requestId } = await completedRequest();
    const reported = async () => {
      const [level] = await context.db.select().from(requestServiceLevels).where(eq(requestServiceLevels.requestId, requestId));
      return { counted: level.completedAt !== null, employee: level.employeeUserId, score: level.ratingScore };
    };
    expect(await reported()).toEqual({ counted: true, employee: employee.id, score: null });
    await rate(employee, requestId, 2);
    await rate(employee, requestId, 3);
    expect(await reported()).toEqual({ counted: true, employee: employee.id, score: 3 });
    await changeStatus(concierge, requestId, 'in_progress');
    expect(await reported()).toEqual({ counted: false, employee: employee.id, score: null });
    await changeStatus(concierge, requestId, 'closed');
    expect(await reported()).toEqual({ counted: true, employee: employee.id, score: null });
    await rate(employee, requestId, 5);
    expect(await reported()).toEqual({ counted: true, employee: employee.id, score: 5 });
  });

  it('names the field at fault: a score of 6, a comment of 100 KB', async () => {
    const { employee, requestId } = await completedRequest();
    const six = await put(employee, ratingUrl(requestId), { score: 6 });
    expect(six.statusCode).toBe(422);
    expect(Object.keys(six.json().fields)).toEqual(['score']);
    const long = await put(employee, ratingUrl(requestId), { score: 4, comment: 'x'.repeat(100 * 1024) });
    expect([413, 422]).toContain(long.statusCode);
    expect(Object.keys(long.json().fields ?? {})).toEqual(['comment']);
    expect(await ratingsOf(requestId)).toEqual([]);
  });

  it('lets only the request’s own employee rate: anonymous 401, another employee 404, staff 403', async () => {
    const { concierge, requestId } = await completedRequest();
    const stranger = await createPerson(context, 'employee');
    const admin = await createPerson(context, 'admin');
    for (const [person, status] of [
      [null, 401],
      [stranger, 404],
      [concierge, 403],
      [admin, 403],
    ] as const) {
      expect((await get(context, person, ratingUrl(requestId))).statusCode).toBe(status);
      expect((await put(person, ratingUrl(requestId), { score: 5 })).statusCode).toBe(status);
    }
    expect((await get(context, null, '/api/v1/ratings/pending')).statusCode).toBe(401);
    expect((await get(context, concierge, '/api/v1/ratings/pending')).statusCode).toBe(403);
    const strangers = pendingRatingsResponse.parse((await get(context, stranger, '/api/v1/ratings/pending')).json());
    expect(strangers.requests).toEqual([]);
    expect(await ratingsOf(requestId)).toEqual([]);
  });
});

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

describe('signed rating links', () => {
  it('opens the rating page without writing anything: a mail scanner following every link changes nothing', async () => {
    const { employee, requestId } = await completedRequest();
    await rate(employee, requestId, 5, 'Lovely');
    for (const link of await emailedLinks(employee)) {
      const response = await context.app.inject({ method: 'GET', url: `${linkUrl(requestId)}?token=${encodeURIComponent(link.searchParams.get('token')!)}` });
      expect(response.statusCode, response.body).toBe(200);
      expect(ratingStateResponse.parse(response.json()).rating_state.rating).toMatchObject({ score: 5, comment: 'Lovely' });
    }
    expect((await ratingsOf(requestId)).map((row) => row.score)).toEqual([5]);
  });

  it('rates, without a session, once the page is confirmed', async () => {
    const { employee, concierge, requestId } = await completedRequest();
    const token = (await emailedLinks(employee))[1].searchParams.get('token')!;
    const response = await put(null, linkUrl(requestId), { token, score: 2, comment: 'Took a week' });
    expect(response.statusCode, response.body).toBe(200);
    expect(await ratingsOf(requestId)).toMatchObject([{ score: 2, comment: 'Took a week', userId: employee.id, conciergeUserId: concierge.id }]);
  });

  it('refuses a tampered token, another request’s token and an expired one (403), and a link of an earlier completion (409)', async () => {
    const { employee, concierge, requestId } = await completedRequest();
    const other = await completedRequest();
    const token = (await emailedLinks(employee))[0].searchParams.get('token')!;
    const otherToken = (await emailedLinks(other.employee))[0].searchParams.get('token')!;
    const [completedAt, expiresAt, mac] = token.split('.');
    const tampered = [
      `${completedAt}.${Number(expiresAt) + DAY_MS}.${mac}`,
      `${completedAt}.${expiresAt}.${mac.slice(0, -2)}${mac.endsWith('AA') ? 'AE' : 'AA'}`,
      // The same signature bytes spelt otherwise: the last character's unused low bit set.
      `${completedAt}.${expiresAt}.${mac.slice(0, -1)}${BASE64URL[BASE64URL.indexOf(mac.at(-1)!) ^ 1]}`,
      otherToken,
      'not-a-token',
    ];
    for (const forged of tampered) {
      const response = await put(null, linkUrl(requestId), { token: forged, score: 1 });
      expect(response.statusCode, forged).toBe(403);
      expect(errorOf(response)).toBe(RATING_ERRORS.linkInvalid);
      expect((await context.app.inject({ method: 'GET', url: `${linkUrl(requestId)}?token=${encodeURIComponent(forged)}` })).statusCode).toBe(403);
    }

    const later = new Date(Date.now() + RATING_WINDOW_MS + 1000);
    await expect(rateByLink(context.db, { secret: loadSigningSecret(context.config.DATA_DIR), requestId, token, score: 1, now: later })).rejects.toMatchObject({
      statusCode: 403,
      message: RATING_ERRORS.linkExpired,
    });

    await changeStatus(concierge, requestId, 'in_progress');
    await changeStatus(concierge, requestId, 'closed');
    const outdated = await put(null, linkUrl(requestId), { token, score: 1 });
    expect(outdated.statusCode).toBe(409);
    expect(errorOf(outdated)).toBe(RATING_ERRORS.linkOutdated);
    expect(await ratingsOf(requestId)).toEqual([]);
    expect((await put(null, linkUrl(requestId), { score: 1 })).json().fields).toHaveProperty('token');
  });

  it('signs the request, the completion and the expiry: any change to them breaks the signature', () => {
    const completedAt = new Date('2026-03-01T10:00:00Z');
    const token = ratingLinkToken('s'.repeat(40), 7, completedAt);
    expect(checkRatingLinkToken('s'.repeat(40), 7, token, completedAt)).toEqual({ valid: true, completedAt });
    expect(checkRatingLinkToken('s'.repeat(40), 8, token, completedAt)).toEqual({ valid: false, reason: 'invalid' });
    expect(checkRatingLinkToken('t'.repeat(40), 7, token, completedAt)).toEqual({ valid: false, reason: 'invalid' });
    const justBefore = new Date(completedAt.getTime() + RATING_WINDOW_MS - 1);
    expect(checkRatingLinkToken('s'.repeat(40), 7, token, justBefore).valid).toBe(true);
    expect(checkRatingLinkToken('s'.repeat(40), 7, token, new Date(completedAt.getTime() + RATING_WINDOW_MS))).toEqual({
      valid: false,
      reason: 'expired',
    });
  });
});
