import { count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { offeringSections, offerings } from '../../server/db/offerings.schema.ts';
import { auditEvents, userCompanies } from '../../server/db/schema.ts';
import { seedSurveyCatalogue } from '../../server/db/seed/surveyCatalogue.ts';
import { OFFERING_NOT_FOUND_ERROR, UNKNOWN_COMPANY_ERROR, UNKNOWN_SURVEY_ERROR, offeringSlugTakenError } from '../../server/domain/admin/adminOfferings.ts';
import { IMAGE_UPLOAD_ERROR, catalogueImagePath } from '../../server/domain/catalogue/catalogueImages.ts';
import {
  type AdminOffering,
  BENEFIT_NEEDS_COMPANY_ERROR,
  type CreateOfferingRequest,
  DOWNLOAD_NEEDS_URL_ERROR,
  PRODUCT_HAS_NO_COMPANY_ERROR,
  SECTION_CTA_ERROR,
  adminOfferingCategoriesResponse,
  adminOfferingCategoryResponse,
  adminOfferingResponse,
  adminOfferingsResponse,
} from '../../src/contract/adminCatalogue.ts';
import { BENEFITS_HELP_SURVEY, offeringCategoriesResponse, offeringResponse, offeringsResponse } from '../../src/contract/offerings.ts';
import { adminCall, auditLog, expectAdminsOnly } from './admin.helpers.ts';
import { suiteContext } from './harness.ts';
import { errorOf } from './helpers.ts';
import { PDF, type Person, createPerson, uploadFile } from './requests.helpers.ts';

const context = suiteContext({}, (created) => seedSurveyCatalogue(created.db));

let slugCounter = 0;
function freshSlug(prefix = 'offer'): string {
  slugCounter += 1;
  return `${prefix}-${slugCounter}-${Date.now().toString(36)}`;
}

/** A new offering category, with an image the admin uploaded. */
async function createCategory(admin: Person) {
  const externalId = freshSlug('cat');
  const response = await adminCall(context, admin, 'POST', '/offering_categories', {
    external_id: externalId,
    name: `Name ${externalId}`,
    image_upload_key: await uploadFile(context, admin, { filename: 'category.png' }),
  });
  expect(response.statusCode, response.body).toBe(201);
  return adminOfferingCategoryResponse.parse(response.json()).category;
}

/** An employee of a new company of their own, sponsored by it; with the company's id. */
async function employeeWithCompany(): Promise<{ employee: Person; companyId: number }> {
  const employee = await createPerson(context, 'employee', { companyName: `Company ${freshSlug('co')}` });
  const [{ companyId }] = await context.db.select({ companyId: userCompanies.companyId }).from(userCompanies).where(eq(userCompanies.userId, employee.id));
  return { employee, companyId };
}

const threeSections: CreateOfferingRequest['sections'] = [
  { section_type: 'numbered', heading: 'How to join', items: [{ value: 'Sign up' }, { value: 'Save' }], cta_text: 'Join', cta_url: 'https://example.com/join' },
  {
    section_type: 'key_value',
    heading: 'Contact',
    items: [
      { key: 'phone', value: '(800) 555-0100' },
      { key: 'download', value: 'Brochure', external_url: 'https://example.com/brochure.pdf' },
      { key: 'Hours', value: '9 to 5' },
    ],
  },
  { section_type: 'text', heading: 'Fine print', items: [{ value: 'Terms apply.' }] },
];

function productRequest(overrides: Partial<CreateOfferingRequest> = {}): CreateOfferingRequest {
  return {
    slug: freshSlug(),
    type: 'product',
    provider_name: 'Acme Partner',
    provider_logo_url: '/seed/offerings/logos/meridian-health.svg',
    heading: 'Half-price gym',
    subheading: 'For everyone',
    name: 'Gym deal',
    sections: threeSections,
    ...overrides,
  };
}

async function createAsAdmin(admin: Person, request: CreateOfferingRequest): Promise<AdminOffering> {
  const response = await adminCall(context, admin, 'POST', '/offerings', request);
  expect(response.statusCode, response.body).toBe(201);
  return adminOfferingResponse.parse(response.json()).offering;
}

async function adminWrite(admin: Person, method: 'POST' | 'PATCH', path: string, payload?: object): Promise<AdminOffering> {
  const response = await adminCall(context, admin, method, path, payload);
  expect(response.statusCode, response.body).toBe(200);
  return adminOfferingResponse.parse(response.json()).offering;
}

/** The offerings list and one offering as an employee loads them. */
async function employeeList(employee: Person) {
  const response = await context.app.inject({ method: 'GET', url: '/api/v1/offerings', headers: employee.headers });
  expect(response.statusCode, response.body).toBe(200);
  return offeringsResponse.parse(response.json()).offerings;
}
function employeeDetail(employee: Person, offeringId: number) {
  return context.app.inject({ method: 'GET', url: `/api/v1/offerings/${offeringId}`, headers: employee.headers });
}

async function rowCounts() {
  const [[audit], [offeringRows], [sectionRows]] = await Promise.all([
    context.db.select({ rows: count() }).from(auditEvents),
    context.db.select({ rows: count() }).from(offerings),
    context.db.select({ rows: count() }).from(offeringSections),
  ]);
  return { audit: audit.rows, offerings: offeringRows.rows, sections: sectionRows.rows };
}

describe('who may manage the offerings', () => {
  it('refuses every route to a visitor (401), an employee and a concierge (403), and serves an admin', async () => {
    const admin = await createPerson(context, 'admin');
    const outsiders = { employee: await createPerson(context, 'employee'), concierge: await createPerson(context, 'concierge') };
    const offering = await createAsAdmin(admin, productRequest());
    const category = await createCategory(admin);
    const before = await rowCounts();
    await expectAdminsOnly(context, outsiders, [
      ['GET', '/offerings'],
      ['GET', `/offerings/${offering.id}`],
      ['POST', '/offerings', productRequest()],
      ['PATCH', `/offerings/${offering.id}`, { heading: 'Outsider' }],
      ['POST', `/offerings/${offering.id}/move`, { position: 0 }],
      ['POST', `/offerings/${offering.id}/feature`],
      ['POST', `/offerings/${offering.id}/unfeature`],
      ['POST', `/offerings/${offering.id}/publish`],
      ['POST', `/offerings/${offering.id}/unpublish`],
      ['GET', '/offering_categories'],
      ['POST', '/offering_categories', { external_id: 'sneaky', name: 'Sneaky', image_upload_key: 'nope' }],
      ['PATCH', `/offering_categories/${category.id}`, { name: 'Outsider' }],
      ['POST', `/offering_categories/${category.id}/move`, { position: 3 }],
    ]);
    expect(await rowCounts()).toEqual(before);
    for (const path of ['/offerings', `/offerings/${offering.id}`, '/offering_categories']) {
      expect((await adminCall(context, admin, 'GET', path)).statusCode, path).toBe(200);
    }
  });

  it('answers 404 for an offering or category that does not exist', async () => {
    const admin = await createPerson(context, 'admin');
    for (const [method, path, payload] of [
      ['GET', '/offerings/999999'],
      ['PATCH', '/offerings/999999', { heading: 'Nobody' }],
      ['POST', '/offerings/999999/publish'],
      ['POST', '/offerings/999999/move', { position: 1 }],
    ] as const) {
      const response = await adminCall(context, admin, method, path, payload);
      expect(response.statusCode, path).toBe(404);
      expect(errorOf(response)).toBe(OFFERING_NOT_FOUND_ERROR);
    }
    expect((await adminCall(context, admin, 'PATCH', '/offering_categories/999999', { name: 'Nobody' })).statusCode).toBe(404);
  });
});

describe('creating and editing an offering', () => {
  it('creates a draft with its sections of every type and the help button, audited, unseen by employees', async () => {
    const admin = await createPerson(context, 'admin');
    const { employee } = await employeeWithCompany();
    const offering = await createAsAdmin(admin, productRequest({ help: { cta: 'Ask for help', request_survey_id: BENEFITS_HELP_SURVEY.id } }));
    expect(offering).toMatchObject({
      type: 'product',
      published: false,
      featured: false,
      company_ids: [],
      help: { cta: 'Ask for help', request_survey_id: BENEFITS_HELP_SURVEY.id, request_survey_name: BENEFITS_HELP_SURVEY.name },
    });
    expect(offering.sections.map(({ id: _id, ...section }) => section)).toEqual([
      { section_type: 'numbered', heading: 'How to join', items: [{ value: 'Sign up' }, { value: 'Save' }], cta_text: 'Join', cta_url: 'https://example.com/join' },
      {
        section_type: 'key_value',
        heading: 'Contact',
        items: [
          { key: 'phone', value: '(800) 555-0100' },
          { key: 'download', value: 'Brochure', external_url: 'https://example.com/brochure.pdf' },
          { key: 'Hours', value: '9 to 5' },
        ],
        cta_text: null,
        cta_url: null,
      },
      { section_type: 'text', heading: 'Fine print', items: [{ value: 'Terms apply.' }], cta_text: null, cta_url: null },
    ]);

    const [event] = (await auditLog(context, admin, { subject_type: 'offering', subject_id: offering.id })).events;
    expect(event).toMatchObject({ action: 'offering.create', actor: { id: admin.id } });
    expect(event.changes.heading).toEqual({ before: null, after: 'Half-price gym' });

    // A draft is never shown to employees, in the list or by its id.
    expect((await employeeList(employee)).map((item) => item.id)).not.toContain(offering.id);
    expect((await employeeDetail(employee, offering.id)).statusCode).toBe(404);
    const listed = adminOfferingsResponse.parse((await adminCall(context, admin, 'GET', '/offerings')).json()).offerings;
    expect(listed.find((item) => item.id === offering.id)).toMatchObject({ published: false });
  });

  it('shows a published change on the employee’s next load, and hides it again once unpublished', async () => {
    const admin = await createPerson(context, 'admin');
    const { employee } = await employeeWithCompany();
    const offering = await createAsAdmin(admin, productRequest());
    await adminWrite(admin, 'POST', `/offerings/${offering.id}/publish`);
    expect((await employeeList(employee)).find((item) => item.id === offering.id)).toMatchObject({ heading: 'Half-price gym' });

    const edited = await adminWrite(admin, 'PATCH', `/offerings/${offering.id}`, {
      heading: 'Free gym',
      sections: [{ section_type: 'text', heading: 'Now free', items: [{ value: 'No fee at all.' }] }],
    });
    expect(edited.sections).toHaveLength(1);
    expect((await employeeList(employee)).find((item) => item.id === offering.id)).toMatchObject({ heading: 'Free gym' });
    const detail = offeringResponse.parse((await employeeDetail(employee, offering.id)).json()).offering;
    expect(detail.sections.map((section) => section.heading)).toEqual(['Now free']);

    await adminWrite(admin, 'POST', `/offerings/${offering.id}/unpublish`);
    expect((await employeeList(employee)).map((item) => item.id)).not.toContain(offering.id);
    expect((await employeeDetail(employee, offering.id)).statusCode).toBe(404);

    const actions = (await auditLog(context, admin, { subject_type: 'offering', subject_id: offering.id })).events.map((event) => event.action);
    expect(actions).toEqual(['offering.unpublish', 'offering.update', 'offering.publish', 'offering.create']);
  });

  it('gives a benefit to one or more companies: only their employees see it', async () => {
    const admin = await createPerson(context, 'admin');
    const [first, second, outsider] = [await employeeWithCompany(), await employeeWithCompany(), await employeeWithCompany()];
    const benefit = await createAsAdmin(admin, productRequest({ type: 'benefit', company_ids: [first.companyId] }));
    await adminWrite(admin, 'POST', `/offerings/${benefit.id}/publish`);
    const seenBy = async () =>
      Promise.all([first, second, outsider].map(async ({ employee }) => (await employeeList(employee)).some((item) => item.id === benefit.id)));
    expect(await seenBy()).toEqual([true, false, false]);

    const shared = await adminWrite(admin, 'PATCH', `/offerings/${benefit.id}`, { company_ids: [first.companyId, second.companyId] });
    expect(shared.company_ids).toEqual([first.companyId, second.companyId].sort((a, b) => a - b));
    expect(await seenBy()).toEqual([true, true, false]);
  });

  it('features, unfeatures and moves an offering among those of its type, changing nothing when asked for the state it is in', async () => {
    const admin = await createPerson(context, 'admin');
    const [a, b] = [await createAsAdmin(admin, productRequest()), await createAsAdmin(admin, productRequest())];
    expect(b.position).toBe(a.position + 1);
    expect((await adminWrite(admin, 'POST', `/offerings/${a.id}/feature`)).featured).toBe(true);
    const auditsBefore = (await rowCounts()).audit;
    expect((await adminWrite(admin, 'POST', `/offerings/${a.id}/feature`)).featured).toBe(true);
    expect((await rowCounts()).audit).toBe(auditsBefore);
    expect((await adminWrite(admin, 'POST', `/offerings/${a.id}/unfeature`)).featured).toBe(false);

    const moved = await adminWrite(admin, 'POST', `/offerings/${b.id}/move`, { position: 0 });
    expect(moved.position).toBe(0);
    const products = adminOfferingsResponse
      .parse((await adminCall(context, admin, 'GET', '/offerings')).json())
      .offerings.filter((item) => item.type === 'product');
    expect(products[0].id).toBe(b.id);
    expect(products.map((item) => item.position)).toEqual(products.map((_item, index) => index));
    const [event] = (await auditLog(context, admin, { subject_type: 'offering', subject_id: b.id })).events;
    expect(event).toMatchObject({ action: 'offering.move', changes: { position: { before: products.length - 1, after: 0 } } });
  });
});

describe('refused writes change nothing', () => {
  it.each([
    ['a text section with two items', { sections: [{ section_type: 'text', heading: 'Two', items: [{ value: 'a' }, { value: 'b' }] }] }, 'sections.0.items'],
    ['a section of no known type', { sections: [{ section_type: 'table', heading: 'x', items: [{ value: 'a' }] }] }, 'sections.0.section_type'],
    ['a link text without its address', { sections: [{ ...threeSections[2], cta_text: 'Go' }] }, 'sections.0.cta_url'],
    ['a download without its file', { sections: [{ section_type: 'key_value', heading: 'Files', items: [{ key: 'download', value: 'Form' }] }] }, 'sections.0.items.0.external_url'],
    ['no section', { sections: [] }, 'sections'],
    ['a partner offer given to a company', { company_ids: [1] }, 'company_ids'],
    ['a benefit given to nobody', { type: 'benefit' }, 'company_ids'],
  ] as const)('refuses %s with a 422 naming the field', async (_case, overrides, field) => {
    const admin = await createPerson(context, 'admin');
    const before = await rowCounts();
    const response = await adminCall(context, admin, 'POST', '/offerings', { ...productRequest(), ...overrides });
    expect(response.statusCode, response.body).toBe(422);
    expect(Object.keys(response.json().fields ?? {})).toContain(field);
    expect(await rowCounts()).toEqual(before);
  });

  it('says why a section or company list is refused', async () => {
    const admin = await createPerson(context, 'admin');
    const fieldsOf = async (overrides: object) => (await adminCall(context, admin, 'POST', '/offerings', { ...productRequest(), ...overrides })).json().fields;
    expect(await fieldsOf({ type: 'benefit' })).toMatchObject({ company_ids: BENEFIT_NEEDS_COMPANY_ERROR });
    expect(await fieldsOf({ company_ids: [1] })).toMatchObject({ company_ids: PRODUCT_HAS_NO_COMPANY_ERROR });
    expect(await fieldsOf({ sections: [{ ...threeSections[2], cta_text: 'Go' }] })).toMatchObject({ 'sections.0.cta_url': SECTION_CTA_ERROR });
    expect(await fieldsOf({ sections: [{ section_type: 'key_value', heading: 'F', items: [{ key: 'download', value: 'Form' }] }] })).toMatchObject({
      'sections.0.items.0.external_url': DOWNLOAD_NEEDS_URL_ERROR,
    });
  });

  it('refuses a help button for an unknown template, an unknown company and a slug in use, keeping the offering as it was', async () => {
    const admin = await createPerson(context, 'admin');
    const { companyId } = await employeeWithCompany();
    const offering = await createAsAdmin(admin, productRequest({ type: 'benefit', company_ids: [companyId] }));
    const before = await rowCounts();

    const unknownSurvey = await adminCall(context, admin, 'POST', '/offerings', productRequest({ help: { cta: 'Help', request_survey_id: 999999 } }));
    expect(unknownSurvey.statusCode).toBe(422);
    expect(unknownSurvey.json().fields).toEqual({ 'help.request_survey_id': UNKNOWN_SURVEY_ERROR });

    // Sections are written before the help block is checked: the refusal must undo them too.
    const badEdit = await adminCall(context, admin, 'PATCH', `/offerings/${offering.id}`, {
      heading: 'Half saved?',
      sections: [threeSections[2]],
      help: { cta: 'Help', request_survey_id: 999999 },
    });
    expect(badEdit.statusCode).toBe(422);
    const unknownCompany = await adminCall(context, admin, 'PATCH', `/offerings/${offering.id}`, { sections: [threeSections[2]], company_ids: [companyId, 999999] });
    expect(unknownCompany.statusCode).toBe(422);
    expect(unknownCompany.json().fields).toEqual({ 'company_ids.1': UNKNOWN_COMPANY_ERROR });

    const taken = await adminCall(context, admin, 'POST', '/offerings', productRequest({ slug: offering.slug }));
    expect(taken.statusCode).toBe(409);
    expect(taken.json().fields).toEqual({ slug: offeringSlugTakenError(offering.slug) });

    expect(await rowCounts()).toEqual(before);
    const unchanged = adminOfferingResponse.parse((await adminCall(context, admin, 'GET', `/offerings/${offering.id}`)).json()).offering;
    expect(unchanged).toEqual(offering);
  });
});

describe('offering categories', () => {
  it('creates a category with an uploaded image, renames and moves it, audited, and employees see it', async () => {
    const admin = await createPerson(context, 'admin');
    const { employee } = await employeeWithCompany();
    await createCategory(admin);
    const category = await createCategory(admin);
    const { external_id: externalId, image_upload_key: key } = category;
    expect(category).toMatchObject({ image_url: catalogueImagePath(key ?? ''), offering_count: 0 });
    const listed = adminOfferingCategoriesResponse.parse((await adminCall(context, admin, 'GET', '/offering_categories')).json()).categories;
    expect(listed.at(-1)).toEqual(category);

    const image = await context.app.inject({ method: 'GET', url: category.image_url });
    expect(image.statusCode).toBe(302);
    // An upload that is no category's image is not served there.
    const stranger = await uploadFile(context, admin, { filename: 'stranger.png' });
    expect((await context.app.inject({ method: 'GET', url: catalogueImagePath(stranger) })).statusCode).toBe(404);

    const renamed = await adminCall(context, admin, 'PATCH', `/offering_categories/${category.id}`, { name: `Renamed ${externalId}` });
    expect(adminOfferingCategoryResponse.parse(renamed.json()).category.name).toBe(`Renamed ${externalId}`);
    const moved = await adminCall(context, admin, 'POST', `/offering_categories/${category.id}/move`, { position: 0 });
    expect(adminOfferingCategoryResponse.parse(moved.json()).category.position).toBe(0);

    const employeeCategories = await context.app.inject({ method: 'GET', url: '/api/v1/offering_categories', headers: employee.headers });
    expect(offeringCategoriesResponse.parse(employeeCategories.json()).offering_categories[0]).toEqual({
      external_id: externalId,
      name: `Renamed ${externalId}`,
      image_url: catalogueImagePath(key ?? ''),
    });
    const actions = (await auditLog(context, admin, { subject_type: 'offering_category', subject_id: category.id })).events.map((event) => event.action);
    expect(actions).toEqual(['offering_category.move', 'offering_category.update', 'offering_category.create']);
  });

  it('refuses an image that is not the admin’s uploaded image, and a name in use', async () => {
    const admin = await createPerson(context, 'admin');
    const otherAdmin = await createPerson(context, 'admin');
    const existing = await createCategory(admin);
    const before = await rowCounts();
    const [pdf, othersImage] = [
      await uploadFile(context, admin, { filename: 'not-an-image.pdf', bytes: PDF }),
      await uploadFile(context, otherAdmin, { filename: 'theirs.png' }),
    ];
    for (const key of [pdf, othersImage, 'no-such-key']) {
      const response = await adminCall(context, admin, 'POST', '/offering_categories', { external_id: freshSlug('cat'), name: freshSlug('Name'), image_upload_key: key });
      expect(response.statusCode, key).toBe(422);
      expect(response.json().fields).toEqual({ image_upload_key: IMAGE_UPLOAD_ERROR });
    }
    const key = await uploadFile(context, admin, { filename: 'ok.png' });
    const clash = await adminCall(context, admin, 'POST', '/offering_categories', { external_id: freshSlug('cat'), name: existing.name, image_upload_key: key });
    expect(clash.statusCode).toBe(409);
    expect(Object.keys(clash.json().fields)).toEqual(['name']);
    expect((await rowCounts()).audit).toBe(before.audit);
  });
});
