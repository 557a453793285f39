import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { offeringCategories, offeringCategoryLinks, offeringCompanies, offerings } from '../../server/db/offerings.schema.ts';
import { requests, userCompanies } from '../../server/db/schema.ts';
import { matches, prefixQuery, searchDocument } from '../../server/db/textSearch.ts';
import { internalNotes, messages } from '../../server/db/threads.schema.ts';
import { offeringsResponse } from '../../src/contract/offerings.ts';
import { requestsResponse } from '../../src/contract/requests.ts';
import { SEARCH_ERRORS, SEARCH_QUERY_MAX_LENGTH } from '../../src/contract/search.ts';
import { suiteContext, testEngine } from './harness.ts';
import { errorOf } from './helpers.ts';
import { type Person, createPerson, createRequest, get } from './requests.helpers.ts';

const context = suiteContext();

const searchUrl = (what: 'requests' | 'offerings', q: string) => `/api/v1/${what}/search?q=${encodeURIComponent(q)}`;

async function foundRequests(person: Person, q: string): Promise<string[]> {
  const response = await get(context, person, searchUrl('requests', q));
  expect(response.statusCode, response.body).toBe(200);
  return requestsResponse.parse(response.json()).requests.map((request) => request.name);
}

async function foundOfferings(person: Person, q: string): Promise<string[]> {
  const response = await get(context, person, searchUrl('offerings', q));
  expect(response.statusCode, response.body).toBe(200);
  return offeringsResponse.parse(response.json()).offerings.map((offering) => offering.heading);
}

async function addMessage(requestId: number, bodyHtml: string, source: 'user' | 'life_concierge' = 'user') {
  await context.db.insert(messages).values({ requestId, source, sourceName: 'Someone', bodyHtml });
}

let offeringCounter = 0;

/** A published offering (a benefit given to `companyId`, or a partner offer), in the given categories. */
async function addOffering(
  fields: { name: string; providerName: string; heading: string; companyId?: number; published?: boolean },
  categoryIds: number[] = [],
) {
  offeringCounter += 1;
  const { companyId, ...columns } = fields;
  const [row] = await context.db
    .insert(offerings)
    .values({
      slug: `search-test-${offeringCounter}`,
      type: companyId === undefined ? 'product' : 'benefit',
      providerLogoUrl: '/logo.png',
      subheading: 'A subheading that is never searched',
      ...columns,
    })
    .returning({ id: offerings.id });
  if (companyId !== undefined) await context.db.insert(offeringCompanies).values({ offeringId: row.id, companyId });
  if (categoryIds.length > 0) {
    await context.db.insert(offeringCategoryLinks).values(categoryIds.map((categoryId) => ({ offeringId: row.id, categoryId })));
  }
}

async function companyOf(person: Person): Promise<number> {
  const [row] = await context.db
    .select({ companyId: userCompanies.companyId })
    .from(userCompanies)
    .where(sql`${userCompanies.userId} = ${person.id}`);
  return row.companyId;
}

