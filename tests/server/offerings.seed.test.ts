import { readFileSync } from 'node:fs';
import { count, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  offeringCategories,
  offeringCategoryLinks,
  offeringSectionItems,
  offeringSections,
  offerings,
} from '../../server/db/offerings.schema.ts';
import { seedDemoAccounts } from '../../server/db/seed/demoAccounts.ts';
import { readOfferingCatalogue, seedOfferingCatalogue } from '../../server/db/seed/offeringCatalogue.ts';
import { BENEFITS_HELP_SURVEY, LINK_ITEM_KEYS, SECTION_TYPES } from '../../src/contract/offerings.ts';
import { type TestContext, createTestContext } from './harness.ts';

const catalogue = readOfferingCatalogue();
const allOfferings = [...catalogue.benefits, ...catalogue.partnerOffers];
const allSections = allOfferings.flatMap((offering) => offering.sections);
const keyValueItems = allSections.flatMap((section) => (section.section_type === 'key_value' ? section.items : []));

function expectSvgInPublic(url: string) {
  expect(url, url).toMatch(/^\/seed\/.+\.svg$/);
  const svg = readFileSync(new URL(`../../public${url}`, import.meta.url), 'utf8');
  expect(svg, url).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]*>[\s\S]*<\/svg>\s*$/);
}

