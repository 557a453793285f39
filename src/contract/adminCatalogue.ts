import * as z from 'zod/mini';
import { COMPANY_SLUG_ERROR, COMPANY_SLUG_PATTERN } from './admin.ts';
import { dbId } from './common.ts';
import { LINK_ITEM_KEYS, OFFERING_TYPES, offeringSection } from './offerings.ts';
import { PREFILL_TYPES, QUESTION_PREFILLS, QUESTION_TYPES, selectOption } from './surveys.ts';

/**
 * The catalogue in the console's admin area (issue 13), under /api/v1/admin: offerings with their sections, offering
 * categories, survey categories and request templates with their questions. As in src/contract/admin.ts every route
 * needs a signed-in admin (401 a visitor, 403 an employee or concierge), errors are `errorBody` (404 an unknown
 * record, 409 a clash with `fields` naming the field, 422 bad input with every bad field in `fields`), and every
 * write is recorded in the audit log in the same transaction as the change: a refused write changes nothing.
 */

const requiredText = (max: number) => z.string().check(z.trim(), z.minLength(1, 'Please fill this in'), z.maxLength(max));
const slug = z.string().check(z.trim(), z.maxLength(80), z.regex(COMPANY_SLUG_PATTERN, COMPANY_SLUG_ERROR));
const distinctIds = z.array(dbId).check(
  z.maxLength(500),
  z.refine((ids) => new Set(ids).size === ids.length, 'List each one once'),
);
/** The key of an image the admin uploaded through POST /api/v1/uploads/presigned_url (no request_id). */
const imageUploadKey = z.string().check(z.minLength(1), z.maxLength(200));

/** An address on this site (a file under public/) or a web address. */
export const IMAGE_URL_PATTERN = /^(\/|https:\/\/)\S+$/;
export const IMAGE_URL_ERROR = 'Enter an address starting with / or https://';
export const WEB_URL_PATTERN = /^https:\/\/\S+$/;
export const WEB_URL_ERROR = 'Enter a web address starting with https://';
const webUrl = z.string().check(z.trim(), z.maxLength(2000), z.regex(WEB_URL_PATTERN, WEB_URL_ERROR));

// ---------------------------------------------------------------------------------------------------------------
// Offerings
// ---------------------------------------------------------------------------------------------------------------

export const SECTION_CTA_ERROR = 'Give both the link text and its address, or neither';
export const DOWNLOAD_NEEDS_URL_ERROR = 'A download row needs the address of its file';
export const PLAIN_KEY_URL_ERROR = `Only ${LINK_ITEM_KEYS.join(', ')} rows are links`;
export const BENEFIT_NEEDS_COMPANY_ERROR = 'Give the benefit to at least one company';
export const PRODUCT_HAS_NO_COMPANY_ERROR = 'A partner offer is for everyone: give it to no company';

const plainItem = z.object({ value: requiredText(1000) });
const linkKeys: readonly string[] = LINK_ITEM_KEYS;
/** phone, email, download and link rows render as links; any other key is a plain label (SPEC §2 drawer). */
const keyValueItem = z
  .object({ key: requiredText(60), value: requiredText(1000), external_url: z._default(z.nullable(webUrl), null) })
  .check(
    z.refine((item) => item.key !== 'download' || item.external_url !== null, { message: DOWNLOAD_NEEDS_URL_ERROR, path: ['external_url'] }),
    z.refine((item) => linkKeys.includes(item.key) || item.external_url === null, { message: PLAIN_KEY_URL_ERROR, path: ['external_url'] }),
  );

const sectionCta = { cta_text: z._default(z.nullable(requiredText(120)), null), cta_url: z._default(z.nullable(webUrl), null) };
const heading = requiredText(200);
const SECTION_ITEMS_MAX = 50;

/**
 * A section of an offering, by type (SPEC §3 Section): numbered (an ordered list), key_value (rows), text (its one
 * paragraph, as the drawer shows the first item only). The call-to-action link is optional: text and address together.
 */
export const sectionInput = z
  .discriminatedUnion('section_type', [
    z.object({ section_type: z.literal('numbered'), heading, items: z.array(plainItem).check(z.minLength(1), z.maxLength(SECTION_ITEMS_MAX)), ...sectionCta }),
    z.object({ section_type: z.literal('key_value'), heading, items: z.array(keyValueItem).check(z.minLength(1), z.maxLength(SECTION_ITEMS_MAX)), ...sectionCta }),
    z.object({ section_type: z.literal('text'), heading, items: z.tuple([plainItem]), ...sectionCta }),
  ])
  .check(z.refine((section) => (section.cta_text === null) === (section.cta_url === null), { message: SECTION_CTA_ERROR, path: ['cta_url'] }));
