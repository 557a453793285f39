// Samples for `npm run flows` (scripts/flows.ts): adminTemplateQuestions.machine.ts.

import type { AdminTemplate } from '../../../src/contract/adminCatalogue.ts';
import type { RecordPageInput } from '../../../src/machines/adminCollection.ts';

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

/** An opened template, so that the paths reach saving and the preview (whose draft is then valid). */
export const flowSamples = {
  input: { itemId: SAMPLE_TEMPLATE.id } satisfies RecordPageInput,
  events: [
    { type: 'xstate.done.actor.open', output: { item: SAMPLE_TEMPLATE, choices: [] } },
    { type: 'CHANGE', changes: { name: 'Sample request, renamed' } },
    { type: 'EDIT_DRAFT', edit: { kind: 'changeQuestion', question: 0, changes: { label: 'What else?' } } },
    { type: 'xstate.done.actor.save', output: { ...SAMPLE_TEMPLATE, version: 2 } },
  ],
};
