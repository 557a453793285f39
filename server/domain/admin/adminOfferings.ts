import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import type {
  AdminOffering,
  AdminOfferingCategory,
  AdminOfferingSummary,
  CreateOfferingCategoryRequest,
  NewOffering,
  SectionInput,
  UpdateOfferingCategoryRequest,
  UpdateOfferingRequest,
} from '../../../src/contract/adminCatalogue.ts';
import { BENEFIT_NEEDS_COMPANY_ERROR, PRODUCT_HAS_NO_COMPANY_ERROR } from '../../../src/contract/adminCatalogue.ts';
import type { FileStorage } from '../ports/fileStorage.ts';
import { type Database, type Executor, qualified } from '../../db/client.ts';
import {
  offeringCategories,
  offeringCategoryLinks,
  offeringCompanies,
  offeringSectionItems,
  offeringSections,
  offerings,
} from '../../db/offerings.schema.ts';
import { companies } from '../../db/schema.ts';
import { requestSurveys } from '../../db/surveys.schema.ts';
import { type AuditedFields, changedFields, recordAudit, recordSwitch } from './audit.ts';
import { catalogueImageColumns } from '../catalogue/catalogueImages.ts';
import { givenToCompanyIds, sectionsOf } from '../catalogue/offerings.ts';
import { givesAny, uniqueWrite } from './adminWrites.ts';
import { conflict, invalidField, notFound } from '../shared/userFacingError.ts';

/*
 * The Benefits & Offers catalogue in the console's admin area (issue 13). Every write runs in one transaction with
 * its audit entry: a refused write leaves nothing behind. Employees read the catalogue through
 * server/domain/catalogue/offerings.ts, whose cache hears of every change (migrations 0009 and 0011).
 */

export const OFFERING_NOT_FOUND_ERROR = 'Offering not found';
export const OFFERING_CATEGORY_NOT_FOUND_ERROR = 'Offering category not found';
export const UNKNOWN_COMPANY_ERROR = 'There is no such company';
export const UNKNOWN_CATEGORY_ERROR = 'There is no such category';
export const UNKNOWN_SURVEY_ERROR = 'There is no such request template';

export const offeringSlugTakenError = (slug: string) => `The slug "${slug}" is already used by another offering.`;
export const categoryFieldTakenError = (value: string) => `"${value}" is already used by another category.`;

/**
 * Renumbers `siblings` (given in their order) 0, 1, 2... with `movedId` put at 0-based `position` (past the end:
 * last), the others keeping their order; writes only the positions that change. Gives the moved one's place before
 * and after.
 */
async function placeAt(
  siblings: ReadonlyArray<{ id: number; position: number }>,
  movedId: number,
  position: number,
  setPosition: (id: number, position: number) => Promise<unknown>,
): Promise<{ before: number; after: number }> {
  const others = siblings.filter((row) => row.id !== movedId);
  const order = [...others.slice(0, position), { id: movedId }, ...others.slice(position)];
  for (const [index, { id }] of order.entries()) {
    if (siblings.find((row) => row.id === id)?.position !== index) await setPosition(id, index);
  }
  return { before: siblings.findIndex((row) => row.id === movedId), after: order.findIndex((row) => row.id === movedId) };
}

// ---------------------------------------------------------------------------------------------------------------
// Offerings
// ---------------------------------------------------------------------------------------------------------------

const linkedCategoryIds = sql<number[]>`COALESCE((
  SELECT json_agg(${qualified(offeringCategoryLinks.categoryId)} ORDER BY ${qualified(offeringCategoryLinks.categoryId)})
  FROM ${offeringCategoryLinks} WHERE ${qualified(offeringCategoryLinks.offeringId)} = ${qualified(offerings.id)}), '[]'::json)`;

function selectOfferings(db: Executor) {
  return db
    .select({ offering: offerings, companyIds: givenToCompanyIds, categoryIds: linkedCategoryIds })
    .from(offerings);
}

type OfferingRow = Awaited<ReturnType<typeof selectOfferings>>[number];

