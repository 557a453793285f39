// Samples for `npm run flows` (scripts/flows.ts): adminStaff.machine.ts.

import type { AdminAccount } from '../../../src/contract/admin.ts';
import type { EventFrom } from 'xstate';
import type { adminStaffMachine } from '../../../src/machines/adminStaff.machine.ts';

const SAMPLE_ACCOUNT: AdminAccount = {
  id: 1,
  email: 'sample.concierge@example.com',
  first_name: 'Sample',
  last_name: 'Concierge',
  full_name: 'Sample Concierge',
  role: 'concierge',
  active: true,
  invited: false,
  employer_company_name: null,
  deactivated_at: null,
  created_at: '2026-01-05T09:00:00.000Z',
};

/**
 * Payloads for the traversal, so that its paths go past the list to a role change and a confirmation. (It tells
 * states apart by value only, so the invitation is only ever tried empty: the model test walks sending it.)
 */
export const flowSamples = {
  events: [
    { type: 'xstate.done.actor.list', output: [SAMPLE_ACCOUNT] },
    { type: 'SET', itemId: SAMPLE_ACCOUNT.id, setting: { field: 'role', value: 'admin' } },
    { type: 'SET', itemId: SAMPLE_ACCOUNT.id, setting: { field: 'active', value: false } },
    { type: 'xstate.done.actor.change', output: { ...SAMPLE_ACCOUNT, role: 'admin' } },
  ] satisfies (EventFrom<typeof adminStaffMachine> | { type: `xstate.done.actor.${string}`; output: AdminAccount | AdminAccount[] })[],
};
