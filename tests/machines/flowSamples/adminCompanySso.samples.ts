// Samples for `npm run flows` (scripts/flows.ts): adminCompanySso.machine.ts.

import type { RecordPageInput } from '../../../src/machines/adminCollection.ts';
import type { CompanySso } from '../../../src/machines/adminCompanySso.machine.ts';

const SAMPLE: CompanySso = { id: 7, company_name: 'Sample Inc', company_domains: ['sample.test'], sso: null, redirect_uri: 'http://localhost:3000/api/v1/sso/callback' };

/** A company without SSO yet, so that the paths reach the form and its save. */
export const flowSamples = {
  input: { itemId: SAMPLE.id } satisfies RecordPageInput,
  events: [
    { type: 'xstate.done.actor.open', output: { item: SAMPLE, choices: null } },
    { type: 'CHANGE', changes: { issuer: 'https://sample.okta.test' } },
    { type: 'xstate.done.actor.save', output: SAMPLE },
  ],
};
