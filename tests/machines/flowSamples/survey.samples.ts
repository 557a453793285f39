// Samples for `npm run flows` (scripts/flows.ts) and the model-based tests: survey.machine.ts.

import type { NextScreenItem, SubmittedRequest } from '../../../src/contract/surveys.ts';
import type { SurveyInput } from '../../../src/machines/survey.machine.ts';

const SAMPLE_QUESTION: NextScreenItem = {
  id: 1,
  question: { id: 1, label: 'What can we take off your plate?', type: 'TextInput', optional: true },
  universal_answer: null,
  optional: true,
  last_question: false,
};

/** Payloads for `npm run flows` (scripts/flows.ts): one question, answered, edited and submitted. */
export const flowSamples = {
  input: { survey: { id: 1001, name: 'Anything else' }, firstRequest: true } satisfies SurveyInput,
  events: [
    { type: 'xstate.done.actor.beginSurvey', output: 41 },
    { type: 'xstate.done.actor.fetchNextItem', output: SAMPLE_QUESTION },
    { type: 'xstate.done.actor.fetchNextItem', output: null },
    { type: 'CHANGE', value: 'Renew my car registration' },
    // The question's upload, and the upload of an edited answer.
    ...(['upload', 'editUpload'] as const).flatMap((uploadId) => [
      { type: 'UPLOADED' as const, uploadId, key: 'uploads/8f14e45f', fileName: 'photo.png' },
      { type: 'UPLOAD_CLEARED' as const, uploadId },
    ]),
    { type: 'xstate.done.actor.postAnswer', output: { id: 901, object_satisfied_id: 1, value: 'Renew my car registration' } },
    { type: 'EDIT', questionId: 1 },
    { type: 'CHANGE_EDIT', value: 'Renew my passport' },
    { type: 'xstate.done.actor.saveEdit', output: { id: 901, object_satisfied_id: 1, value: 'Renew my passport' } },
    {
      type: 'xstate.done.actor.submitSurvey',
      output: {
        id: 77,
        external_id: 'REQ-77',
        name: 'Anything else',
        status: 'open',
        issued_at: '2026-01-01T10:00:00.000Z',
        created_at: '2026-01-01T10:00:00.000Z',
        details: 'What can we take off your plate?: Renew my passport',
        survey_category_name: 'Wildcard',
        survey_category_image_url: null,
      } satisfies SubmittedRequest,
    },
  ],
};
