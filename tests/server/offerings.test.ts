import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { offeringCompanies, offerings } from '../../server/db/offerings.schema.ts';
import { companies, userCompanies, users } from '../../server/db/schema.ts';
import { seedDemoAccounts } from '../../server/db/seed/demoAccounts.ts';
import { readOfferingCatalogue, seedOfferingCatalogue } from '../../server/db/seed/offeringCatalogue.ts';
import { createMfaToken, createSession } from '../../server/domain/accounts/sessions.ts';
import { AUTHORIZATION_HEADER, MFA_TOKEN_HEADER } from '../../src/contract/common.ts';
import {
  OFFERING_TYPES_ERROR,
  type OfferingListItem,
  offeringCategoriesResponse,
  offeringResponse,
  offeringsResponse,
} from '../../src/contract/offerings.ts';
import { type TestContext, createTestContext, testEngine } from './harness.ts';
import { errorOf, uniqueEmail } from './helpers.ts';

let context: TestContext;
const catalogue = readOfferingCatalogue();

/** A user of the given companies, signed in with a session (and a remembered MFA device, as globex requires MFA). */
async function employeeOf(...companySlugs: string[]): Promise<Record<string, string>> {
  const [user] = await context.db
    .insert(users)
    .values({ email: uniqueEmail('employee'), passwordHash: 'never-signs-in-with-a-password', firstName: 'Pat', lastName: 'Doe' })
    .returning({ id: users.id });
  if (companySlugs.length > 0) {
    const rows = await context.db.select({ id: companies.id }).from(companies).where(inArray(companies.slug, companySlugs));
    expect(rows).toHaveLength(companySlugs.length);
    await context.db.insert(userCompanies).values(rows.map((company) => ({ userId: user.id, companyId: company.id })));
  }
  const { token } = await createSession(context.db, user.id);
  return { [AUTHORIZATION_HEADER]: `Bearer ${token}`, [MFA_TOKEN_HEADER]: await createMfaToken(context.db, user.id) };
}

function get(url: string, headers: Record<string, string>) {
  return context.app.inject({ method: 'GET', url, headers });
}

async function listOf(query: string, headers: Record<string, string>): Promise<OfferingListItem[]> {
  const response = await get(`/api/v1/offerings${query}`, headers);
  expect(response.statusCode, response.body).toBe(200);
  const body = offeringsResponse.parse(response.json());
  expect(body.success).toBe(true);
  return body.offerings;
}

/** The database ids of the seeded offerings, by slug. */
async function idsBySlug(): Promise<Map<string, number>> {
  const rows = await context.db.select({ id: offerings.id, slug: offerings.slug }).from(offerings);
  return new Map(rows.map((row) => [row.slug, row.id]));
}

function slugsOf(list: OfferingListItem[], ids: Map<string, number>): string[] {
  const slugById = new Map([...ids].map(([slug, id]) => [id, slug]));
  return list.map((offering) => slugById.get(offering.id) ?? `unknown id ${offering.id}`);
}

const benefitsOf = (company: string) => catalogue.benefits.filter((benefit) => benefit.company === company);
const productSlugs = catalogue.partnerOffers.map((offer) => offer.slug);

let acme: Record<string, string>;
let globex: Record<string, string>;
let initech: Record<string, string>;
let ids: Map<string, number>;

beforeAll(async () => {
  context = await createTestContext();
  await seedDemoAccounts(context.db, { nodeEnv: 'development', password: 'demo-password' });
  await seedOfferingCatalogue(context.db, { nodeEnv: 'development' });
  [acme, globex, initech] = await Promise.all([employeeOf('acme'), employeeOf('globex'), employeeOf('initech')]);
  ids = await idsBySlug();
});
afterAll(async () => {
  await context.close();
});