export type SectionInput = z.infer<typeof sectionInput>;

/** The help block (SPEC §2): its button text and the request template the button starts, which must exist. */
const helpInput = z.object({ cta: requiredText(120), request_survey_id: dbId });

const offeringFields = {
  provider_name: requiredText(120),
  provider_logo_url: z.string().check(z.trim(), z.maxLength(2000), z.regex(IMAGE_URL_PATTERN, IMAGE_URL_ERROR)),
  heading: requiredText(120),
  subheading: requiredText(300),
  name: requiredText(200),
  /** In the filter bar's terms: ids of offering categories. */
  category_ids: distinctIds,
  /** Benefits only: the companies whose employees see it (one at least); a partner offer names none. */
  company_ids: distinctIds,
  help: z.nullable(helpInput),
  /** In display order; the whole list, each time. */
  sections: z.array(sectionInput).check(z.minLength(1, 'Add at least one section'), z.maxLength(30)),
};

/**
 * POST /api/v1/admin/offerings -> 201 adminOfferingResponse. A new offering is a draft (unpublished, not featured),
 * placed last among its type. A slug already used is a 409 on `slug`; an unknown company, category or request
 * template a 422 on its field.
 */
export const createOfferingRequest = z
  .object({
    slug,
    type: z.enum(OFFERING_TYPES),
    ...offeringFields,
    category_ids: z._default(distinctIds, []),
    company_ids: z._default(distinctIds, []),
    help: z._default(z.nullable(helpInput), null),
  })
  .check(
    z.refine((offering) => offering.type !== 'benefit' || offering.company_ids.length > 0, { message: BENEFIT_NEEDS_COMPANY_ERROR, path: ['company_ids'] }),
    z.refine((offering) => offering.type !== 'product' || offering.company_ids.length === 0, { message: PRODUCT_HAS_NO_COMPANY_ERROR, path: ['company_ids'] }),
  );
export type CreateOfferingRequest = z.input<typeof createOfferingRequest>;
export type NewOffering = z.infer<typeof createOfferingRequest>;

/**
 * PATCH /api/v1/admin/offerings/{id} -> adminOfferingResponse: only the fields given change; `category_ids`,
 * `company_ids` and `sections` replace the whole list (sections are thus added, edited, reordered and removed with
 * the offering). Slug and type stay. A published offering's change shows on employees' next load.
 */
export const updateOfferingRequest = z.partial(z.object(offeringFields));
export type UpdateOfferingRequest = z.infer<typeof updateOfferingRequest>;

/**
 * POST .../{id}/move { position } -> the moved record: puts it at this 0-based place in its list (offerings: among
 * those of its type), the others keeping their order; a place past the end puts it last.
 */
export const moveRequest = z.object({ position: z.number().check(z.int(), z.minimum(0), z.maximum(10_000)) });
export type MoveRequest = z.infer<typeof moveRequest>;

/*
 * POST /api/v1/admin/offerings/{id}/feature, .../unfeature, .../publish, .../unpublish (no body) ->
 * adminOfferingResponse. Only a published offering is shown to employees. Asking for the state it is in changes nothing.
 */

const offeringSummaryShape = {
  id: z.number().check(z.int()),
  slug: z.string(),
  type: z.enum(OFFERING_TYPES),
  provider_name: z.string(),
  provider_logo_url: z.string(),
  heading: z.string(),
  subheading: z.string(),
  name: z.string(),
  featured: z.boolean(),
  published: z.boolean(),
  /** Orders the offerings of its type, lowest first; not always 0, 1, 2... (a move renumbers them so). */
  position: z.number().check(z.int()),
  category_ids: z.array(z.number().check(z.int())),
  company_ids: z.array(z.number().check(z.int())),
  /** The template's name is kept with the offering: it is what the help button's request is named. */
  help: z.nullable(z.object({ cta: z.string(), request_survey_id: z.number().check(z.int()), request_survey_name: z.string() })),
  created_at: z.string(),
};
export const adminOfferingSummary = z.object(offeringSummaryShape);
export type AdminOfferingSummary = z.infer<typeof adminOfferingSummary>;
export const adminOffering = z.object({ ...offeringSummaryShape, sections: z.array(offeringSection) });
export type AdminOffering = z.infer<typeof adminOffering>;