function asSummary({ offering, companyIds, categoryIds }: OfferingRow): AdminOfferingSummary {
  return {
    id: offering.id,
    slug: offering.slug,
    type: offering.type,
    provider_name: offering.providerName,
    provider_logo_url: offering.providerLogoUrl,
    heading: offering.heading,
    subheading: offering.subheading,
    name: offering.name,
    featured: offering.featured,
    published: offering.published,
    position: offering.position,
    category_ids: categoryIds,
    company_ids: companyIds,
    help:
      offering.requestSurveyCta === null || offering.requestSurveyId === null || offering.requestSurveyName === null
        ? null
        : { cta: offering.requestSurveyCta, request_survey_id: offering.requestSurveyId, request_survey_name: offering.requestSurveyName },
    created_at: offering.createdAt.toISOString(),
  };
}

/** What the audit log records of an offering: what an admin sets, sections without their row ids. */
function auditedFieldsOf(offering: AdminOffering): AuditedFields {
  const { id: _id, created_at: _created, position: _position, featured: _featured, published: _published, sections, ...fields } = offering;
  return { ...fields, sections: sections.map(({ id: _section, ...section }) => section) };
}

export async function listAdminOfferings(db: Executor): Promise<AdminOfferingSummary[]> {
  const rows = await selectOfferings(db).orderBy(asc(offerings.type), asc(offerings.position), asc(offerings.id));
  return rows.map(asSummary);
}

export async function findAdminOffering(db: Executor, offeringId: number): Promise<AdminOffering> {
  const [row] = await selectOfferings(db).where(eq(offerings.id, offeringId));
  if (!row) throw notFound(OFFERING_NOT_FOUND_ERROR);
  return { ...asSummary(row), sections: await sectionsOf(db, offeringId) };
}

/** Locks the offering's row for the rest of the transaction, so that its audit tells one change after another. */
async function lockOffering(tx: Executor, offeringId: number) {
  const [row] = await tx.select({ id: offerings.id }).from(offerings).where(eq(offerings.id, offeringId)).for('update');
  if (!row) throw notFound(OFFERING_NOT_FOUND_ERROR);
}

/** A 422 on the first id of `ids` (at `field`.index) that `existing` does not hold. */
function refuseUnknown(ids: readonly number[], existing: ReadonlyArray<{ id: number }>, field: string, message: string) {
  const index = ids.findIndex((id) => !existing.some((row) => row.id === id));
  if (index >= 0) throw invalidField(`${field}.${index}`, message);
}

/** The columns of the help block: the template must exist, and its name goes with the offering. */
async function helpColumns(tx: Executor, help: NewOffering['help']) {
  if (help === null) return { requestSurveyCta: null, requestSurveyId: null, requestSurveyName: null };
  const [template] = await tx
    .select({ name: requestSurveys.name })
    .from(requestSurveys)
    .where(eq(requestSurveys.id, help.request_survey_id))
    .for('share');
  if (!template) throw invalidField('help.request_survey_id', UNKNOWN_SURVEY_ERROR);
  return { requestSurveyCta: help.cta, requestSurveyId: help.request_survey_id, requestSurveyName: template.name };
}

async function replaceCompanies(tx: Executor, offeringId: number, companyIds: readonly number[]) {
  // Shared locks: a company cannot vanish before the benefit given to it is committed.
  const known = companyIds.length === 0 ? [] : await tx.select({ id: companies.id }).from(companies).where(inArray(companies.id, [...companyIds])).for('share');
  refuseUnknown(companyIds, known, 'company_ids', UNKNOWN_COMPANY_ERROR);
  await tx.delete(offeringCompanies).where(eq(offeringCompanies.offeringId, offeringId));
  if (companyIds.length > 0) await tx.insert(offeringCompanies).values(companyIds.map((companyId) => ({ offeringId, companyId })));
}

async function replaceCategories(tx: Executor, offeringId: number, categoryIds: readonly number[]) {
  const known =
    categoryIds.length === 0
      ? []
      : await tx.select({ id: offeringCategories.id }).from(offeringCategories).where(inArray(offeringCategories.id, [...categoryIds])).for('share');
  refuseUnknown(categoryIds, known, 'category_ids', UNKNOWN_CATEGORY_ERROR);
  await tx.delete(offeringCategoryLinks).where(eq(offeringCategoryLinks.offeringId, offeringId));
  if (categoryIds.length > 0) await tx.insert(offeringCategoryLinks).values(categoryIds.map((categoryId) => ({ offeringId, categoryId })));
}