describe('who sees which offerings', () => {
  it('answers 401 without a session', async () => {
    for (const url of ['/api/v1/offerings', `/api/v1/offerings/${ids.get(productSlugs[0])}`, '/api/v1/offering_categories']) {
      const response = await get(url, {});
      expect(response.statusCode, url).toBe(401);
      expect(errorOf(response)).toBe('Your session has expired. Please sign in again.');
    }
  });

  it('lists the benefits of the caller’s company and never another company’s', async () => {
    expect(slugsOf(await listOf('?types=benefit', acme), ids)).toEqual(benefitsOf('acme').map((benefit) => benefit.slug));
    expect(slugsOf(await listOf('?types=benefit', globex), ids)).toEqual(benefitsOf('globex').map((benefit) => benefit.slug));
  });

  it('gives everyone the partner offers, after their own benefits', async () => {
    const acmeAll = slugsOf(await listOf('?types=benefit,product', acme), ids);
    expect(acmeAll).toEqual([...benefitsOf('acme').map((benefit) => benefit.slug), ...productSlugs]);
    expect(slugsOf(await listOf('?types=product', globex), ids)).toEqual(productSlugs);
  });

  it('shows a company without benefits only the partner offers', async () => {
    expect(await listOf('?types=benefit', initech)).toEqual([]);
    const all = await listOf('?types=benefit,product', initech);
    expect(slugsOf(all, ids)).toEqual(productSlugs);
    expect(new Set(all.map((offering) => offering.type))).toEqual(new Set(['product']));
  });

  it('shows an employee of two companies the benefits of both', async () => {
    const both = await employeeOf('acme', 'globex');
    expect(slugsOf(await listOf('?types=benefit', both), ids)).toEqual(
      [...benefitsOf('acme'), ...benefitsOf('globex')].map((benefit) => benefit.slug),
    );
  });

  it('answers 404 for another company’s benefit, exactly as for an unknown id', async () => {
    const globexBenefit = ids.get(benefitsOf('globex')[0].slug);
    const mine = await get(`/api/v1/offerings/${globexBenefit}`, globex);
    expect(mine.statusCode).toBe(200);
    const theirs = await get(`/api/v1/offerings/${globexBenefit}`, acme);
    const unknown = await get(`/api/v1/offerings/${Math.max(...ids.values()) + 1}`, acme);
    for (const response of [theirs, unknown]) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: 'Offering not found' });
    }
    expect((await get(`/api/v1/offerings/${globexBenefit}`, initech)).statusCode).toBe(404);
  });
});

