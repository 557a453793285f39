import { and, asc, eq, exists, inArray, or, sql } from 'drizzle-orm';
import type {
  OfferingCategory,
  OfferingDetail,
  OfferingItem,
  OfferingListItem,
  OfferingSection,
  OfferingType,
} from '../../../src/contract/offerings.ts';
import { type Executor, preparedFor, qualified } from '../../db/client.ts';
import type { RealtimeHub } from '../realtime/realtime.ts';
import { matches, prefixQuery, searchDocument } from '../../db/textSearch.ts';
import {
  offeringCategories,
  offeringCategoryLinks,
  offeringCompanies,
  offeringSectionItems,
  offeringSections,
  offerings,
} from '../../db/offerings.schema.ts';

/** Partner offers are everyone's; a benefit only for the employees its companies sponsor (address confirmed). */
function mayBeSeen(offering: { type: OfferingType; companyIds: readonly number[] }, grantedCompanyIds: readonly number[]) {
  return offering.type === 'product' || offering.companyIds.some((companyId) => grantedCompanyIds.includes(companyId));
}

/** The ids of the companies a benefit is given to, made by the database. */
export const givenToCompanyIds = sql<number[]>`COALESCE((
  SELECT json_agg(${qualified(offeringCompanies.companyId)} ORDER BY ${qualified(offeringCompanies.companyId)})
  FROM ${offeringCompanies} WHERE ${qualified(offeringCompanies.offeringId)} = ${qualified(offerings.id)}), '[]'::json)`;

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

const readCatalogue = preparedFor((db) =>
  db
    .select({ ...listColumns, companyIds: givenToCompanyIds, categories: categoryNames })
    .from(offerings)
    .where(eq(offerings.published, true))
    .orderBy(asc(offerings.type), asc(offerings.position), asc(offerings.id))
    .prepare('offerings_catalogue'),
);

type CatalogueEntry = Awaited<ReturnType<ReturnType<typeof readCatalogue>['execute']>>[number];

export interface OfferingsFilter {
  types: OfferingType[];
  /** Featured offerings first, then the others (SPEC §9: the featured list falls back to all offerings). */
  preferFeatured: boolean;
  limit?: number;
}

/**
 * The offerings a user may see (partner offers, and the benefits of the companies that sponsor them), benefits before
 * partner offers, each group in catalogue order; with `preferFeatured` the featured ones first.
 */
export function offeringsVisibleTo(
  catalogue: readonly CatalogueEntry[],
  grantedCompanyIds: readonly number[],
  { types, preferFeatured, limit }: OfferingsFilter,
): OfferingListItem[] {
  const visible = catalogue.filter((entry) => types.includes(entry.type) && mayBeSeen(entry, grantedCompanyIds));
  const ordered = preferFeatured
    ? [...visible.filter((entry) => entry.featured), ...visible.filter((entry) => !entry.featured)]
    : visible;
  return ordered.slice(0, limit).map(({ companyIds: _companies, ...item }) => item);
}

/**
 * The offerings the user may see whose name, provider, heading or a category's name match what they typed (issue
 * 32), in catalogue order: found by the database's full-text index, not by reading the catalogue.
 */
export async function searchVisibleOfferings(db: Executor, grantedCompanyIds: readonly number[], typed: string): Promise<OfferingListItem[]> {
  const query = prefixQuery(typed);
  if (!query) return [];
  const givenToTheirCompany =
    grantedCompanyIds.length === 0
      ? sql`false`
      : exists(
          db
            .select({ companyId: offeringCompanies.companyId })
            .from(offeringCompanies)
            .where(and(eq(offeringCompanies.offeringId, offerings.id), inArray(offeringCompanies.companyId, [...grantedCompanyIds]))),
        );
  const inMatchingCategory = exists(
    db
      .select({ categoryId: offeringCategories.id })
      .from(offeringCategoryLinks)
      .innerJoin(offeringCategories, eq(offeringCategories.id, offeringCategoryLinks.categoryId))
      .where(and(eq(offeringCategoryLinks.offeringId, offerings.id), matches(searchDocument(offeringCategories.name), query))),
  );
  return db
    .select({ ...listColumns, categories: categoryNames })
    .from(offerings)
    .where(
      and(
        eq(offerings.published, true),
        or(eq(offerings.type, 'product'), givenToTheirCompany),
        or(matches(searchDocument(offerings.name, offerings.providerName, offerings.heading), query), inMatchingCategory),
      ),
    )
    .orderBy(asc(offerings.type), asc(offerings.position), asc(offerings.id));
}