/** GET /api/v1/admin/offerings: every offering, published or not: benefits, then partner offers, each in order. */
export const adminOfferingsResponse = z.object({ offerings: z.array(adminOfferingSummary) });
export type AdminOfferingsResponse = z.infer<typeof adminOfferingsResponse>;
/** GET /api/v1/admin/offerings/{id} with its sections, and the answer of every change to one. */
export const adminOfferingResponse = z.object({ offering: adminOffering });
export type AdminOfferingResponse = z.infer<typeof adminOfferingResponse>;

// ---------------------------------------------------------------------------------------------------------------
// Offering categories
// ---------------------------------------------------------------------------------------------------------------

export const adminOfferingCategory = z.object({
  id: z.number().check(z.int()),
  external_id: z.string(),
  name: z.string(),
  image_url: z.string(),
  /** Set when the image was uploaded in the admin area. */
  image_upload_key: z.nullable(z.string()),
  /** Orders the filter bar, lowest first; not always 0, 1, 2... (a move renumbers them so). */
  position: z.number().check(z.int()),
  offering_count: z.number().check(z.int()),
});
export type AdminOfferingCategory = z.infer<typeof adminOfferingCategory>;

/** GET /api/v1/admin/offering_categories: in the filter bar's order. */
export const adminOfferingCategoriesResponse = z.object({ categories: z.array(adminOfferingCategory) });
export const adminOfferingCategoryResponse = z.object({ category: adminOfferingCategory });
export type AdminOfferingCategoryResponse = z.infer<typeof adminOfferingCategoryResponse>;

const offeringCategoryFields = { external_id: slug, name: requiredText(60), image_upload_key: imageUploadKey };
/**
 * POST /api/v1/admin/offering_categories -> 201, placed last; PATCH .../{id} changes the fields given; POST
 * .../{id}/move { position }. Offerings name their categories by name, so a rename shows on employees' next load.
 * The image is one the admin uploaded (422 on `image_upload_key` otherwise); a name or external_id already used is
 * a 409 on it.
 */
export const createOfferingCategoryRequest = z.object(offeringCategoryFields);
export type CreateOfferingCategoryRequest = z.infer<typeof createOfferingCategoryRequest>;
export const updateOfferingCategoryRequest = z.partial(z.object(offeringCategoryFields));
export type UpdateOfferingCategoryRequest = z.infer<typeof updateOfferingCategoryRequest>;

// ---------------------------------------------------------------------------------------------------------------
// Survey categories and request templates
// ---------------------------------------------------------------------------------------------------------------

export const adminSurveyCategory = z.object({
  id: z.number().check(z.int()),
  slug: z.string(),
  name: z.string(),
  image_url: z.string(),
  image_upload_key: z.nullable(z.string()),
  template_count: z.number().check(z.int()),
});
export type AdminSurveyCategory = z.infer<typeof adminSurveyCategory>;
/** GET /api/v1/admin/survey_categories, in the app's order. */
export const adminSurveyCategoriesResponse = z.object({ categories: z.array(adminSurveyCategory) });
export const adminSurveyCategoryResponse = z.object({ category: adminSurveyCategory });
export type AdminSurveyCategoryResponse = z.infer<typeof adminSurveyCategoryResponse>;

const surveyCategoryFields = { slug, name: requiredText(60), image_upload_key: imageUploadKey };
/** POST /api/v1/admin/survey_categories -> 201; PATCH .../{id}: the fields given. A slug already used is a 409. */
export const createSurveyCategoryRequest = z.object(surveyCategoryFields);
export type CreateSurveyCategoryRequest = z.infer<typeof createSurveyCategoryRequest>;
export const updateSurveyCategoryRequest = z.partial(z.object(surveyCategoryFields));
export type UpdateSurveyCategoryRequest = z.infer<typeof updateSurveyCategoryRequest>;

export const SELECT_OPTIONS_ERROR = 'A single select question needs two options at least, and only it has options';
export const OPTION_VALUES_ERROR = 'Give each option its own value';
export const PREFILL_TYPE_ERROR = 'This pre-fill does not fit the question type';

/**
 * A question (SPEC §3 Question item), asked in the order given. `select_options` belong to, and only to, a
 * SingleSelectInput; `prefill` takes the initial value from what the user told us, for the one type it fits.
 */
