import { count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { requests, uploads } from '../../server/db/schema.ts';
import { seedSurveyCatalogue } from '../../server/db/seed/surveyCatalogue.ts';
import {
  ALREADY_SUBMITTED,
  NOT_IN_SURVEY,
  OUT_OF_ORDER,
  SURVEY_NOT_FOUND,
  TEMPLATE_NOT_FOUND,
  UPLOAD_NOT_FOUND,
} from '../../server/domain/surveys/surveys.ts';
import { currentUserResponse } from '../../src/contract/account.ts';
import {
  ANSWER_ERRORS,
  BENEFITS_HELP_SURVEY_ID,
  MULTILINE_ANSWER_MAX,
  type NextScreenItem,
  ONBOARDING_ANSWER_IDS as IDS,
  ONBOARDING_INTRO_SURVEY_ID,
  TEXT_ANSWER_MAX,
  categoryRequestSurveysResponse,
  submitSurveyResponse,
  surveyCategoriesResponse,
  userRequestAnswerResponse,
} from '../../src/contract/surveys.ts';
import { suiteContext } from './harness.ts';
import { errorOf } from './helpers.ts';
import {
  SPEC_CATEGORY_NAMES,
  type TestUser,
  answer,
  apiGet,
  apiPost,
  beginSurvey,
  createSignedInUser,
  createUploadKey,
  json,
  nextItem,
  saveOnboarding,
  submit,
} from './surveys.helpers.ts';

/** Catalogue templates these tests walk (server/db/seed/surveys/). */
const ANYTHING_ELSE = 1001; // Wildcard; every question type, two optional questions
const RENEW_REGISTRATION = 101; // Car; address pre-fill
const RENEW_PASSPORT = 904; // Travel; name pre-fill
const RETURN_LEASED_CAR = 106; // Car; not for_alpha
const CAR_CATEGORY = 1;

const context = suiteContext({}, async (created) => {
  expect(await seedSurveyCatalogue(created.db)).toBe(true);
});

/** Every next item of a session, answering each with `valueFor` until the server says the survey is done. */
async function walk(user: TestUser, sessionId: number, valueFor: (item: NextScreenItem) => string) {
  const items: NextScreenItem[] = [];
  for (let item = await nextItem(context, user, sessionId); item; item = await nextItem(context, user, sessionId)) {
    items.push(item);
    json(await answer(context, user, sessionId, item.question.id, valueFor(item)), 200);
    expect(items.length).toBeLessThanOrEqual(7);
  }
  return items;
}

/** A valid answer for any question, so that a template can be walked without knowing it. */
function validAnswer(uploadKey: string) {
  return (item: NextScreenItem): string => {
    switch (item.question.type) {
      case 'PhoneNumberInput':
        return '(415) 555-0134';
      case 'ManagedEmailInput':
        return 'grace@example.com';
      case 'SingleSelectInput':
        return item.question.select_options?.[0]?.value ?? '';
      case 'SingleUploadInput':
        return uploadKey;
      default:
        return `Answer to ${item.question.label}`;
    }
  };
}

async function requestCount(user: TestUser): Promise<number> {
  const response = await apiGet(context, user, '/api/v1/users/current');
  return currentUserResponse.parse(json(response, 200)).user.request_count;
}

describe('the catalogue over the API', () => {
  it('lists the eight categories in order, with their images', async () => {
    const user = await createSignedInUser(context);
    const { survey_categories: categories } = surveyCategoriesResponse.parse(
      json(await apiGet(context, user, '/api/v1/survey_categories'), 200),
    );
    expect(categories.map((category) => category.name)).toEqual(SPEC_CATEGORY_NAMES);
    expect(categories[0]).toEqual({ id: CAR_CATEGORY, name: 'Car', image_url: '/seed/categories/car.svg' });
  });

  it("lists a category's for_alpha templates only, most asked-for first", async () => {
    const user = await createSignedInUser(context);
    const body = categoryRequestSurveysResponse.parse(
      json(await apiGet(context, user, `/api/v1/survey_categories/${CAR_CATEGORY}/request_surveys`), 200),
    );
    expect(body.survey_category.name).toBe('Car');
    expect(body.request_surveys[0]).toEqual({
      id: RENEW_REGISTRATION,
      name: 'Renew my car registration',
      slug: 'renew-car-registration',
      for_alpha: true,
      category: 'Car',
    });
    expect(body.request_surveys.length).toBeGreaterThanOrEqual(5);
    expect(body.request_surveys.every((template) => template.for_alpha && template.category === 'Car')).toBe(true);
    expect(body.request_surveys.map((template) => template.id)).not.toContain(RETURN_LEASED_CAR);
  });

  it('answers 404 for an unknown category and 401 without a session', async () => {
    const user = await createSignedInUser(context);
    const unknown = await apiGet(context, user, '/api/v1/survey_categories/9999/request_surveys');
    expect(unknown.statusCode).toBe(404);
    expect(errorOf(unknown)).toBe('Category not found');
    const anonymous = await context.app.inject({ method: 'GET', url: '/api/v1/survey_categories' });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('recommended request categories', () => {
  async function recommendations(user: TestUser) {
    const body = json<{
      success: boolean;
      recommended_request_categories: { name: string; request_surveys: { for_alpha: boolean; category: string | null }[] }[];
    }>(await apiGet(context, user, '/api/v1/recommended_request_categories'), 200);
    expect(body.success).toBe(true);
    return body.recommended_request_categories;
  }

  it('suggests the general categories to someone who told us nothing', async () => {
    const user = await createSignedInUser(context);
    const categories = await recommendations(user);
    expect(categories.map((category) => category.name)).toEqual(['Finances', 'Medical / Employer Benefits', 'Wildcard']);
  });

  it('puts Pet first for a pet owner, topped up to three', async () => {
    const user = await createSignedInUser(context);
    json(await saveOnboarding(context, user, { answers: [{ answer_id: IDS.pet, value: true }] }), 200);
    const categories = await recommendations(user);
    expect(categories.map((category) => category.name)).toEqual(['Pet', 'Finances', 'Medical / Employer Benefits']);
  });

  it('follows every about-you choice, and a "no" suggests nothing', async () => {
    const user = await createSignedInUser(context);
    json(
      await saveOnboarding(context, user, {
        answers: [
          { answer_id: IDS.ownHome, value: true },
          { answer_id: IDS.ownOrLeaseCar, value: true },
          { answer_id: IDS.parent, value: false },
          { answer_id: IDS.pet, value: false },
          { answer_id: IDS.partner, value: true },
        ],
      }),
      200,
    );
    const categories = await recommendations(user);
    expect(categories.map((category) => category.name)).toEqual(['Home / Moving', 'Car', 'Travel', 'Family']);
  });

  it('keeps for_alpha templates only, at most three per category', async () => {
    const user = await createSignedInUser(context);
    json(await saveOnboarding(context, user, { answers: [{ answer_id: IDS.ownOrLeaseCar, value: true }] }), 200);
    const [car, ...others] = await recommendations(user);
    expect(car.name).toBe('Car');
    expect(car.request_surveys).toHaveLength(3);
    for (const category of [car, ...others]) {
      expect(category.request_surveys.length).toBeGreaterThan(0);
      expect(category.request_surveys.length).toBeLessThanOrEqual(3);
      expect(category.request_surveys.every((template) => template.for_alpha && template.category === category.name)).toBe(true);
    }
  });
});

describe('beginning a survey', () => {
  it('answers 201 with the new survey session', async () => {
    const user = await createSignedInUser(context);
    const response = await apiPost(context, user, `/api/v1/request_surveys/${BENEFITS_HELP_SURVEY_ID}/user_request_surveys`, {
      for_alpha: true,
    });
    const body = json<{ success: boolean; user_request_survey: { id: number } }>(response, 201);
    expect(body.success).toBe(true);
    expect(body.user_request_survey.id).toBeGreaterThan(0);
    expect((await nextItem(context, user, body.user_request_survey.id))?.question.label).toBe('What do you need help with?');
  });

  it('begins the onboarding intro (603), a template outside the categories', async () => {
    const user = await createSignedInUser(context);
    const sessionId = await beginSurvey(context, user, ONBOARDING_INTRO_SURVEY_ID);
    expect(await nextItem(context, user, sessionId)).not.toBeNull();
  });

  it('refuses unknown templates, and templates not offered to this app when for_alpha', async () => {
    const user = await createSignedInUser(context);
    const unknown = await apiPost(context, user, '/api/v1/request_surveys/424242/user_request_surveys', { for_alpha: true });
    expect(unknown.statusCode).toBe(404);
    expect(errorOf(unknown)).toBe(TEMPLATE_NOT_FOUND);
    const notAlpha = await apiPost(context, user, `/api/v1/request_surveys/${RETURN_LEASED_CAR}/user_request_surveys`, {
      for_alpha: true,
    });
    expect(notAlpha.statusCode).toBe(404);
    const otherClient = await apiPost(context, user, `/api/v1/request_surveys/${RETURN_LEASED_CAR}/user_request_surveys`, {
      for_alpha: false,
    });
    expect(otherClient.statusCode).toBe(201);
  });
});

describe('the conversation', () => {
  it('serves one question at a time, in order, the last one flagged, then null', async () => {
    const user = await createSignedInUser(context);
    const uploadKey = await createUploadKey(context, user, 'receipt.pdf');
    const sessionId = await beginSurvey(context, user, ANYTHING_ELSE);
    const items = await walk(user, sessionId, validAnswer(uploadKey));
    expect(items.map((item) => item.question.type)).toEqual([
      'TextInput',
      'MultilineTextInput',
      'SingleSelectInput',
      'SingleUploadInput',
      'PhoneNumberInput',
      'ManagedEmailInput',
      'TextInput',
    ]);
    expect(items.map((item) => item.last_question)).toEqual([false, false, false, false, false, false, true]);
    // Where each question stands, for the progress line (issue 32).
    expect(items.map((item) => [item.position, item.question_count])).toEqual([1, 2, 3, 4, 5, 6, 7].map((position) => [position, 7]));
    expect(items.map((item) => item.optional)).toEqual([false, false, false, true, false, false, true]);
    for (const item of items) {
      expect(item.id).toBe(item.question.id);
      expect(item.optional).toBe(item.question.optional);
    }
    expect(items[2].question.select_options).toEqual([
      { label: 'As soon as possible', value: 'as_soon_as_possible' },
      { label: 'This week', value: 'this_week' },
      { label: 'This month', value: 'this_month' },
      { label: 'No rush', value: 'no_rush' },
    ]);
    expect(items[0].question).not.toHaveProperty('select_options');
    expect(await nextItem(context, user, sessionId)).toBeNull();
  });

  it('refuses a later question before the current one, and a question of another template', async () => {
    const user = await createSignedInUser(context);
    const sessionId = await beginSurvey(context, user, ANYTHING_ELSE);
    const first = await nextItem(context, user, sessionId);
    const otherSession = await beginSurvey(context, user, RENEW_REGISTRATION);
    const foreignQuestion = await nextItem(context, user, otherSession);
    if (!first || !foreignQuestion) throw new Error('both templates have questions');

    const ahead = await answer(context, user, sessionId, first.question.id + 1, 'Too soon');
    expect(ahead.statusCode).toBe(422);
    expect(errorOf(ahead)).toBe(OUT_OF_ORDER);
    const foreign = await answer(context, user, sessionId, foreignQuestion.question.id, 'Wrong survey');
    expect(foreign.statusCode).toBe(422);
    expect(errorOf(foreign)).toBe(NOT_IN_SURVEY);
    expect((await nextItem(context, user, sessionId))?.question.id).toBe(first.question.id);
  });

  it('skips only optional questions', async () => {
    const user = await createSignedInUser(context);
    const uploadKey = await createUploadKey(context, user, 'photo.png');
    const sessionId = await beginSurvey(context, user, ANYTHING_ELSE);
    const first = await nextItem(context, user, sessionId);
    if (!first) throw new Error('no first question');
    for (const empty of ['', '   ', null]) {
      const refused = await answer(context, user, sessionId, first.question.id, empty);
      expect(refused.statusCode).toBe(422);
      expect(errorOf(refused)).toBe(ANSWER_ERRORS.required);
    }

    const valueFor = validAnswer(uploadKey);
    let item: NextScreenItem | null = first;
    while (item && !item.optional) {
      json(await answer(context, user, sessionId, item.question.id, valueFor(item)), 200);
      item = await nextItem(context, user, sessionId);
    }
    expect(item?.question.type).toBe('SingleUploadInput');
    if (!item) throw new Error('no optional question');
    const skipped = userRequestAnswerResponse.parse(json(await answer(context, user, sessionId, item.question.id, ''), 200));
    expect(skipped.user_request_answer).toMatchObject({ object_satisfied_id: item.question.id, value: '' });
    expect((await nextItem(context, user, sessionId))?.question.type).toBe('PhoneNumberInput');
  });

  it('checks each answer by its question type', async () => {
    const user = await createSignedInUser(context);
    const otherUser = await createSignedInUser(context);
    const ownUpload = await createUploadKey(context, user, 'scan.pdf');
    const someoneElsesUpload = await createUploadKey(context, otherUser, 'private.pdf');
    // Announced, but its bytes never arrived (or were refused with a 415): staff would find a file that 404s.
    const neverArrived = await createUploadKey(context, user, 'never-sent.pdf', { store: false });
    const sessionId = await beginSurvey(context, user, ANYTHING_ELSE);

    /** Tries the refused values on the current question, then answers it with `accepted` and checks what is kept. */
    async function expectRule(type: string, refused: [string, string][], accepted: string, stored: string) {
      const item = await nextItem(context, user, sessionId);
      expect(item?.question.type).toBe(type);
      if (!item) return;
      for (const [value, error] of refused) {
        const response = await answer(context, user, sessionId, item.question.id, value);
        expect(response.statusCode, `${type} ${value.slice(0, 20)}`).toBe(422);
        expect(errorOf(response)).toBe(error);
      }
      const response = userRequestAnswerResponse.parse(json(await answer(context, user, sessionId, item.question.id, accepted), 200));
      expect(response.user_request_answer.value).toBe(stored);
    }

    await expectRule('TextInput', [['x'.repeat(TEXT_ANSWER_MAX + 1), ANSWER_ERRORS.textTooLong]], `  ${'x'.repeat(TEXT_ANSWER_MAX)}  `, 'x'.repeat(TEXT_ANSWER_MAX));
    await expectRule(
      'MultilineTextInput',
      [['y'.repeat(MULTILINE_ANSWER_MAX + 1), ANSWER_ERRORS.multilineTooLong]],
      'First line\nSecond line',
      'First line\nSecond line',
    );
    await expectRule('SingleSelectInput', [['someday', ANSWER_ERRORS.option], ['No rush', ANSWER_ERRORS.option]], 'no_rush', 'no_rush');
    await expectRule(
      'SingleUploadInput',
      [
        [someoneElsesUpload, UPLOAD_NOT_FOUND],
        [neverArrived, UPLOAD_NOT_FOUND],
        ['0123456789abcdef0123456789abcdef.pdf', UPLOAD_NOT_FOUND],
      ],
      ownUpload,
      ownUpload,
    );
    await expectRule(
      'PhoneNumberInput',
      [
        ['555-1234', ANSWER_ERRORS.phone],
        ['+1 (212) 555-1212', ANSWER_ERRORS.phone],
        ['212-555-12ab', ANSWER_ERRORS.phone],
      ],
      '(212) 555-1212',
      '2125551212',
    );
    await expectRule(
      'ManagedEmailInput',
      [
        ['grace', ANSWER_ERRORS.email],
        ['grace@', ANSWER_ERRORS.email],
      ],
      ' Grace.Hopper@Example.com ',
      'grace.hopper@example.com',
    );
  });

  it('replaces an answer given again, keeping its id', async () => {
    const user = await createSignedInUser(context);
    const sessionId = await beginSurvey(context, user, ANYTHING_ELSE);
    const first = await nextItem(context, user, sessionId);
    if (!first) throw new Error('no first question');
    const original = userRequestAnswerResponse.parse(json(await answer(context, user, sessionId, first.question.id, 'Renew my lease'), 200));
    const second = await nextItem(context, user, sessionId);
    json(await answer(context, user, sessionId, second?.question.id ?? 0, 'Details'), 200);

    const edited = userRequestAnswerResponse.parse(json(await answer(context, user, sessionId, first.question.id, 'Renew my lease early'), 200));
    expect(edited.user_request_answer).toEqual({ ...original.user_request_answer, value: 'Renew my lease early' });
    // Editing an earlier answer does not move the conversation back.
    expect((await nextItem(context, user, sessionId))?.question.type).toBe('SingleSelectInput');
  });
});

describe('pre-filled answers', () => {
  async function prefillOf(user: TestUser, requestSurveyId: number, type: string) {
    const sessionId = await beginSurvey(context, user, requestSurveyId);
    const items = await walk(user, sessionId, validAnswer(await createUploadKey(context, user, 'file.pdf')));
    return items.filter((item) => item.question.type === type).map((item) => item.universal_answer);
  }

  it('uses the onboarding phone, preferred e-mail and address', async () => {
    const user = await createSignedInUser(context, { mfaPhone: '2125550000' });
    json(
      await saveOnboarding(context, user, {
        answers: [
          { answer_id: IDS.phone, value: '(646) 555-0199' },
          { answer_id: IDS.preferredEmail, value: 'grace.home@example.com' },
          {
            answer_id: IDS.address,
            value: [
              { answer_id: IDS.addressLine1, value: '12 Elm Street' },
              { answer_id: IDS.addressLine2, value: 'Apt 4B' },
              { answer_id: IDS.city, value: 'Springfield' },
              { answer_id: IDS.state, value: 'IL' },
              { answer_id: IDS.postalCode, value: '62704' },
              { answer_id: IDS.country, value: 'United States' },
            ],
          },
        ],
      }),
      200,
    );
    expect(await prefillOf(user, ANYTHING_ELSE, 'PhoneNumberInput')).toEqual(['6465550199']);
    expect(await prefillOf(user, ANYTHING_ELSE, 'ManagedEmailInput')).toEqual(['grace.home@example.com']);
    // Renew my car registration: the mailing address is pre-filled, the free-text question is not.
    expect(await prefillOf(user, RENEW_REGISTRATION, 'MultilineTextInput')).toEqual([
      '12 Elm Street\nApt 4B\nSpringfield, IL 62704\nUnited States',
      null,
    ]);
  });

  it('falls back to the MFA phone and the account e-mail, and gives the name', async () => {
    const user = await createSignedInUser(context, { firstName: 'Ada', lastName: 'Lovelace', mfaPhone: '2125550000' });
    expect(await prefillOf(user, ANYTHING_ELSE, 'PhoneNumberInput')).toEqual(['2125550000']);
    expect(await prefillOf(user, ANYTHING_ELSE, 'ManagedEmailInput')).toEqual([user.email]);
    expect((await prefillOf(user, RENEW_PASSPORT, 'TextInput'))[0]).toBe('Ada Lovelace');
  });

  it('leaves the initial value empty when we know nothing', async () => {
    const user = await createSignedInUser(context);
    expect(await prefillOf(user, ANYTHING_ELSE, 'PhoneNumberInput')).toEqual([null]);
    expect(await prefillOf(user, RENEW_REGISTRATION, 'MultilineTextInput')).toEqual([null, null]);
    expect((await prefillOf(user, ANYTHING_ELSE, 'TextInput')).every((value) => value === null)).toBe(true);
  });
});

describe('submitting', () => {
  /** Answers the Anything-else template: the upload given, the budget skipped. */
  async function completeAnythingElse(user: TestUser) {
    const uploadKey = await createUploadKey(context, user, 'quote from the plumber.pdf');
    const sessionId = await beginSurvey(context, user, ANYTHING_ELSE);
    const values = [
      'Find a plumber',
      'The kitchen sink drips.\n\nBefore Friday, please.',
      'this_week',
      uploadKey,
      '415 555 0134',
      'grace@example.com',
      '',
    ];
    for (const value of values) {
      const item = await nextItem(context, user, sessionId);
      if (!item) throw new Error('ran out of questions');
      json(await answer(context, user, sessionId, item.question.id, value), 200);
    }
    return { sessionId, uploadKey };
  }

  it('refuses while a required question is unanswered, naming it', async () => {
    const user = await createSignedInUser(context);
    const sessionId = await beginSurvey(context, user, ANYTHING_ELSE);
    const first = await nextItem(context, user, sessionId);
    json(await answer(context, user, sessionId, first?.question.id ?? 0, 'Something'), 200);
    const refused = await submit(context, user, sessionId);
    expect(refused.statusCode).toBe(422);
    expect(errorOf(refused)).toBe('Please answer "Tell us the details: deadlines, preferences, anything we should know" before submitting.');
  });

  it('creates an open request with a readable summary, counted in request_count', async () => {
    const user = await createSignedInUser(context);
    expect(await requestCount(user)).toBe(0);
    const { sessionId, uploadKey } = await completeAnythingElse(user);
    const before = Date.now();
    const { success, request } = submitSurveyResponse.parse(json(await submit(context, user, sessionId), 200));
    expect(success).toBe(true);
    expect(request).toMatchObject({
      name: 'Anything else',
      status: 'open',
      survey_category_name: 'Wildcard',
      survey_category_image_url: '/seed/categories/wildcard.svg',
    });
    expect(Math.abs(Date.parse(request.issued_at) - before)).toBeLessThan(60_000);
    expect(request.details).toBe(
      [
        'What can we take off your plate? Find a plumber',
        'Tell us the details: deadlines, preferences, anything we should know: The kitchen sink drips. / Before Friday, please.',
        'When do you need it done? This week',
        'Do you have a document or photo that would help? quote from the plumber.pdf',
        'What is the best phone number to reach you? (415) 555-0134',
        'Which email should we send updates to? grace@example.com',
      ].join('\n'),
    );
    expect(await requestCount(user)).toBe(1);
    // The concierge handling the request may open the file.
    const [upload] = await context.db.select({ requestId: uploads.requestId }).from(uploads).where(eq(uploads.key, uploadKey));
    expect(upload.requestId).toBe(request.id);
    // A submitted survey is over.
    expect(await nextItem(context, user, sessionId)).toBeNull();
    const late = await answer(context, user, sessionId, 1, 'Too late');
    expect(late.statusCode).toBe(409);
    expect(errorOf(late)).toBe(ALREADY_SUBMITTED);
  });

  it('creates one request when submitted twice, one after the other or at the same time', async () => {
    const user = await createSignedInUser(context);
    const { sessionId } = await completeAnythingElse(user);
    const first = submitSurveyResponse.parse(json(await submit(context, user, sessionId), 200));
    const again = submitSurveyResponse.parse(json(await submit(context, user, sessionId), 200));
    expect(again.request).toEqual(first.request);

    const { sessionId: racedSession } = await completeAnythingElse(user);
    const raced = await Promise.all([submit(context, user, racedSession), submit(context, user, racedSession), submit(context, user, racedSession)]);
    const ids = raced.map((response) => submitSurveyResponse.parse(json(response, 200)).request.id);
    expect(new Set(ids).size).toBe(1);

    const [{ n }] = await context.db.select({ n: count() }).from(requests).where(eq(requests.userId, user.id));
    expect(n).toBe(2);
    expect(await requestCount(user)).toBe(2);
  });

  it('names the request after a template outside the categories, without a category', async () => {
    const user = await createSignedInUser(context);
    const sessionId = await beginSurvey(context, user, ONBOARDING_INTRO_SURVEY_ID);
    await walk(user, sessionId, validAnswer(''));
    const { request } = submitSurveyResponse.parse(json(await submit(context, user, sessionId), 200));
    expect(request).toMatchObject({ name: 'Welcome to Life Concierge', survey_category_name: null, survey_category_image_url: null });
  });
});

describe('ownership', () => {
  it("refuses another user's survey session as not found, and changes nothing", async () => {
    const owner = await createSignedInUser(context);
    const intruder = await createSignedInUser(context);
    const sessionId = await beginSurvey(context, owner, ANYTHING_ELSE);
    const first = await nextItem(context, owner, sessionId);
    if (!first) throw new Error('no first question');

    const attempts = [
      await apiGet(context, intruder, `/api/v1/user_request_surveys/${sessionId}/next_screen_item`),
      await answer(context, intruder, sessionId, first.question.id, 'Hijacked'),
      await submit(context, intruder, sessionId),
    ];
    for (const response of attempts) {
      expect(response.statusCode).toBe(404);
      expect(errorOf(response)).toBe(SURVEY_NOT_FOUND);
    }
    expect((await nextItem(context, owner, sessionId))?.question.id).toBe(first.question.id);
    const [{ n }] = await context.db.select({ n: count() }).from(requests).where(eq(requests.userId, intruder.id));
    expect(n).toBe(0);
  });

  it('needs a session for every call', async () => {
    const calls = [
      { method: 'GET', url: '/api/v1/recommended_request_categories' },
      { method: 'POST', url: `/api/v1/request_surveys/${ANYTHING_ELSE}/user_request_surveys` },
      { method: 'GET', url: '/api/v1/user_request_surveys/1/next_screen_item' },
      { method: 'POST', url: '/api/v1/user_request_surveys/1/submit' },
      { method: 'GET', url: '/api/v1/onboarding_answers' },
    ] as const;
    for (const call of calls) {
      expect((await context.app.inject(call)).statusCode, call.url).toBe(401);
    }
  });
});