describe('the catalogue data', () => {
  it('has at least 12 benefits across acme and globex, and none for initech', () => {
    expect(catalogue.benefits.length).toBeGreaterThanOrEqual(12);
    const companies = catalogue.benefits.map((benefit) => benefit.company);
    expect(new Set(companies)).toEqual(new Set(['acme', 'globex']));
    for (const company of ['acme', 'globex']) {
      expect(companies.filter((slug) => slug === company).length, company).toBeGreaterThanOrEqual(5);
    }
  });

  it('has at least 12 partner offers and at least 8 categories, each category used', () => {
    expect(catalogue.partnerOffers.length).toBeGreaterThanOrEqual(12);
    expect(catalogue.categories.length).toBeGreaterThanOrEqual(8);
    const used = new Set(allOfferings.flatMap((offering) => offering.categories));
    expect(catalogue.categories.filter((category) => !used.has(category.name))).toEqual([]);
  });

  it('has an SVG for every category image and provider logo', () => {
    for (const category of catalogue.categories) expectSvgInPublic(category.image_url);
    for (const offering of allOfferings) expectSvgInPublic(offering.provider_logo_url);
  });

  it('uses every section type, and every key kind in key_value sections', () => {
    expect(new Set(allSections.map((section) => section.section_type))).toEqual(new Set(SECTION_TYPES));
    const keys = new Set(keyValueItems.map((item) => item.key));
    for (const kind of LINK_ITEM_KEYS) expect(keys, kind).toContain(kind);
    const plainKeys = [...keys].filter((key) => !(LINK_ITEM_KEYS as readonly string[]).includes(key));
    expect(plainKeys).toEqual(expect.arrayContaining(['Hours', 'Group number']));
    // Links with and without their own address, so that both rendering rules are exercised.
    const links = keyValueItems.filter((item) => item.key === 'link');
    expect(links.some((item) => item.external_url === undefined && !item.value.startsWith('https://'))).toBe(true);
    expect(links.some((item) => item.external_url !== undefined)).toBe(true);
  });

  it('uses fictional phone numbers and example.com addresses only', () => {
    for (const item of keyValueItems) {
      if (item.key === 'phone') expect(item.value).toMatch(/^\(800\) 555-01\d\d$/);
      if (item.key === 'email') expect(item.value).toMatch(/^[\w.-]+@([\w-]+\.)*example\.com$/);
      if (item.key === 'link' && item.external_url === undefined) expect(item.value).toMatch(/^(www\.)?([\w-]+\.)*example\.com\//);
      if (item.external_url !== undefined) expect(item.external_url).toMatch(/^https:\/\/([\w-]+\.)*example\.com\//);
    }
    for (const section of allSections) {
      if (section.cta_url !== undefined) expect(section.cta_url).toMatch(/^https:\/\/([\w-]+\.)*example\.com\//);
    }
  });

  it('has several help buttons that start the benefits help survey', () => {
    const withHelp = allOfferings.filter((offering) => offering.request_survey_cta !== undefined);
    expect(withHelp.length).toBeGreaterThanOrEqual(3);
    for (const offering of withHelp) {
      expect({ id: offering.request_survey_id, name: offering.request_survey_name }, offering.slug).toEqual(BENEFITS_HELP_SURVEY);
    }
    expect(withHelp.map((offering) => offering.request_survey_cta)).toContain('Ask a concierge to help me enroll');
  });

  it('features some offerings of each kind and not others', () => {
    for (const company of ['acme', 'globex']) {
      const featured = catalogue.benefits.filter((benefit) => benefit.company === company).map((benefit) => benefit.featured);
      expect(featured, company).toContain(true);
      expect(featured, company).toContain(false);
    }
    const featuredOffers = catalogue.partnerOffers.map((offer) => offer.featured);
    expect(featuredOffers).toContain(true);
    expect(featuredOffers).toContain(false);
  });
});

describe('loading the catalogue', () => {
  let context: TestContext;
  beforeEach(async () => {
    context = await createTestContext();
  });
  afterEach(async () => {
    await context.close();
  });

  async function rowCounts() {
    const [[benefits], [products], [categories], [links], [sections], [items]] = await Promise.all([
      context.db.select({ n: count() }).from(offerings).where(eq(offerings.type, 'benefit')),
      context.db.select({ n: count() }).from(offerings).where(eq(offerings.type, 'product')),
      context.db.select({ n: count() }).from(offeringCategories),
      context.db.select({ n: count() }).from(offeringCategoryLinks),
      context.db.select({ n: count() }).from(offeringSections),
      context.db.select({ n: count() }).from(offeringSectionItems),
    ]);
    return {
      benefits: benefits.n,
      products: products.n,
      categories: categories.n,
      links: links.n,
      sections: sections.n,
      items: items.n,
    };
  }

  const linksOf = (list: typeof allOfferings) => list.reduce((sum, offering) => sum + offering.categories.length, 0);
  const sectionsOf = (list: typeof allOfferings) => list.reduce((sum, offering) => sum + offering.sections.length, 0);
  const itemsOf = (list: typeof allOfferings) =>
    list.flatMap((offering) => offering.sections).reduce((sum, section) => sum + section.items.length, 0);
  const totals = (list: typeof allOfferings) => ({ links: linksOf(list), sections: sectionsOf(list), items: itemsOf(list) });

  it('in production loads the categories and partner offers, never the demo benefits', async () => {
    await seedDemoAccounts(context.db, { nodeEnv: 'development', password: 'demo-password' });
    expect(await seedOfferingCatalogue(context.db, { nodeEnv: 'production' })).toEqual({
      categories: catalogue.categories.length,
      products: catalogue.partnerOffers.length,
      benefits: 0,
    });
    expect(await rowCounts()).toEqual({
      benefits: 0,
      products: catalogue.partnerOffers.length,
      categories: catalogue.categories.length,
      ...totals(catalogue.partnerOffers),
    });
  });

  it('loads the benefits with the demo companies outside production, once', async () => {
    await seedDemoAccounts(context.db, { nodeEnv: 'development', password: 'demo-password' });
    expect(await seedOfferingCatalogue(context.db, { nodeEnv: 'development' })).toEqual({
      categories: catalogue.categories.length,
      products: catalogue.partnerOffers.length,
      benefits: catalogue.benefits.length,
    });
    const seeded = await rowCounts();
    expect(seeded).toEqual({
      benefits: catalogue.benefits.length,
      products: catalogue.partnerOffers.length,
      categories: catalogue.categories.length,
      ...totals(allOfferings),
    });
    expect(await seedOfferingCatalogue(context.db, { nodeEnv: 'development' })).toEqual({
      categories: 0,
      products: 0,
      benefits: 0,
    });
    expect(await rowCounts()).toEqual(seeded);
  });

  it('skips benefits whose demo company is absent', async () => {
    expect(await seedOfferingCatalogue(context.db, { nodeEnv: 'development' })).toMatchObject({ benefits: 0 });
  });

  it('loads everything once when two starts run at the same moment', async () => {
    await seedDemoAccounts(context.db, { nodeEnv: 'development', password: 'demo-password' });
    const results = await Promise.all([
      seedOfferingCatalogue(context.db, { nodeEnv: 'development' }),
      seedOfferingCatalogue(context.db, { nodeEnv: 'development' }),
    ]);
    expect(results.reduce((sum, result) => sum + result.products + result.benefits, 0)).toBe(allOfferings.length);
    expect(await rowCounts()).toMatchObject({
      benefits: catalogue.benefits.length,
      products: catalogue.partnerOffers.length,
      categories: catalogue.categories.length,
      ...totals(allOfferings),
    });
  });
});
