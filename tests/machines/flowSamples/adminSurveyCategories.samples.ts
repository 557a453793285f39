// Samples for `npm run flows` (scripts/flows.ts): adminSurveyCategories.machine.ts.

import type { EventFrom } from 'xstate';
import type { AdminSurveyCategory } from '../../../src/contract/adminCatalogue.ts';
import type { adminSurveyCategoriesMachine } from '../../../src/machines/adminSurveyCategories.machine.ts';

const SAMPLE_CATEGORY: AdminSurveyCategory = {
  id: 1,
  slug: 'sample',
  name: 'Sample',
  image_url: '/images/categories/wildcard.svg',
  image_upload_key: null,
  template_count: 1,
};

/** Payloads for the traversal, so that its paths go past the list to the form (the model test walks saving). */
export const flowSamples = {
  events: [
    { type: 'xstate.done.actor.list', output: [SAMPLE_CATEGORY] },
    { type: 'EDIT', itemId: SAMPLE_CATEGORY.id },
    { type: 'xstate.done.actor.save', output: SAMPLE_CATEGORY },
  ] satisfies (EventFrom<typeof adminSurveyCategoriesMachine> | { type: `xstate.done.actor.${string}`; output: AdminSurveyCategory | AdminSurveyCategory[] })[],
};
