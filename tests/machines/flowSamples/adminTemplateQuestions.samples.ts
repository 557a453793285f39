// Samples for `npm run flows` (scripts/flows.ts): adminTemplateQuestions.machine.ts.

import type { AdminTemplate } from '../../../src/contract/adminCatalogue.ts';
import type { AdminTemplateQuestionsInput, LoadedEditor } from '../../../src/machines/adminTemplateQuestions.machine.ts';

const SAMPLE_TEMPLATE: AdminTemplate = {
  id: 10,
  slug: 'sample-request',
  name: 'Sample request',
  for_alpha: true,
  category_id: null,
  version: 1,
  created_at: '2026-01-05T09:00:00.000Z',
  questions: [{ id: 100, label: 'What can we do?', type: 'TextInput', optional: false, prefill: null, select_options: null }],
};

/** A loaded template, so that the paths reach saving and the preview (whose draft is then valid). */
export const flowSamples = {
  input: { templateId: SAMPLE_TEMPLATE.id } satisfies AdminTemplateQuestionsInput,
  events: [
    { type: 'xstate.done.actor.loadEditor', output: { template: SAMPLE_TEMPLATE, categories: [] } satisfies LoadedEditor },
    { type: 'xstate.done.actor.saveQuestions', output: { ...SAMPLE_TEMPLATE, version: 2 } },
  ],
};
