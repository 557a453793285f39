import { count } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditEvents } from '../../server/db/schema.ts';
import { requestSurveys, surveyCategories, surveyQuestions } from '../../server/db/surveys.schema.ts';
import { seedSurveyCatalogue } from '../../server/db/seed/surveyCatalogue.ts';
import { IMAGE_UPLOAD_ERROR, catalogueImagePath } from '../../server/domain/catalogue/catalogueImages.ts';
import { TEMPLATE_NOT_FOUND_ERROR, UNKNOWN_SURVEY_CATEGORY_ERROR, surveySlugTakenError } from '../../server/domain/admin/adminSurveys.ts';
import {
  type AdminTemplate,
  type CreateTemplateRequest,
  OPTION_VALUES_ERROR,
  PREFILL_TYPE_ERROR,
  type QuestionInput,
  SELECT_OPTIONS_ERROR,
  adminOfferingResponse,
  adminSurveyCategoriesResponse,
  adminSurveyCategoryResponse,
  adminTemplateResponse,
  adminTemplatesResponse,
} from '../../src/contract/adminCatalogue.ts';
import { BENEFITS_HELP_SURVEY } from '../../src/contract/offerings.ts';
import { categoryRequestSurveysResponse, submitSurveyResponse } from '../../src/contract/surveys.ts';
import { adminCall, auditLog, expectAdminsOnly } from './admin.helpers.ts';
import { suiteContext } from './harness.ts';
import { errorOf } from './helpers.ts';
import { type Person, createPerson, uploadFile } from './requests.helpers.ts';
import { answer, beginSurvey, json, nextItem, submit } from './surveys.helpers.ts';

const context = suiteContext({}, (created) => seedSurveyCatalogue(created.db));

let slugCounter = 0;
function freshSlug(prefix = 'template'): string {
  slugCounter += 1;
  return `${prefix}-${slugCounter}-${Date.now().toString(36)}`;
}

const firstQuestions: QuestionInput[] = [
  { label: 'What should we book?', type: 'TextInput' },
  { label: 'Which size?', type: 'SingleSelectInput', select_options: [{ label: 'Small', value: 's' }, { label: 'Large', value: 'l' }] },
  { label: 'Anything else?', type: 'MultilineTextInput', optional: true },
];

async function createTemplate(admin: Person, overrides: Partial<CreateTemplateRequest> = {}): Promise<AdminTemplate> {
  const response = await adminCall(context, admin, 'POST', '/survey_templates', {
    slug: freshSlug(),
    name: 'Book a thing',
    category_id: 1,
    questions: firstQuestions,
    ...overrides,
  });
  expect(response.statusCode, response.body).toBe(201);
  return adminTemplateResponse.parse(response.json()).template;
}

async function replaceQuestions(admin: Person, templateId: number, questions: QuestionInput[]): Promise<AdminTemplate> {
  const response = await adminCall(context, admin, 'PUT', `/survey_templates/${templateId}/questions`, { questions });
  expect(response.statusCode, response.body).toBe(200);
  return adminTemplateResponse.parse(response.json()).template;
}

async function rowCounts() {
  const [[audit], [templates], [questions], [categories]] = await Promise.all([
    context.db.select({ rows: count() }).from(auditEvents),
    context.db.select({ rows: count() }).from(requestSurveys),
    context.db.select({ rows: count() }).from(surveyQuestions),
    context.db.select({ rows: count() }).from(surveyCategories),
  ]);
  return { audit: audit.rows, templates: templates.rows, questions: questions.rows, categories: categories.rows };
}