export interface OfferingsCache {
  /** The offerings list of a user whom `grantedCompanyIds` sponsor. */
  list(grantedCompanyIds: readonly number[], filter: OfferingsFilter): Promise<OfferingListItem[]>;
  /** Resolves once every catalogue change committed so far has reached this cache (or it has forgotten all). */
  settle(): Promise<void>;
  close(): void;
}

/**
 * Every employee of a company gets the same offerings list, and the catalogue changes only when it is edited: each
 * server process keeps the whole list in memory and reads it again after any change, announced by the database's
 * triggers (migrations 0009 and 0011) whoever made it. A read under way when a change arrives is not kept, and
 * nothing is kept while announcements cannot be heard. An admin's change answers once this process has heard it
 * (`settle`), so the employees' next load shows it.
 */
export function createOfferingsCache(db: Executor, realtime: RealtimeHub): OfferingsCache {
  let kept: Promise<CatalogueEntry[]> | null = null;
  let generation = 0;
  const forget = () => {
    generation += 1;
    kept = null;
  };
  const unsubscribe = realtime.subscribe({
    onNotice: (notice) => {
      if (notice.type === 'catalogue.changed') forget();
    },
    onInterrupted: forget,
  });

  function catalogue(): Promise<CatalogueEntry[]> {
    if (kept && realtime.live) return kept;
    const startedAt = generation;
    const reading = readCatalogue(db).execute();
    if (realtime.live) {
      kept = reading;
      const dropIfStale = () => {
        if (kept === reading && generation !== startedAt) kept = null;
      };
      reading.then(dropIfStale, () => {
        if (kept === reading) kept = null;
      });
    }
    return reading;
  }

  return {
    async list(grantedCompanyIds, filter) {
      return offeringsVisibleTo(await catalogue(), grantedCompanyIds, filter);
    },
    async settle() {
      if (!(await realtime.settle())) forget();
    },
    close() {
      unsubscribe();
      forget();
    },
  };
}

function itemOf(row: { value: string; key: string | null; externalUrl: string | null }): OfferingItem {
  return {
    value: row.value,
    ...(row.key === null ? {} : { key: row.key }),
    ...(row.externalUrl === null ? {} : { external_url: row.externalUrl }),
  };
}

export async function sectionsOf(db: Executor, offeringId: number): Promise<OfferingSection[]> {
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

/**
 * One published offering with its sections, or null when there is none or it is a benefit of other companies only
 * (for the user whom `grantedCompanyIds` sponsor).
 */
export async function findOffering(
  db: Executor,
  grantedCompanyIds: readonly number[],
  offeringId: number,
): Promise<OfferingDetail | null> {
  const [row] = await db
    .select({
      ...listColumns,
      companyIds: givenToCompanyIds,
      name: offerings.name,
      request_survey_cta: offerings.requestSurveyCta,
      request_survey_id: offerings.requestSurveyId,
      request_survey_name: offerings.requestSurveyName,
      categories: categoryNames,
    })
    .from(offerings)
    .where(and(eq(offerings.id, offeringId), eq(offerings.published, true)))
    .limit(1);
  if (!row || !mayBeSeen(row, grantedCompanyIds)) return null;
  const { companyIds: _companies, ...offering } = row;
  return { ...offering, sections: await sectionsOf(db, row.id) };
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