describe(`the employee's search of their requests (issue 32, ${testEngine})`, () => {
  it('finds a request by a word of its name, of its details, or of a message of its thread, by word starts', async () => {
    const owner = await createPerson(context);
    await createRequest(context, owner, { name: 'Renew the car registration', issuedAt: new Date('2030-01-01T00:00:00Z') });
    const vet = await createRequest(context, owner, { name: 'Book a vet', details: 'Breed: Beagle', issuedAt: new Date('2030-01-02T00:00:00Z') });
    const trip = await createRequest(context, owner, { name: 'Plan a trip', issuedAt: new Date('2030-01-03T00:00:00Z') });
    await addMessage(trip, '<p>Flights to Lisbon in <strong>March</strong>, please.</p>');
    await addMessage(vet, '<p>We found a clinic that sees beagles on Saturdays.</p>', 'life_concierge');

    expect(await foundRequests(owner, 'registration')).toEqual(['Renew the car registration']);
    // A word's start, in any case, and stemmed: 'Registering' and 'reg' find 'registration'.
    expect(await foundRequests(owner, 'Registering')).toEqual(['Renew the car registration']);
    expect(await foundRequests(owner, 'car reg')).toEqual(['Renew the car registration']);
    expect(await foundRequests(owner, 'beagle')).toEqual(['Book a vet']);
    expect(await foundRequests(owner, 'saturday')).toEqual(['Book a vet']);
    expect(await foundRequests(owner, 'lisbon march')).toEqual(['Plan a trip']);
    // The markup is not text: a tag's name finds nothing.
    expect(await foundRequests(owner, 'strong')).toEqual([]);
    // Every word must match.
    expect(await foundRequests(owner, 'lisbon beagle')).toEqual([]);
  });

  it("never finds another employee's request, nor an internal note's words", async () => {
    const owner = await createPerson(context);
    const stranger = await createPerson(context);
    const theirs = await createRequest(context, stranger, { name: 'Find a plumber' });
    await addMessage(theirs, '<p>The plumber comes on Tuesday.</p>');
    const mine = await createRequest(context, owner, { name: 'Fix the boiler' });
    await context.db.insert(internalNotes).values({ requestId: mine, authorName: 'Casey', bodyHtml: '<p>Confidential: call the landlord</p>' });

    expect(await foundRequests(owner, 'plumber')).toEqual([]);
    expect(await foundRequests(owner, 'tuesday')).toEqual([]);
    expect(await foundRequests(owner, 'landlord')).toEqual([]);
    expect(await foundRequests(stranger, 'plumber')).toEqual(['Find a plumber']);
    expect(await foundRequests(stranger, 'boiler')).toEqual([]);
  });

  it('answers the request with its thread, as the lists do', async () => {
    const owner = await createPerson(context);
    const requestId = await createRequest(context, owner, { name: 'Order new glasses' });
    await addMessage(requestId, '<p>Any frames you like?</p>');
    const response = await get(context, owner, searchUrl('requests', 'glasses'));
    const [found] = requestsResponse.parse(response.json()).requests;
    expect(found).toMatchObject({ id: requestId, status: 'open', messages: [{ body_html: '<p>Any frames you like?</p>', source: 'user' }] });
  });
});

describe(`the employee's search of Benefits & Offers (issue 32, ${testEngine})`, () => {
  it('finds an offering by name, provider, heading or category, among those the caller may see', async () => {
    const employee = await createPerson(context, 'employee', { companyName: 'Search Co' });
    const outsider = await createPerson(context, 'employee', { companyName: 'Other Co' });
    const [pets] = await context.db
      .insert(offeringCategories)
      .values({ externalId: `search-pets-${Date.now()}`, name: `Veterinary ${Date.now().toString(36)}`, imageUrl: '/pets.png', position: 99 })
      .returning({ id: offeringCategories.id, name: offeringCategories.name });
    await addOffering({ name: 'Dental plan', providerName: 'Smileworks', heading: 'Cleanings twice a year', companyId: await companyOf(employee) });
    await addOffering({ name: 'Outsider benefit', providerName: 'Smileworks', heading: 'Orthodontics for Other Co', companyId: await companyOf(outsider) });
    await addOffering({ name: 'Pet insurance', providerName: 'Pawsure', heading: 'Accidents and illness' }, [pets.id]);
    await addOffering({ name: 'Draft offer', providerName: 'Smileworks', heading: 'Not yet published', published: false });

    expect(await foundOfferings(employee, 'dental')).toEqual(['Cleanings twice a year']);
    expect(await foundOfferings(employee, 'smile')).toEqual(['Cleanings twice a year']);
    expect(await foundOfferings(employee, 'cleaning')).toEqual(['Cleanings twice a year']);
    expect(await foundOfferings(employee, 'pawsure')).toEqual(['Accidents and illness']);
    expect(await foundOfferings(employee, pets.name.slice(0, 5))).toEqual(['Accidents and illness']);
    // Another company's benefit and an unpublished offering are never found.
    expect(await foundOfferings(employee, 'orthodontics')).toEqual([]);
    expect(await foundOfferings(employee, 'published')).toEqual([]);
    expect(await foundOfferings(outsider, 'smileworks')).toEqual(['Orthodontics for Other Co']);
    expect(await foundOfferings(outsider, 'pet insurance')).toEqual(['Accidents and illness']);
  });
});

