import { readFileSync, readdirSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { PREFILL_TYPES, QUESTION_TYPES, selectOption } from '../../../src/contract/surveys.ts';
import type { Database } from '../client.ts';
import { questionPrefill, requestSurveys, surveyCategories, surveyQuestions } from '../surveys.schema.ts';

const slug = z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/);

const catalogueQuestion = z
  .object({
    label: z.string().trim().min(1).max(200),
    type: z.enum(QUESTION_TYPES),
    optional: z.boolean().default(false),
    prefill: z.enum(questionPrefill.enumValues).optional(),
    select_options: z.array(selectOption).min(2).optional(),
  })
  .strict()
  .check((context) => {
    const { type, prefill, select_options: options } = context.value;
    if ((type === 'SingleSelectInput') !== (options !== undefined)) {
      context.issues.push({ code: 'custom', input: context.value, message: 'select_options belong to, and only to, a SingleSelectInput' });
    }
    if (options && new Set(options.map((option) => option.value)).size !== options.length) {
      context.issues.push({ code: 'custom', input: context.value, message: 'select_options values must be unique' });
    }
    if (prefill && PREFILL_TYPES[prefill] !== type) {
      context.issues.push({ code: 'custom', input: context.value, message: `prefill ${prefill} needs a ${PREFILL_TYPES[prefill]}` });
    }
  });

const catalogueFile = z
  .object({
    /** Null for templates outside every category (the onboarding intro). */
    category: z
      .object({ id: z.number().int().positive(), slug, name: z.string().min(1), image_url: z.string().startsWith('/') })
      .strict()
      .nullable(),
    request_surveys: z.array(
      z
        .object({
          id: z.number().int().positive(),
          slug,
          name: z.string().trim().min(1).max(120),
          for_alpha: z.boolean(),
          questions: z.array(catalogueQuestion).min(3).max(7),
        })
        .strict(),
    ),
  })
  .strict();

export type CatalogueFile = z.infer<typeof catalogueFile>;
export type CatalogueTemplate = CatalogueFile['request_surveys'][number];

const catalogueDirectory = new URL('./surveys/', import.meta.url);

function requireUnique(values: readonly (string | number)[], what: string) {
  const seen = new Set<string | number>();
  for (const value of values) {
    if (seen.has(value)) throw new Error(`Survey catalogue: duplicate ${what} ${value}`);
    seen.add(value);
  }
}

/**
 * The survey catalogue: every JSON file of server/db/seed/surveys/, one per category (plus one for templates
 * without a category), validated, in category id order. Throws on any malformed file or duplicate id or slug.
 */
export function readSurveyCatalogue(): CatalogueFile[] {
  const files = readdirSync(catalogueDirectory)
    .filter((name) => name.endsWith('.json'))
    .map((name) => {
      const parsed = catalogueFile.safeParse(JSON.parse(readFileSync(new URL(name, catalogueDirectory), 'utf8')));
      if (!parsed.success) throw new Error(`Survey catalogue ${name}: ${z.prettifyError(parsed.error)}`);
      return parsed.data;
    });
  const categories = files.flatMap((file) => (file.category ? [file.category] : []));
  const templates = files.flatMap((file) => file.request_surveys);
  requireUnique(categories.map((category) => category.id), 'category id');
  requireUnique(categories.map((category) => category.slug), 'category slug');
  requireUnique(templates.map((template) => template.id), 'request survey id');
  requireUnique(templates.map((template) => template.slug), 'request survey slug');
  return files.sort((a, b) => (a.category?.id ?? Number.MAX_SAFE_INTEGER) - (b.category?.id ?? Number.MAX_SAFE_INTEGER));
}

/** Lets later rows (added by staff) take ids after the catalogue's explicit ones. */
async function bumpIdSequence(db: Pick<Database, 'execute'>, table: 'survey_categories' | 'request_surveys') {
  await db.execute(
    sql`select setval(pg_get_serial_sequence(${table}, 'id'), (select coalesce(max(id), 1) from ${sql.identifier(table)}))`,
  );
}

/**
 * Loads the survey catalogue into empty catalogue tables. It is product content, so this runs at every start in
 * every environment, production included; once loaded it is left alone. Returns whether it loaded.
 */
export async function seedSurveyCatalogue(db: Database): Promise<boolean> {
  const [[anyCategory], [anyTemplate]] = await Promise.all([
    db.select({ id: surveyCategories.id }).from(surveyCategories).limit(1),
    db.select({ id: requestSurveys.id }).from(requestSurveys).limit(1),
  ]);
  if (anyCategory || anyTemplate) return false;

  const files = readSurveyCatalogue();
  const categories = files.flatMap((file) => (file.category ? [file.category] : []));
  return db.transaction(async (tx) => {
    const inserted = await tx
      .insert(surveyCategories)
      .values(categories.map(({ id, slug: categorySlug, name, image_url }) => ({ id, slug: categorySlug, name, imageUrl: image_url })))
      // Another process loading at the same moment: its rows stand, this one stops.
      .onConflictDoNothing()
      .returning({ id: surveyCategories.id });
    if (inserted.length < categories.length) return false;

    await tx.insert(requestSurveys).values(
      files.flatMap((file) =>
        file.request_surveys.map((template, position) => ({
          id: template.id,
          slug: template.slug,
          name: template.name,
          categoryId: file.category?.id ?? null,
          forAlpha: template.for_alpha,
          position,
        })),
      ),
    );
    await tx.insert(surveyQuestions).values(
      files.flatMap((file) =>
        file.request_surveys.flatMap((template) =>
          template.questions.map((question, position) => ({
            requestSurveyId: template.id,
            position,
            label: question.label,
            type: question.type,
            optional: question.optional,
            prefill: question.prefill ?? null,
            selectOptions: question.select_options ?? null,
          })),
        ),
      ),
    );
    await bumpIdSequence(tx, 'survey_categories');
    await bumpIdSequence(tx, 'request_surveys');
    return true;
  });
}
