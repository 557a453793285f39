import { readFileSync } from 'node:fs';
import { eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import { LINK_ITEM_KEYS } from '../../../src/contract/offerings.ts';
import type { Config } from '../../config.ts';
import type { Database, Executor } from '../client.ts';
import {
  offeringCategories,
  offeringCategoryLinks,
  offeringCompanies,
  offeringSectionItems,
  offeringSections,
  offerings,
} from '../offerings.schema.ts';
import { companies } from '../schema.ts';

/**
 * The Benefits & Offers catalogue, kept as data in ./offerings/: categories.json, partner-offers.json (products,
 * for everyone) and benefits.json (each benefit names the demo company it belongs to).
 */

/** An address on this site (a file under public/) or a web address. */
const imageUrl = z.string().regex(/^(\/|https:\/\/)\S+$/);
const webUrl = z.url({ protocol: /^https$/ });

const seedCategory = z.object({
  external_id: z.string().regex(/^[a-z0-9-]+$/),
  name: z.string().min(1),
  image_url: imageUrl,
});

const plainItem = z.strictObject({ value: z.string().min(1) });
const linkKey = z.enum(LINK_ITEM_KEYS);
/** download rows link to their file, so they need its address; the other kinds can link from the value. */
const keyValueItem = z
  .strictObject({ key: z.string().min(1), value: z.string().min(1), external_url: webUrl.optional() })
  .refine((item) => item.key !== 'download' || item.external_url !== undefined, 'a download needs its external_url')
  .refine(
    (item) => linkKey.safeParse(item.key).success || item.external_url === undefined,
    'only phone, email, download and link rows are links',
  );

const sectionCta = { cta_text: z.string().min(1).optional(), cta_url: webUrl.optional() };
const seedSection = z
  .discriminatedUnion('section_type', [
    z.strictObject({ section_type: z.literal('numbered'), heading: z.string().min(1), items: z.array(plainItem).min(1), ...sectionCta }),
    z.strictObject({ section_type: z.literal('key_value'), heading: z.string().min(1), items: z.array(keyValueItem).min(1), ...sectionCta }),
    // The drawer shows a text section's first item only, so it has exactly one.
    z.strictObject({ section_type: z.literal('text'), heading: z.string().min(1), items: z.tuple([plainItem]), ...sectionCta }),
  ])
  .refine((section) => (section.cta_text === undefined) === (section.cta_url === undefined), 'cta_text and cta_url go together');

const seedOfferingFields = z.strictObject({
  slug: z.string().regex(/^[a-z0-9-]+$/),
  provider_name: z.string().min(1),
  provider_logo_url: imageUrl,
  heading: z.string().min(1),
  subheading: z.string().min(1),
  featured: z.boolean(),
  name: z.string().min(1),
  categories: z.array(z.string().min(1)).min(1),
  request_survey_cta: z.string().min(1).optional(),
  request_survey_id: z.number().int().positive().optional(),
  request_survey_name: z.string().min(1).optional(),
  sections: z.array(seedSection).min(1),
});
export type SeedOffering = z.infer<typeof seedOfferingFields>;

function helpSurveyComplete(offering: SeedOffering): boolean {
  const absent = [offering.request_survey_cta, offering.request_survey_id, offering.request_survey_name].map(
    (field) => field === undefined,
  );
  return absent.every((isAbsent) => isAbsent === absent[0]);
}
const HELP_SURVEY_INCOMPLETE = 'request_survey_cta, request_survey_id and request_survey_name go together';

const seedOffering = seedOfferingFields.refine(helpSurveyComplete, HELP_SURVEY_INCOMPLETE);
const seedBenefit = seedOfferingFields
  .extend({ company: z.string().regex(/^[a-z0-9-]+$/) })
  .refine(helpSurveyComplete, HELP_SURVEY_INCOMPLETE);

function readCatalogueFile<S extends z.ZodType>(name: string, schema: S): z.infer<S> {
  const text = readFileSync(new URL(`./offerings/${name}`, import.meta.url), 'utf8');
  const parsed = schema.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`offerings/${name}: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** Reads and checks the catalogue files: every offering names known categories, and no slug is used twice. */
export function readOfferingCatalogue() {
  const categories = readCatalogueFile('categories.json', z.array(seedCategory).min(1));
  const partnerOffers = readCatalogueFile('partner-offers.json', z.array(seedOffering));
  const benefits = readCatalogueFile('benefits.json', z.array(seedBenefit));

  const categoryNames = new Set(categories.map((category) => category.name));
  const slugs = new Set<string>();
  for (const offering of [...partnerOffers, ...benefits]) {
    if (slugs.has(offering.slug)) throw new Error(`offerings: the slug ${offering.slug} is used twice`);
    slugs.add(offering.slug);
    const unknown = offering.categories.filter((name) => !categoryNames.has(name));
    if (unknown.length > 0) throw new Error(`offerings: ${offering.slug} names unknown categories ${unknown.join(', ')}`);
  }
  return { categories, partnerOffers, benefits };
}

type OfferingCatalogue = ReturnType<typeof readOfferingCatalogue>;

/** Inserts the categories when there are none yet; returns how many it inserted. */
async function loadCategories(tx: Executor, categories: OfferingCatalogue['categories']): Promise<number> {
  const [existing] = await tx.select({ id: offeringCategories.id }).from(offeringCategories).limit(1);
  if (existing) return 0;
  const inserted = await tx
    .insert(offeringCategories)
    .values(categories.map((category, position) => ({
      externalId: category.external_id,
      name: category.name,
      imageUrl: category.image_url,
      position,
    })))
    .onConflictDoNothing()
    .returning({ id: offeringCategories.id });
  return inserted.length;
}

/**
 * Inserts offerings with their category links, sections and items. A slug already present (another process loading
 * the catalogue at the same moment) is left as it is. Returns how many offerings it inserted.
 */
async function insertOfferings(
  tx: Executor,
  entries: Array<{ offering: SeedOffering; companyId: number | null }>,
): Promise<number> {
  if (entries.length === 0) return 0;
  const inserted = await tx
    .insert(offerings)
    .values(entries.map(({ offering, companyId }) => ({
      slug: offering.slug,
      type: companyId === null ? ('product' as const) : ('benefit' as const),
      providerName: offering.provider_name,
      providerLogoUrl: offering.provider_logo_url,
      heading: offering.heading,
      subheading: offering.subheading,
      featured: offering.featured,
      name: offering.name,
      requestSurveyCta: offering.request_survey_cta ?? null,
      requestSurveyId: offering.request_survey_id ?? null,
      requestSurveyName: offering.request_survey_name ?? null,
    })))
    .onConflictDoNothing()
    .returning({ id: offerings.id, slug: offerings.slug });
  if (inserted.length === 0) return 0;

  const bySlug = new Map(entries.map((entry) => [entry.offering.slug, entry]));
  const created = inserted.map((row) => ({ id: row.id, ...(bySlug.get(row.slug) as (typeof entries)[number]) }));
  const givenTo = created.flatMap(({ id, companyId }) => (companyId === null ? [] : [{ offeringId: id, companyId }]));
  if (givenTo.length > 0) await tx.insert(offeringCompanies).values(givenTo);

  const categoryRows = await tx.select({ id: offeringCategories.id, name: offeringCategories.name }).from(offeringCategories);
  const categoryIdByName = new Map(categoryRows.map((row) => [row.name, row.id]));
  // A category renamed or removed by an operator since is skipped rather than failing the start.
  const links = created.flatMap(({ id, offering }) =>
    offering.categories.flatMap((name) => {
      const categoryId = categoryIdByName.get(name);
      return categoryId === undefined ? [] : [{ offeringId: id, categoryId }];
    }),
  );
  if (links.length > 0) await tx.insert(offeringCategoryLinks).values(links);

  const sectionRows = await tx
    .insert(offeringSections)
    .values(created.flatMap(({ id, offering }) =>
      offering.sections.map((section, position) => ({
        offeringId: id,
        sectionType: section.section_type,
        heading: section.heading,
        ctaText: section.cta_text ?? null,
        ctaUrl: section.cta_url ?? null,
        position,
      })),
    ))
    .returning({ id: offeringSections.id, offeringId: offeringSections.offeringId, position: offeringSections.position });
  const sectionIdOf = new Map(sectionRows.map((row) => [`${row.offeringId}:${row.position}`, row.id]));

  const items = created.flatMap(({ id, offering }) =>
    offering.sections.flatMap((section, sectionPosition) => {
      const sectionId = sectionIdOf.get(`${id}:${sectionPosition}`) as number;
      return section.items.map((item, position) => ({
        sectionId,
        value: item.value,
        key: 'key' in item ? item.key : null,
        externalUrl: 'external_url' in item ? (item.external_url ?? null) : null,
        position,
      }));
    }),
  );
  await tx.insert(offeringSectionItems).values(items);
  return inserted.length;
}

async function hasOfferingsOfType(tx: Executor, type: 'benefit' | 'product'): Promise<boolean> {
  const [row] = await tx.select({ id: offerings.id }).from(offerings).where(eq(offerings.type, type)).limit(1);
  return row !== undefined;
}

/**
 * Loads the catalogue at start. Categories and partner offers are product content: loaded in every environment
 * when there are none yet. Benefits belong to the demo companies: loaded with the demo data, outside production
 * only, when there are no benefits yet, for the demo companies present. Safe at every start; returns how many rows
 * of each kind it inserted.
 */
export async function seedOfferingCatalogue(db: Database, options: { nodeEnv: Config['NODE_ENV'] }) {
  const catalogue = readOfferingCatalogue();
  return db.transaction(async (tx) => {
    const categories = await loadCategories(tx, catalogue.categories);

    const products = (await hasOfferingsOfType(tx, 'product'))
      ? 0
      : await insertOfferings(tx, catalogue.partnerOffers.map((offering) => ({ offering, companyId: null })));

    let benefits = 0;
    if (options.nodeEnv !== 'production' && !(await hasOfferingsOfType(tx, 'benefit'))) {
      const companySlugs = [...new Set(catalogue.benefits.map((benefit) => benefit.company))];
      const companyRows = await tx
        .select({ id: companies.id, slug: companies.slug })
        .from(companies)
        .where(inArray(companies.slug, companySlugs));
      const companyIdBySlug = new Map(companyRows.map((row) => [row.slug, row.id]));
      benefits = await insertOfferings(
        tx,
        catalogue.benefits.flatMap(({ company, ...offering }) => {
          const companyId = companyIdBySlug.get(company);
          return companyId === undefined ? [] : [{ offering, companyId }];
        }),
      );
    }
    return { categories, products, benefits };
  });
}
