import {
  MAX_SUGGESTED_REQUESTS_PER_CATEGORY,
  ONBOARDING_ANSWER_IDS as IDS,
  type RecommendedRequestCategory,
} from '../../../src/contract/surveys.ts';
import type { Executor } from '../../db/client.ts';
import { aboutYouChoices } from './onboarding.ts';
import { alphaTemplatesByCategory, surveyCategoriesBySlug } from './surveys.ts';

/** The categories (catalogue slugs) each about-you choice makes relevant, in the order they are suggested. */
export const CATEGORIES_BY_CHOICE: readonly (readonly [answerId: number, slugs: readonly string[]])[] = [
  [IDS.ownHome, ['home-moving']],
  [IDS.ownOrLeaseCar, ['car']],
  [IDS.parent, ['family']],
  [IDS.pet, ['pet']],
  // Couples travel together and plan family life together.
  [IDS.partner, ['travel', 'family']],
];

/** Useful to anyone: they fill the list up when the user's answers suggest fewer categories. */
export const GENERAL_CATEGORY_SLUGS: readonly string[] = ['finances', 'medical-employer-benefits', 'wildcard'];

/** The Dashboard shows this many suggested categories (SPEC §9); the list is topped up to reach it. */
export const MIN_RECOMMENDED_CATEGORIES = 3;

/** The category slugs to suggest to someone who made these about-you choices, most relevant first. */
export function recommendedCategorySlugs(choices: ReadonlySet<number>): string[] {
  const slugs = new Set(CATEGORIES_BY_CHOICE.filter(([answerId]) => choices.has(answerId)).flatMap(([, categories]) => categories));
  for (const general of GENERAL_CATEGORY_SLUGS) {
    if (slugs.size >= MIN_RECOMMENDED_CATEGORIES) break;
    slugs.add(general);
  }
  return [...slugs];
}

/**
 * GET /recommended_request_categories: the categories that fit what the user told us in onboarding, each with at
 * most MAX_SUGGESTED_REQUESTS_PER_CATEGORY for_alpha templates, most asked-for first.
 */
export async function recommendedRequestCategories(db: Executor, userId: number): Promise<RecommendedRequestCategory[]> {
  const categories = await surveyCategoriesBySlug(db, recommendedCategorySlugs(await aboutYouChoices(db, userId)));
  const templates = await alphaTemplatesByCategory(
    db,
    categories.map((category) => category.id),
    MAX_SUGGESTED_REQUESTS_PER_CATEGORY,
  );
  return categories.map((category) => ({ ...category, request_surveys: templates.get(category.id) ?? [] }));
}