describe(`the search query (issue 32, ${testEngine})`, () => {
  it('is refused blank or too long, with a 422 naming q; and without a session (401)', async () => {
    const person = await createPerson(context);
    for (const what of ['requests', 'offerings'] as const) {
      const blank = await get(context, person, searchUrl(what, '   '));
      expect(blank.statusCode).toBe(422);
      expect(blank.json()).toMatchObject({ fields: { q: SEARCH_ERRORS.blank } });
      const tooLong = await get(context, person, searchUrl(what, 'x'.repeat(SEARCH_QUERY_MAX_LENGTH + 1)));
      expect(tooLong.statusCode).toBe(422);
      expect(errorOf(tooLong)).toContain(SEARCH_ERRORS.tooLong);
      expect((await get(context, person, `/api/v1/${what}/search`)).statusCode).toBe(422);
      expect((await get(context, null, searchUrl(what, 'car'))).statusCode).toBe(401);
    }
  });

  it('answers any text with 200 or 422, never a 500, and finds nothing through tsquery syntax', { timeout: 120_000 }, async () => {
    const person = await createPerson(context);
    await createRequest(context, person, { name: 'Water the plants' });
    const typed = fc.oneof(
      fc.constantFrom("'", '!', '&', '|', ':*', "plant:* | !x", 'plants & !water', '\\', '\u0000', '\ud800', '😀 plants', 'the', '<p>'),
      fc.string({ unit: 'binary', maxLength: SEARCH_QUERY_MAX_LENGTH + 5 }),
    );
    await fc.assert(
      fc.asyncProperty(typed, fc.constantFrom('requests' as const, 'offerings' as const), async (q, what) => {
        const url = `/api/v1/${what}/search?q=${[...q].map((char) => (/\p{Surrogate}/u.test(char) ? '%ED%A0%80' : encodeURIComponent(char))).join('')}`;
        const response = await get(context, person, url);
        expect([200, 422]).toContain(response.statusCode);
      }),
      { numRuns: 150 },
    );
    // Operators are not words: only the words count.
    expect(await foundRequests(person, 'plants & !water')).toEqual(['Water the plants']);
    expect(await foundRequests(person, 'plant:* | !x')).toEqual([]);
  });

  it('is answered from the GIN indexes of the migrations', async () => {
    const plans = await context.db.transaction(async (tx) => {
      // On an almost empty table a scan is cheaper; forbidding it shows whether the index answers the expression.
      await tx.execute(sql`SET LOCAL enable_seqscan = off`);
      const query = prefixQuery('car')!;
      const planOf = async (statement: ReturnType<typeof sql>) => {
        const result = (await tx.execute(sql`EXPLAIN ${statement}`)) as unknown as { rows: Record<string, string>[] };
        return result.rows.map((row) => Object.values(row)[0]).join('\n');
      };
      return [
        await planOf(sql`SELECT 1 FROM ${requests} WHERE ${matches(searchDocument(requests.name, requests.details), query)}`),
        await planOf(sql`SELECT 1 FROM ${messages} WHERE ${matches(searchDocument(messages.bodyHtml), query)}`),
        await planOf(sql`SELECT 1 FROM ${offerings} WHERE ${matches(searchDocument(offerings.name, offerings.providerName, offerings.heading), query)}`),
      ];
    });
    expect(plans[0]).toContain('requests_search_idx');
    expect(plans[1]).toContain('messages_search_idx');
    expect(plans[2]).toContain('offerings_search_idx');
  });
});
