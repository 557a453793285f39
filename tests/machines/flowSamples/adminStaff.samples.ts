// Samples for `npm run flows` (scripts/flows.ts): adminStaff.machine.ts.

import type { AdminAccount } from '../../../src/contract/admin.ts';
import type { AdminStaffEvent } from '../../../src/machines/adminStaff.machine.ts';

const SAMPLE_ACCOUNT: AdminAccount = {
  id: 1,
  email: 'sample.concierge@example.com',
  first_name: 'Sample',
  last_name: 'Concierge',
  full_name: 'Sample Concierge',
  role: 'concierge',
  active: true,
  deactivated_at: null,
  created_at: '2026-01-05T09:00:00.000Z',
};

/**
 * Payloads for the traversal, so that its paths go past the list to a role change and a confirmation. (It tells
 * states apart by value only, so the invitation is only ever tried empty: the model test walks sending it.)
 */
export const flowSamples = {
  events: [
    { type: 'xstate.done.actor.listStaff', output: [SAMPLE_ACCOUNT] },
    { type: 'CHANGE_ROLE', accountId: SAMPLE_ACCOUNT.id, role: 'admin' },
    { type: 'TOGGLE_ACTIVE', accountId: SAMPLE_ACCOUNT.id },
    { type: 'xstate.done.actor.changeRole', output: { ...SAMPLE_ACCOUNT, role: 'admin' } },
    { type: 'xstate.done.actor.setAccountActive', output: { ...SAMPLE_ACCOUNT, active: false } },
  ] satisfies (AdminStaffEvent | { type: `xstate.done.actor.${string}`; output: AdminAccount | AdminAccount[] })[],
};