describe('GET /api/v1/offerings', () => {
  it('answers every list field, categories by name in the filter bar’s order', async () => {
    const [medical] = await listOf('?types=benefit&limit=1', acme);
    const seed = benefitsOf('acme')[0];
    expect(medical).toEqual({
      id: ids.get(seed.slug),
      type: 'benefit',
      provider_name: 'Meridian Health Plans',
      provider_logo_url: '/seed/offerings/logos/meridian-health.svg',
      heading: 'Medical coverage',
      subheading: seed.subheading,
      featured: true,
      categories: ['Health', 'Insurance'],
    });
  });

  it('names each offering’s categories as the catalogue does, in the filter bar’s order', async () => {
    const position = new Map(catalogue.categories.map((category, index) => [category.name, index]));
    const inBarOrder = (names: string[]) => [...names].sort((a, b) => (position.get(a) ?? 0) - (position.get(b) ?? 0));
    const seedBySlug = new Map([...catalogue.benefits, ...catalogue.partnerOffers].map((offering) => [offering.slug, offering]));
    const all = await listOf('?types=benefit,product', acme);
    const slugs = slugsOf(all, ids);
    expect(all.map((offering) => offering.categories)).toEqual(
      slugs.map((slug) => inBarOrder(seedBySlug.get(slug)?.categories ?? [])),
    );
  });

  it('takes benefit and product alone or together, and both when types is absent', async () => {
    const benefits = await listOf('?types=benefit', acme);
    const products = await listOf('?types=product', acme);
    expect(new Set(benefits.map((offering) => offering.type))).toEqual(new Set(['benefit']));
    expect(new Set(products.map((offering) => offering.type))).toEqual(new Set(['product']));
    const both = await listOf('?types=benefit,product', acme);
    expect(both).toEqual([...benefits, ...products]);
    expect(await listOf('?types=product,benefit', acme)).toEqual(both);
    expect(await listOf('', acme)).toEqual(both);
  });

  it('puts featured offerings first with prefer_featured, then fills up with the others', async () => {
    const featured = catalogue.partnerOffers.filter((offer) => offer.featured).map((offer) => offer.slug);
    const others = catalogue.partnerOffers.filter((offer) => !offer.featured).map((offer) => offer.slug);
    expect(featured.length).toBeGreaterThan(0);
    expect(slugsOf(await listOf('?types=product&prefer_featured=true', acme), ids)).toEqual([...featured, ...others]);
    expect(slugsOf(await listOf(`?types=product&prefer_featured=true&limit=${featured.length + 2}`, acme), ids)).toEqual(
      [...featured, ...others.slice(0, 2)],
    );
    // Without it (or with false) the catalogue order stands.
    expect(slugsOf(await listOf('?types=product&prefer_featured=false', acme), ids)).toEqual(productSlugs);
    expect(productSlugs).not.toEqual([...featured, ...others]);
  });

  it('falls back to the other offerings when none is featured (SPEC §9)', async () => {
    const [umbrella] = await context.db
      .insert(companies)
      .values({ slug: 'umbrella', name: 'Umbrella' })
      .returning({ id: companies.id });
    const unfeatured = ['Dental', 'Vision'].map((heading) => ({
      slug: `umbrella-${heading.toLowerCase()}`,
      type: 'benefit' as const,
      providerName: `${heading} Co`,
      providerLogoUrl: '/seed/umbrella.svg',
      heading,
      subheading: `${heading} for Umbrella`,
      name: `Umbrella ${heading}`,
    }));
    const inserted = await context.db.insert(offerings).values(unfeatured).returning({ id: offerings.id });
    await context.db.insert(offeringCompanies).values(inserted.map(({ id }) => ({ offeringId: id, companyId: umbrella.id })));
    const list = await listOf('?types=benefit&prefer_featured=true&limit=6', await employeeOf('umbrella'));
    expect(list.map((offering) => [offering.heading, offering.featured])).toEqual([
      ['Dental', false],
      ['Vision', false],
    ]);
  });

  it('honours limit', async () => {
    expect(await listOf('?types=benefit,product&limit=1', acme)).toHaveLength(1);
    expect(await listOf('?types=benefit,product&prefer_featured=true&limit=6', acme)).toHaveLength(6);
    expect(await listOf('?types=benefit,product&limit=100', acme)).toHaveLength(benefitsOf('acme').length + productSlugs.length);
  });

  it.each([
    ['types=offer', 'types'],
    ['types=benefit,offer', 'types'],
    ['types=', 'types'],
    ['types=benefit&types=product', 'types'],
    ['prefer_featured=yes', 'prefer_featured'],
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=six', 'limit'],
  ])('answers 422 to %s', async (query, field) => {
    const response = await get(`/api/v1/offerings?${query}`, acme);
    expect(response.statusCode).toBe(422);
    expect(Object.keys((response.json() as { fields: Record<string, string> }).fields)).toEqual([field]);
  });

  it('says which types are accepted', async () => {
    const response = await get('/api/v1/offerings?types=benefit,offer', acme);
    expect(errorOf(response)).toBe(`types: ${OFFERING_TYPES_ERROR}`);
  });
});

