import { type Placeholder, type SQL, and, asc, desc, eq, inArray, or, sql } from 'drizzle-orm';
import type {
  OfferingCategory,
  OfferingDetail,
  OfferingItem,
  OfferingListItem,
  OfferingSection,
  OfferingType,
} from '../../src/contract/offerings.ts';
import { type Executor, preparedFor, qualified } from '../db/client.ts';
import {
  offeringCategories,
  offeringCategoryLinks,
  offeringSectionItems,
  offeringSections,
  offerings,
} from '../db/offerings.schema.ts';
import { grantedCompanyIds } from './users.ts';

/** Partner offers are everyone's; a benefit only for the employees its company sponsors (address confirmed). */
function visibleTo(db: Executor, userId: number | Placeholder): SQL {
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

/** The offering's category names, in the filter bar's order, made by the database. */
const categoryNames = sql<string[]>`COALESCE((
  SELECT json_agg(${qualified(offeringCategories.name)} ORDER BY ${qualified(offeringCategories.position)}, ${qualified(offeringCategories.id)})
  FROM ${offeringCategoryLinks} INNER JOIN ${offeringCategories} ON ${qualified(offeringCategories.id)} = ${qualified(offeringCategoryLinks.categoryId)}
  WHERE ${qualified(offeringCategoryLinks.offeringId)} = ${qualified(offerings.id)}), '[]'::json)`;

/** The benefits and offers pages and the dashboard read it on every visit: one query, prepared once per database. */
const offeringsList = preparedFor((db) =>
  db
    .select({ ...listColumns, categories: categoryNames })
    .from(offerings)
    .where(
      and(
        sql`${offerings.type} = ANY(string_to_array(${sql.placeholder('types')}, ',')::offering_type[])`,
        visibleTo(db, sql.placeholder('userId')),
      ),
    )
    .orderBy(desc(sql`${offerings.featured} AND ${sql.placeholder('preferFeatured')}::boolean`), asc(offerings.type), asc(offerings.id))
    .limit(sql.placeholder('limit'))
    .prepare('list_offerings'),
);

export interface OfferingsFilter {
  types: OfferingType[];
  /** Featured offerings first, then the others (SPEC §9: the featured list falls back to all offerings). */
  preferFeatured: boolean;
  limit?: number;
}

/** The offerings the user may see, benefits before partner offers, each group in catalogue order. */
export async function listOfferings(db: Executor, userId: number, filter: OfferingsFilter): Promise<OfferingListItem[]> {
  return offeringsList(db).execute({
    types: filter.types.join(','),
    userId,
    preferFeatured: filter.preferFeatured,
    limit: filter.limit ?? null,
  });
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
      categories: categoryNames,
    })
    .from(offerings)
    .where(and(eq(offerings.id, offeringId), visibleTo(db, userId)))
    .limit(1);
  if (!row) return null;
  return { ...row, sections: await sectionsOf(db, row.id) };
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
