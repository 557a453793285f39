import type { SnapshotFrom } from 'xstate';
import { type AdminTemplate, type AdminTemplateSummary, type UpdateTemplateRequest, updateTemplateRequest } from '../contract/adminCatalogue.ts';
import { listTemplates, updateTemplate } from '../services/adminSurveys.ts';
import { adminCollectionMachine } from './adminCollection.ts';
import { SURVEYS_LOAD_ERROR } from './adminSurveyCategories.machine.ts';

/** A template's details as typed: the slug is given once, when the template is created. */
export interface TemplateDetailsDraft {
  name: string;
  slug: string;
  for_alpha: boolean;
  category_id: number | null;
}

export const EMPTY_TEMPLATE_DETAILS: TemplateDetailsDraft = { name: '', slug: '', for_alpha: true, category_id: null };

/** Which templates the list shows: all, those of one category, or those outside every category. */
export type CategoryFilter = 'all' | 'none' | number;

/** The fields an existing template's details form changes (its slug stays). */
export function templateDetailsRequestOf({ name, for_alpha, category_id }: TemplateDetailsDraft): UpdateTemplateRequest {
  return { name, for_alpha, category_id };
}

function templateSummaryOf({ questions: _questions, ...summary }: AdminTemplate): AdminTemplateSummary {
  return summary;
}

/**
 * The request templates of the surveys screen (issue 13), filtered by category, with a form to edit a template's
 * details. A template is created, and its questions edited, in the question editor (adminTemplateQuestions.machine.ts).
 */
export const adminSurveyTemplatesMachine = adminCollectionMachine({
  id: 'adminSurveyTemplates',
  loadError: SURVEYS_LOAD_ERROR,
  list: listTemplates,
  order: { asListed: true },
  filter: 'all' as CategoryFilter,
  nameOf: (template: AdminTemplateSummary) => template.name,
  form: {
    draftOf: ({ name, slug, for_alpha, category_id }): TemplateDetailsDraft => ({ name, slug, for_alpha, category_id }),
    schema: () => updateTemplateRequest,
    requestOf: templateDetailsRequestOf,
    update: async (templateId, request) => templateSummaryOf(await updateTemplate(templateId, request)),
  },
});

export type AdminSurveyTemplatesSnapshot = SnapshotFrom<typeof adminSurveyTemplatesMachine>;