describe('who may manage the surveys', () => {
  it('refuses every route to a visitor (401), an employee and a concierge (403), and serves an admin', async () => {
    const admin = await createPerson(context, 'admin');
    const outsiders = { employee: await createPerson(context, 'employee'), concierge: await createPerson(context, 'concierge') };
    const template = await createTemplate(admin);
    const before = await rowCounts();
    await expectAdminsOnly(context, outsiders, [
      ['GET', '/survey_categories'],
      ['POST', '/survey_categories', { slug: 'sneaky', name: 'Sneaky', image_upload_key: 'nope' }],
      ['PATCH', '/survey_categories/1', { name: 'Outsider' }],
      ['GET', '/survey_templates'],
      ['GET', `/survey_templates/${template.id}`],
      ['POST', '/survey_templates', { slug: freshSlug(), name: 'Sneaky', questions: firstQuestions }],
      ['PATCH', `/survey_templates/${template.id}`, { name: 'Outsider' }],
      ['PUT', `/survey_templates/${template.id}/questions`, { questions: firstQuestions.slice(0, 1) }],
    ]);
    expect(await rowCounts()).toEqual(before);
    for (const path of ['/survey_categories', '/survey_templates', `/survey_templates/${template.id}`]) {
      expect((await adminCall(context, admin, 'GET', path)).statusCode, path).toBe(200);
    }
  });

  it('answers 404 for a template or category that does not exist', async () => {
    const admin = await createPerson(context, 'admin');
    for (const [method, path, payload] of [
      ['GET', '/survey_templates/999999'],
      ['PATCH', '/survey_templates/999999', { name: 'Nobody' }],
      ['PUT', '/survey_templates/999999/questions', { questions: firstQuestions }],
    ] as const) {
      const response = await adminCall(context, admin, method, path, payload);
      expect(response.statusCode, path).toBe(404);
      expect(errorOf(response)).toBe(TEMPLATE_NOT_FOUND_ERROR);
    }
    expect((await adminCall(context, admin, 'PATCH', '/survey_categories/999999', { name: 'Nobody' })).statusCode).toBe(404);
  });
});

