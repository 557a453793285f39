// Samples for `npm run flows` (scripts/flows.ts): adminOfferings.machine.ts.

import type { AdminOffering } from '../../../src/contract/adminCatalogue.ts';
import type { AdminOfferingsEvent, OpenedForm } from '../../../src/machines/adminOfferings.machine.ts';

const SAMPLE_OFFERING: AdminOffering = {
  id: 1,
  slug: 'sample-benefit',
  type: 'benefit',
  provider_name: 'Sample Provider',
  provider_logo_url: '/seed/acme.svg',
  heading: 'Sample benefit',
  subheading: 'What it gives',
  name: 'Sample benefit plan',
  featured: false,
  published: false,
  position: 0,
  category_ids: [],
  company_ids: [1],
  help: null,
  created_at: '2026-01-05T09:00:00.000Z',
  sections: [{ id: 1, section_type: 'text', heading: 'About', items: [{ value: 'What it is.' }], cta_text: null, cta_url: null }],
};
const SAMPLE_FORM: OpenedForm = { offering: SAMPLE_OFFERING, categories: [], companies: [], templates: [] };

/**
 * Payloads for the traversal, so that its paths go past the list to the form and the changes made from the list.
 * (It tells states apart by value only: the model test walks the sections editor and saving.)
 */
export const flowSamples = {
  events: [
    { type: 'xstate.done.actor.listOfferings', output: [SAMPLE_OFFERING] },
    { type: 'EDIT', offeringId: SAMPLE_OFFERING.id },
    { type: 'SET_PUBLISHED', offeringId: SAMPLE_OFFERING.id, published: true },
    { type: 'CHANGE_SECTION', section: 0, changes: { heading: 'About it' } },
    { type: 'CHANGE_ITEM', section: 0, item: 0, changes: { value: 'What it is, and for whom.' } },
    { type: 'xstate.done.actor.openForm', output: SAMPLE_FORM },
    { type: 'xstate.done.actor.saveOffering', output: SAMPLE_OFFERING },
    { type: 'xstate.done.actor.changeListing', output: { ...SAMPLE_OFFERING, published: true } },
  ] satisfies (AdminOfferingsEvent | { type: `xstate.done.actor.${string}`; output: AdminOffering | AdminOffering[] | OpenedForm })[],
};
