// Samples for `npm run flows` (scripts/flows.ts) and the model-based tests: requestCreation.machine.ts.

import type { SurveyCategory } from '../../../src/contract/surveys.ts';
import type { SurveySubmittedEvent } from '../../../src/machines/survey.machine.ts';

const SAMPLE_CATEGORY: SurveyCategory = { id: 6, name: 'Pet', image_url: '/seed/categories/pet.svg' };

/** Payloads for `npm run flows` (scripts/flows.ts). */
export const flowSamples = {
  events: [
    { type: 'OPEN_CATEGORIES', mode: 'explore', trackedAs: 'explore_categories' },
    { type: 'START_SURVEY', survey: { id: 720, name: 'Help me with my benefits' } },
    { type: 'xstate.done.actor.fetchCategories', output: [SAMPLE_CATEGORY] },
    { type: 'PICK_CATEGORY', category: SAMPLE_CATEGORY },
    { type: 'xstate.done.actor.fetchTemplates', output: [] },
    { type: 'PICK_TEMPLATE', survey: { id: 802, name: 'Book a vet appointment' } },
    { type: 'SURVEY_SUBMITTED', request: { id: 91, name: 'Book a vet appointment' } as SurveySubmittedEvent['request'] },
  ],
};
