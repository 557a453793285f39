// Samples for `npm run flows` (scripts/flows.ts): adminCompanies.machine.ts.

import type { AdminCompany } from '../../../src/contract/admin.ts';
import type { EventFrom } from 'xstate';
import type { adminCompaniesMachine } from '../../../src/machines/adminCompanies.machine.ts';

const SAMPLE_COMPANY: AdminCompany = {
  id: 1,
  name: 'Sample Company',
  slug: 'sample-company',
  image_url: null,
  logo_upload_key: null,
  mfa_policy: 'off',
  email_domains: ['sample.test'],
  internal_staff: false,
  active: true,
  deactivated_at: null,
  employee_count: 4,
  created_at: '2026-01-05T09:00:00.000Z',
};

/**
 * Payloads for the traversal, so that its paths go past the list to the form and the confirmation. (It tells states
 * apart by value only, so the form is only ever tried empty: the model test walks saving.)
 */
export const flowSamples = {
  events: [
    { type: 'xstate.done.actor.list', output: [SAMPLE_COMPANY] },
    { type: 'EDIT', itemId: SAMPLE_COMPANY.id },
    { type: 'SET', itemId: SAMPLE_COMPANY.id, setting: { field: 'active', value: false } },
    { type: 'xstate.done.actor.save', output: SAMPLE_COMPANY },
    { type: 'xstate.done.actor.change', output: { ...SAMPLE_COMPANY, active: false } },
  ] satisfies (EventFrom<typeof adminCompaniesMachine> | { type: `xstate.done.actor.${string}`; output: AdminCompany | AdminCompany[] })[],
};
