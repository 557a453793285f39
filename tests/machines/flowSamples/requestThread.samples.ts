// Samples for `npm run flows` (scripts/flows.ts) and the model-based tests: requestThread.machine.ts.

import type { RequestThreadEvent, RequestThreadInput } from '../../../src/machines/requestThread.machine.ts';
import type { ClientRequest } from '../../../src/services/threadRules.ts';

const SAMPLE_REQUEST: ClientRequest = {
  id: 1,
  external_id: 'sample',
  name: 'Renew my car registration',
  status: 'open',
  issued_at: '2025-03-01T09:00:00.000Z',
  created_at: '2025-03-01T09:00:00.000Z',
  details: 'Plate number: 7ABC123',
  survey_category_name: 'Car',
  survey_category_image_url: null,
  messages: [],
};

/** Inputs and payloads for `npm run flows` (scripts/flows.ts), so that its paths go past the guarded transitions. */
export const flowSamples = {
  input: { requestId: SAMPLE_REQUEST.id, author: { fullName: 'Sample Employee', initials: 'SE' } } satisfies RequestThreadInput,
  events: [
    { type: 'xstate.done.actor.loadRequest', output: SAMPLE_REQUEST },
    { type: 'xstate.done.actor.refreshRequest', output: SAMPLE_REQUEST },
    { type: 'xstate.done.actor.sendMessage', output: SAMPLE_REQUEST },
    { type: 'DRAFT_CHANGED', text: 'Tuesday works.' },
    {
      type: 'UPLOAD_FAILED',
      uploadId: 'upload',
      failure: { kind: 'http', status: 500, statusText: 'Internal Server Error', responseText: '' },
    },
    { type: 'LIVE_STATUS', status: 'polling' },
    {
      type: 'MESSAGE_RECEIVED',
      message: {
        id: 2,
        body_html: '<p>On it!</p>',
        source: 'life_concierge',
        source_name: 'Casey',
        external_created_at: '2025-03-01T09:05:00.000Z',
        attachment_keys: [],
      },
    },
  ] satisfies (RequestThreadEvent | { type: `xstate.done.actor.${string}`; output: ClientRequest })[],
};
