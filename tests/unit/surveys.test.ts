import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RecommendedRequestCategory } from '../../src/contract/surveys.ts';
import { UnsuccessfulAnswer } from '../../src/services/http.ts';
import {
  answerQuestion,
  beginSurvey,
  fetchCategoryRequestSurveys,
  fetchNextScreenItem,
  fetchRecommendedCategories,
  saveOnboardingAnswers,
  submitSurvey,
} from '../../src/services/surveys.ts';

/** Every call goes through fetch (the API client); each test answers it and reads what was sent. */
let answer: Response;
let sent: Request[];
/** The JSON body of each request, read as it was sent. */
let bodies: unknown[];

beforeEach(() => {
  sent = [];
  bodies = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (request: Request) => {
      sent.push(request);
      const text = await request.clone().text();
      bodies.push(text ? JSON.parse(text) : undefined);
      return answer.clone();
    }),
  );
});

afterEach(() => vi.unstubAllGlobals());

const lastRequest = () => sent.at(-1) as Request;
const lastBody = () => bodies.at(-1);
const pathOf = (request: Request) => new URL(request.url).pathname;
const template = (id: number, forAlpha: boolean) => ({ id, name: `Template ${id}`, slug: `t-${id}`, for_alpha: forAlpha, category: 'Pet' });

describe('surveys client', () => {
  it('keeps only for_alpha templates, at most three per recommended category (SPEC §7)', async () => {
    const pet: RecommendedRequestCategory = {
      id: 6,
      name: 'Pet',
      image_url: '/seed/categories/pet.svg',
      request_surveys: [template(1, true), template(2, false), template(3, true), template(4, true), template(5, true)],
    };
    answer = Response.json({ success: true, recommended_request_categories: [pet] });
    const [category] = await fetchRecommendedCategories();
    expect(pathOf(lastRequest())).toBe('/api/v1/recommended_request_categories');
    expect(category?.request_surveys.map((survey) => survey.id)).toEqual([1, 3, 4]);
  });

  it('lists only the for_alpha templates of a category', async () => {
    answer = Response.json({
      survey_category: { id: 6, name: 'Pet', image_url: '/seed/categories/pet.svg' },
      request_surveys: [template(1, true), template(2, false)],
    });
    const page = await fetchCategoryRequestSurveys(6);
    expect(pathOf(lastRequest())).toBe('/api/v1/survey_categories/6/request_surveys');
    expect(page.request_surveys.map((survey) => survey.id)).toEqual([1]);
  });

  it('begins a survey as the alpha client and answers the survey session id', async () => {
    answer = Response.json({ success: true, user_request_survey: { id: 41 } }, { status: 201 });
    await expect(beginSurvey(720)).resolves.toBe(41);
    expect(lastRequest().method).toBe('POST');
    expect(pathOf(lastRequest())).toBe('/api/v1/request_surveys/720/user_request_surveys');
    expect(lastBody()).toEqual({ for_alpha: true });
  });

  it('says the survey is complete when there is no next item', async () => {
    answer = Response.json({ next_item: null });
    await expect(fetchNextScreenItem(41)).resolves.toBeNull();
    expect(pathOf(lastRequest())).toBe('/api/v1/user_request_surveys/41/next_screen_item');
  });

  it('sends an answer as a Datum and returns what the server stored', async () => {
    answer = Response.json({ success: true, user_request_answer: { id: 9, object_satisfied_id: 5, value: '2125551212' } });
    await expect(answerQuestion(41, 5, '(212) 555-1212')).resolves.toEqual({ id: 9, object_satisfied_id: 5, value: '2125551212' });
    expect(pathOf(lastRequest())).toBe('/api/v1/user_request_surveys/41/user_request_answers');
    expect(lastBody()).toEqual({
      user_request_answer: { object_satisfied_id: 5, object_satisfied_type: 'Datum', value: '(212) 555-1212' },
    });
  });

  it('treats success: false as a failure', async () => {
    answer = Response.json({ success: false, user_request_answer: { id: 9, object_satisfied_id: 5, value: '' } });
    await expect(answerQuestion(41, 5, '')).rejects.toBeInstanceOf(UnsuccessfulAnswer);
    answer = Response.json({ success: false });
    await expect(saveOnboardingAnswers({ answers: [] })).rejects.toBeInstanceOf(UnsuccessfulAnswer);
  });

  it('rejects with the server error of a refused answer', async () => {
    answer = Response.json({ error: 'Please enter a valid phone number' }, { status: 422 });
    await expect(answerQuestion(41, 5, '555')).rejects.toMatchObject({ response: { status: 422 } });
  });

  it('submits and answers the request the survey became', async () => {
    const request = {
      id: 77,
      external_id: 'REQ-77',
      name: 'Anything else',
      status: 'open',
      issued_at: '2026-11-21T10:00:00.000Z',
      created_at: '2026-11-21T10:00:00.000Z',
      details: 'What can we take off your plate?: Renew my car registration',
      survey_category_name: 'Wildcard',
      survey_category_image_url: null,
    };
    answer = Response.json({ success: true, request });
    await expect(submitSurvey(41)).resolves.toEqual(request);
    expect(lastRequest().method).toBe('POST');
    expect(pathOf(lastRequest())).toBe('/api/v1/user_request_surveys/41/submit');
  });

  it('saves onboarding answers with the completion flag', async () => {
    answer = Response.json({ success: true });
    await saveOnboardingAnswers({ answers: [{ answer_id: 122, value: true }], completed: true });
    expect(pathOf(lastRequest())).toBe('/api/v1/onboarding_answers');
    expect(lastBody()).toEqual({ answers: [{ answer_id: 122, value: true }], completed: true });
  });
});