describe('survey categories', () => {
  it('creates and edits a category with an uploaded image, audited, and employees see it', async () => {
    const admin = await createPerson(context, 'admin');
    const employee = await createPerson(context, 'employee');
    const slug = freshSlug('category');
    const created = await adminCall(context, admin, 'POST', '/survey_categories', {
      slug,
      name: 'Garden',
      image_upload_key: await uploadFile(context, admin, { filename: 'garden.png' }),
    });
    expect(created.statusCode, created.body).toBe(201);
    const category = adminSurveyCategoryResponse.parse(created.json()).category;
    const key = await uploadFile(context, admin, { filename: 'garden-2.png' });
    const edited = await adminCall(context, admin, 'PATCH', `/survey_categories/${category.id}`, { name: 'Garden and yard', image_upload_key: key });
    expect(adminSurveyCategoryResponse.parse(edited.json()).category).toMatchObject({ name: 'Garden and yard', image_url: catalogueImagePath(key), template_count: 0 });

    await createTemplate(admin, { category_id: category.id });
    const listed = adminSurveyCategoriesResponse.parse((await adminCall(context, admin, 'GET', '/survey_categories')).json()).categories;
    expect(listed.find((row) => row.id === category.id)?.template_count).toBe(1);
    const seen = await context.app.inject({ method: 'GET', url: `/api/v1/survey_categories/${category.id}/request_surveys`, headers: employee.headers });
    expect(categoryRequestSurveysResponse.parse(seen.json()).survey_category).toEqual({ id: category.id, name: 'Garden and yard', image_url: catalogueImagePath(key) });

    const events = (await auditLog(context, admin, { subject_type: 'survey_category', subject_id: category.id })).events;
    expect(events.map((event) => event.action)).toEqual(['survey_category.update', 'survey_category.create']);
    expect(events[0].changes).toMatchObject({ name: { before: 'Garden', after: 'Garden and yard' } });
  });

  it('refuses a slug in use and an image that is not an uploaded one, changing nothing', async () => {
    const admin = await createPerson(context, 'admin');
    const before = await rowCounts();
    const taken = await adminCall(context, admin, 'PATCH', '/survey_categories/2', { slug: 'car' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().fields).toEqual({ slug: surveySlugTakenError('car') });
    const badImage = await adminCall(context, admin, 'POST', '/survey_categories', { slug: freshSlug('category'), name: 'X', image_upload_key: 'no-such-upload' });
    expect(badImage.statusCode).toBe(422);
    expect(badImage.json().fields).toEqual({ image_upload_key: IMAGE_UPLOAD_ERROR });
    expect(await rowCounts()).toEqual(before);
  });
});

describe('request templates', () => {
  it('creates a template with its questions last in its category, edits it, and audits both', async () => {
    const admin = await createPerson(context, 'admin');
    const template = await createTemplate(admin);
    expect(template).toMatchObject({ name: 'Book a thing', for_alpha: true, category_id: 1, version: 1 });
    expect(template.questions.map(({ id: _id, ...question }) => question)).toEqual([
      { label: 'What should we book?', type: 'TextInput', optional: false, prefill: null, select_options: null },
      { label: 'Which size?', type: 'SingleSelectInput', optional: false, prefill: null, select_options: [{ label: 'Small', value: 's' }, { label: 'Large', value: 'l' }] },
      { label: 'Anything else?', type: 'MultilineTextInput', optional: true, prefill: null, select_options: null },
    ]);
    const listed = adminTemplatesResponse.parse((await adminCall(context, admin, 'GET', '/survey_templates')).json()).templates;
    expect(listed.filter((row) => row.category_id === 1).at(-1)?.id).toBe(template.id);

    const edited = await adminCall(context, admin, 'PATCH', `/survey_templates/${template.id}`, { name: 'Book something', for_alpha: false, category_id: null });
    expect(adminTemplateResponse.parse(edited.json()).template).toMatchObject({ name: 'Book something', for_alpha: false, category_id: null });
    const events = (await auditLog(context, admin, { subject_type: 'survey_template', subject_id: template.id })).events;
    expect(events.map((event) => event.action)).toEqual(['survey_template.update', 'survey_template.create']);
    expect(events[0].changes).toEqual({
      name: { before: 'Book a thing', after: 'Book something' },
      for_alpha: { before: true, after: false },
      category_id: { before: 1, after: null },
    });
  });

  it('renames the help requests of the offerings that start a renamed template', async () => {
    const admin = await createPerson(context, 'admin');
    const template = await createTemplate(admin);
    const offering = await adminCall(context, admin, 'POST', '/offerings', {
      slug: freshSlug('offer'),
      type: 'product',
      provider_name: 'P',
      provider_logo_url: '/logo.svg',
      heading: 'H',
      subheading: 'S',
      name: 'N',
      help: { cta: 'Help me', request_survey_id: template.id },
      sections: [{ section_type: 'text', heading: 'T', items: [{ value: 'V' }] }],
    });
    expect(offering.statusCode, offering.body).toBe(201);
    const offeringId = adminOfferingResponse.parse(offering.json()).offering.id;
    await adminCall(context, admin, 'PATCH', `/survey_templates/${template.id}`, { name: 'Book it now' });
    const read = adminOfferingResponse.parse((await adminCall(context, admin, 'GET', `/offerings/${offeringId}`)).json());
    expect(read.offering.help).toEqual({ cta: 'Help me', request_survey_id: template.id, request_survey_name: 'Book it now' });
  });

  it.each([
    ['a question type that does not exist', [{ label: 'Date?', type: 'DatePicker' }], 'questions.0.type', undefined],
    ['a single select without options', [{ label: 'Size?', type: 'SingleSelectInput' }], 'questions.0.select_options', SELECT_OPTIONS_ERROR],
    ['options on a text question', [{ label: 'Size?', type: 'TextInput', select_options: [{ label: 'A', value: 'a' }, { label: 'B', value: 'b' }] }], 'questions.0.select_options', SELECT_OPTIONS_ERROR],
    ['two options with one value', [{ label: 'Size?', type: 'SingleSelectInput', select_options: [{ label: 'A', value: 'a' }, { label: 'B', value: 'a' }] }], 'questions.0.select_options', OPTION_VALUES_ERROR],
    ['a pre-fill that does not fit', [{ label: 'Phone?', type: 'TextInput', prefill: 'phone' }], 'questions.0.prefill', PREFILL_TYPE_ERROR],
    ['no question', [], 'questions', undefined],
  ])('refuses %s with a 422 naming the field, on creation and on replacement', async (_case, questions, field, message) => {
    const admin = await createPerson(context, 'admin');
    const template = await createTemplate(admin);
    const before = await rowCounts();
    for (const [method, path, payload] of [
      ['POST', '/survey_templates', { slug: freshSlug(), name: 'Refused', questions }],
      ['PUT', `/survey_templates/${template.id}/questions`, { questions }],
    ] as const) {
      const response = await adminCall(context, admin, method, path, payload);
      expect(response.statusCode, response.body).toBe(422);
      expect(Object.keys(response.json().fields)).toContain(field);
      if (message) expect(response.json().fields[field]).toBe(message);
    }
    expect(await rowCounts()).toEqual(before);
  });

  it('refuses a slug in use and an unknown category, changing nothing', async () => {
    const admin = await createPerson(context, 'admin');
    const template = await createTemplate(admin);
    const before = await rowCounts();
    const taken = await adminCall(context, admin, 'POST', '/survey_templates', { slug: template.slug, name: 'Twin', questions: firstQuestions });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().fields).toEqual({ slug: surveySlugTakenError(template.slug) });
    const unknownCategory = await adminCall(context, admin, 'PATCH', `/survey_templates/${template.id}`, { name: 'Moved', category_id: 999999 });
    expect(unknownCategory.statusCode).toBe(422);
    expect(unknownCategory.json().fields).toEqual({ category_id: UNKNOWN_SURVEY_CATEGORY_ERROR });
    expect(await rowCounts()).toEqual(before);
    expect(adminTemplateResponse.parse((await adminCall(context, admin, 'GET', `/survey_templates/${template.id}`)).json()).template).toEqual(template);
  });
});