/** Replaces the offering's sections (and their items, by cascade) with `sections`, in their order. */
async function replaceSections(tx: Executor, offeringId: number, sections: readonly SectionInput[]) {
  await tx.delete(offeringSections).where(eq(offeringSections.offeringId, offeringId));
  const rows = await tx
    .insert(offeringSections)
    .values(sections.map((section, position) => ({
      offeringId,
      sectionType: section.section_type,
      heading: section.heading,
      ctaText: section.cta_text,
      ctaUrl: section.cta_url,
      position,
    })))
    .returning({ id: offeringSections.id, position: offeringSections.position });
  const sectionIdAt = new Map(rows.map((row) => [row.position, row.id]));
  await tx.insert(offeringSectionItems).values(
    sections.flatMap((section, sectionPosition) =>
      section.items.map((item, position) => ({
        sectionId: sectionIdAt.get(sectionPosition) as number,
        value: item.value,
        key: 'key' in item ? item.key : null,
        externalUrl: 'external_url' in item ? item.external_url : null,
        position,
      })),
    ),
  );
}

export async function createOffering(db: Database, actorUserId: number, input: NewOffering, now = new Date()): Promise<AdminOffering> {
  return uniqueWrite(db, async (tx) => {
    const [taken] = await tx.select({ id: offerings.id }).from(offerings).where(eq(offerings.slug, input.slug));
    if (taken) throw conflict(offeringSlugTakenError(input.slug), 'slug');
    const [{ next }] = await tx
      .select({ next: sql<number>`COALESCE(MAX(${offerings.position}) + 1, 0)`.mapWith(Number) })
      .from(offerings)
      .where(eq(offerings.type, input.type));
    const [created] = await tx
      .insert(offerings)
      .values({
        slug: input.slug,
        type: input.type,
        providerName: input.provider_name,
        providerLogoUrl: input.provider_logo_url,
        heading: input.heading,
        subheading: input.subheading,
        name: input.name,
        featured: false,
        published: false,
        position: next,
        ...(await helpColumns(tx, input.help)),
        createdAt: now,
      })
      .returning({ id: offerings.id });
    await replaceCompanies(tx, created.id, input.company_ids);
    await replaceCategories(tx, created.id, input.category_ids);
    await replaceSections(tx, created.id, input.sections);
    const offering = await findAdminOffering(tx, created.id);
    await recordAudit(tx, {
      actorUserId,
      action: 'offering.create',
      subjectType: 'offering',
      subjectId: offering.id,
      changes: changedFields(null, auditedFieldsOf(offering)),
      at: now,
    });
    return offering;
  });
}

/** Changes the fields given; the lists given replace the offering's. A change that changes nothing is not audited. */
export async function updateOffering(
  db: Database,
  actorUserId: number,
  offeringId: number,
  input: UpdateOfferingRequest,
  now = new Date(),
): Promise<AdminOffering> {
  return db.transaction(async (tx) => {
    await lockOffering(tx, offeringId);
    const current = await findAdminOffering(tx, offeringId);
    if (input.company_ids !== undefined) {
      if (current.type === 'benefit' && input.company_ids.length === 0) throw invalidField('company_ids', BENEFIT_NEEDS_COMPANY_ERROR);
      if (current.type === 'product' && input.company_ids.length > 0) throw invalidField('company_ids', PRODUCT_HAS_NO_COMPANY_ERROR);
      await replaceCompanies(tx, offeringId, input.company_ids);
    }
    if (input.category_ids !== undefined) await replaceCategories(tx, offeringId, input.category_ids);
    if (input.sections !== undefined) await replaceSections(tx, offeringId, input.sections);
    const columns = {
      providerName: input.provider_name,
      providerLogoUrl: input.provider_logo_url,
      heading: input.heading,
      subheading: input.subheading,
      name: input.name,
      ...(input.help === undefined ? {} : await helpColumns(tx, input.help)),
    };
    if (givesAny(columns)) await tx.update(offerings).set(columns).where(eq(offerings.id, offeringId));
    const offering = await findAdminOffering(tx, offeringId);
    const changes = changedFields(auditedFieldsOf(current), auditedFieldsOf(offering));
    if (Object.keys(changes).length > 0) {
      await recordAudit(tx, { actorUserId, action: 'offering.update', subjectType: 'offering', subjectId: offeringId, changes, at: now });
    }
    return offering;
  });
}

