// Samples for `npm run flows` (scripts/flows.ts): adminOfferingCategories.machine.ts.

import type { AdminOfferingCategory } from '../../../src/contract/adminCatalogue.ts';
import type { EventFrom } from 'xstate';
import type { adminOfferingCategoriesMachine } from '../../../src/machines/adminOfferingCategories.machine.ts';

const category = (id: number, name: string, position: number): AdminOfferingCategory => ({
  id,
  external_id: name.toLowerCase(),
  name,
  image_url: `/seed/offerings/categories/${name.toLowerCase()}.svg`,
  image_upload_key: null,
  position,
  offering_count: 2,
});
const HEALTH = category(1, 'Health', 0);
const FAMILY = category(2, 'Family', 1);

/** Payloads for the traversal, so that its paths go past the list to the form and a move. */
export const flowSamples = {
  events: [
    { type: 'xstate.done.actor.list', output: [HEALTH, FAMILY] },
    { type: 'EDIT', itemId: HEALTH.id },
    { type: 'MOVE', itemId: FAMILY.id, by: -1 },
    { type: 'xstate.done.actor.save', output: HEALTH },
    { type: 'xstate.done.actor.change', output: { ...FAMILY, position: 0 } },
  ] satisfies (EventFrom<typeof adminOfferingCategoriesMachine> | { type: `xstate.done.actor.${string}`; output: AdminOfferingCategory | AdminOfferingCategory[] })[],
};
