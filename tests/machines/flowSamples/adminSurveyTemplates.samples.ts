// Samples for `npm run flows` (scripts/flows.ts): adminSurveyTemplates.machine.ts.

import type { EventFrom } from 'xstate';
import type { AdminTemplateSummary } from '../../../src/contract/adminCatalogue.ts';
import type { adminSurveyTemplatesMachine } from '../../../src/machines/adminSurveyTemplates.machine.ts';

const SAMPLE_TEMPLATE: AdminTemplateSummary = {
  id: 10,
  slug: 'sample-request',
  name: 'Sample request',
  for_alpha: true,
  category_id: 1,
  version: 1,
  created_at: '2026-01-05T09:00:00.000Z',
};

/** Payloads for the traversal, so that its paths go past the list to the form (the model test walks saving). */
export const flowSamples = {
  events: [
    { type: 'xstate.done.actor.list', output: [SAMPLE_TEMPLATE] },
    { type: 'EDIT', itemId: SAMPLE_TEMPLATE.id },
    { type: 'FILTER', filter: 1 },
    { type: 'xstate.done.actor.save', output: SAMPLE_TEMPLATE },
  ] satisfies (EventFrom<typeof adminSurveyTemplatesMachine> | { type: `xstate.done.actor.${string}`; output: AdminTemplateSummary | AdminTemplateSummary[] })[],
};