const offeringFlags = {
  featured: { on: 'offering.feature', off: 'offering.unfeature' },
  published: { on: 'offering.publish', off: 'offering.unpublish' },
} as const;

/** Features or publishes (or undoes it); asking for the state it is in changes nothing. */
export async function setOfferingFlag(
  db: Database,
  actorUserId: number,
  offeringId: number,
  flag: keyof typeof offeringFlags,
  value: boolean,
  now = new Date(),
): Promise<AdminOffering> {
  return db.transaction(async (tx) => {
    await lockOffering(tx, offeringId);
    const current = await findAdminOffering(tx, offeringId);
    if (current[flag] !== value) {
      await tx.update(offerings).set({ [flag]: value }).where(eq(offerings.id, offeringId));
      await recordSwitch(tx, { actorUserId, actions: offeringFlags[flag], subjectType: 'offering', subjectId: offeringId, field: flag, value, at: now });
    }
    return findAdminOffering(tx, offeringId);
  });
}

/** Puts the offering at `position` among those of its type, renumbering them 0, 1, 2... */
export async function moveOffering(db: Database, actorUserId: number, offeringId: number, position: number, now = new Date()): Promise<AdminOffering> {
  return db.transaction(async (tx) => {
    await lockOffering(tx, offeringId);
    const { type } = await findAdminOffering(tx, offeringId);
    const siblings = await tx
      .select({ id: offerings.id, position: offerings.position })
      .from(offerings)
      .where(eq(offerings.type, type))
      .orderBy(asc(offerings.position), asc(offerings.id))
      .for('update');
    const { before, after } = await placeAt(siblings, offeringId, position, (id, index) =>
      tx.update(offerings).set({ position: index }).where(eq(offerings.id, id)),
    );
    if (after !== before) {
      await recordAudit(tx, { actorUserId, action: 'offering.move', subjectType: 'offering', subjectId: offeringId, changes: { position: { before, after } }, at: now });
    }
    return findAdminOffering(tx, offeringId);
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Offering categories
// ---------------------------------------------------------------------------------------------------------------

const categoryFields = {
  id: offeringCategories.id,
  external_id: offeringCategories.externalId,
  name: offeringCategories.name,
  image_url: offeringCategories.imageUrl,
  image_upload_key: offeringCategories.imageUploadKey,
  position: offeringCategories.position,
  offering_count: sql<number>`(
    SELECT count(*) FROM ${offeringCategoryLinks} WHERE ${qualified(offeringCategoryLinks.categoryId)} = ${qualified(offeringCategories.id)})`.mapWith(Number),
};

function categoryAuditedFields({ external_id, name, image_upload_key }: AdminOfferingCategory): AuditedFields {
  return { external_id, name, image_upload_key };
}

export async function listAdminOfferingCategories(db: Executor): Promise<AdminOfferingCategory[]> {
  return db.select(categoryFields).from(offeringCategories).orderBy(asc(offeringCategories.position), asc(offeringCategories.id));
}

export async function findAdminOfferingCategory(db: Executor, categoryId: number): Promise<AdminOfferingCategory> {
  const [row] = await db.select(categoryFields).from(offeringCategories).where(eq(offeringCategories.id, categoryId));
  if (!row) throw notFound(OFFERING_CATEGORY_NOT_FOUND_ERROR);
  return row;
}

async function lockOfferingCategory(tx: Executor, categoryId: number): Promise<AdminOfferingCategory> {
  const [row] = await tx.select({ id: offeringCategories.id }).from(offeringCategories).where(eq(offeringCategories.id, categoryId)).for('update');
  if (!row) throw notFound(OFFERING_CATEGORY_NOT_FOUND_ERROR);
  return findAdminOfferingCategory(tx, categoryId);
}

/** A 409 on the field whose value another category has. */
async function refuseCategoryClashes(tx: Executor, categoryId: number | null, input: UpdateOfferingCategoryRequest) {
  const other = categoryId === null ? undefined : ne(offeringCategories.id, categoryId);
  for (const [field, column] of [['external_id', offeringCategories.externalId], ['name', offeringCategories.name]] as const) {
    const value = input[field];
    if (value === undefined) continue;
    const [owner] = await tx.select({ id: offeringCategories.id }).from(offeringCategories).where(and(eq(column, value), other));
    if (owner) throw conflict(categoryFieldTakenError(value), field);
  }
}

export async function createOfferingCategory(
  db: Database,
  storage: FileStorage,
  actorUserId: number,
  input: CreateOfferingCategoryRequest,
  now = new Date(),
): Promise<AdminOfferingCategory> {
  const image = await catalogueImageColumns(db, storage, actorUserId, input.image_upload_key);
  return uniqueWrite(db, async (tx) => {
    await refuseCategoryClashes(tx, null, input);
    const [{ next }] = await tx
      .select({ next: sql<number>`COALESCE(MAX(${offeringCategories.position}) + 1, 0)`.mapWith(Number) })
      .from(offeringCategories);
    const [created] = await tx
      .insert(offeringCategories)
      .values({ externalId: input.external_id, name: input.name, ...image, position: next })
      .returning({ id: offeringCategories.id });
    const category = await findAdminOfferingCategory(tx, created.id);
    await recordAudit(tx, {
      actorUserId,
      action: 'offering_category.create',
      subjectType: 'offering_category',
      subjectId: category.id,
      changes: changedFields(null, categoryAuditedFields(category)),
      at: now,
    });
    return category;
  });
}

export async function updateOfferingCategory(
  db: Database,
  storage: FileStorage,
  actorUserId: number,
  categoryId: number,
  input: UpdateOfferingCategoryRequest,
  now = new Date(),
): Promise<AdminOfferingCategory> {
  const image = input.image_upload_key === undefined ? {} : await catalogueImageColumns(db, storage, actorUserId, input.image_upload_key);
  return uniqueWrite(db, async (tx) => {
    const current = await lockOfferingCategory(tx, categoryId);
    await refuseCategoryClashes(tx, categoryId, input);
    const columns = { externalId: input.external_id, name: input.name, ...image };
    if (givesAny(columns)) await tx.update(offeringCategories).set(columns).where(eq(offeringCategories.id, categoryId));
    const category = await findAdminOfferingCategory(tx, categoryId);
    const changes = changedFields(categoryAuditedFields(current), categoryAuditedFields(category));
    if (Object.keys(changes).length > 0) {
      await recordAudit(tx, { actorUserId, action: 'offering_category.update', subjectType: 'offering_category', subjectId: categoryId, changes, at: now });
    }
    return category;
  });
}

/** Puts the category at `position` in the filter bar, renumbering them all 0, 1, 2... */
export async function moveOfferingCategory(
  db: Database,
  actorUserId: number,
  categoryId: number,
  position: number,
  now = new Date(),
): Promise<AdminOfferingCategory> {
  return db.transaction(async (tx) => {
    await lockOfferingCategory(tx, categoryId);
    const all = await tx
      .select({ id: offeringCategories.id, position: offeringCategories.position })
      .from(offeringCategories)
      .orderBy(asc(offeringCategories.position), asc(offeringCategories.id))
      .for('update');
    const { before, after } = await placeAt(all, categoryId, position, (id, index) =>
      tx.update(offeringCategories).set({ position: index }).where(eq(offeringCategories.id, id)),
    );
    if (after !== before) {
      await recordAudit(tx, {
        actorUserId,
        action: 'offering_category.move',
        subjectType: 'offering_category',
        subjectId: categoryId,
        changes: { position: { before, after } },
        at: now,
      });
    }
    return findAdminOfferingCategory(tx, categoryId);
  });
}
