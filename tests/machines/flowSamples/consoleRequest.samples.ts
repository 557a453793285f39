// Samples for `npm run flows` (scripts/flows.ts) and the model-based tests: consoleRequest.machine.ts.

import type { ConsoleRequest } from '../../../src/contract/console.ts';
import type { ConsoleRequestEvent, ConsoleRequestInput } from '../../../src/machines/consoleRequest.machine.ts';
import { SAMPLE_REQUEST as QUEUED_REQUEST } from './consoleQueue.samples.ts';

const SAMPLE_REQUEST: ConsoleRequest = {
  ...QUEUED_REQUEST,
  created_at: QUEUED_REQUEST.issued_at,
  details: 'Plate number: 7ABC123',
  survey_category_image_url: null,
  employee: { ...QUEUED_REQUEST.employee, external_id: 'sample-employee', companies: [] },
  unread_count: 0,
  last_message_at: null,
  survey_answers: [],
  thread: [],
};

/** Inputs and payloads for `npm run flows` (scripts/flows.ts), so that its paths go past the calls and guards. */
export const flowSamples = {
  input: { requestId: SAMPLE_REQUEST.id } satisfies ConsoleRequestInput,
  events: [
    { type: 'xstate.done.actor.openRequest', output: { request: SAMPLE_REQUEST, staff: [] } },
    ...(['claim', 'assign', 'changeStatus', 'send', 'refresh'] as const).map((id) => ({
      type: `xstate.done.actor.${id}` as const,
      output: SAMPLE_REQUEST,
    })),
    { type: 'xstate.done.actor.preview', output: '<p>On it!</p>' },
    { type: 'ASSIGN', assigneeId: 3 },
    { type: 'CHANGE_STATUS', status: 'in_progress' },
    { type: 'SELECT_COMPOSER', composer: 'note' },
    { type: 'EDIT', text: 'On it!' },
    { type: 'LIVE_EVENT', event: { type: 'note.created', request_id: SAMPLE_REQUEST.id, note_id: 1 } },
  ] satisfies (ConsoleRequestEvent | { type: `xstate.done.actor.${string}`; output: unknown })[],
};
