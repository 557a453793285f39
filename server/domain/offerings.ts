import { and, asc, desc, eq, inArray, or, type SQL } from 'drizzle-orm';
import type {
  OfferingCategory,
  OfferingDetail,
  OfferingItem,
  OfferingListItem,
  OfferingSection,
  OfferingType,
} from '../../src/contract/offerings.ts';
import type { Executor } from '../db/client.ts';
import {
  offeringCategories,
  offeringCategoryLinks,
  offeringSectionItems,
  offeringSections,
  offerings,
} from '../db/offerings.schema.ts';
import { grantedCompanyIds } from './users.ts';

/** Partner offers are everyone's; a benefit only for the employees its company sponsors (address confirmed). */
function visibleTo(db: Executor, userId: number): SQL {
  return or(eq(offerings.type, 'product'), inArray(offerings.companyId, grantedCompanyIds(db, userId))) as SQL;
}

const listColumns = {
  id: offerings.id,
  type: offerings.type,
  provider_name: offerings.providerName,
  provider_logo_url: offerings.providerLogoUrl,
  heading: offerings.heading,
  subheading: offerings.subheading,
  featured: offerings.featured,
};

/** The category names of each offering, in the filter bar's order. */
async function categoryNamesByOffering(db: Executor, offeringIds: number[]): Promise<Map<number, string[]>> {
  const names = new Map<number, string[]>(offeringIds.map((id) => [id, []]));
  if (offeringIds.length === 0) return names;
  const rows = await db
    .select({ offeringId: offeringCategoryLinks.offeringId, name: offeringCategories.name })
    .from(offeringCategoryLinks)
    .innerJoin(offeringCategories, eq(offeringCategories.id, offeringCategoryLinks.categoryId))
    .where(inArray(offeringCategoryLinks.offeringId, offeringIds))
    .orderBy(asc(offeringCategories.position), asc(offeringCategories.id));
  for (const row of rows) names.get(row.offeringId)?.push(row.name);
  return names;
}

export interface OfferingsFilter {
  types: OfferingType[];
  /** Featured offerings first, then the others (SPEC §9: the featured list falls back to all offerings). */
  preferFeatured: boolean;
  limit?: number;
}

/** The offerings the user may see, benefits before partner offers, each group in catalogue order. */
export async function listOfferings(db: Executor, userId: number, filter: OfferingsFilter): Promise<OfferingListItem[]> {
  const order = [asc(offerings.type), asc(offerings.id)];
  const query = db
    .select(listColumns)
    .from(offerings)
    .where(and(inArray(offerings.type, filter.types), visibleTo(db, userId)))
    .orderBy(...(filter.preferFeatured ? [desc(offerings.featured), ...order] : order));
  const rows = filter.limit === undefined ? await query : await query.limit(filter.limit);
  const categories = await categoryNamesByOffering(db, rows.map((row) => row.id));
  return rows.map((row) => ({ ...row, categories: categories.get(row.id) ?? [] }));
}

function itemOf(row: { value: string; key: string | null; externalUrl: string | null }): OfferingItem {
  return {
    value: row.value,
    ...(row.key === null ? {} : { key: row.key }),
    ...(row.externalUrl === null ? {} : { external_url: row.externalUrl }),
  };
}

async function sectionsOf(db: Executor, offeringId: number): Promise<OfferingSection[]> {
  const rows = await db
    .select({
      section: {
        id: offeringSections.id,
        section_type: offeringSections.sectionType,
        heading: offeringSections.heading,
        cta_text: offeringSections.ctaText,
        cta_url: offeringSections.ctaUrl,
      },
      item: {
        value: offeringSectionItems.value,
        key: offeringSectionItems.key,
        externalUrl: offeringSectionItems.externalUrl,
      },
    })
    .from(offeringSections)
    .leftJoin(offeringSectionItems, eq(offeringSectionItems.sectionId, offeringSections.id))
    .where(eq(offeringSections.offeringId, offeringId))
    .orderBy(asc(offeringSections.position), asc(offeringSectionItems.position));
  const sections = new Map<number, OfferingSection>();
  for (const { section, item } of rows) {
    let entry = sections.get(section.id);
    if (!entry) {
      entry = { ...section, items: [] };
      sections.set(section.id, entry);
    }
    if (item) entry.items.push(itemOf(item));
  }
  return [...sections.values()];
}

/** One offering with its sections, or null when it does not exist or is another company's benefit. */
export async function findOffering(db: Executor, userId: number, offeringId: number): Promise<OfferingDetail | null> {
  const [row] = await db
    .select({
      ...listColumns,
      name: offerings.name,
      request_survey_cta: offerings.requestSurveyCta,
      request_survey_id: offerings.requestSurveyId,
      request_survey_name: offerings.requestSurveyName,
    })
    .from(offerings)
    .where(and(eq(offerings.id, offeringId), visibleTo(db, userId)))
    .limit(1);
  if (!row) return null;
  const [categories, sections] = await Promise.all([categoryNamesByOffering(db, [row.id]), sectionsOf(db, row.id)]);
  return { ...row, categories: categories.get(row.id) ?? [], sections };
}

export async function listOfferingCategories(db: Executor): Promise<OfferingCategory[]> {
  return db
    .select({
      external_id: offeringCategories.externalId,
      name: offeringCategories.name,
      image_url: offeringCategories.imageUrl,
    })
    .from(offeringCategories)
    .orderBy(asc(offeringCategories.position), asc(offeringCategories.id));
}
