import { readFileSync } from 'node:fs';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestSurveys, surveyCategories, surveyQuestions } from '../../server/db/surveys.schema.ts';
import { readSurveyCatalogue, seedSurveyCatalogue } from '../../server/db/seed/surveyCatalogue.ts';
import { CATEGORIES_BY_CHOICE, GENERAL_CATEGORY_SLUGS } from '../../server/domain/surveys/recommendations.ts';
import { BENEFITS_HELP_SURVEY_ID, ONBOARDING_INTRO_SURVEY_ID, QUESTION_TYPES } from '../../src/contract/surveys.ts';
import { type TestContext, createTestContext } from './harness.ts';
import { SPEC_CATEGORY_NAMES } from './surveys.helpers.ts';

const catalogue = readSurveyCatalogue();
const categoryFiles = catalogue.filter((file) => file.category !== null);
const templates = catalogue.flatMap((file) => file.request_surveys);
const questions = templates.flatMap((template) => template.questions);

describe('the survey catalogue data (server/db/seed/surveys)', () => {
  it('has the eight categories of SPEC §1, each with an SVG image', () => {
    expect(categoryFiles.map((file) => file.category?.name)).toEqual(SPEC_CATEGORY_NAMES);
    for (const file of categoryFiles) {
      const svg = readFileSync(new URL(`../../public${file.category?.image_url}`, import.meta.url), 'utf8');
      expect(svg, file.category?.image_url).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]*>[\s\S]*<\/svg>\s*$/);
    }
  });

  it('offers at least five templates per category, five of them to this app, each with 3 to 7 questions', () => {
    for (const file of categoryFiles) {
      const name = file.category?.name;
      expect(file.request_surveys.length, name).toBeGreaterThanOrEqual(5);
      expect(file.request_surveys.filter((template) => template.for_alpha).length, name).toBeGreaterThanOrEqual(5);
    }
    for (const template of templates) {
      expect(template.questions.length, template.name).toBeGreaterThanOrEqual(3);
      expect(template.questions.length, template.name).toBeLessThanOrEqual(7);
    }
    // Most are offered to this app; a few are not, and the API hides them.
    const alpha = templates.filter((template) => template.for_alpha).length;
    expect(alpha).toBeGreaterThan(templates.length / 2);
    expect(alpha).toBeLessThan(templates.length);
  });

  it('uses every question type, optional questions, and every pre-fill source', () => {
    expect(new Set(questions.map((question) => question.type))).toEqual(new Set(QUESTION_TYPES));
    expect(questions.some((question) => question.optional)).toBe(true);
    expect(new Set(questions.flatMap((question) => question.prefill ?? []))).toEqual(new Set(['full_name', 'phone', 'email', 'address']));
    for (const question of questions.filter((candidate) => candidate.type === 'SingleSelectInput')) {
      expect(question.select_options?.every((option) => option.label && option.value), question.label).toBe(true);
    }
  });

  it('has a for_alpha template with all six types and two optional questions, for the end-to-end walk', () => {
    const complete = templates.filter(
      (template) =>
        template.for_alpha &&
        new Set(template.questions.map((question) => question.type)).size === QUESTION_TYPES.length &&
        template.questions.filter((question) => question.optional).length >= 2 &&
        template.questions.some((question) => question.optional && question.type === 'SingleUploadInput'),
    );
    expect(complete.map((template) => template.name)).toContain('Anything else');
  });

  it('has survey 720, Help me with my benefits, under Medical / Employer Benefits, and survey 603, the onboarding intro', () => {
    const medical = catalogue.find((file) => file.category?.name === 'Medical / Employer Benefits');
    expect(medical?.request_surveys.find((template) => template.id === BENEFITS_HELP_SURVEY_ID)).toMatchObject({
      name: 'Help me with my benefits',
      for_alpha: true,
    });
    const intro = catalogue.find((file) => file.category === null);
    expect(intro?.request_surveys.map((template) => template.id)).toEqual([ONBOARDING_INTRO_SURVEY_ID]);
  });

  it('names every category the recommendations refer to', () => {
    const slugs = new Set(categoryFiles.map((file) => file.category?.slug));
    for (const slug of [...CATEGORIES_BY_CHOICE.flatMap(([, categories]) => categories), ...GENERAL_CATEGORY_SLUGS]) {
      expect(slugs.has(slug), slug).toBe(true);
    }
  });
});

describe('loading the catalogue', () => {
  let context: TestContext;

  beforeAll(async () => {
    context = await createTestContext();
  });
  afterAll(async () => {
    await context.close();
  });

  it('fills empty tables once, with the ids of the files; later starts change nothing', async () => {
    expect(await seedSurveyCatalogue(context.db)).toBe(true);
    expect(await seedSurveyCatalogue(context.db)).toBe(false);

    const [[categoryCount], [templateCount], [questionCount]] = await Promise.all([
      context.db.select({ n: count() }).from(surveyCategories),
      context.db.select({ n: count() }).from(requestSurveys),
      context.db.select({ n: count() }).from(surveyQuestions),
    ]);
    expect({ categories: categoryCount.n, templates: templateCount.n, questions: questionCount.n }).toEqual({
      categories: 8,
      templates: templates.length,
      questions: questions.length,
    });
    const [benefits] = await context.db.select().from(requestSurveys).where(eq(requestSurveys.id, BENEFITS_HELP_SURVEY_ID));
    expect(benefits).toMatchObject({ name: 'Help me with my benefits', slug: 'help-me-with-my-benefits', categoryId: 5 });
  });

  it('moves the id sequences past the explicit ids, so new rows can be added', async () => {
    const highest = Math.max(...templates.map((template) => template.id));
    const [added] = await context.db
      .insert(requestSurveys)
      .values({ slug: 'added-later', name: 'Added later', categoryId: 8, position: 99 })
      .returning({ id: requestSurveys.id });
    expect(added.id).toBeGreaterThan(highest);
    const [category] = await context.db
      .insert(surveyCategories)
      .values({ slug: 'added-category', name: 'Added category', imageUrl: '/seed/categories/wildcard.svg' })
      .returning({ id: surveyCategories.id });
    expect(category.id).toBe(9);
  });
});

