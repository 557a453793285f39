// Samples for `npm run flows` (scripts/flows.ts): adminOfferings.machine.ts.

import type { AdminOffering } from '../../../src/contract/adminCatalogue.ts';
import type { EventFrom } from 'xstate';
import type { OpenedForm, adminOfferingsMachine } from '../../../src/machines/adminOfferings.machine.ts';

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
const SAMPLE_FORM: OpenedForm = { item: SAMPLE_OFFERING, choices: { categories: [], companies: [], templates: [] } };

/**
 * Payloads for the traversal, so that its paths go past the list to the form and the changes made from the list.
 * (It tells states apart by value only: the model test walks the sections editor and saving.)
 */
export const flowSamples = {
  events: [
    { type: 'xstate.done.actor.list', output: [SAMPLE_OFFERING] },
    { type: 'EDIT', itemId: SAMPLE_OFFERING.id },
    { type: 'SET', itemId: SAMPLE_OFFERING.id, setting: { field: 'published', value: true } },
    { type: 'EDIT_DRAFT', edit: { kind: 'changeSection', section: 0, changes: { heading: 'About it' } } },
    { type: 'xstate.done.actor.open', output: SAMPLE_FORM },
    { type: 'xstate.done.actor.save', output: SAMPLE_OFFERING },
    { type: 'xstate.done.actor.change', output: { ...SAMPLE_OFFERING, published: true } },
  ] satisfies (EventFrom<typeof adminOfferingsMachine> | { type: `xstate.done.actor.${string}`; output: AdminOffering | AdminOffering[] | OpenedForm })[],
};