export const questionInput = z
  .object({
    label: requiredText(200),
    type: z.enum(QUESTION_TYPES),
    optional: z._default(z.boolean(), false),
    prefill: z._default(z.nullable(z.enum(QUESTION_PREFILLS)), null),
    select_options: z._default(
      z.nullable(z.array(z.object({ label: requiredText(120), value: requiredText(120) })).check(z.maxLength(50))),
      null,
    ),
  })
  .check(
    z.refine(
      (question) => (question.type === 'SingleSelectInput') === (question.select_options !== null && question.select_options.length >= 2),
      { message: SELECT_OPTIONS_ERROR, path: ['select_options'] },
    ),
    z.refine((question) => new Set(question.select_options?.map((option) => option.value)).size === (question.select_options?.length ?? 0), {
      message: OPTION_VALUES_ERROR,
      path: ['select_options'],
    }),
    z.refine((question) => question.prefill === null || PREFILL_TYPES[question.prefill] === question.type, {
      message: PREFILL_TYPE_ERROR,
      path: ['prefill'],
    }),
  );
export type QuestionInput = z.input<typeof questionInput>;
export type NewQuestion = z.infer<typeof questionInput>;
const questionList = z.array(questionInput).check(z.minLength(1, 'Add at least one question'), z.maxLength(30));

export const adminQuestion = z.object({
  id: z.number().check(z.int()),
  label: z.string(),
  type: z.enum(QUESTION_TYPES),
  optional: z.boolean(),
  prefill: z.nullable(z.enum(QUESTION_PREFILLS)),
  select_options: z.nullable(z.array(selectOption)),
});
export type AdminQuestion = z.infer<typeof adminQuestion>;

const templateSummaryShape = {
  id: z.number().check(z.int()),
  slug: z.string(),
  name: z.string(),
  for_alpha: z.boolean(),
  category_id: z.nullable(z.number().check(z.int())),
  /** The version new sessions get; sessions begun on an earlier one keep theirs. */
  version: z.number().check(z.int()),
  created_at: z.string(),
};
export const adminTemplateSummary = z.object(templateSummaryShape);
export type AdminTemplateSummary = z.infer<typeof adminTemplateSummary>;
/** A template with the questions of its current version, in order. */
export const adminTemplate = z.object({ ...templateSummaryShape, questions: z.array(adminQuestion) });
export type AdminTemplate = z.infer<typeof adminTemplate>;

/** GET /api/v1/admin/survey_templates: every template, by category then order. */
export const adminTemplatesResponse = z.object({ templates: z.array(adminTemplateSummary) });
export type AdminTemplatesResponse = z.infer<typeof adminTemplatesResponse>;
/** GET /api/v1/admin/survey_templates/{id}, and the answer of every change to one. */
export const adminTemplateResponse = z.object({ template: adminTemplate });
export type AdminTemplateResponse = z.infer<typeof adminTemplateResponse>;

const templateFields = {
  slug,
  name: requiredText(120),
  for_alpha: z.boolean(),
  /** Null: a template outside every category (such as the onboarding intro). */
  category_id: z.nullable(dbId),
};
/**
 * POST /api/v1/admin/survey_templates -> 201 adminTemplateResponse, last in its category. A slug already used is a
 * 409 on `slug`; an unknown category a 422 on `category_id`.
 */
export const createTemplateRequest = z.object({
  ...templateFields,
  for_alpha: z._default(z.boolean(), true),
  category_id: z._default(z.nullable(dbId), null),
  questions: questionList,
});
export type CreateTemplateRequest = z.input<typeof createTemplateRequest>;
export type NewTemplate = z.infer<typeof createTemplateRequest>;
/** PATCH /api/v1/admin/survey_templates/{id}: the fields given; a rename also renames the offerings' help requests. */
export const updateTemplateRequest = z.partial(z.object(templateFields));
export type UpdateTemplateRequest = z.infer<typeof updateTemplateRequest>;

/**
 * PUT /api/v1/admin/survey_templates/{id}/questions { questions } -> adminTemplateResponse: the whole list, in
 * order. While no session has begun on the current version it is replaced; once one has, the list becomes the next
 * version: sessions already begun keep their questions and answers, new sessions get the new list.
 */
export const replaceQuestionsRequest = z.object({ questions: questionList });
export type ReplaceQuestionsRequest = z.input<typeof replaceQuestionsRequest>;
