import { and, asc, count, eq, isNull, ne, sql } from 'drizzle-orm';
import type {
  AdminQuestion,
  AdminSurveyCategory,
  AdminTemplate,
  AdminTemplateSummary,
  CreateSurveyCategoryRequest,
  NewQuestion,
  NewTemplate,
  UpdateSurveyCategoryRequest,
  UpdateTemplateRequest,
} from '../../../src/contract/adminCatalogue.ts';
import type { FileStorage } from '../ports/fileStorage.ts';
import { type Database, type Executor, qualified } from '../../db/client.ts';
import { offerings } from '../../db/offerings.schema.ts';
import { requestSurveys, surveyCategories, surveyQuestions, userRequestSurveys } from '../../db/surveys.schema.ts';
import { givesAny, uniqueWrite } from './adminWrites.ts';
import { type AuditedFields, changedFields, recordAudit } from './audit.ts';
import { catalogueImageColumns } from '../catalogue/catalogueImages.ts';
import { conflict, invalidField, notFound } from '../shared/userFacingError.ts';

/*
 * Survey categories and request templates in the console's admin area (issue 13). Every write runs in one
 * transaction with its audit entry.
 *
 * Versioning: an answer points at a question by id, and a session reads the questions of the template version it
 * began on (user_request_surveys.template_version). A version's questions are never changed once a session has
 * begun on it: replacing them then makes the next version, which new sessions get, while begun sessions keep
 * theirs, with their answers, readable and complete. While no session has begun on it, a version is replaced in place.
 */

export const SURVEY_CATEGORY_NOT_FOUND_ERROR = 'Survey category not found';
export const TEMPLATE_NOT_FOUND_ERROR = 'Request template not found';
export const UNKNOWN_SURVEY_CATEGORY_ERROR = 'There is no such survey category';
export const surveySlugTakenError = (slug: string) => `The slug "${slug}" is already used.`;

// ---------------------------------------------------------------------------------------------------------------
// Categories
// ---------------------------------------------------------------------------------------------------------------

const categoryFields = {
  id: surveyCategories.id,
  slug: surveyCategories.slug,
  name: surveyCategories.name,
  image_url: surveyCategories.imageUrl,
  image_upload_key: surveyCategories.imageUploadKey,
  template_count: sql<number>`(
    SELECT count(*) FROM ${requestSurveys} WHERE ${qualified(requestSurveys.categoryId)} = ${qualified(surveyCategories.id)})`.mapWith(Number),
};

function categoryAuditedFields({ slug, name, image_upload_key }: AdminSurveyCategory): AuditedFields {
  return { slug, name, image_upload_key };
}

export async function listAdminSurveyCategories(db: Executor): Promise<AdminSurveyCategory[]> {
  return db.select(categoryFields).from(surveyCategories).orderBy(asc(surveyCategories.id));
}

async function findAdminSurveyCategory(db: Executor, categoryId: number): Promise<AdminSurveyCategory> {
  const [row] = await db.select(categoryFields).from(surveyCategories).where(eq(surveyCategories.id, categoryId));
  if (!row) throw notFound(SURVEY_CATEGORY_NOT_FOUND_ERROR);
  return row;
}

async function refuseCategorySlugClash(tx: Executor, categoryId: number | null, slug: string | undefined) {
  if (slug === undefined) return;
  const other = categoryId === null ? undefined : ne(surveyCategories.id, categoryId);
  const [owner] = await tx.select({ id: surveyCategories.id }).from(surveyCategories).where(and(eq(surveyCategories.slug, slug), other));
  if (owner) throw conflict(surveySlugTakenError(slug), 'slug');
}

export async function createSurveyCategory(
  db: Database,
  storage: FileStorage,
  actorUserId: number,
  input: CreateSurveyCategoryRequest,
  now = new Date(),
): Promise<AdminSurveyCategory> {
  const image = await catalogueImageColumns(db, storage, actorUserId, input.image_upload_key);
  return uniqueWrite(db, async (tx) => {
    await refuseCategorySlugClash(tx, null, input.slug);
    const [created] = await tx.insert(surveyCategories).values({ slug: input.slug, name: input.name, ...image, createdAt: now }).returning({ id: surveyCategories.id });
    const category = await findAdminSurveyCategory(tx, created.id);
    await recordAudit(tx, {
      actorUserId,
      action: 'survey_category.create',
      subjectType: 'survey_category',
      subjectId: category.id,
      changes: changedFields(null, categoryAuditedFields(category)),
      at: now,
    });
    return category;
  });
}