describe('GET /api/v1/offerings/{id}', () => {
  it('answers the detail with every section type, sections and items in order', async () => {
    const seed = benefitsOf('acme')[0];
    const response = await get(`/api/v1/offerings/${ids.get(seed.slug)}`, acme);
    expect(response.statusCode, response.body).toBe(200);
    const { success, offering } = offeringResponse.parse(response.json());
    expect(success).toBe(true);
    expect(offering).toMatchObject({
      id: ids.get(seed.slug),
      type: 'benefit',
      name: 'Meridian Choice PPO and Meridian Saver HDHP',
      categories: ['Health', 'Insurance'],
      request_survey_cta: 'Ask a concierge to help me enroll',
      request_survey_id: 720,
      request_survey_name: 'Help me with my benefits',
    });
    expect(offering.sections.map(({ section_type, heading }) => [section_type, heading])).toEqual([
      ['numbered', 'How to enroll'],
      ['key_value', 'Contact Meridian'],
      ['text', 'Preventive care at no cost'],
    ]);
    const [numbered, keyValue, text] = offering.sections;
    expect(numbered.items.map((item) => item.value)).toEqual(seed.sections[0].items.map((item) => item.value));
    expect(numbered.items[0]).toEqual({ value: seed.sections[0].items[0].value });
    expect(numbered).toMatchObject({ cta_text: 'Open the benefits portal', cta_url: 'https://benefits.acme.example.com/enroll' });
    expect(keyValue.items).toEqual([
      { key: 'phone', value: '(800) 555-0142' },
      { key: 'email', value: 'members@meridian-health.example.com' },
      { key: 'Hours', value: 'Monday to Friday, 8am-8pm ET' },
      { key: 'Group number', value: 'ACM-40721' },
      { key: 'link', value: 'www.meridian-health.example.com/find-care' },
      {
        key: 'download',
        value: 'Summary of Benefits and Coverage (PDF)',
        external_url: 'https://meridian-health.example.com/acme/summary-of-benefits.pdf',
      },
    ]);
    expect(keyValue).toMatchObject({ cta_text: null, cta_url: null });
    expect(text.items).toHaveLength(1);
    expect(text).toMatchObject({ cta_text: 'Find an in-network doctor', cta_url: 'https://meridian-health.example.com/find-care' });
    expect(new Set(offering.sections.map((section) => section.id)).size).toBe(3);
  });

  it('answers a partner offer without a help block to anyone', async () => {
    const seed = catalogue.partnerOffers.find((offer) => offer.request_survey_cta === undefined);
    expect(seed).toBeDefined();
    const response = await get(`/api/v1/offerings/${ids.get(seed?.slug ?? '')}`, initech);
    expect(response.statusCode).toBe(200);
    const { offering } = offeringResponse.parse(response.json());
    expect(offering).toMatchObject({
      type: 'product',
      provider_name: seed?.provider_name,
      request_survey_cta: null,
      request_survey_id: null,
      request_survey_name: null,
    });
    expect(offering.sections.map((section) => section.heading)).toEqual(seed?.sections.map((section) => section.heading));
  });

  it.each(['abc', '0', '2147483648'])('answers 422 to the id %s', async (id) => {
    const response = await get(`/api/v1/offerings/${id}`, acme);
    expect(response.statusCode).toBe(422);
    expect(errorOf(response)).toMatch(/^id: /);
  });
});

describe('GET /api/v1/offering_categories', () => {
  it('lists the categories with their images, in the filter bar’s order', async () => {
    const response = await get('/api/v1/offering_categories', initech);
    expect(response.statusCode).toBe(200);
    expect(offeringCategoriesResponse.parse(response.json())).toEqual({
      success: true,
      offering_categories: catalogue.categories,
    });
  });
});

describe('the catalogue each server process keeps in memory', () => {
  it('shows an edit of the catalogue at the next load, whoever made it', async () => {
    const before = await listOf('?types=product', acme);
    const [first] = before;
    await context.db.update(offerings).set({ heading: 'Renamed by an operator' }).where(inArray(offerings.id, [first.id]));
    // PGlite hands the trigger's notice over as the statement commits; PostgreSQL a moment later.
    await vi.waitFor(async () => expect((await listOf('?types=product', acme))[0].heading).toBe('Renamed by an operator'), {
      timeout: 2_000,
      interval: 5,
    });
    if (testEngine === 'pglite') expect((await listOf('?types=product', acme))[0].heading).toBe('Renamed by an operator');
    await context.db.update(offerings).set({ heading: first.heading }).where(inArray(offerings.id, [first.id]));
    await vi.waitFor(async () => expect(await listOf('?types=product', acme)).toEqual(before), { timeout: 2_000, interval: 5 });
  });
});
