import {
  type AdminSurveyCategory,
  type AdminTemplate,
  type AdminTemplateSummary,
  type CreateSurveyCategoryRequest,
  type CreateTemplateRequest,
  type ReplaceQuestionsRequest,
  type UpdateSurveyCategoryRequest,
  type UpdateTemplateRequest,
  adminSurveyCategoriesResponse,
  adminSurveyCategoryResponse,
  adminTemplateResponse,
  adminTemplatesResponse,
} from '../contract/adminCatalogue.ts';
import { api } from './http.ts';

/**
 * Survey categories and request templates in the console's admin area (src/contract/adminCatalogue.ts describes
 * each route). A failure is ky's HTTPError, whose fields (fieldErrorsOf) name the inputs at fault (422 bad input, 409 a slug
 * already used), e.g. `questions.1.select_options`.
 */

const categoryPath = (categoryId: number) => `admin/survey_categories/${categoryId}`;
const templatePath = (templateId: number, action = '') => `admin/survey_templates/${templateId}${action}`;

/** Every survey category, in the app's order, with its template count. */
export async function listSurveyCategories(): Promise<AdminSurveyCategory[]> {
  const client = await api();
  return (await client.get('admin/survey_categories').json(adminSurveyCategoriesResponse)).categories;
}

/** A new category, with an image the admin uploaded (POST /api/v1/uploads/presigned_url without a request). */
export async function createSurveyCategory(category: CreateSurveyCategoryRequest): Promise<AdminSurveyCategory> {
  const client = await api();
  return (await client.post('admin/survey_categories', { json: category }).json(adminSurveyCategoryResponse)).category;
}

export async function updateSurveyCategory(categoryId: number, changes: UpdateSurveyCategoryRequest): Promise<AdminSurveyCategory> {
  const client = await api();
  return (await client.patch(categoryPath(categoryId), { json: changes }).json(adminSurveyCategoryResponse)).category;
}

/** Every request template, by category then order, without its questions. */
export async function listTemplates(): Promise<AdminTemplateSummary[]> {
  const client = await api();
  return (await client.get('admin/survey_templates').json(adminTemplatesResponse)).templates;
}

/** A template with the questions of its current version. */
export async function fetchTemplate(templateId: number): Promise<AdminTemplate> {
  const client = await api();
  return (await client.get(templatePath(templateId)).json(adminTemplateResponse)).template;
}

/** A new template with its questions, last in its category. */
export async function createTemplate(template: CreateTemplateRequest): Promise<AdminTemplate> {
  const client = await api();
  return (await client.post('admin/survey_templates', { json: template }).json(adminTemplateResponse)).template;
}

/** Changes the fields given (name, slug, for_alpha, category_id). */
export async function updateTemplate(templateId: number, changes: UpdateTemplateRequest): Promise<AdminTemplate> {
  const client = await api();
  return (await client.patch(templatePath(templateId), { json: changes }).json(adminTemplateResponse)).template;
}

/**
 * Replaces the whole list of questions. Once an employee has begun the current version, the list becomes the next
 * version (the answer's `version` says which): begun sessions keep theirs.
 */
export async function replaceQuestions(templateId: number, request: ReplaceQuestionsRequest): Promise<AdminTemplate> {
  const client = await api();
  const answer = client.put(templatePath(templateId, '/questions'), { json: request });
  return (await answer.json(adminTemplateResponse)).template;
}
