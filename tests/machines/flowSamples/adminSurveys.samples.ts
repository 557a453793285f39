// Samples for `npm run flows` (scripts/flows.ts): adminSurveys.machine.ts.

import type { AdminSurveyCategory, AdminTemplate } from '../../../src/contract/adminCatalogue.ts';
import type { AdminSurveysEvent, SurveysCatalogue } from '../../../src/machines/adminSurveys.machine.ts';

const SAMPLE_CATEGORY: AdminSurveyCategory = {
  id: 1,
  slug: 'sample',
  name: 'Sample',
  image_url: '/images/categories/wildcard.svg',
  image_upload_key: null,
  template_count: 1,
};
const SAMPLE_TEMPLATE: AdminTemplate = {
  id: 10,
  slug: 'sample-request',
  name: 'Sample request',
  for_alpha: true,
  category_id: SAMPLE_CATEGORY.id,
  version: 1,
  created_at: '2026-01-05T09:00:00.000Z',
  questions: [],
};
const CATALOGUE: SurveysCatalogue = { categories: [SAMPLE_CATEGORY], templates: [SAMPLE_TEMPLATE] };

/** Payloads for the traversal, so that its paths go past the lists to the forms (the model test walks saving). */
export const flowSamples = {
  events: [
    { type: 'xstate.done.actor.loadSurveys', output: CATALOGUE },
    { type: 'EDIT_CATEGORY', categoryId: SAMPLE_CATEGORY.id },
    { type: 'EDIT_TEMPLATE', templateId: SAMPLE_TEMPLATE.id },
    { type: 'xstate.done.actor.saveCategory', output: SAMPLE_CATEGORY },
    { type: 'xstate.done.actor.saveTemplate', output: SAMPLE_TEMPLATE },
  ] satisfies (AdminSurveysEvent | { type: `xstate.done.actor.${string}`; output: unknown })[],
};