describe('versions of the questions', () => {
  it('replaces the questions in place while nobody has begun the template', async () => {
    const admin = await createPerson(context, 'admin');
    const template = await createTemplate(admin);
    const replaced = await replaceQuestions(admin, template.id, [{ label: 'Only this?', type: 'TextInput' }]);
    expect(replaced.version).toBe(1);
    expect(replaced.questions.map((question) => question.label)).toEqual(['Only this?']);
    // The same list again is no change.
    const auditsBefore = (await rowCounts()).audit;
    expect(await replaceQuestions(admin, template.id, [{ label: 'Only this?', type: 'TextInput' }])).toEqual(replaced);
    expect((await rowCounts()).audit).toBe(auditsBefore);
  });

  it('keeps a begun survey on its version, answers readable and complete, while a new employee gets the new one', async () => {
    const admin = await createPerson(context, 'admin');
    const template = await createTemplate(admin);
    const early = await createPerson(context, 'employee');
    const sessionId = await beginSurvey(context, early, template.id);
    const first = await nextItem(context, early, sessionId);
    expect(first?.question.label).toBe('What should we book?');
    expect((await answer(context, early, sessionId, first?.id ?? 0, 'A table for two')).statusCode).toBe(200);

    const edited = await replaceQuestions(admin, template.id, [
      { label: 'What is your phone number?', type: 'PhoneNumberInput', prefill: 'phone' },
      { label: 'What should we book?', type: 'TextInput' },
    ]);
    expect(edited.version).toBe(2);
    const [event] = (await auditLog(context, admin, { subject_type: 'survey_template', subject_id: template.id })).events;
    expect(event).toMatchObject({ action: 'survey_template.questions_replace', changes: { version: { before: 1, after: 2 } } });

    // The early employee carries on with the questions they began with.
    const second = await nextItem(context, early, sessionId);
    expect(second).toMatchObject({ question: { label: 'Which size?', type: 'SingleSelectInput' }, last_question: false });
    expect((await answer(context, early, sessionId, second?.id ?? 0, 'l')).statusCode).toBe(200);
    const third = await nextItem(context, early, sessionId);
    expect(third).toMatchObject({ question: { label: 'Anything else?' }, last_question: true });
    expect((await answer(context, early, sessionId, third?.id ?? 0, 'By the window')).statusCode).toBe(200);
    const { request } = submitSurveyResponse.parse(json(await submit(context, early, sessionId), 200));
    expect(request.details).toBe(['What should we book? A table for two', 'Which size? Large', 'Anything else? By the window'].join('\n'));

    // Someone beginning now gets the new version.
    const late = await createPerson(context, 'employee');
    const lateSession = await beginSurvey(context, late, template.id);
    expect((await nextItem(context, late, lateSession))?.question).toMatchObject({ label: 'What is your phone number?', type: 'PhoneNumberInput' });

    // A further edit while only version 2 has begun sessions makes version 3; version 1 stays as it was.
    expect((await replaceQuestions(admin, template.id, [{ label: 'Just tell us', type: 'MultilineTextInput' }])).version).toBe(3);
    const detailsAgain = await context.app.inject({ method: 'GET', url: `/api/v1/requests/${request.id}`, headers: early.headers });
    expect(detailsAgain.json().request.details).toBe(request.details);
  });

  it('begins the benefits help template (SPEC id 720) on its current version after an edit', async () => {
    const admin = await createPerson(context, 'admin');
    const employee = await createPerson(context, 'employee');
    const current = adminTemplateResponse.parse((await adminCall(context, admin, 'GET', `/survey_templates/${BENEFITS_HELP_SURVEY.id}`)).json()).template;
    const before = await beginSurvey(context, employee, BENEFITS_HELP_SURVEY.id);
    const edited = await replaceQuestions(admin, BENEFITS_HELP_SURVEY.id, [{ label: 'Which benefit is it about?', type: 'TextInput' }]);
    expect(edited.version).toBe(current.version + 1);
    expect((await nextItem(context, employee, before))?.question.label).toBe(current.questions[0].label);
    const after = await beginSurvey(context, employee, BENEFITS_HELP_SURVEY.id);
    expect((await nextItem(context, employee, after))?.question.label).toBe('Which benefit is it about?');
  });
});