export async function updateSurveyCategory(
  db: Database,
  storage: FileStorage,
  actorUserId: number,
  categoryId: number,
  input: UpdateSurveyCategoryRequest,
  now = new Date(),
): Promise<AdminSurveyCategory> {
  const image = input.image_upload_key === undefined ? {} : await catalogueImageColumns(db, storage, actorUserId, input.image_upload_key);
  return uniqueWrite(db, async (tx) => {
    const [locked] = await tx.select({ id: surveyCategories.id }).from(surveyCategories).where(eq(surveyCategories.id, categoryId)).for('update');
    if (!locked) throw notFound(SURVEY_CATEGORY_NOT_FOUND_ERROR);
    const current = await findAdminSurveyCategory(tx, categoryId);
    await refuseCategorySlugClash(tx, categoryId, input.slug);
    const columns = { slug: input.slug, name: input.name, ...image };
    if (givesAny(columns)) await tx.update(surveyCategories).set(columns).where(eq(surveyCategories.id, categoryId));
    const category = await findAdminSurveyCategory(tx, categoryId);
    const changes = changedFields(categoryAuditedFields(current), categoryAuditedFields(category));
    if (Object.keys(changes).length > 0) {
      await recordAudit(tx, { actorUserId, action: 'survey_category.update', subjectType: 'survey_category', subjectId: categoryId, changes, at: now });
    }
    return category;
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Templates and their questions
// ---------------------------------------------------------------------------------------------------------------

const templateFields = {
  id: requestSurveys.id,
  slug: requestSurveys.slug,
  name: requestSurveys.name,
  for_alpha: requestSurveys.forAlpha,
  category_id: requestSurveys.categoryId,
  version: requestSurveys.version,
  createdAt: requestSurveys.createdAt,
};

type TemplateRow = { createdAt: Date } & Omit<AdminTemplateSummary, 'created_at'>;

function asSummary({ createdAt, ...template }: TemplateRow): AdminTemplateSummary {
  return { ...template, created_at: createdAt.toISOString() };
}

function templateAuditedFields({ slug, name, for_alpha, category_id }: AdminTemplateSummary): AuditedFields {
  return { slug, name, for_alpha, category_id };
}

/** How a list of questions reads in the audit log and compares with another: without ids. */
function questionsContent(questions: readonly AdminQuestion[]) {
  return questions.map(({ id: _id, ...question }) => question);
}

export async function listAdminTemplates(db: Executor): Promise<AdminTemplateSummary[]> {
  const rows = await db
    .select(templateFields)
    .from(requestSurveys)
    .orderBy(sql`${requestSurveys.categoryId} NULLS LAST`, asc(requestSurveys.position), asc(requestSurveys.id));
  return rows.map(asSummary);
}

/** The template with the questions of its current version, in order. */
export async function findAdminTemplate(db: Executor, templateId: number): Promise<AdminTemplate> {
  const [row] = await db.select(templateFields).from(requestSurveys).where(eq(requestSurveys.id, templateId));
  if (!row) throw notFound(TEMPLATE_NOT_FOUND_ERROR);
  const questions = await db
    .select({
      id: surveyQuestions.id,
      label: surveyQuestions.label,
      type: surveyQuestions.type,
      optional: surveyQuestions.optional,
      prefill: surveyQuestions.prefill,
      select_options: surveyQuestions.selectOptions,
    })
    .from(surveyQuestions)
    .where(and(eq(surveyQuestions.requestSurveyId, templateId), eq(surveyQuestions.version, row.version)))
    .orderBy(asc(surveyQuestions.position));
  return { ...asSummary(row), questions };
}

/**
 * Locks the template's row for the rest of the transaction: a session cannot begin meanwhile (beginSurvey shares
 * the lock), so what the transaction sees of its sessions stays true until it commits.
 */
async function lockTemplate(tx: Executor, templateId: number): Promise<AdminTemplate> {
  const [row] = await tx.select({ id: requestSurveys.id }).from(requestSurveys).where(eq(requestSurveys.id, templateId)).for('update');
  if (!row) throw notFound(TEMPLATE_NOT_FOUND_ERROR);
  return findAdminTemplate(tx, templateId);
}

async function refuseTemplateSlugClash(tx: Executor, templateId: number | null, slug: string | undefined) {
  if (slug === undefined) return;
  const other = templateId === null ? undefined : ne(requestSurveys.id, templateId);
  const [owner] = await tx.select({ id: requestSurveys.id }).from(requestSurveys).where(and(eq(requestSurveys.slug, slug), other));
  if (owner) throw conflict(surveySlugTakenError(slug), 'slug');
}

/** The next place in a category (or among the templates of none): the end. */
async function lastPositionIn(tx: Executor, categoryId: number | null): Promise<number> {
  if (categoryId !== null) {
    const [category] = await tx.select({ id: surveyCategories.id }).from(surveyCategories).where(eq(surveyCategories.id, categoryId)).for('share');
    if (!category) throw invalidField('category_id', UNKNOWN_SURVEY_CATEGORY_ERROR);
  }
  const [{ next }] = await tx
    .select({ next: sql<number>`COALESCE(MAX(${requestSurveys.position}) + 1, 0)`.mapWith(Number) })
    .from(requestSurveys)
    .where(categoryId === null ? isNull(requestSurveys.categoryId) : eq(requestSurveys.categoryId, categoryId));
  return next;
}

async function insertQuestions(tx: Executor, templateId: number, version: number, questions: readonly NewQuestion[]) {
  await tx.insert(surveyQuestions).values(
    questions.map((question, position) => ({
      requestSurveyId: templateId,
      version,
      position,
      label: question.label,
      type: question.type,
      optional: question.optional,
      prefill: question.prefill,
      selectOptions: question.select_options,
    })),
  );
}

export async function createTemplate(db: Database, actorUserId: number, input: NewTemplate, now = new Date()): Promise<AdminTemplate> {
  return uniqueWrite(db, async (tx) => {
    await refuseTemplateSlugClash(tx, null, input.slug);
    const position = await lastPositionIn(tx, input.category_id);
    const [created] = await tx
      .insert(requestSurveys)
      .values({ slug: input.slug, name: input.name, forAlpha: input.for_alpha, categoryId: input.category_id, position, createdAt: now })
      .returning({ id: requestSurveys.id, version: requestSurveys.version });
    await insertQuestions(tx, created.id, created.version, input.questions);
    const template = await findAdminTemplate(tx, created.id);
    await recordAudit(tx, {
      actorUserId,
      action: 'survey_template.create',
      subjectType: 'survey_template',
      subjectId: template.id,
      changes: changedFields(null, { ...templateAuditedFields(template), questions: questionsContent(template.questions) }),
      at: now,
    });
    return template;
  });
}

/**
 * Changes the fields given. A template moved to another category goes last there. A rename also renames the help
 * requests of the offerings that start it, which carry its name.
 */
export async function updateTemplate(
  db: Database,
  actorUserId: number,
  templateId: number,
  input: UpdateTemplateRequest,
  now = new Date(),
): Promise<AdminTemplate> {
  return uniqueWrite(db, async (tx) => {
    const current = await lockTemplate(tx, templateId);
    await refuseTemplateSlugClash(tx, templateId, input.slug);
    const movesCategory = input.category_id !== undefined && input.category_id !== current.category_id;
    const columns = {
      slug: input.slug,
      name: input.name,
      forAlpha: input.for_alpha,
      ...(movesCategory ? { categoryId: input.category_id, position: await lastPositionIn(tx, input.category_id ?? null) } : {}),
    };
    if (givesAny(columns)) await tx.update(requestSurveys).set(columns).where(eq(requestSurveys.id, templateId));
    if (input.name !== undefined && input.name !== current.name) {
      await tx.update(offerings).set({ requestSurveyName: input.name }).where(eq(offerings.requestSurveyId, templateId));
    }
    const template = await findAdminTemplate(tx, templateId);
    const changes = changedFields(templateAuditedFields(current), templateAuditedFields(template));
    if (Object.keys(changes).length > 0) {
      await recordAudit(tx, { actorUserId, action: 'survey_template.update', subjectType: 'survey_template', subjectId: templateId, changes, at: now });
    }
    return template;
  });
}

/**
 * Replaces the questions of the template's current version, or, once a session has begun on it, makes them the
 * next version (see the versioning note above). The same list again changes nothing.
 */
export async function replaceQuestions(
  db: Database,
  actorUserId: number,
  templateId: number,
  questions: readonly NewQuestion[],
  now = new Date(),
): Promise<AdminTemplate> {
  return db.transaction(async (tx) => {
    const current = await lockTemplate(tx, templateId);
    const before = questionsContent(current.questions);
    const after = questions.map(({ label, type, optional, prefill, select_options }) => ({ label, type, optional, prefill, select_options }));
    if (JSON.stringify(before) === JSON.stringify(after)) return current;

    const [{ begun }] = await tx
      .select({ begun: count() })
      .from(userRequestSurveys)
      .where(and(eq(userRequestSurveys.requestSurveyId, templateId), eq(userRequestSurveys.templateVersion, current.version)));
    const version = begun > 0 ? current.version + 1 : current.version;
    if (version === current.version) {
      await tx.delete(surveyQuestions).where(and(eq(surveyQuestions.requestSurveyId, templateId), eq(surveyQuestions.version, version)));
    } else {
      await tx.update(requestSurveys).set({ version }).where(eq(requestSurveys.id, templateId));
    }
    await insertQuestions(tx, templateId, version, questions);
    await recordAudit(tx, {
      actorUserId,
      action: 'survey_template.questions_replace',
      subjectType: 'survey_template',
      subjectId: templateId,
      changes: changedFields({ version: current.version, questions: before }, { version, questions: after }),
      at: now,
    });
    return findAdminTemplate(tx, templateId);
  });
}
